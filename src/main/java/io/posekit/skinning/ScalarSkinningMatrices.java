package io.posekit.skinning;

import io.posekit.math.Matrices;

/** The scalar kernel of {@link SkinningMatricesJob}: products in double, stored as float. Stateless. */
final class ScalarSkinningMatrices implements SkinningMatricesKernel {

    @Override
    public void run(int[] nodes, float[] ibm, float[] model, int modelCount, float[] out) {
        for (int k = 0, n = nodes.length; k < n; k++) {
            int node = nodes[k];
            if (node < 0 || node >= modelCount) {
                throw SkinningMatricesJob.nodeOutOfRange(k, node, modelCount);
            }
            int a = 16 * node;
            int b = 16 * k;
            if (affine(model, a) && affine(ibm, b)) {
                // the usual case (model matrices from TRS, inverse binds of rigid binds): 36 products instead of 64
                multiplyAffine(model, a, ibm, b, out, b);
            } else {
                // an inverse bind matrix (or a model matrix from elsewhere) is not required to be affine
                Matrices.multiply(model, a, ibm, b, out, b);
            }
        }
    }

    /** Whether the matrix at {@code m[o..o+15]} has the bottom row 0 0 0 1. */
    private static boolean affine(float[] m, int o) {
        return m[o + 3] == 0 && m[o + 7] == 0 && m[o + 11] == 0 && m[o + 15] == 1;
    }

    /** {@code out = a · b} for affine matrices, in double, stored as float; the general product's values, up to the sign of a zero. */
    private static void multiplyAffine(float[] a, int ao, float[] b, int bo, float[] out, int o) {
        double a0 = a[ao], a1 = a[ao + 1], a2 = a[ao + 2];
        double a4 = a[ao + 4], a5 = a[ao + 5], a6 = a[ao + 6];
        double a8 = a[ao + 8], a9 = a[ao + 9], a10 = a[ao + 10];
        double a12 = a[ao + 12], a13 = a[ao + 13], a14 = a[ao + 14];
        for (int c = 0; c < 3; c++) {
            int bc = bo + 4 * c;
            double b0 = b[bc], b1 = b[bc + 1], b2 = b[bc + 2];
            int oc = o + 4 * c;
            out[oc] = (float) (a0 * b0 + a4 * b1 + a8 * b2);
            out[oc + 1] = (float) (a1 * b0 + a5 * b1 + a9 * b2);
            out[oc + 2] = (float) (a2 * b0 + a6 * b1 + a10 * b2);
            out[oc + 3] = 0f;
        }
        double b12 = b[bo + 12], b13 = b[bo + 13], b14 = b[bo + 14];
        out[o + 12] = (float) (a0 * b12 + a4 * b13 + a8 * b14 + a12);
        out[o + 13] = (float) (a1 * b12 + a5 * b13 + a9 * b14 + a13);
        out[o + 14] = (float) (a2 * b12 + a6 * b13 + a10 * b14 + a14);
        out[o + 15] = 1f;
    }
}
