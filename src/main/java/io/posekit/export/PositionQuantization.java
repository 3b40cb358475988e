package io.posekit.export;

/**
 * The dequantization of int16 normalized positions ({@code KHR_mesh_quantization}): {@code p = center + h · q / 32767}
 * per component, {@code q} the stored integer. One uniform scale {@code h} (half the largest extent of the box the
 * positions lie in, so normals need no correction) and the box's centre; immutable.
 *
 * <p>As a node transform it is {@code translation = center}, {@code scale = (h, h, h)}; folded into an inverse bind
 * matrix {@code B} it is {@code B · T(center) · S(h)}.
 */
record PositionQuantization(float cx, float cy, float cz, float h) {

    static final int MAX = 32767;

    /**
     * The quantization of the box around the finite values of {@code positions} (3 per vertex, any number of arrays);
     * {@code h} is 1 when the box is empty or a point.
     */
    static PositionQuantization around(Iterable<float[]> positions) {
        double[] min = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        double[] max = {-Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE};
        for (float[] p : positions) {
            for (int i = 0; i < p.length; i++) {
                if (Float.isFinite(p[i])) {
                    min[i % 3] = Math.min(min[i % 3], p[i]);
                    max[i % 3] = Math.max(max[i % 3], p[i]);
                }
            }
        }
        if (min[0] > max[0] || min[1] > max[1] || min[2] > max[2]) {
            return new PositionQuantization(0, 0, 0, 1);
        }
        float cx = (float) ((min[0] + max[0]) / 2);
        float cy = (float) ((min[1] + max[1]) / 2);
        float cz = (float) ((min[2] + max[2]) / 2);
        // the half extent from the float centre, so that every value maps into [-32767, 32767]
        double h = 0;
        for (int c = 0; c < 3; c++) {
            float centre = c == 0 ? cx : c == 1 ? cy : cz;
            h = Math.max(h, Math.max(max[c] - centre, centre - min[c]));
        }
        float hf = (float) h;
        if (hf < h) {
            hf = Math.nextUp(hf);
        }
        return new PositionQuantization(cx, cy, cz, hf > 0 && Float.isFinite(hf) ? hf : 1);
    }

    /** The stored integer of component {@code c} (0 x, 1 y, 2 z) of value {@code v}, in [-32767, 32767]. */
    int quantize(float v, int c) {
        double centre = c == 0 ? cx : c == 1 ? cy : cz;
        long q = Math.round((v - centre) / h * MAX);
        return (int) Math.max(-MAX, Math.min(MAX, q));
    }

    /** {@code positions} (3 per vertex, finite) as int16 components, 8 bytes per vertex (3 values, 2 zero bytes). */
    byte[] quantizePadded(float[] positions) {
        int n = positions.length / 3;
        byte[] out = new byte[8 * n];
        for (int v = 0; v < n; v++) {
            for (int c = 0; c < 3; c++) {
                int q = quantize(positions[3 * v + c], c);
                out[8 * v + 2 * c] = (byte) q;
                out[8 * v + 2 * c + 1] = (byte) (q >> 8);
            }
        }
        return out;
    }

    /** Column-major 4×4 inverse bind matrices (16 floats each) with the dequantization folded in: {@code B · D}. */
    float[] foldInto(float[] inverseBindMatrices) {
        float[] out = new float[inverseBindMatrices.length];
        for (int m = 0; m < out.length; m += 16) {
            for (int r = 0; r < 4; r++) {
                double b0 = inverseBindMatrices[m + r];
                double b1 = inverseBindMatrices[m + 4 + r];
                double b2 = inverseBindMatrices[m + 8 + r];
                double b3 = inverseBindMatrices[m + 12 + r];
                out[m + r] = (float) (b0 * h);
                out[m + 4 + r] = (float) (b1 * h);
                out[m + 8 + r] = (float) (b2 * h);
                out[m + 12 + r] = (float) (b0 * cx + b1 * cy + b2 * cz + b3);
            }
        }
        return out;
    }

    /** The node fields that apply it: {@code "translation":[…],"scale":[…]}. */
    String nodeFields() {
        return "\"translation\":" + GltfJson.floats(new float[] {cx, cy, cz}) + ",\"scale\":"
                + GltfJson.floats(new float[] {h, h, h});
    }
}
