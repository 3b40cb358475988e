package io.posekit.ik;

import io.posekit.rig.Rig;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.Pose;
import java.util.List;

/**
 * Foot locking for a baked sequence of frames: each foot is pinned where it plants, so a retargeted or blended clip
 * stops sliding. Planned over the whole sequence first (detection needs the neighbours of every frame), then applied
 * frame by frame with two-bone IK on each leg (hip, knee, ankle).
 *
 * <p>Detection, per leg and frame, from the ankle's model-space position {@code p(f)} as sampled: the foot is planted
 * when its height is within {@code height} of the lowest ankle height of the sequence (all legs) and its speed
 * {@code |p(f+1) − p(f−1)| / |t(f+1) − t(f−1)|} (one-sided at the ends) is at most {@code speed}. Defaults: 0.1 and
 * 0.5 per second times the leg's rest length (hip→knee + knee→ankle). A run of planted frames pins the ankle at its
 * position on the run's first frame, while the leg can reach it: on a planted frame where the pinned point is
 * further from the hip than {@value #MAX_REACH} of the leg's length (or nearer than the difference of its bones), the
 * lock starts again there (the foot re-plants where it is). After a run the target eases back to the sampled position
 * over {@code release} seconds (linearly), so the foot does not pop. The IK bends the leg in the plane of its present bend
 * (the pole is the knee's side), so the knee keeps pointing where it did.
 *
 * <p>Immutable after {@link #plan}; {@link #apply} uses the caller's solver.
 */
public final class FootLock {

    /** The default planted height, in leg lengths above the lowest ankle. */
    public static final double DEFAULT_HEIGHT = 0.1;
    /** The default planted speed, in leg lengths per second. */
    public static final double DEFAULT_SPEED = 0.5;
    /** The default release time, seconds. */
    public static final double DEFAULT_RELEASE = 0.1;
    /** The largest hip→target distance a lock holds, as a fraction of the leg's length (hip→knee + knee→ankle). */
    public static final double MAX_REACH = 0.9999;

    /**
     * A leg: the joints of its two-bone chain.
     *
     * @param hip the upper leg joint
     * @param knee the lower leg joint, below {@code hip}
     * @param ankle the foot joint, below {@code knee}
     */
    public record Leg(int hip, int knee, int ankle) {
    }

    /**
     * Detection settings; {@code null} for the defaults.
     *
     * @param height planted when the ankle is at most this far above the lowest ankle height, model units
     * @param speed planted when the ankle moves at most this fast, model units per second
     * @param release seconds over which a released foot eases back to its sampled position
     */
    public record Settings(Double height, Double speed, Double release) {
    }

    private final List<Leg> legs;
    private final boolean[][] planted;
    private final int[][] lockedAt;
    private final double[][] targets;
    private final double[] heights;
    private final double[] speeds;

    private FootLock(List<Leg> legs, boolean[][] planted, int[][] lockedAt, double[][] targets, double[] heights,
            double[] speeds) {
        this.legs = legs;
        this.planted = planted;
        this.lockedAt = lockedAt;
        this.targets = targets;
        this.heights = heights;
        this.speeds = speeds;
    }

    /**
     * Plans the locking of {@code legs} over frames at playback times {@code times} (seconds).
     *
     * @param hips per leg, the hip's model-space position at every frame (3 per frame)
     * @param ankles per leg, the ankle's model-space position at every frame (3 per frame)
     * @throws IllegalArgumentException for a leg whose joints are not in one line of descent, or a negative setting
     */
    public static FootLock plan(Rig rig, List<Leg> legs, double[] times, double[][] hips, double[][] ankles,
            Settings settings) {
        float[] rest = Pose.evaluate(rig, null, 0).modelMatrices();
        int frames = times.length;
        double ground = Double.POSITIVE_INFINITY;
        for (double[] a : ankles) {
            for (int f = 0; f < frames; f++) {
                ground = Math.min(ground, a[3 * f + 1]);
            }
        }
        double release = setting(settings.release(), DEFAULT_RELEASE, "release");
        boolean[][] planted = new boolean[legs.size()][frames];
        int[][] lockedAt = new int[legs.size()][frames];
        double[][] targets = new double[legs.size()][];
        double[] heights = new double[legs.size()];
        double[] speeds = new double[legs.size()];
        for (int l = 0; l < legs.size(); l++) {
            Leg leg = legs.get(l);
            new IkChain.TwoBone(leg.hip(), leg.knee(), leg.ankle(), new double[3], null, null, 1, 1, 0).validate(rig);
            double upper = distance(rest, leg.hip(), leg.knee());
            double lower = distance(rest, leg.knee(), leg.ankle());
            double length = upper + lower;
            heights[l] = setting(settings.height(), DEFAULT_HEIGHT * length, "height");
            speeds[l] = setting(settings.speed(), DEFAULT_SPEED * length, "speed");
            double[] p = ankles[l];
            for (int f = 0; f < frames; f++) {
                planted[l][f] = p[3 * f + 1] <= ground + heights[l] && speed(p, times, f) <= speeds[l];
            }
            targets[l] = targets(p, hips[l], times, planted[l], lockedAt[l], release, MAX_REACH * length,
                    Math.abs(upper - lower));
        }
        return new FootLock(List.copyOf(legs), planted, lockedAt, targets, heights, speeds);
    }

    /**
     * Per frame: the lock target (3 doubles) or NaN where the leg is free; {@code lockedAt} gets the frame each planted
     * frame's lock started on (-1 where free).
     */
    private static double[] targets(double[] p, double[] hip, double[] times, boolean[] planted, int[] lockedAt,
            double release, double reach, double fold) {
        int frames = times.length;
        double[] out = new double[3 * frames];
        java.util.Arrays.fill(out, Double.NaN);
        java.util.Arrays.fill(lockedAt, -1);
        double[] lock = null;
        int start = -1;
        double releasedAt = Double.NaN;
        for (int f = 0; f < frames; f++) {
            if (planted[f]) {
                if (f == 0 || !planted[f - 1] || !reachable(lock, hip, f, reach, fold)) {
                    lock = new double[] {p[3 * f], p[3 * f + 1], p[3 * f + 2]};
                    start = f;
                }
                lockedAt[f] = start;
                System.arraycopy(lock, 0, out, 3 * f, 3);
                releasedAt = times[f];
            } else if (lock != null && Math.abs(times[f] - releasedAt) < release) {
                double s = Math.abs(times[f] - releasedAt) / release;
                for (int k = 0; k < 3; k++) {
                    out[3 * f + k] = lock[k] + s * (p[3 * f + k] - lock[k]);
                }
            }
        }
        return out;
    }

    private static boolean reachable(double[] lock, double[] hip, int f, double reach, double fold) {
        double dx = lock[0] - hip[3 * f];
        double dy = lock[1] - hip[3 * f + 1];
        double dz = lock[2] - hip[3 * f + 2];
        double d = Math.sqrt(dx * dx + dy * dy + dz * dz);
        return d <= reach && d >= fold;
    }

    private static double speed(double[] p, double[] times, int f) {
        int a = Math.max(0, f - 1);
        int b = Math.min(times.length - 1, f + 1);
        double dt = Math.abs(times[b] - times[a]);
        if (a == b || dt == 0) {
            return 0;
        }
        double dx = p[3 * b] - p[3 * a];
        double dy = p[3 * b + 1] - p[3 * a + 1];
        double dz = p[3 * b + 2] - p[3 * a + 2];
        return Math.sqrt(dx * dx + dy * dy + dz * dz) / dt;
    }

    private static double distance(float[] m, int a, int b) {
        double dx = m[16 * a + 12] - m[16 * b + 12];
        double dy = m[16 * a + 13] - m[16 * b + 13];
        double dz = m[16 * a + 14] - m[16 * b + 14];
        return Math.sqrt(dx * dx + dy * dy + dz * dz);
    }

    private static double setting(Double value, double otherwise, String what) {
        if (value == null) {
            return otherwise;
        }
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("footLock." + what + " must be a finite number ≥ 0, not " + value);
        }
        return value;
    }

    /** The legs. */
    public List<Leg> legs() {
        return legs;
    }

    /** Whether leg {@code leg} is planted at frame {@code frame}. */
    public boolean planted(int leg, int frame) {
        return planted[leg][frame];
    }

    /**
     * The frame on which the lock holding leg {@code leg} at frame {@code frame} started, or -1 where the leg is free:
     * consecutive frames with the same value hold the foot at one point.
     */
    public int lockedAt(int leg, int frame) {
        return lockedAt[leg][frame];
    }

    /** The planted height threshold of leg {@code leg} in use, model units. */
    public double height(int leg) {
        return heights[leg];
    }

    /** The planted speed threshold of leg {@code leg} in use, model units per second. */
    public double speed(int leg) {
        return speeds[leg];
    }

    /**
     * Pins the feet of frame {@code frame}: two-bone IK on every leg that is planted or being released, toward its
     * target; keeps {@code modelMatrices} up to date.
     */
    public void apply(int frame, IkSolver solver, LocalPose local, float[] modelMatrices) {
        for (int l = 0; l < legs.size(); l++) {
            double[] t = targets[l];
            if (Double.isNaN(t[3 * frame])) {
                continue;
            }
            Leg leg = legs.get(l);
            solver.solve(new IkChain.TwoBone(leg.hip(), leg.knee(), leg.ankle(), new double[] {t[3 * frame],
                t[3 * frame + 1], t[3 * frame + 2]}, null, null, 1, 1, 0), local, modelMatrices);
        }
    }
}
