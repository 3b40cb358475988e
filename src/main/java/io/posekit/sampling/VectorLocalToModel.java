package io.posekit.sampling;

import io.posekit.math.VectorLanes;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API kernel of {@link LocalToModelJob}: each model matrix is four columns of a 256-bit {@link DoubleVector}
 * (x, y, z, w), so {@code model(parent) · local} is 12 vector multiply-adds instead of 36 scalar products and sums, and
 * the chain stays in double as on the scalar path. The local TRS matrix is composed in scalar code (its elements are
 * broadcast). A root is multiplied by an identity kept past the last node, which is exact. Loaded by name only when
 * {@code jdk.incubator.vector} is present ({@link io.posekit.math.Kernels}). Not thread-safe (the scratch); one per job.
 */
final class VectorLocalToModel implements LocalToModelKernel {

    private static final VectorSpecies<Double> D = VectorLanes.DOUBLE;
    private static final VectorSpecies<Float> F = VectorLanes.FLOAT;

    // model matrices in double, 16 per node (4 columns of 4), then the identity for roots; grown as needed
    private double[] model = new double[0];

    @Override
    public void run(int[] parents, float[] translations, float[] rotations, float[] scales, float[] out, int n) {
        if (model.length < 16 * (n + 1)) {
            model = new double[16 * (n + 1)];
        }
        final double[] m = model;
        final int identity = 16 * n;
        for (int e = 0; e < 16; e++) {
            m[identity + e] = e % 5 == 0 ? 1 : 0;
        }
        for (int i = 0; i < n; i++) {
            // local = T · R · S (Matrices.composeTrs), in registers
            final int ri = 4 * i;
            final int si = 3 * i;
            final double x = rotations[ri], y = rotations[ri + 1], z = rotations[ri + 2], w = rotations[ri + 3];
            final double sx = scales[si], sy = scales[si + 1], sz = scales[si + 2];
            final double x2 = x + x, y2 = y + y, z2 = z + z;
            final double xx = x * x2, xy = x * y2, xz = x * z2;
            final double yy = y * y2, yz = y * z2, zz = z * z2;
            final double wx = w * x2, wy = w * y2, wz = w * z2;
            final int p = parents[i];
            final int q = p < 0 ? identity : 16 * p;
            final DoubleVector a0 = DoubleVector.fromArray(D, m, q), a1 = DoubleVector.fromArray(D, m, q + 4);
            final DoubleVector a2 = DoubleVector.fromArray(D, m, q + 8), a3 = DoubleVector.fromArray(D, m, q + 12);
            // column c of model = a0·l[0][c] + a1·l[1][c] + a2·l[2][c] (+ a3 for the translation column)
            // (straight-line code, no helpers: a vector passed to a call the JIT does not inline is boxed)
            final DoubleVector c0 = a2.fma(DoubleVector.broadcast(D, (xz - wy) * sx),
                    a1.fma(DoubleVector.broadcast(D, (xy + wz) * sx), a0.mul((1 - (yy + zz)) * sx)));
            final DoubleVector c1 = a2.fma(DoubleVector.broadcast(D, (yz + wx) * sy),
                    a1.fma(DoubleVector.broadcast(D, (1 - (xx + zz)) * sy), a0.mul((xy - wz) * sy)));
            final DoubleVector c2 = a2.fma(DoubleVector.broadcast(D, (1 - (xx + yy)) * sz),
                    a1.fma(DoubleVector.broadcast(D, (yz - wx) * sz), a0.mul((xz + wy) * sz)));
            final DoubleVector c3 = a2.fma(DoubleVector.broadcast(D, translations[si + 2]),
                    a1.fma(DoubleVector.broadcast(D, translations[si + 1]),
                            a0.fma(DoubleVector.broadcast(D, translations[si]), a3)));
            final int o = 16 * i;
            c0.intoArray(m, o);
            c1.intoArray(m, o + 4);
            c2.intoArray(m, o + 8);
            c3.intoArray(m, o + 12);
            // (+0 turns the bottom row's −0 products into the 0 the scalar kernel stores)
            ((FloatVector) c0.add(0.0).convertShape(VectorOperators.D2F, F, 0)).intoArray(out, o);
            ((FloatVector) c1.add(0.0).convertShape(VectorOperators.D2F, F, 0)).intoArray(out, o + 4);
            ((FloatVector) c2.add(0.0).convertShape(VectorOperators.D2F, F, 0)).intoArray(out, o + 8);
            ((FloatVector) c3.convertShape(VectorOperators.D2F, F, 0)).intoArray(out, o + 12);
        }
    }
}
