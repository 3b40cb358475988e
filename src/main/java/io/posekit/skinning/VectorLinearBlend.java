package io.posekit.skinning;

import io.posekit.math.Matrices;
import io.posekit.math.VectorLanes;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API linear blend skinning kernel of {@link SkinningJob} (its contract, in float; within 1e-5 relative
 * of {@link ScalarLinearBlend}). Loaded by name only when {@code jdk.incubator.vector} is present
 * ({@link io.posekit.math.Kernels}).
 *
 * <p>One vertex at a time, a matrix column per 128-bit vector: the blended matrix's four columns (x, y, z, 0) are
 * {@code Σ w_i · column(j_i) / Σw} (4 vector multiply-adds per influence instead of 12 scalar ones), and
 * {@code p' = c0·px + c1·py + c2·pz + c3}, {@code n' = c0·nx + c1·ny + c2·nz} are 3 more each. Joint checks and the
 * zero-sum fallback are scalar, with the scalar kernel's rules; normalisation is scalar on the 3 lanes. Wider species
 * did not pay: 16 vertices per 512-bit vector needs the blended matrices transposed (gathers, slow on the AMD EPYC we
 * measure on) and the xyz arrays de- and re-interleaved; that design ran at 0.6× the scalar kernel.
 *
 * <p>Not thread-safe (the scratch); one per job.
 */
final class VectorLinearBlend implements LinearBlendKernel {

    private static final VectorSpecies<Float> S = VectorLanes.FLOAT;
    // floats per joint in the table: S's four columns (x, y, z, 0), then N's three (x, y, z, 0)
    private static final int JOINT = 28;

    private float[] table = new float[0];
    private final float[] normalMatrix = new float[9];
    // one transformed vector (4 lanes), read back by scalar code
    private final float[] lanes = new float[4];

    @Override
    public void skin(Primitive prim, float[] s, float[] pos, float[] nrm, float[] tan, float[] outP, float[] outN,
            float[] outT, int from, int end) {
        final int jointCount = s.length / 16;
        final int k = prim.influencesPerVertex();
        final boolean rigid = prepareJoints(s, jointCount, outN != null);
        final float[] m = table;
        final float[] r = lanes;
        final int[] joints = prim.joints();
        final float[] weights = prim.weights();
        for (int v = from; v < end; v++) {
            final int base = v * k;
            // Σ w_i · column(j_i) with the raw weights, divided by Σw once at the end (as the scalar kernel)
            FloatVector c0 = FloatVector.zero(S), c1 = c0, c2 = c0, c3 = c0;
            double sum = 0;
            for (int i = 0; i < k; i++) {
                final float wi = weights[base + i];
                final int o = slotOffset(joints[base + i], wi, jointCount, v, i);
                sum += wi;
                final FloatVector w = FloatVector.broadcast(S, wi);
                c0 = FloatVector.fromArray(S, m, o).fma(w, c0);
                c1 = FloatVector.fromArray(S, m, o + 4).fma(w, c1);
                c2 = FloatVector.fromArray(S, m, o + 8).fma(w, c2);
                c3 = FloatVector.fromArray(S, m, o + 12).fma(w, c3);
            }
            int slots = k;
            if (sum == 0 || !Double.isFinite(sum)) {
                // as three.js normalizeSkinWeights: a vertex without usable weights follows its slot-0 joint
                slots = 1;
                final int o = fallback(joints[base], jointCount, v);
                c0 = FloatVector.fromArray(S, m, o);
                c1 = FloatVector.fromArray(S, m, o + 4);
                c2 = FloatVector.fromArray(S, m, o + 8);
                c3 = FloatVector.fromArray(S, m, o + 12);
                sum = 1;
            } else {
                final FloatVector inv = FloatVector.broadcast(S, (float) (1 / sum));
                c0 = c0.mul(inv);
                c1 = c1.mul(inv);
                c2 = c2.mul(inv);
                c3 = c3.mul(inv);
            }
            final int p3 = 3 * v;
            if (outP != null) {
                c2.fma(FloatVector.broadcast(S, pos[p3 + 2]), c1.fma(FloatVector.broadcast(S, pos[p3 + 1]),
                        c0.fma(FloatVector.broadcast(S, pos[p3]), c3))).intoArray(r, 0);
                outP[p3] = r[0];
                outP[p3 + 1] = r[1];
                outP[p3 + 2] = r[2];
            }
            if (outN != null) {
                final FloatVector nx = FloatVector.broadcast(S, nrm[p3]);
                final FloatVector ny = FloatVector.broadcast(S, nrm[p3 + 1]);
                final FloatVector nz = FloatVector.broadcast(S, nrm[p3 + 2]);
                if (rigid) {
                    c2.fma(nz, c1.fma(ny, c0.mul(nx))).intoArray(r, 0);
                } else {
                    // N̄ = Σ w_i N[j_i], then N̄ n (the normal matrices differ from the 3×3s)
                    // (the sign of Σw matters for normals: with the fallback, slot 0 alone at weight 1)
                    FloatVector d0 = FloatVector.zero(S), d1 = d0, d2 = d0;
                    for (int i = 0; i < slots; i++) {
                        final float wi = slots == 1 ? 1 : weights[base + i];
                        final int o = slots == 1 ? fallback(joints[base], jointCount, v)
                                : slotOffset(joints[base + i], wi, jointCount, v, i);
                        final FloatVector w = FloatVector.broadcast(S, (float) (wi / sum));
                        d0 = FloatVector.fromArray(S, m, o + 16).fma(w, d0);
                        d1 = FloatVector.fromArray(S, m, o + 20).fma(w, d1);
                        d2 = FloatVector.fromArray(S, m, o + 24).fma(w, d2);
                    }
                    d2.fma(nz, d1.fma(ny, d0.mul(nx))).intoArray(r, 0);
                }
                store3Normalized(r, outN, p3);
            }
            if (outT != null) {
                final int p4 = 4 * v;
                c2.fma(FloatVector.broadcast(S, tan[p4 + 2]), c1.fma(FloatVector.broadcast(S, tan[p4 + 1]),
                        c0.mul(FloatVector.broadcast(S, tan[p4])))).intoArray(r, 0);
                store3Normalized(r, outT, p4);
                outT[p4 + 3] = tan[p4 + 3];
            }
        }
    }

    /**
     * Table offset of the joint a slot names; a slot of weight 0 may name any joint (even one without a skinning
     * matrix): it reads joint 0 instead, and contributes nothing.
     *
     * @throws IllegalStateException when a slot of non-zero (or NaN) weight names a joint without a skinning matrix
     */
    private static int slotOffset(int joint, float weight, int jointCount, int vertex, int slot) {
        final boolean outside = joint >= jointCount;
        if (outside & weight != 0) {
            throw ScalarLinearBlend.jointOutOfRange(vertex, slot, joint, jointCount);
        }
        return JOINT * (outside ? 0 : joint);
    }

    /** Table offset of the slot-0 joint of a vertex whose weights are unusable; it must have a matrix. */
    private static int fallback(int joint, int jointCount, int vertex) {
        if (joint >= jointCount) {
            throw ScalarLinearBlend.jointOutOfRange(vertex, 0, joint, jointCount);
        }
        return JOINT * joint;
    }

    /** Stores {@code r[0..2]} scaled to unit length at {@code out[o..o+2]}; zero length stays zero. */
    private static void store3Normalized(float[] r, float[] out, int o) {
        SkinningJob.store3Normalized(r[0], r[1], r[2], out, o);
    }

    /**
     * Fills the joint table ({@link #JOINT} floats per joint) from the skinning matrices, the normal matrices only
     * when normals are wanted.
     *
     * @return whether every joint is rigid by the scalar kernel's test (or normals are not wanted)
     */
    private boolean prepareJoints(float[] s, int jointCount, boolean withNormals) {
        if (table.length < JOINT * jointCount) {
            table = new float[JOINT * jointCount];
        }
        final float[] m = table;
        final float[] nm = normalMatrix;
        boolean rigid = true;
        for (int j = 0; j < jointCount; j++) {
            final int o = JOINT * j;
            final int so = 16 * j;
            // the columns with their fourth element 0 (the bottom row plays no part, as in the scalar kernel)
            for (int c = 0; c < 4; c++) {
                m[o + 4 * c] = s[so + 4 * c];
                m[o + 4 * c + 1] = s[so + 4 * c + 1];
                m[o + 4 * c + 2] = s[so + 4 * c + 2];
                m[o + 4 * c + 3] = 0;
            }
            if (withNormals) {
                Matrices.normalMatrix(s, so, nm, 0);
                for (int c = 0; c < 3; c++) {
                    for (int e = 0; e < 3; e++) {
                        m[o + 16 + 4 * c + e] = nm[3 * c + e];
                        // NaN compares false: a non-finite matrix is never rigid
                        rigid &= Math.abs(nm[3 * c + e] - s[so + 4 * c + e]) <= ScalarLinearBlend.RIGID_TOLERANCE;
                    }
                }
            }
        }
        return rigid;
    }
}
