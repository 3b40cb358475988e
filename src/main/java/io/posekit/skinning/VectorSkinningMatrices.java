package io.posekit.skinning;

import io.posekit.math.VectorLanes;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorOperators.Conversion;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API kernel of {@link SkinningMatricesJob}: the model matrix's four columns widened to 256-bit
 * {@link DoubleVector}s, each output column {@code Σ_r a_r · b[r][c]} in 4 vector multiply-adds (the general product,
 * affine or not: 16 per joint, no branch), narrowed to float when stored. Agrees with the scalar kernel to a double
 * rounding. Loaded by name only when {@code jdk.incubator.vector} is present ({@link io.posekit.math.Kernels}).
 * Stateless.
 */
final class VectorSkinningMatrices implements SkinningMatricesKernel {

    private static final VectorSpecies<Double> D = VectorLanes.DOUBLE;
    private static final VectorSpecies<Float> F = VectorLanes.FLOAT;
    private static final Conversion<Float, Double> F2D = VectorOperators.F2D;
    private static final Conversion<Double, Float> D2F = VectorOperators.D2F;

    @Override
    public void run(int[] nodes, float[] ibm, float[] model, int modelCount, float[] out) {
        for (int k = 0, n = nodes.length; k < n; k++) {
            final int node = nodes[k];
            if (node < 0 || node >= modelCount) {
                throw SkinningMatricesJob.nodeOutOfRange(k, node, modelCount);
            }
            final int a = 16 * node;
            // straight-line code, no helpers: a vector passed to a call the JIT does not inline (vector code quickly
            // exhausts the inlining budget) is boxed, which costs orders of magnitude more than the arithmetic
            final DoubleVector a0 = (DoubleVector) FloatVector.fromArray(F, model, a).convertShape(F2D, D, 0);
            final DoubleVector a1 = (DoubleVector) FloatVector.fromArray(F, model, a + 4).convertShape(F2D, D, 0);
            final DoubleVector a2 = (DoubleVector) FloatVector.fromArray(F, model, a + 8).convertShape(F2D, D, 0);
            final DoubleVector a3 = (DoubleVector) FloatVector.fromArray(F, model, a + 12).convertShape(F2D, D, 0);
            final int b = 16 * k;
            // column c of the product: Σ_r a_r · ibm[r][c]; +0 turns −0 sums of zero products into the scalar's 0
            final DoubleVector c0 = a3.fma(DoubleVector.broadcast(D, ibm[b + 3]), a2.fma(DoubleVector.broadcast(D,
                    ibm[b + 2]), a1.fma(DoubleVector.broadcast(D, ibm[b + 1]), a0.mul(ibm[b])))).add(0.0);
            final DoubleVector c1 = a3.fma(DoubleVector.broadcast(D, ibm[b + 7]), a2.fma(DoubleVector.broadcast(D,
                    ibm[b + 6]), a1.fma(DoubleVector.broadcast(D, ibm[b + 5]), a0.mul(ibm[b + 4])))).add(0.0);
            final DoubleVector c2 = a3.fma(DoubleVector.broadcast(D, ibm[b + 11]), a2.fma(DoubleVector.broadcast(D,
                    ibm[b + 10]), a1.fma(DoubleVector.broadcast(D, ibm[b + 9]), a0.mul(ibm[b + 8])))).add(0.0);
            final DoubleVector c3 = a3.fma(DoubleVector.broadcast(D, ibm[b + 15]), a2.fma(DoubleVector.broadcast(D,
                    ibm[b + 14]), a1.fma(DoubleVector.broadcast(D, ibm[b + 13]), a0.mul(ibm[b + 12])))).add(0.0);
            ((FloatVector) c0.convertShape(D2F, F, 0)).intoArray(out, b);
            ((FloatVector) c1.convertShape(D2F, F, 0)).intoArray(out, b + 4);
            ((FloatVector) c2.convertShape(D2F, F, 0)).intoArray(out, b + 8);
            ((FloatVector) c3.convertShape(D2F, F, 0)).intoArray(out, b + 12);
        }
    }
}
