package io.posekit.export;

import io.posekit.skinning.Primitive;

/**
 * A skinned primitive's influences as glTF {@code JOINTS_n}/{@code WEIGHTS_n} sets: per vertex, the slots with a
 * non-zero weight (a joint listed twice merged into one slot, its weights summed), packed to the front and
 * normalised to sum 1; the other slots joint 0, weight 0. As many 4-wide sets as the most influenced vertex needs
 * (at least one). A vertex whose weights sum to 0 or are not finite — which posekit binds to its slot-0 joint alone —
 * gets that joint with weight 1. Skinning with the result equals skinning with the source: posekit normalises
 * weights per vertex, so only the float32 rounding of the normalised weights differs.
 *
 * <p>Joints are written as unsigned bytes when every joint index is below 256, else unsigned shorts; weights as
 * normalised unsigned bytes (or shorts) when every normalised weight is a multiple of 1/255 (or 1/65535) up to float32 rounding
 * and each vertex's sum is exactly 255 (65535) — e.g. IQM's byte weights — else as floats, the largest weight of
 * each vertex taking up the float rounding so the sum is 1 within float precision.
 *
 * @param sets the number of 4-wide sets
 * @param joints {@code 4·sets} joint indices per vertex
 * @param weights {@code 4·sets} normalised weights per vertex
 * @param jointWidth bytes per joint index (1 or 2)
 * @param weightWidth bytes per weight (1 or 2 normalised, 4 float)
 * @param quantizedWeights the weights as the integers written when {@code weightWidth} is 1 or 2, else {@code null}
 */
record InfluenceSets(int sets, int[] joints, float[] weights, int jointWidth, int weightWidth, int[] quantizedWeights) {

    /**
     * The sets of {@code p}'s influences.
     *
     * @throws IllegalArgumentException when a joint index used is not below {@code jointCount} or above 65535
     */
    static InfluenceSets of(Primitive p, int jointCount) {
        int n = p.vertexCount();
        int k = p.influencesPerVertex();
        int[] srcJoints = p.joints();
        float[] srcWeights = p.weights();
        int[] packedJoints = new int[n * k];
        double[] packedWeights = new double[n * k];
        int[] used = new int[n];
        int most = 1;
        for (int v = 0; v < n; v++) {
            int base = v * k;
            int count = 0;
            double sum = 0;
            for (int i = base; i < base + k; i++) {
                float w = srcWeights[i];
                if (w == 0) {
                    continue;
                }
                sum += w;
                int slot = -1;
                for (int j = base; j < base + count; j++) {
                    if (packedJoints[j] == srcJoints[i]) {
                        slot = j;
                    }
                }
                if (slot < 0) {
                    slot = base + count++;
                    packedJoints[slot] = srcJoints[i];
                }
                packedWeights[slot] += w;
            }
            if (sum == 0 || !Double.isFinite(sum)) {
                packedJoints[base] = srcJoints[base];
                packedWeights[base] = 1;
                for (int j = base + 1; j < base + k; j++) {
                    packedJoints[j] = 0;
                    packedWeights[j] = 0;
                }
                count = 1;
                sum = 1;
            }
            for (int j = base; j < base + count; j++) {
                packedWeights[j] /= sum;
                if (packedJoints[j] >= jointCount || packedJoints[j] > 0xFFFF) {
                    throw new IllegalArgumentException("vertex " + v + " uses joint " + packedJoints[j] + " of a skin with "
                            + jointCount + " joints");
                }
            }
            used[v] = count;
            most = Math.max(most, count);
        }
        int sets = (most + 3) / 4;
        int width = 4 * sets;
        int[] joints = new int[n * width];
        float[] weights = new float[n * width];
        int maxJoint = 0;
        for (int v = 0; v < n; v++) {
            for (int j = 0; j < used[v]; j++) {
                joints[v * width + j] = packedJoints[v * k + j];
                maxJoint = Math.max(maxJoint, joints[v * width + j]);
            }
        }
        int[] quantized = quantized(packedWeights, used, k, width, 255);
        int weightWidth = 1;
        if (quantized == null) {
            quantized = quantized(packedWeights, used, k, width, 65535);
            weightWidth = 2;
        }
        if (quantized == null) {
            weightWidth = 4;
        }
        for (int v = 0; v < n; v++) {
            int largest = 0;
            double rest = 0;
            for (int j = 0; j < used[v]; j++) {
                double w = packedWeights[v * k + j];
                weights[v * width + j] = (float) w;
                if (w > packedWeights[v * k + largest]) {
                    largest = j;
                }
            }
            if (weightWidth == 4) {
                for (int j = 0; j < used[v]; j++) {
                    rest += j == largest ? 0 : weights[v * width + j];
                }
                weights[v * width + largest] = (float) (1 - rest);
            }
        }
        return new InfluenceSets(sets, joints, weights, maxJoint < 256 ? 1 : 2, weightWidth, quantized);
    }

    /** How far from a multiple of 1/scale a normalised float32 weight may be and still count as that fraction. */
    private static final double FLOAT_SLACK = 2.5e-7;

    /** The weights as integers over {@code scale} when every one is exactly such a fraction summing to 1, else null. */
    private static int[] quantized(double[] packed, int[] used, int k, int width, int scale) {
        int[] out = new int[used.length * width];
        for (int v = 0; v < used.length; v++) {
            long sum = 0;
            for (int j = 0; j < used[v]; j++) {
                double q = packed[v * k + j] * scale;
                long r = Math.round(q);
                if (Math.abs(q - r) > FLOAT_SLACK * scale) {
                    return null;
                }
                out[v * width + j] = (int) r;
                sum += r;
            }
            if (sum != scale) {
                return null;
            }
        }
        return out;
    }
}
