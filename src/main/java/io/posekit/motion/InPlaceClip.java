package io.posekit.motion;

import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.rig.Rig;
import io.posekit.sampling.Pose;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A clip made in place the way games import one: the root joint's extracted motion removed from it, and that motion
 * put on the rig's top node (the root joint's topmost ancestor, a scene root: an armature or character node) as a track
 * of its own, so the hips stay in place under a node that carries the character forward.
 *
 * <p>At every sample time {@code t}: the root joint's new local transform is {@code P⁻¹ · D⁻¹ · P · L}
 * ({@link RootMotionExtractor}) and the top node's is {@code D · L_top}; the model matrix of the root joint and of
 * every node below it is then the same as the original clip's (the top node's motion composed with the pose in place),
 * so sampling the new clip moves the skeleton as the original did (the top node and its other children move with the
 * motion, as a game's character does), and leaving the top node's track out gives the pose in place.
 * Both nodes get linear translation and rotation tracks sampled on a grid of {@code fps} per second plus every key time
 * of the tracks between the top node and the root (their scale keeps its own track, or is sampled when a curve drives
 * it); every other track is copied as it is.
 *
 * <p>Stateless.
 */
public final class InPlaceClip {

    /** The most keys the sampled tracks may have. */
    public static final int MAX_KEYS = 200_000;

    private InPlaceClip() {
    }

    /**
     * The result.
     *
     * @param clip the new clip
     * @param top the node now carrying the motion
     * @param keys the keys sampled per track
     */
    public record Result(Clip clip, int top, int keys) {
    }

    /**
     * Makes {@code clip} in place.
     *
     * @param joint the root joint (its motion is extracted)
     * @param fps samples per second between the keys (> 0)
     * @param name the new clip's name
     * @throws IllegalArgumentException when the root joint has no ancestor to carry the motion, fps is not positive, or
     *     there would be more than {@link #MAX_KEYS} keys
     */
    public static Result make(Rig rig, Clip clip, int joint, Set<RootMotionComponent> components, double fps,
            String name) {
        int top = joint;
        while (rig.parent(top) >= 0) {
            top = rig.parent(top);
        }
        if (top == joint) {
            throw new IllegalArgumentException("the root joint '" + rig.name(joint) + "' is a scene root: no node above"
                    + " it can carry the motion");
        }
        if (!(fps > 0) || Double.isInfinite(fps)) {
            throw new IllegalArgumentException("fps must be a positive number, not " + fps);
        }
        double[] times = times(rig, clip, joint, top, fps);
        int n = times.length;
        ClipRootMotion motion = ClipRootMotion.of(rig, clip, joint, components);
        float[] rootT = new float[3 * n];
        float[] rootR = new float[4 * n];
        float[] rootS = new float[3 * n];
        float[] topT = new float[3 * n];
        float[] topR = new float[4 * n];
        float[] topS = new float[3 * n];
        RigidMotion d = new RigidMotion();
        org.joml.Quaterniond q = new org.joml.Quaterniond();
        org.joml.Vector3d v = new org.joml.Vector3d();
        for (int k = 0; k < n; k++) {
            Pose pose = Pose.evaluate(rig, clip, times[k]);
            float[] t = pose.local().translations();
            float[] r = pose.local().rotations();
            float[] s = pose.local().scales();
            motion.extractor().extract(pose.local(), pose.modelMatrices(), d);
            System.arraycopy(t, 3 * joint, rootT, 3 * k, 3);
            System.arraycopy(r, 4 * joint, rootR, 4 * k, 4);
            System.arraycopy(s, 3 * joint, rootS, 3 * k, 3);
            // the top node is a root: its local is model space, so D goes on its left
            d.rotation.transform(v.set(t[3 * top], t[3 * top + 1], t[3 * top + 2])).add(d.translation);
            topT[3 * k] = (float) v.x;
            topT[3 * k + 1] = (float) v.y;
            topT[3 * k + 2] = (float) v.z;
            q.set(d.rotation).mul(r[4 * top], r[4 * top + 1], r[4 * top + 2], r[4 * top + 3]).normalize();
            if (k > 0 && q.dot(new org.joml.Quaterniond(topR[4 * k - 4], topR[4 * k - 3], topR[4 * k - 2],
                    topR[4 * k - 1])) < 0) {
                q.set(-q.x, -q.y, -q.z, -q.w); // the same hemisphere as the previous key: slerp the short way
            }
            topR[4 * k] = (float) q.x;
            topR[4 * k + 1] = (float) q.y;
            topR[4 * k + 2] = (float) q.z;
            topR[4 * k + 3] = (float) q.w;
            System.arraycopy(s, 3 * top, topS, 3 * k, 3);
        }
        float[] keyTimes = new float[n];
        for (int k = 0; k < n; k++) {
            keyTimes[k] = (float) times[k];
        }
        List<Track> tracks = new ArrayList<>();
        boolean rootCurve = false;
        boolean topCurve = false;
        for (NodeTransformTrack c : clip.nodeTransforms()) {
            rootCurve |= c.node() == joint;
            topCurve |= c.node() == top;
        }
        for (Track t : clip.tracks()) {
            boolean moved = (t.node() == joint || t.node() == top) && t.property() != TrackProperty.SCALE
                    && t.property() != TrackProperty.WEIGHTS;
            if (!moved) {
                tracks.add(t);
            }
        }
        tracks.add(new Track(top, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, keyTimes, topT));
        tracks.add(new Track(top, TrackProperty.ROTATION, Interpolation.LINEAR, 4, keyTimes, topR));
        tracks.add(new Track(joint, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, keyTimes, rootT));
        tracks.add(new Track(joint, TrackProperty.ROTATION, Interpolation.LINEAR, 4, keyTimes, hemisphere(rootR)));
        if (rootCurve) {
            tracks.add(new Track(joint, TrackProperty.SCALE, Interpolation.LINEAR, 3, keyTimes, rootS));
        }
        if (topCurve) {
            tracks.add(new Track(top, TrackProperty.SCALE, Interpolation.LINEAR, 3, keyTimes, topS));
        }
        List<NodeTransformTrack> curves = new ArrayList<>();
        for (NodeTransformTrack c : clip.nodeTransforms()) {
            if (c.node() != joint && c.node() != top) {
                curves.add(c);
            }
        }
        return new Result(new Clip(name, clip.duration(), tracks, curves), top, n);
    }

    /** Flips quaternion keys into the previous key's hemisphere (so linear keys slerp the short way). */
    private static float[] hemisphere(float[] q) {
        for (int k = 4; k < q.length; k += 4) {
            double dot = q[k] * q[k - 4] + q[k + 1] * q[k - 3] + q[k + 2] * q[k - 2] + q[k + 3] * q[k - 1];
            if (dot < 0) {
                for (int i = 0; i < 4; i++) {
                    q[k + i] = -q[k + i];
                }
            }
        }
        return q;
    }

    /** The grid at fps over [0, duration], its end, and every key time of the tracks from the top node to the root. */
    private static double[] times(Rig rig, Clip clip, int joint, int top, double fps) {
        TreeSet<Double> times = new TreeSet<>();
        double end = clip.duration();
        double steps = Math.floor(end * fps + 1e-9);
        if (steps + 2 > MAX_KEYS) {
            throw new IllegalArgumentException("the clip would need " + (long) (steps + 2) + " keys at " + fps
                    + " per second; the limit is " + MAX_KEYS);
        }
        for (long i = 0; i <= steps; i++) {
            times.add(i / fps);
        }
        times.add(end);
        for (Track t : clip.tracks()) {
            boolean onPath = false;
            for (int n = joint; n >= 0 && !onPath; n = rig.parent(n)) {
                onPath = n == t.node();
            }
            if (onPath && t.property() != TrackProperty.WEIGHTS) {
                for (float time : t.times()) {
                    if (time >= 0 && time <= end) {
                        times.add((double) time);
                    }
                }
            }
            if (times.size() > MAX_KEYS) {
                throw new IllegalArgumentException("the clip would need more than " + MAX_KEYS + " keys");
            }
        }
        return times.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
