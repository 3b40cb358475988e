package io.posekit.sampling;

import io.posekit.math.VectorLanes;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API kernel of {@link LocalToModelJob}, in two passes.
 *
 * <ol>
 *   <li>The local {@code T · R · S} matrices of four nodes at a time, one {@link DoubleVector} lane per node: the
 *       rotations, scales and translations gathered component by component, the 12 elements of the upper 3×4 computed
 *       by {@link io.posekit.math.Matrices#composeTrs}'s expressions (so the same doubles) and stored element-major
 *       per block of four nodes. Nodes past the last multiple of four are composed in scalar code, the same
 *       expressions.</li>
 *   <li>The chain: each model matrix four columns of a 256-bit {@code DoubleVector} (x, y, z, w), so
 *       {@code model(parent) · local} is 12 vector multiply-adds of the parent's columns with the local elements
 *       broadcast from memory, and the chain stays in double as on the scalar path. A root is multiplied by an
 *       identity kept past the last node, which is exact.</li>
 * </ol>
 * Taking the composition out of the chain loop leaves that loop only the multiply-adds that depend on the parent.
 * Loaded by name only when {@code jdk.incubator.vector} is present ({@link io.posekit.math.Kernels}). Not thread-safe
 * (the scratch); one per job.
 */
final class VectorLocalToModel implements LocalToModelKernel {

    private static final VectorSpecies<Double> D = VectorLanes.DOUBLE;
    private static final VectorSpecies<Float> F = VectorLanes.FLOAT;
    private static final VectorOperators.Conversion<Float, Double> F2D = VectorOperators.F2D;
    private static final VectorOperators.Conversion<Double, Float> D2F = VectorOperators.D2F;
    private static final int LANES = 4;
    // where component 0 of the four nodes of a block is, from the block's first: rotations (4 floats a node), and
    // translations and scales (3)
    private static final int[] QUATERNIONS = {0, 4, 8, 12};
    private static final int[] TRIPLES = {0, 3, 6, 9};
    // local elements per node: the upper 3×4 column-major (l0 l1 l2, l4 l5 l6, l8 l9 l10, l12 l13 l14)
    private static final int ELEMENTS = 12;

    // model matrices in double, 16 per node (4 columns of 4), then the identity for roots; grown as needed
    private double[] model = new double[0];
    // local elements, per block of four nodes element-major: element e of node 4b + j at 48b + 4e + j
    private double[] local = new double[0];

    @Override
    public void run(int[] parents, float[] translations, float[] rotations, float[] scales, float[] out, int n) {
        if (model.length < 16 * (n + 1)) {
            model = new double[16 * (n + 1)];
            local = new double[ELEMENTS * (n + LANES)];
        }
        compose(translations, rotations, scales, n);
        chain(parents, out, n);
    }

    /** Pass 1: the local elements of every node into {@link #local}. */
    private void compose(float[] translations, float[] rotations, float[] scales, int n) {
        final double[] l = local;
        final int vectorEnd = n - n % LANES;
        for (int i = 0; i < vectorEnd; i += LANES) {
            final int ri = 4 * i;
            final int si = 3 * i;
            final DoubleVector x = (DoubleVector) FloatVector.fromArray(F, rotations, ri, QUATERNIONS, 0)
                    .convertShape(F2D, D, 0);
            final DoubleVector y = (DoubleVector) FloatVector.fromArray(F, rotations, ri + 1, QUATERNIONS, 0)
                    .convertShape(F2D, D, 0);
            final DoubleVector z = (DoubleVector) FloatVector.fromArray(F, rotations, ri + 2, QUATERNIONS, 0)
                    .convertShape(F2D, D, 0);
            final DoubleVector w = (DoubleVector) FloatVector.fromArray(F, rotations, ri + 3, QUATERNIONS, 0)
                    .convertShape(F2D, D, 0);
            final DoubleVector sx = (DoubleVector) FloatVector.fromArray(F, scales, si, TRIPLES, 0)
                    .convertShape(F2D, D, 0);
            final DoubleVector sy = (DoubleVector) FloatVector.fromArray(F, scales, si + 1, TRIPLES, 0)
                    .convertShape(F2D, D, 0);
            final DoubleVector sz = (DoubleVector) FloatVector.fromArray(F, scales, si + 2, TRIPLES, 0)
                    .convertShape(F2D, D, 0);
            final DoubleVector x2 = x.add(x), y2 = y.add(y), z2 = z.add(z);
            final DoubleVector xx = x.mul(x2), xy = x.mul(y2), xz = x.mul(z2);
            final DoubleVector yy = y.mul(y2), yz = y.mul(z2), zz = z.mul(z2);
            final DoubleVector wx = w.mul(x2), wy = w.mul(y2), wz = w.mul(z2);
            final DoubleVector one = DoubleVector.broadcast(D, 1.0);
            // Matrices.composeTrs: (1 − (yy + zz))·sx, (xy + wz)·sx, …
            final int b = ELEMENTS * i;
            one.sub(yy.add(zz)).mul(sx).intoArray(l, b);
            xy.add(wz).mul(sx).intoArray(l, b + LANES);
            xz.sub(wy).mul(sx).intoArray(l, b + 2 * LANES);
            xy.sub(wz).mul(sy).intoArray(l, b + 3 * LANES);
            one.sub(xx.add(zz)).mul(sy).intoArray(l, b + 4 * LANES);
            yz.add(wx).mul(sy).intoArray(l, b + 5 * LANES);
            xz.add(wy).mul(sz).intoArray(l, b + 6 * LANES);
            yz.sub(wx).mul(sz).intoArray(l, b + 7 * LANES);
            one.sub(xx.add(yy)).mul(sz).intoArray(l, b + 8 * LANES);
            ((DoubleVector) FloatVector.fromArray(F, translations, si, TRIPLES, 0).convertShape(F2D, D, 0))
                    .intoArray(l, b + 9 * LANES);
            ((DoubleVector) FloatVector.fromArray(F, translations, si + 1, TRIPLES, 0).convertShape(F2D, D, 0))
                    .intoArray(l, b + 10 * LANES);
            ((DoubleVector) FloatVector.fromArray(F, translations, si + 2, TRIPLES, 0).convertShape(F2D, D, 0))
                    .intoArray(l, b + 11 * LANES);
        }
        for (int i = vectorEnd; i < n; i++) {
            final int ri = 4 * i;
            final int si = 3 * i;
            final double x = rotations[ri], y = rotations[ri + 1], z = rotations[ri + 2], w = rotations[ri + 3];
            final double sx = scales[si], sy = scales[si + 1], sz = scales[si + 2];
            final double x2 = x + x, y2 = y + y, z2 = z + z;
            final double xx = x * x2, xy = x * y2, xz = x * z2;
            final double yy = y * y2, yz = y * z2, zz = z * z2;
            final double wx = w * x2, wy = w * y2, wz = w * z2;
            final int b = ELEMENTS * vectorEnd + (i - vectorEnd);
            l[b] = (1 - (yy + zz)) * sx;
            l[b + LANES] = (xy + wz) * sx;
            l[b + 2 * LANES] = (xz - wy) * sx;
            l[b + 3 * LANES] = (xy - wz) * sy;
            l[b + 4 * LANES] = (1 - (xx + zz)) * sy;
            l[b + 5 * LANES] = (yz + wx) * sy;
            l[b + 6 * LANES] = (xz + wy) * sz;
            l[b + 7 * LANES] = (yz - wx) * sz;
            l[b + 8 * LANES] = (1 - (xx + yy)) * sz;
            l[b + 9 * LANES] = translations[si];
            l[b + 10 * LANES] = translations[si + 1];
            l[b + 11 * LANES] = translations[si + 2];
        }
    }

    /** Pass 2: {@code model(i) = model(parent) · local(i)} in double, each stored once as float. */
    private void chain(int[] parents, float[] out, int n) {
        final double[] m = model;
        final double[] l = local;
        final int identity = 16 * n;
        for (int e = 0; e < 16; e++) {
            m[identity + e] = e % 5 == 0 ? 1 : 0;
        }
        for (int i = 0; i < n; i++) {
            final int p = parents[i];
            final int q = p < 0 ? identity : 16 * p;
            // node i's elements: block i / 4, lane i % 4
            final int b = ELEMENTS * (i & ~(LANES - 1)) + (i & (LANES - 1));
            final DoubleVector a0 = DoubleVector.fromArray(D, m, q), a1 = DoubleVector.fromArray(D, m, q + 4);
            final DoubleVector a2 = DoubleVector.fromArray(D, m, q + 8), a3 = DoubleVector.fromArray(D, m, q + 12);
            // column c of model = a0·l[0][c] + a1·l[1][c] + a2·l[2][c] (+ a3 for the translation column)
            // (straight-line code, no helpers: a vector passed to a call the JIT does not inline is boxed)
            final DoubleVector c0 = a2.fma(DoubleVector.broadcast(D, l[b + 2 * LANES]),
                    a1.fma(DoubleVector.broadcast(D, l[b + LANES]), a0.mul(l[b])));
            final DoubleVector c1 = a2.fma(DoubleVector.broadcast(D, l[b + 5 * LANES]),
                    a1.fma(DoubleVector.broadcast(D, l[b + 4 * LANES]), a0.mul(l[b + 3 * LANES])));
            final DoubleVector c2 = a2.fma(DoubleVector.broadcast(D, l[b + 8 * LANES]),
                    a1.fma(DoubleVector.broadcast(D, l[b + 7 * LANES]), a0.mul(l[b + 6 * LANES])));
            final DoubleVector c3 = a2.fma(DoubleVector.broadcast(D, l[b + 11 * LANES]),
                    a1.fma(DoubleVector.broadcast(D, l[b + 10 * LANES]),
                            a0.fma(DoubleVector.broadcast(D, l[b + 9 * LANES]), a3)));
            final int o = 16 * i;
            c0.intoArray(m, o);
            c1.intoArray(m, o + 4);
            c2.intoArray(m, o + 8);
            c3.intoArray(m, o + 12);
            // (+0 turns the bottom row's −0 products into the 0 the scalar kernel stores)
            ((FloatVector) c0.add(0.0).convertShape(D2F, F, 0)).intoArray(out, o);
            ((FloatVector) c1.add(0.0).convertShape(D2F, F, 0)).intoArray(out, o + 4);
            ((FloatVector) c2.add(0.0).convertShape(D2F, F, 0)).intoArray(out, o + 8);
            ((FloatVector) c3.convertShape(D2F, F, 0)).intoArray(out, o + 12);
        }
    }
}
