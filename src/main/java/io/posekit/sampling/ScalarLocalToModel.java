package io.posekit.sampling;

/**
 * The scalar kernel of {@link LocalToModelJob}: the chain accumulated in double, the upper 3×4 of each model matrix in
 * a scratch buffer (12 doubles per node), each matrix rounded to float once when stored. Not thread-safe (the scratch);
 * one per job.
 */
final class ScalarLocalToModel implements LocalToModelKernel {

    // model matrices in double, the upper 3×4 (12 per node: three columns of the rotation-scale part, then the
    // translation; the bottom row of every model matrix is 0 0 0 1); grown as needed
    private double[] model = new double[0];

    @Override
    public void run(int[] parents, float[] translations, float[] rotations, float[] scales, float[] out, int n) {
        if (model.length < 12 * n) {
            model = new double[12 * n];
        }
        double[] m = model;
        for (int i = 0; i < n; i++) {
            // local = T · R · S, kept in registers (Matrices.composeTrs, without the round trip through memory)
            int ri = 4 * i;
            int si = 3 * i;
            double x = rotations[ri], y = rotations[ri + 1], z = rotations[ri + 2], w = rotations[ri + 3];
            double sx = scales[si], sy = scales[si + 1], sz = scales[si + 2];
            double x2 = x + x, y2 = y + y, z2 = z + z;
            double xx = x * x2, xy = x * y2, xz = x * z2;
            double yy = y * y2, yz = y * z2, zz = z * z2;
            double wx = w * x2, wy = w * y2, wz = w * z2;
            double l0 = (1 - (yy + zz)) * sx, l1 = (xy + wz) * sx, l2 = (xz - wy) * sx;
            double l4 = (xy - wz) * sy, l5 = (1 - (xx + zz)) * sy, l6 = (yz + wx) * sy;
            double l8 = (xz + wy) * sz, l9 = (yz - wx) * sz, l10 = (1 - (xx + yy)) * sz;
            double l12 = translations[si], l13 = translations[si + 1], l14 = translations[si + 2];
            int p = parents[i];
            double m0, m1, m2, m4, m5, m6, m8, m9, m10, m12, m13, m14;
            if (p < 0) {
                m0 = l0; m1 = l1; m2 = l2;
                m4 = l4; m5 = l5; m6 = l6;
                m8 = l8; m9 = l9; m10 = l10;
                m12 = l12; m13 = l13; m14 = l14;
            } else {
                // model = model(parent) · local, both affine
                int q = 12 * p;
                double a0 = m[q], a1 = m[q + 1], a2 = m[q + 2];
                double a4 = m[q + 3], a5 = m[q + 4], a6 = m[q + 5];
                double a8 = m[q + 6], a9 = m[q + 7], a10 = m[q + 8];
                m0 = a0 * l0 + a4 * l1 + a8 * l2;
                m1 = a1 * l0 + a5 * l1 + a9 * l2;
                m2 = a2 * l0 + a6 * l1 + a10 * l2;
                m4 = a0 * l4 + a4 * l5 + a8 * l6;
                m5 = a1 * l4 + a5 * l5 + a9 * l6;
                m6 = a2 * l4 + a6 * l5 + a10 * l6;
                m8 = a0 * l8 + a4 * l9 + a8 * l10;
                m9 = a1 * l8 + a5 * l9 + a9 * l10;
                m10 = a2 * l8 + a6 * l9 + a10 * l10;
                m12 = a0 * l12 + a4 * l13 + a8 * l14 + m[q + 9];
                m13 = a1 * l12 + a5 * l13 + a9 * l14 + m[q + 10];
                m14 = a2 * l12 + a6 * l13 + a10 * l14 + m[q + 11];
            }
            int q = 12 * i;
            m[q] = m0; m[q + 1] = m1; m[q + 2] = m2;
            m[q + 3] = m4; m[q + 4] = m5; m[q + 5] = m6;
            m[q + 6] = m8; m[q + 7] = m9; m[q + 8] = m10;
            m[q + 9] = m12; m[q + 10] = m13; m[q + 11] = m14;
            int o = 16 * i;
            out[o] = (float) m0; out[o + 1] = (float) m1; out[o + 2] = (float) m2; out[o + 3] = 0f;
            out[o + 4] = (float) m4; out[o + 5] = (float) m5; out[o + 6] = (float) m6; out[o + 7] = 0f;
            out[o + 8] = (float) m8; out[o + 9] = (float) m9; out[o + 10] = (float) m10; out[o + 11] = 0f;
            out[o + 12] = (float) m12; out[o + 13] = (float) m13; out[o + 14] = (float) m14; out[o + 15] = 1f;
        }
    }
}
