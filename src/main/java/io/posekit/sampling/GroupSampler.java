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
 * <p>Static and allocation-free. LINEAR rotations go through a {@link SlerpKernel} (scalar or Vector API, the same
 * bits), which evaluates {@link Quaternions#slerp} with the parts of its weight series that depend only on the fraction
 * computed once per group instead of once per track.
 */
final class GroupSampler {

    private GroupSampler() {
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
     * @param slerp the kernel for LINEAR rotations
     */
    static void sample(Group g, float[] times, int k, double s, LocalPose pose, SlerpKernel slerp) {
        TrackProperty property = g.property();
        float[] out = property == TrackProperty.ROTATION ? pose.rotations()
                : property == TrackProperty.TRANSLATION ? pose.translations() : pose.scales();
        Interpolation interpolation = g.interpolation();
        if (interpolation == Interpolation.STEP || s == 0) {
            copyKey(g, k, out);
        } else if (interpolation == Interpolation.LINEAR) {
            if (property == TrackProperty.ROTATION) {
                slerp.run(g.values(), g.nodes(), k, s, out);
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
        if (g.componentMajor()) {
            for (int i = 0; i < count; i++) {
                int o = 4 * nodes[i];
                out[o] = v[base + i];
                out[o + 1] = v[base + count + i];
                out[o + 2] = v[base + 2 * count + i];
                out[o + 3] = v[base + 3 * count + i];
            }
        } else if (n == 4) {
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
