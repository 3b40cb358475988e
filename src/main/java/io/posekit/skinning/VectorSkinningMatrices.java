package io.posekit.skinning;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API kernel of {@link SkinningMatricesJob}: the model matrix's four columns widened to 256-bit
 * {@link DoubleVector}s, each output column {@code Σ_r a_r · b[r][c]} in 4 vector multiply-adds (the general product,
 * affine or not: 16 per joint, no branch), narrowed to float when stored. Agrees with the scalar kernel to a double
 * rounding. Loaded by name only when {@code jdk.incubator.vector} is present ({@link io.posekit.math.Kernels}).
 * Stateless.
 */
final class VectorSkinningMatrices implements SkinningMatricesKernel {

    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_256;
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_128;

    @Override
    public void run(int[] nodes, float[] ibm, float[] model, int modelCount, float[] out) {
        for (int k = 0, n = nodes.length; k < n; k++) {
            final int node = nodes[k];
            if (node < 0 || node >= modelCount) {
                throw SkinningMatricesJob.nodeOutOfRange(k, node, modelCount);
            }
            final int a = 16 * node;
            final DoubleVector a0 = widen(model, a), a1 = widen(model, a + 4);
            final DoubleVector a2 = widen(model, a + 8), a3 = widen(model, a + 12);
            for (int c = 0; c < 4; c++) {
                final int b = 16 * k + 4 * c;
                final DoubleVector col = a3.fma(b(ibm[b + 3]), a2.fma(b(ibm[b + 2]), a1.fma(b(ibm[b + 1]),
                        a0.mul(ibm[b]))));
                // (+0 turns −0 sums of zero products into the 0 the scalar kernel stores)
                ((FloatVector) col.add(0.0).convertShape(VectorOperators.D2F, F, 0)).intoArray(out, b);
            }
        }
    }

    private static DoubleVector widen(float[] m, int o) {
        return (DoubleVector) FloatVector.fromArray(F, m, o).convertShape(VectorOperators.F2D, D, 0);
    }

    private static DoubleVector b(double v) {
        return DoubleVector.broadcast(D, v);
    }
}
