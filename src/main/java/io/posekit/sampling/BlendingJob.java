package io.posekit.sampling;

import io.posekit.math.Quaternions;
import io.posekit.rig.Rig;
import java.util.List;

/**
 * Blends sampled local poses into one (ozz-animation {@code BlendingJob} style: set the public fields, then
 * {@link #run()}). All poses are in local space (each node relative to its parent); rotations are unit
 * quaternions {@code [x, y, z, w]}, translations in scene units.
 *
 * <p>For every node {@code i}, with {@code w_k(i) = weight_k × jointWeights_k[i]} (just {@code weight_k}
 * without joint weights):
 * <ol>
 *   <li><b>Normal layers</b> (in list order, those with {@code w_k(i) > 0}) are summed: translations and scales
 *       as {@code Σ w_k·v_k}; rotations as {@code Σ ±w_k·q_k} where each quaternion is negated when its dot
 *       product with the running sum is negative (q and −q are the same rotation; aligning them to one
 *       hemisphere keeps them from cancelling). {@code W(i) = Σ w_k(i)}.</li>
 *   <li><b>Rest pose below the threshold</b>: if {@code W(i) < threshold}, the rig's rest pose is added the same
 *       way with weight {@code threshold − W(i)} and {@code W(i)} becomes {@code threshold}. So a node no
 *       layer reaches (weight 0, e.g. masked out) gets the rest pose, and a total weight of, say, 0.04 under
 *       a threshold of 0.1 gives 40 % layers and 60 % rest pose. (This is ozz's rule; ozz tests the sum of
 *       layer weights globally when no layer has joint weights, which gives the same numbers since every
 *       node's {@code W} is then that sum.)</li>
 *   <li><b>Normalisation</b>: translation and scale are divided by {@code W(i)} (a weighted average, so
 *       weights need not sum to one: 2 and 6 mix like 0.25 and 0.75); the rotation sum is normalised to unit
 *       length (nlerp: two rotations at equal weights give exactly their bisector).</li>
 *   <li><b>Additive layers</b> are then applied in list order, each with weight {@code w = w_k(i)} (absolute,
 *       not normalised; layers with {@code w = 0} are skipped) and delta pose {@code (t_d, q_d, s_d)} from
 *       {@link AdditiveDelta}: {@code t += w·t_d}; {@code q = q_d^w · q} (Hamilton product, the delta
 *       pre-multiplied, i.e. a rotation in the parent frame applied after the blended one, as ozz and
 *       Unreal do; {@code q_d^w} is the shortest-path slerp from identity to {@code q_d} at {@code w}, which
 *       extrapolates for {@code w > 1}); {@code s *= 1 − w + w·s_d} (ozz's lerp from 1; for {@code w > 1}
 *       it extrapolates and can cross zero). Additive layers do not count towards {@code W}.</li>
 * </ol>
 * With no normal layer (or all weights 0) the result is the rest pose plus the additive layers.
 *
 * <p>Arithmetic is in double per node and each output value is rounded to float once. Each node's inputs are
 * read before its output is written, so {@link #output} may be the pose of one of the layers. Not
 * thread-safe (a small per-job scratch buffer); reuse one instance per thread. {@code run()} allocates
 * nothing.
 */
public final class BlendingJob {

    /** ozz-animation's default threshold. */
    public static final float DEFAULT_THRESHOLD = 0.1f;

    /** The rig: node count and the rest pose used below the threshold. Required. */
    public Rig rig;
    /** Normal and additive layers, in order (the order of additive layers matters). Required, may be empty. */
    public List<BlendLayer> layers = List.of();
    /**
     * Accumulated normal-layer weight under which the rest pose is blended in (see the class comment); finite
     * and {@code > 0}.
     */
    public float threshold = DEFAULT_THRESHOLD;
    /** Where the blended pose is written; {@code output.nodeCount() == rig.nodeCount()}. Required. */
    public LocalPose output;

    // one node's running values in double: translation 0..2, rotation (x, y, z, w) 3..6, scale 7..9
    private final double[] node = new double[10];

    /**
     * Whether the inputs are present and consistent: rig, output and layers set, output sized for the rig,
     * threshold finite and {@code > 0}, and every layer non-null with a pose of the rig's node count, a mode, a
     * finite weight {@code ≥ 0}, and joint weights either {@code null} or one finite value {@code ≥ 0} per
     * node.
     */
    public boolean validate() {
        if (rig == null || output == null || layers == null || output.nodeCount() != rig.nodeCount()
                || !(threshold > 0) || threshold == Float.POSITIVE_INFINITY) {
            return false;
        }
        int n = rig.nodeCount();
        for (int k = 0, count = layers.size(); k < count; k++) {
            BlendLayer layer = layers.get(k);
            if (layer == null || layer.pose() == null || layer.pose().nodeCount() != n || layer.mode() == null
                    || !isWeight(layer.weight())) {
                return false;
            }
            float[] joints = layer.jointWeights();
            if (joints != null) {
                if (joints.length != n) {
                    return false;
                }
                for (float w : joints) {
                    if (!isWeight(w)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static boolean isWeight(float w) {
        return w >= 0 && w != Float.POSITIVE_INFINITY;
    }

    /**
     * Writes the blended pose into {@link #output}.
     *
     * @throws IllegalStateException if {@link #validate()} is false
     */
    public void run() {
        if (!validate()) {
            throw new IllegalStateException("BlendingJob inputs are missing or inconsistent");
        }
        int n = rig.nodeCount();
        List<BlendLayer> ls = layers;
        int count = ls.size();
        double th = threshold;
        float[] restT = rig.restTranslations();
        float[] restR = rig.restRotations();
        float[] restS = rig.restScales();
        float[] outT = output.translations();
        float[] outR = output.rotations();
        float[] outS = output.scales();
        double[] a = node;
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < 10; c++) {
                a[c] = 0;
            }
            double total = 0;
            for (int k = 0; k < count; k++) {
                BlendLayer layer = ls.get(k);
                if (layer.mode() == BlendMode.NORMAL) {
                    double w = layer.nodeWeight(i);
                    if (w > 0) {
                        LocalPose p = layer.pose();
                        accumulate(a, p.translations(), p.rotations(), p.scales(), i, w);
                        total += w;
                    }
                }
            }
            double restWeight = th - total;
            if (restWeight > 0) {
                accumulate(a, restT, restR, restS, i, restWeight);
                total = th;
            }
            normalise(a, total);
            for (int k = 0; k < count; k++) {
                BlendLayer layer = ls.get(k);
                if (layer.mode() == BlendMode.ADDITIVE) {
                    double w = layer.nodeWeight(i);
                    if (w > 0) {
                        LocalPose d = layer.pose();
                        add(a, d.translations(), d.rotations(), d.scales(), i, w);
                    }
                }
            }
            int t = 3 * i;
            outT[t] = (float) a[0];
            outT[t + 1] = (float) a[1];
            outT[t + 2] = (float) a[2];
            outS[t] = (float) a[7];
            outS[t + 1] = (float) a[8];
            outS[t + 2] = (float) a[9];
            Quaternions.normalizeTo(a[3], a[4], a[5], a[6], outR, 4 * i);
        }
    }

    /** {@code a += w·(t, ±q, s)} of node i, q negated when it points away from the running rotation sum. */
    private static void accumulate(double[] a, float[] t, float[] r, float[] s, int i, double w) {
        int o = 3 * i;
        a[0] += w * t[o];
        a[1] += w * t[o + 1];
        a[2] += w * t[o + 2];
        a[7] += w * s[o];
        a[8] += w * s[o + 1];
        a[9] += w * s[o + 2];
        int q = 4 * i;
        double x = r[q], y = r[q + 1], z = r[q + 2], qw = r[q + 3];
        if (a[3] * x + a[4] * y + a[5] * z + a[6] * qw < 0) {
            w = -w;
        }
        a[3] += w * x;
        a[4] += w * y;
        a[5] += w * z;
        a[6] += w * qw;
    }

    /** Divides translation and scale by the total weight and brings the rotation to unit length. */
    private static void normalise(double[] a, double total) {
        double inv = 1 / total;
        a[0] *= inv;
        a[1] *= inv;
        a[2] *= inv;
        a[7] *= inv;
        a[8] *= inv;
        a[9] *= inv;
        double len = Math.sqrt(a[3] * a[3] + a[4] * a[4] + a[5] * a[5] + a[6] * a[6]);
        if (len == 0 || !Double.isFinite(len)) {
            // only reachable with non-finite inputs: the hemisphere alignment keeps positive weights from
            // cancelling, and the threshold guarantees a positive total
            a[3] = 0;
            a[4] = 0;
            a[5] = 0;
            a[6] = 1;
            return;
        }
        a[3] /= len;
        a[4] /= len;
        a[5] /= len;
        a[6] /= len;
    }

    /** Applies delta (t, q, s) of node i at weight w > 0 to a (see the class comment). */
    private static void add(double[] a, float[] t, float[] r, float[] s, int i, double w) {
        int o = 3 * i;
        a[0] += w * t[o];
        a[1] += w * t[o + 1];
        a[2] += w * t[o + 2];
        double keep = 1 - w;
        a[7] *= keep + w * s[o];
        a[8] *= keep + w * s[o + 1];
        a[9] *= keep + w * s[o + 2];
        int q = 4 * i;
        double dx = r[q], dy = r[q + 1], dz = r[q + 2], dw = r[q + 3];
        if (dw < 0) {
            // the same rotation with w ≥ 0 makes the power below take the short way round (angle ≤ 180°)
            dx = -dx;
            dy = -dy;
            dz = -dz;
            dw = -dw;
        }
        if (w != 1) {
            // q^w = (axis·sin(w·φ), cos(w·φ)) with half-angle φ; atan2 stays accurate for tiny angles where
            // acos(dw) would not, and the result is unit length even if the input is a few ulps off
            double v = Math.sqrt(dx * dx + dy * dy + dz * dz);
            if (v == 0) {
                return; // the identity rotation: q^w is the identity too
            }
            double half = Math.atan2(v, dw);
            double k = Math.sin(w * half) / v;
            dx *= k;
            dy *= k;
            dz *= k;
            dw = Math.cos(w * half);
        }
        double bx = a[3], by = a[4], bz = a[5], bw = a[6];
        a[3] = dw * bx + dx * bw + dy * bz - dz * by;
        a[4] = dw * by - dx * bz + dy * bw + dz * bx;
        a[5] = dw * bz + dx * by - dy * bx + dz * bw;
        a[6] = dw * bw - dx * bx - dy * by - dz * bz;
    }
}
