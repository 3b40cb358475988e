package io.posekit.sampling;

import io.posekit.clip.ClipLayout.Group;
import io.posekit.clip.Interpolation;
import io.posekit.clip.TrackProperty;
import io.posekit.math.Quaternions;

/**
 * Samples every track of a {@link Group} at one located key and segment fraction, in one loop over the group's
 * key-major values: the whole-pose counterpart of {@link TrackSampler#interpolate}, with the same results bit for bit
 * (the same operations in the same order, in double, rounded to float once).
 *
 * <p>Static and allocation-free. The rotation loop evaluates the slerp of {@link Quaternions#slerp} inline for the
 * common case (keys at most 51° of rotation apart, {@code cos θ ≥ 0.9}), with the parts of its weight series that
 * depend only on the fraction computed once per group instead of once per track; any other pair (wider angles,
 * NaN) goes through {@link Quaternions#slerp} itself.
 */
final class GroupSampler {

    // Quaternions.slerp's series factors b_i = t²·U_i − V_i for i = 1..5 (its NEAR_TERMS), with
    // U_i = 1/(i(2i+1)) and V_i = i/(2i+1) computed by the same expressions, so every double is the same
    private static final double U1 = u(1);
    private static final double U2 = u(2);
    private static final double U3 = u(3);
    private static final double U4 = u(4);
    private static final double U5 = u(5);
    private static final double V1 = v(1);
    private static final double V2 = v(2);
    private static final double V3 = v(3);
    private static final double V4 = v(4);
    private static final double V5 = v(5);

    private GroupSampler() {
    }

    private static double u(int i) {
        return 1.0 / (i * (2.0 * i + 1));
    }

    private static double v(int i) {
        return i / (2.0 * i + 1);
    }

    /**
     * Writes every track of {@code g} into {@code pose} (the group's property, at each track's node): key {@code k}'s
     * stored value when {@code s == 0} or the group steps, otherwise the interpolation at fraction {@code s} of the
     * segment from key {@code k} to key {@code k + 1}.
     *
     * @param g the group (a translation, rotation or scale group of a well-formed layout)
     * @param times the group's key times (for CUBICSPLINE's key interval)
     * @param k the key, as {@link TrackSampler#locate} gives it for {@code times}
     * @param s the fraction, as {@link TrackSampler#fraction} gives it
     * @param pose where to write; every node of the group must be in it
     */
    static void sample(Group g, float[] times, int k, double s, LocalPose pose) {
        TrackProperty property = g.property();
        float[] out = property == TrackProperty.ROTATION ? pose.rotations()
                : property == TrackProperty.TRANSLATION ? pose.translations() : pose.scales();
        Interpolation interpolation = g.interpolation();
        if (interpolation == Interpolation.STEP || s == 0) {
            copyKey(g, k, out);
        } else if (interpolation == Interpolation.LINEAR) {
            if (property == TrackProperty.ROTATION) {
                slerp(g.values(), g.nodes(), k, s, out);
            } else {
                lerp3(g.values(), g.nodes(), k, s, out);
            }
        } else {
            cubic(g, times, k, s, out);
        }
    }

    /** Writes the one value of every track of a {@link io.posekit.clip.ClipLayout#constantGroup constant group}. */
    static void sampleConstant(Group g, LocalPose pose) {
        copyKey(g, 0, g.property() == TrackProperty.TRANSLATION ? pose.translations() : pose.scales());
    }

    /** Key k's stored values, untouched (exactly on a key, or a STEP group). */
    private static void copyKey(Group g, int k, float[] out) {
        int[] nodes = g.nodes();
        float[] v = g.values();
        int n = g.components();
        int stride = g.stride();
        int count = nodes.length;
        // a cubic key is in-tangent, value, out-tangent: the value is the middle third
        int base = k * count * stride + (stride == n ? 0 : n);
        if (n == 4) {
            for (int i = 0, src = base; i < count; i++, src += stride) {
                int o = 4 * nodes[i];
                out[o] = v[src];
                out[o + 1] = v[src + 1];
                out[o + 2] = v[src + 2];
                out[o + 3] = v[src + 3];
            }
        } else {
            for (int i = 0, src = base; i < count; i++, src += stride) {
                int o = 3 * nodes[i];
                out[o] = v[src];
                out[o + 1] = v[src + 1];
                out[o + 2] = v[src + 2];
            }
        }
    }

    /** LINEAR translations or scales: {@code a + (b − a)·s} per component, as {@link TrackSampler#interpolate}. */
    private static void lerp3(float[] v, int[] nodes, int k, double s, float[] out) {
        int count = nodes.length;
        int a = 3 * k * count;
        int b = a + 3 * count;
        for (int i = 0; i < count; i++, a += 3, b += 3) {
            int o = 3 * nodes[i];
            double x = v[a];
            double y = v[a + 1];
            double z = v[a + 2];
            out[o] = (float) (x + (v[b] - x) * s);
            out[o + 1] = (float) (y + (v[b + 1] - y) * s);
            out[o + 2] = (float) (z + (v[b + 2] - z) * s);
        }
    }

    /**
     * LINEAR rotations, {@code 0 < s}: {@link Quaternions#slerp} per track, its common branch inline. The series
     * {@code f(t²) = 1 + b_1·y·(1 + b_2·y·(1 + … b_5·y))}, {@code y = cos θ − 1}, has factors {@code b_i} that depend
     * on the fraction only: they are computed here once for the group, by the expression slerp uses.
     */
    private static void slerp(float[] v, int[] nodes, int k, double s, float[] out) {
        int count = nodes.length;
        int a = 4 * k * count;
        int b = a + 4 * count;
        if (s == 1) {
            // possible when t rounds onto the next key's time: slerp's exact endpoint, rare enough to take as is
            for (int i = 0; i < count; i++, a += 4, b += 4) {
                Quaternions.slerp(v, a, v, b, s, out, 4 * nodes[i]);
            }
            return;
        }
        double u = 1 - s;
        double u2 = u * u;
        double t2 = s * s;
        double bu1 = u2 * U1 - V1;
        double bu2 = u2 * U2 - V2;
        double bu3 = u2 * U3 - V3;
        double bu4 = u2 * U4 - V4;
        double bu5 = u2 * U5 - V5;
        double bt1 = t2 * U1 - V1;
        double bt2 = t2 * U2 - V2;
        double bt3 = t2 * U3 - V3;
        double bt4 = t2 * U4 - V4;
        double bt5 = t2 * U5 - V5;
        for (int i = 0; i < count; i++, a += 4, b += 4) {
            int o = 4 * nodes[i];
            double ax = v[a];
            double ay = v[a + 1];
            double az = v[a + 2];
            double aw = v[a + 3];
            double bx = v[b];
            double by = v[b + 1];
            double bz = v[b + 2];
            double bw = v[b + 3];
            double d = ax * bx + ay * by + az * bz + aw * bw;
            if (d < 0) {
                // q and −q are the same rotation: the short way round, as slerp
                d = -d;
                bx = -bx;
                by = -by;
                bz = -bz;
                bw = -bw;
            }
            if (!(d >= 0.9)) {
                // keys more than 51° of rotation apart (or NaN): slerp's other branches
                Quaternions.slerp(v, a, v, b, s, out, o);
                continue;
            }
            double y = d - 1;
            // slerp's Horner loop from i = 5 down, f starting at 1: fma(b5·y, 1, 1) is b5·y + 1 exactly
            double fu = bu5 * y + 1;
            double ft = bt5 * y + 1;
            fu = Math.fma(bu4 * y, fu, 1);
            ft = Math.fma(bt4 * y, ft, 1);
            fu = Math.fma(bu3 * y, fu, 1);
            ft = Math.fma(bt3 * y, ft, 1);
            fu = Math.fma(bu2 * y, fu, 1);
            ft = Math.fma(bt2 * y, ft, 1);
            fu = Math.fma(bu1 * y, fu, 1);
            ft = Math.fma(bt1 * y, ft, 1);
            double k0 = u * fu;
            double k1 = s * ft;
            out[o] = (float) (k0 * ax + k1 * bx);
            out[o + 1] = (float) (k0 * ay + k1 * by);
            out[o + 2] = (float) (k0 * az + k1 * bz);
            out[o + 3] = (float) (k0 * aw + k1 * bw);
        }
    }

    /**
     * CUBICSPLINE, {@code 0 < s}: Hermite with tangents × (t_{k+1} − t_k), rotations normalised, as
     * {@link TrackSampler#interpolate}.
     */
    private static void cubic(Group g, float[] times, int k, double s, float[] out) {
        int[] nodes = g.nodes();
        float[] values = g.values();
        int n = g.components();
        int stride = 3 * n;
        int count = nodes.length;
        double td = times[k + 1] - times[k];
        double s2 = s * s;
        double s3 = s2 * s;
        double h00 = 2 * s3 - 3 * s2 + 1;
        double h10 = (s3 - 2 * s2 + s) * td;
        double h01 = -2 * s3 + 3 * s2;
        double h11 = (s3 - s2) * td;
        boolean rotation = g.property() == TrackProperty.ROTATION;
        int v0 = k * count * stride + n;
        int v1 = v0 + count * stride;
        for (int i = 0; i < count; i++, v0 += stride, v1 += stride) {
            int outTangent0 = v0 + n;          // b_k, out-tangent of key k
            int inTangent1 = v1 - n;           // a_{k+1}, in-tangent of key k+1
            if (rotation) {
                double x = h00 * values[v0] + h10 * values[outTangent0] + h01 * values[v1]
                        + h11 * values[inTangent1];
                double y = h00 * values[v0 + 1] + h10 * values[outTangent0 + 1] + h01 * values[v1 + 1]
                        + h11 * values[inTangent1 + 1];
                double z = h00 * values[v0 + 2] + h10 * values[outTangent0 + 2] + h01 * values[v1 + 2]
                        + h11 * values[inTangent1 + 2];
                double w = h00 * values[v0 + 3] + h10 * values[outTangent0 + 3] + h01 * values[v1 + 3]
                        + h11 * values[inTangent1 + 3];
                Quaternions.normalizeTo(x, y, z, w, out, 4 * nodes[i]);
            } else {
                int o = 3 * nodes[i];
                for (int c = 0; c < 3; c++) {
                    out[o + c] = (float) (h00 * values[v0 + c] + h10 * values[outTangent0 + c]
                            + h01 * values[v1 + c] + h11 * values[inTangent1 + c]);
                }
            }
        }
    }
}
