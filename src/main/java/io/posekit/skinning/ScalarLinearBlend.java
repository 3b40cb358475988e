package io.posekit.skinning;

import io.posekit.math.Matrices;

/**
 * The scalar linear blend skinning kernel of {@link SkinningJob} (its contract, in double with fused multiply-adds):
 * the reference the vector kernel is tested against, and the path of a JVM without {@code jdk.incubator.vector}.
 *
 * <p>Speed: the joints' matrices are widened to double once per run into a compact scratch table (24 doubles per joint,
 * L1-resident for skins of up to ~100 joints), so the per-vertex loop only converts the vertex's own floats, and it has
 * no data-dependent branch (zero weights are multiplied, not skipped), which keeps mixed 1–4-influence meshes free of
 * mispredictions. When every joint is a rotation (its normal matrix equals its upper 3×3 to 1e-4, the usual case), the
 * weighted sum of the joints' 3×4 matrices is formed once per vertex and transforms position, normal and tangent alike
 * (12 products per influence instead of 21); the normal is then the same up to rounding.
 *
 * <p>Not thread-safe (the scratch table); one per job.
 */
final class ScalarLinearBlend implements LinearBlendKernel {

    // scratch table layout, per joint: S's upper 3×3 column-major (0–8), its translation (9–11), N column-major (12–20)
    private static final int STRIDE = 24;
    // how far a normal matrix may be from its joint's upper 3×3 for the joint to count as rigid: rotations accumulated
    // in float through real rigs are orthonormal to ~3e-5 (BrainStem), and a 1e-4 difference moves a skinned normal by
    // at most about 1e-4 rad, a tenth of the conformance tolerance for normals
    static final double RIGID_TOLERANCE = 1e-4;

    // per joint: S and N in double (see STRIDE); grown as needed
    private double[] joints = new double[0];
    private final float[] normalMatrix = new float[9];

    @Override
    public void skin(Primitive prim, float[] s, float[] pos, float[] nrm, float[] tan, float[] outP, float[] outN,
            float[] outT, int firstVertex, int end) {
        final int jointCount = s.length / 16;
        final int k = prim.influencesPerVertex();
        final int[] jointIndices = prim.joints();
        final float[] weights = prim.weights();
        final boolean doP = outP != null;
        final boolean doN = outN != null;
        final boolean doT = outT != null;
        final boolean rigid = prepareJoints(s, jointCount, doN);
        final double[] m = joints;
        if (rigid) {
            skinRigid(m, jointCount, k, jointIndices, weights, pos, nrm, tan, outP, outN, outT, firstVertex, end);
            return;
        }
        for (int v = firstVertex; v < end; v++) {
            final int base = v * k;
            final int p3 = 3 * v;
            final int p4 = 4 * v;
            // inputs (only read when wanted)
            final double px = doP ? pos[p3] : 0, py = doP ? pos[p3 + 1] : 0, pz = doP ? pos[p3 + 2] : 0;
            final double nx = doN ? nrm[p3] : 0, ny = doN ? nrm[p3 + 1] : 0, nz = doN ? nrm[p3 + 2] : 0;
            final double tx = doT ? tan[p4] : 0, ty = doT ? tan[p4 + 1] : 0, tz = doT ? tan[p4 + 2] : 0;
            // Σ w·(S p), Σ w·(N n), Σ w·(S3 t) with the raw weights: transforming per influence keeps few values
            // live (no spills), and dividing by Σw once at the end keeps the division off the accumulation's
            // critical path
            double ax = 0, ay = 0, az = 0, bx = 0, by = 0, bz = 0, cx = 0, cy = 0, cz = 0;
            double sum = 0;
            for (int i = 0; i < k; i++) {
                final double w = weights[base + i];
                final int o = slotOffset(jointIndices[base + i], w, jointCount, v, i);
                sum += w;
                if (doP) {
                    ax = Math.fma(w, Math.fma(m[o], px, Math.fma(m[o + 3], py, Math.fma(m[o + 6], pz, m[o + 9]))), ax);
                    ay = Math.fma(w, Math.fma(m[o + 1], px, Math.fma(m[o + 4], py, Math.fma(m[o + 7], pz, m[o + 10]))), ay);
                    az = Math.fma(w, Math.fma(m[o + 2], px, Math.fma(m[o + 5], py, Math.fma(m[o + 8], pz, m[o + 11]))), az);
                }
                if (doN) {
                    bx = Math.fma(w, Math.fma(m[o + 12], nx, Math.fma(m[o + 15], ny, m[o + 18] * nz)), bx);
                    by = Math.fma(w, Math.fma(m[o + 13], nx, Math.fma(m[o + 16], ny, m[o + 19] * nz)), by);
                    bz = Math.fma(w, Math.fma(m[o + 14], nx, Math.fma(m[o + 17], ny, m[o + 20] * nz)), bz);
                }
                if (doT) {
                    cx = Math.fma(w, Math.fma(m[o], tx, Math.fma(m[o + 3], ty, m[o + 6] * tz)), cx);
                    cy = Math.fma(w, Math.fma(m[o + 1], tx, Math.fma(m[o + 4], ty, m[o + 7] * tz)), cy);
                    cz = Math.fma(w, Math.fma(m[o + 2], tx, Math.fma(m[o + 5], ty, m[o + 8] * tz)), cz);
                }
            }
            if (sum == 0 || !Double.isFinite(sum)) {
                // as three.js normalizeSkinWeights: a vertex without usable weights follows its slot-0 joint
                final int o = slotOffset(jointIndices[base], 1, jointCount, v, 0);
                ax = m[o] * px + m[o + 3] * py + m[o + 6] * pz + m[o + 9];
                ay = m[o + 1] * px + m[o + 4] * py + m[o + 7] * pz + m[o + 10];
                az = m[o + 2] * px + m[o + 5] * py + m[o + 8] * pz + m[o + 11];
                bx = m[o + 12] * nx + m[o + 15] * ny + m[o + 18] * nz;
                by = m[o + 13] * nx + m[o + 16] * ny + m[o + 19] * nz;
                bz = m[o + 14] * nx + m[o + 17] * ny + m[o + 20] * nz;
                cx = m[o] * tx + m[o + 3] * ty + m[o + 6] * tz;
                cy = m[o + 1] * tx + m[o + 4] * ty + m[o + 7] * tz;
                cz = m[o + 2] * tx + m[o + 5] * ty + m[o + 8] * tz;
                sum = 1;
            }
            if (doP) {
                // normalised weights: Σ (w/Σw)·S p = (Σ w·S p) / Σw
                final double inv = 1 / sum;
                outP[p3] = (float) (ax * inv);
                outP[p3 + 1] = (float) (ay * inv);
                outP[p3 + 2] = (float) (az * inv);
            }
            // normals and tangents are normalised, so the positive factor 1/Σw would change nothing; a negative
            // Σw (invalid negative weights) flips them, as dividing by it would
            if (doN) {
                SkinningJob.store3Normalized(sum > 0 ? bx : -bx, sum > 0 ? by : -by, sum > 0 ? bz : -bz, outN, p3);
            }
            if (doT) {
                SkinningJob.store3Normalized(sum > 0 ? cx : -cx, sum > 0 ? cy : -cy, sum > 0 ? cz : -cz, outT, p4);
                outT[p4 + 3] = tan[p4 + 3];
            }
        }
    }

    /**
     * Fills the scratch table from the skinning matrices (normal matrices only when normals are wanted).
     *
     * @return whether every joint's normal matrix is its upper 3×3 (to 1e-4 per element: rotations, the usual case),
     *     or normals are not wanted; then normals can be transformed by the blended matrix itself
     */
    private boolean prepareJoints(float[] s, int jointCount, boolean withNormals) {
        if (joints.length < STRIDE * jointCount) {
            joints = new double[STRIDE * jointCount];
        }
        double[] m = joints;
        float[] nm = normalMatrix;
        boolean rigid = true;
        for (int j = 0; j < jointCount; j++) {
            int o = STRIDE * j;
            int so = 16 * j;
            for (int c = 0; c < 3; c++) {
                m[o + 3 * c] = s[so + 4 * c];
                m[o + 3 * c + 1] = s[so + 4 * c + 1];
                m[o + 3 * c + 2] = s[so + 4 * c + 2];
            }
            m[o + 9] = s[so + 12];
            m[o + 10] = s[so + 13];
            m[o + 11] = s[so + 14];
            if (withNormals) {
                Matrices.normalMatrix(s, so, nm, 0);
                for (int e = 0; e < 9; e++) {
                    m[o + 12 + e] = nm[e];
                    // NaN compares false: a non-finite matrix is never rigid
                    rigid &= Math.abs(nm[e] - m[o + e]) <= RIGID_TOLERANCE;
                }
            }
        }
        return rigid;
    }

    /**
     * The loop of {@link #run()} when every joint is rigid ({@link #prepareJoints}): the weighted sum of the joints'
     * 3×4 matrices is formed once per vertex (12 products per influence instead of 21) and transforms the position,
     * the normal (a rotation is its own normal matrix) and the tangent. Weights, the zero-sum fallback and the joint
     * checks are those of the general loop.
     */
    private static void skinRigid(double[] m, int jointCount, int k, int[] jointIndices, float[] weights, float[] pos,
            float[] nrm, float[] tan, float[] outP, float[] outN, float[] outT, int from, int end) {
        final boolean doP = outP != null;
        final boolean doN = outN != null;
        final boolean doT = outT != null;
        for (int v = from; v < end; v++) {
            final int base = v * k;
            double m0 = 0, m1 = 0, m2 = 0, m3 = 0, m4 = 0, m5 = 0, m6 = 0, m7 = 0, m8 = 0, m9 = 0, m10 = 0, m11 = 0;
            double sum = 0;
            for (int i = 0; i < k; i++) {
                final double w = weights[base + i];
                final int o = slotOffset(jointIndices[base + i], w, jointCount, v, i);
                sum += w;
                m0 = Math.fma(w, m[o], m0);
                m1 = Math.fma(w, m[o + 1], m1);
                m2 = Math.fma(w, m[o + 2], m2);
                m3 = Math.fma(w, m[o + 3], m3);
                m4 = Math.fma(w, m[o + 4], m4);
                m5 = Math.fma(w, m[o + 5], m5);
                m6 = Math.fma(w, m[o + 6], m6);
                m7 = Math.fma(w, m[o + 7], m7);
                m8 = Math.fma(w, m[o + 8], m8);
                m9 = Math.fma(w, m[o + 9], m9);
                m10 = Math.fma(w, m[o + 10], m10);
                m11 = Math.fma(w, m[o + 11], m11);
            }
            if (sum == 0 || !Double.isFinite(sum)) {
                // as three.js normalizeSkinWeights: a vertex without usable weights follows its slot-0 joint
                final int o = slotOffset(jointIndices[base], 1, jointCount, v, 0);
                m0 = m[o]; m1 = m[o + 1]; m2 = m[o + 2]; m3 = m[o + 3]; m4 = m[o + 4]; m5 = m[o + 5];
                m6 = m[o + 6]; m7 = m[o + 7]; m8 = m[o + 8]; m9 = m[o + 9]; m10 = m[o + 10]; m11 = m[o + 11];
                sum = 1;
            }
            final int p3 = 3 * v;
            if (doP) {
                final double px = pos[p3], py = pos[p3 + 1], pz = pos[p3 + 2];
                final double inv = 1 / sum;
                outP[p3] = (float) (Math.fma(m0, px, Math.fma(m3, py, Math.fma(m6, pz, m9))) * inv);
                outP[p3 + 1] = (float) (Math.fma(m1, px, Math.fma(m4, py, Math.fma(m7, pz, m10))) * inv);
                outP[p3 + 2] = (float) (Math.fma(m2, px, Math.fma(m5, py, Math.fma(m8, pz, m11))) * inv);
            }
            // a negative Σw (invalid negative weights) flips normals and tangents, as dividing by it would
            final double sign = sum > 0 ? 1 : -1;
            if (doN) {
                final double nx = nrm[p3] * sign, ny = nrm[p3 + 1] * sign, nz = nrm[p3 + 2] * sign;
                SkinningJob.store3Normalized(Math.fma(m0, nx, Math.fma(m3, ny, m6 * nz)), Math.fma(m1, nx, Math.fma(m4, ny, m7 * nz)),
                        Math.fma(m2, nx, Math.fma(m5, ny, m8 * nz)), outN, p3);
            }
            if (doT) {
                final int p4 = 4 * v;
                final double tx = tan[p4] * sign, ty = tan[p4 + 1] * sign, tz = tan[p4 + 2] * sign;
                SkinningJob.store3Normalized(Math.fma(m0, tx, Math.fma(m3, ty, m6 * tz)), Math.fma(m1, tx, Math.fma(m4, ty, m7 * tz)),
                        Math.fma(m2, tx, Math.fma(m5, ty, m8 * tz)), outT, p4);
                outT[p4 + 3] = tan[p4 + 3];
            }
        }
    }

    /**
     * Offset in the joint table of the joint a slot names. A slot of weight 0 may name any joint (even one without a
     * skinning matrix): it reads joint 0 instead of leaving the table, and contributes nothing.
     *
     * @throws IllegalStateException when a slot of non-zero (or NaN) weight names a joint without a skinning matrix
     */
    private static int slotOffset(int joint, double weight, int jointCount, int vertex, int slot) {
        final boolean outside = joint >= jointCount;
        if (outside & weight != 0) {
            throw jointOutOfRange(vertex, slot, joint, jointCount);
        }
        return STRIDE * (outside ? 0 : joint);
    }

    static IllegalStateException jointOutOfRange(int vertex, int slot, int joint, int jointCount) {
        return new IllegalStateException("vertex " + vertex + " slot " + slot + " refers to joint " + joint
                + " but there are only " + jointCount + " skinning matrices");
    }
}
