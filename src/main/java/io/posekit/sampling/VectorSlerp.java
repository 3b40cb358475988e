package io.posekit.sampling;

import io.posekit.math.VectorLanes;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API {@link SlerpKernel}: {@link ScalarSlerp}'s inline branch on four tracks at once, one
 * {@link DoubleVector} lane per track — the group's component-major values give each component of four tracks in one
 * load. The same operations in the same order (products and sums unfused where the scalar code has them unfused,
 * {@code fma} where it calls {@link Math#fma}), so every result is the scalar one bit for bit. Four tracks of which any
 * is not in the inline branch's range, and the tracks past the last multiple of four, go through the scalar code.
 * Loaded by name only when {@code jdk.incubator.vector} is present ({@link io.posekit.math.Kernels}). One per job (the
 * scratch).
 */
final class VectorSlerp implements SlerpKernel {

    private static final VectorSpecies<Float> F = VectorLanes.FLOAT;
    private static final VectorSpecies<Double> D = VectorLanes.DOUBLE;
    private static final int LANES = 4;
    private static final VectorOperators.Conversion<Float, Double> F2D = VectorOperators.F2D;
    private static final VectorOperators.Conversion<Double, Float> D2F = VectorOperators.D2F;

    private final double[] factors = new double[10];
    private final float[] pair = new float[8];
    // the four results, component-major (x of the four tracks, then y, z, w), before they go to their nodes
    private final float[] result = new float[4 * LANES];

    @Override
    public void run(float[] v, int[] nodes, int k, double s, float[] out) {
        final int count = nodes.length;
        final int a = 4 * k * count;
        if (s == 1 || count < LANES) {
            // s == 1: slerp's exact endpoint, rare; a group of fewer than four tracks has nothing for the vectors
            if (s == 1) {
                for (int i = 0; i < count; i++) {
                    ScalarSlerp.slerp(v, a + i, count, s, out, 4 * nodes[i], pair);
                }
            } else {
                ScalarSlerp.factors(s, factors);
                ScalarSlerp.tracks(v, a, 0, count, count, s, factors, out, nodes, pair);
            }
            return;
        }
        final double[] f = factors;
        ScalarSlerp.factors(s, f);
        final double u = 1 - s;
        final DoubleVector bu1 = DoubleVector.broadcast(D, f[0]), bu2 = DoubleVector.broadcast(D, f[1]);
        final DoubleVector bu3 = DoubleVector.broadcast(D, f[2]), bu4 = DoubleVector.broadcast(D, f[3]);
        final DoubleVector bu5 = DoubleVector.broadcast(D, f[4]), bt1 = DoubleVector.broadcast(D, f[5]);
        final DoubleVector bt2 = DoubleVector.broadcast(D, f[6]), bt3 = DoubleVector.broadcast(D, f[7]);
        final DoubleVector bt4 = DoubleVector.broadcast(D, f[8]), bt5 = DoubleVector.broadcast(D, f[9]);
        final DoubleVector one = DoubleVector.broadcast(D, 1.0);
        final float[] r = result;
        final int b = a + 4 * count;
        final int vectorEnd = count - count % LANES;
        for (int i = 0; i < vectorEnd; i += LANES) {
            // straight-line code, no helpers: a vector passed to a call the JIT does not inline is boxed
            final DoubleVector ax = (DoubleVector) FloatVector.fromArray(F, v, a + i).convertShape(F2D, D, 0);
            final DoubleVector ay = (DoubleVector) FloatVector.fromArray(F, v, a + count + i).convertShape(F2D, D, 0);
            final DoubleVector az = (DoubleVector) FloatVector.fromArray(F, v, a + 2 * count + i).convertShape(F2D, D, 0);
            final DoubleVector aw = (DoubleVector) FloatVector.fromArray(F, v, a + 3 * count + i).convertShape(F2D, D, 0);
            DoubleVector bx = (DoubleVector) FloatVector.fromArray(F, v, b + i).convertShape(F2D, D, 0);
            DoubleVector by = (DoubleVector) FloatVector.fromArray(F, v, b + count + i).convertShape(F2D, D, 0);
            DoubleVector bz = (DoubleVector) FloatVector.fromArray(F, v, b + 2 * count + i).convertShape(F2D, D, 0);
            DoubleVector bw = (DoubleVector) FloatVector.fromArray(F, v, b + 3 * count + i).convertShape(F2D, D, 0);
            DoubleVector d = ax.mul(bx).add(ay.mul(by)).add(az.mul(bz)).add(aw.mul(bw));
            // q and −q are the same rotation: the short way round, per lane
            final VectorMask<Double> flip = d.compare(VectorOperators.LT, 0.0);
            d = d.blend(d.neg(), flip);
            bx = bx.blend(bx.neg(), flip);
            by = by.blend(by.neg(), flip);
            bz = bz.blend(bz.neg(), flip);
            bw = bw.blend(bw.neg(), flip);
            if (!d.compare(VectorOperators.GE, 0.9).and(d.compare(VectorOperators.LE, 1.0)).allTrue()) {
                // a pair more than 51° of rotation apart, longer than unit (dot > 1) or NaN among the four: the scalar
                // code for all four
                ScalarSlerp.tracks(v, a, i, i + LANES, count, s, f, out, nodes, pair);
                continue;
            }
            final DoubleVector y = d.sub(1.0);
            DoubleVector fu = bu5.mul(y).add(1.0);
            DoubleVector ft = bt5.mul(y).add(1.0);
            fu = bu4.mul(y).fma(fu, one);
            ft = bt4.mul(y).fma(ft, one);
            fu = bu3.mul(y).fma(fu, one);
            ft = bt3.mul(y).fma(ft, one);
            fu = bu2.mul(y).fma(fu, one);
            ft = bt2.mul(y).fma(ft, one);
            fu = bu1.mul(y).fma(fu, one);
            ft = bt1.mul(y).fma(ft, one);
            final DoubleVector k0 = fu.mul(u);
            final DoubleVector k1 = ft.mul(s);
            ((FloatVector) (k0.mul(ax).add(k1.mul(bx))).convertShape(D2F, F, 0)).intoArray(r, 0);
            ((FloatVector) (k0.mul(ay).add(k1.mul(by))).convertShape(D2F, F, 0)).intoArray(r, LANES);
            ((FloatVector) (k0.mul(az).add(k1.mul(bz))).convertShape(D2F, F, 0)).intoArray(r, 2 * LANES);
            ((FloatVector) (k0.mul(aw).add(k1.mul(bw))).convertShape(D2F, F, 0)).intoArray(r, 3 * LANES);
            for (int j = 0; j < LANES; j++) {
                final int o = 4 * nodes[i + j];
                out[o] = r[j];
                out[o + 1] = r[LANES + j];
                out[o + 2] = r[2 * LANES + j];
                out[o + 3] = r[3 * LANES + j];
            }
        }
        ScalarSlerp.tracks(v, a, vectorEnd, count, count, s, f, out, nodes, pair);
    }
}
