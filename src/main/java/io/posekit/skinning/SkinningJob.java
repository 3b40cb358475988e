package io.posekit.skinning;

import io.posekit.math.Matrices;

/**
 * Linear blend skinning of one primitive from mesh space (the bind shape) into model space (ozz-animation
 * style job: set the public fields, then {@link #run()}).
 *
 * <p>For each vertex, over all {@link Primitive#influencesPerVertex()} slots (4 per {@code JOINTS_n} /
 * {@code WEIGHTS_n} set, e.g. 8 for two sets):
 * <ul>
 *   <li>Weights are normalised to sum 1 ({@code w_i / Σw}); a vertex whose weights sum to 0 (or to a
 *       non-finite value) is bound with weight 1 to the joint in its slot 0, as three.js'
 *       {@code normalizeSkinWeights} does. Slots with weight 0 are skipped, so their joint index is never
 *       read.</li>
 *   <li>Position: {@code p' = Σ w_i · S[j_i] · p}.</li>
 *   <li>Normal: {@code n' = normalize(Σ w_i · N[j_i] · n)}, where {@code N[j]} is the inverse transpose of the
 *       upper 3×3 of {@code S[j]} ({@link Matrices#normalMatrix}, computed once per joint per run); a
 *       zero-length result stays zero.</li>
 *   <li>Tangent: {@code xyz' = normalize(Σ w_i · upper3×3(S[j_i]) · xyz)}, {@code w} (handedness) copied.</li>
 * </ul>
 * {@code S[j]} is skinning matrix {@code j} (a {@link SkinningMatricesJob} output). Sums and products are
 * done in double and stored as float.
 *
 * <p>Not thread-safe: the job owns a scratch buffer for the normal matrices that grows as needed (the only
 * allocation, and only when a skin with more joints than before is seen); reuse one instance per thread.
 */
public final class SkinningJob {

    /** The primitive to skin; it must carry influences ({@code influencesPerVertex() > 0}). Required. */
    public Primitive primitive;
    /** Skinning matrices, 16 floats per skin joint, column-major. Required. */
    public float[] skinningMatrices;
    /**
     * Mesh-space positions to skin instead of the primitive's own (e.g. a {@link MorphJob} output), 3 per vertex,
     * or {@code null} for the primitive's.
     */
    public float[] inPositions;
    /**
     * Mesh-space normals to skin instead of the primitive's own (e.g. a {@link MorphJob} output), 3 per vertex, or
     * {@code null} for the primitive's; ignored when the primitive has no normals.
     */
    public float[] inNormals;
    /** Destination positions, 3 per vertex (model space), or {@code null} when not wanted. */
    public float[] outPositions;
    /**
     * Destination normals, 3 per vertex (model space, unit length), or {@code null}; ignored when the
     * primitive has no normals.
     */
    public float[] outNormals;
    /**
     * Destination tangents, 4 per vertex (xyz model space unit length, w handedness), or {@code null}; ignored
     * when the primitive has no tangents.
     */
    public float[] outTangents;

    // normal matrix of each joint, 9 floats column-major; grown as needed
    private float[] normalMatrices = new float[0];

    /**
     * Whether the inputs are present and consistent: primitive and skinning matrices set, the primitive has
     * influences, every wanted output is large enough and no output is one of the primitive's own arrays or
     * another output.
     *
     * <p>Joint indices are per-vertex data and are checked while skinning instead (so validation stays O(1)):
     * {@link #run()} throws when a vertex refers to a joint without a skinning matrix.
     */
    public boolean validate() {
        Primitive p = primitive;
        if (p == null || skinningMatrices == null || p.influencesPerVertex() <= 0) {
            return false;
        }
        return SkinningOutputs.valid(p, inPositions, inNormals, outPositions, outNormals, outTangents);
    }

    /**
     * Skins the primitive into the wanted outputs.
     *
     * @throws IllegalStateException if {@link #validate()} is false, or if a vertex refers (through a slot of
     *     non-zero weight, or slot 0 of a vertex whose weights sum to 0) to a joint {@code ≥
     *     skinningMatrices.length / 16}; in that case the outputs are partly written
     */
    public void run() {
        if (!validate()) {
            throw new IllegalStateException("SkinningJob inputs are missing or inconsistent");
        }
        final Primitive prim = primitive;
        final float[] s = skinningMatrices;
        final int jointCount = s.length / 16;
        final int k = prim.influencesPerVertex();
        final int[] joints = prim.joints();
        final float[] weights = prim.weights();
        final float[] pos = inPositions != null ? inPositions : prim.positions();
        final float[] nrm = prim.normals() == null ? null : inNormals != null ? inNormals : prim.normals();
        final float[] tan = prim.tangents();
        final float[] outP = outPositions;
        final float[] outN = nrm == null ? null : outNormals;
        final float[] outT = tan == null ? null : outTangents;
        final boolean doP = outP != null;
        final boolean doN = outN != null;
        final boolean doT = outT != null;
        if (!doP && !doN && !doT) {
            return;
        }
        float[] nm = null;
        if (doN) {
            if (normalMatrices.length < 9 * jointCount) {
                normalMatrices = new float[9 * jointCount];
            }
            nm = normalMatrices;
            for (int j = 0; j < jointCount; j++) {
                Matrices.normalMatrix(s, 16 * j, nm, 9 * j);
            }
        }
        final int vertexCount = prim.vertexCount();
        for (int v = 0; v < vertexCount; v++) {
            final int base = v * k;
            final int p3 = 3 * v;
            final int p4 = 4 * v;
            // inputs (only read when wanted)
            final double px = doP ? pos[p3] : 0, py = doP ? pos[p3 + 1] : 0, pz = doP ? pos[p3 + 2] : 0;
            final double nx = doN ? nrm[p3] : 0, ny = doN ? nrm[p3 + 1] : 0, nz = doN ? nrm[p3 + 2] : 0;
            final double tx = doT ? tan[p4] : 0, ty = doT ? tan[p4 + 1] : 0, tz = doT ? tan[p4 + 2] : 0;
            // Σ w·(S p), Σ w·(N n), Σ w·(S3 t) with the raw weights: transforming per influence keeps few values
            // live, and dividing by Σw once at the end keeps the division off the accumulation's critical path
            double ax = 0, ay = 0, az = 0, bx = 0, by = 0, bz = 0, cx = 0, cy = 0, cz = 0;
            double sum = 0;
            for (int i = 0; i < k; i++) {
                final float w = weights[base + i];
                if (w == 0) {
                    continue;
                }
                sum += w;
                final int j = joints[base + i];
                if (j >= jointCount) {
                    throw jointOutOfRange(v, i, j, jointCount);
                }
                final int o = 16 * j;
                if (doP) {
                    ax += w * (s[o] * px + s[o + 4] * py + s[o + 8] * pz + s[o + 12]);
                    ay += w * (s[o + 1] * px + s[o + 5] * py + s[o + 9] * pz + s[o + 13]);
                    az += w * (s[o + 2] * px + s[o + 6] * py + s[o + 10] * pz + s[o + 14]);
                }
                if (doN) {
                    final int q = 9 * j;
                    bx += w * (nm[q] * nx + nm[q + 3] * ny + nm[q + 6] * nz);
                    by += w * (nm[q + 1] * nx + nm[q + 4] * ny + nm[q + 7] * nz);
                    bz += w * (nm[q + 2] * nx + nm[q + 5] * ny + nm[q + 8] * nz);
                }
                if (doT) {
                    cx += w * (s[o] * tx + s[o + 4] * ty + s[o + 8] * tz);
                    cy += w * (s[o + 1] * tx + s[o + 5] * ty + s[o + 9] * tz);
                    cz += w * (s[o + 2] * tx + s[o + 6] * ty + s[o + 10] * tz);
                }
            }
            if (sum == 0 || !Double.isFinite(sum)) {
                // as three.js normalizeSkinWeights: a vertex without usable weights follows its slot-0 joint
                final int j = joints[base];
                if (j >= jointCount) {
                    throw jointOutOfRange(v, 0, j, jointCount);
                }
                final int o = 16 * j;
                final int q = 9 * j;
                ax = s[o] * px + s[o + 4] * py + s[o + 8] * pz + s[o + 12];
                ay = s[o + 1] * px + s[o + 5] * py + s[o + 9] * pz + s[o + 13];
                az = s[o + 2] * px + s[o + 6] * py + s[o + 10] * pz + s[o + 14];
                if (doN) {
                    bx = nm[q] * nx + nm[q + 3] * ny + nm[q + 6] * nz;
                    by = nm[q + 1] * nx + nm[q + 4] * ny + nm[q + 7] * nz;
                    bz = nm[q + 2] * nx + nm[q + 5] * ny + nm[q + 8] * nz;
                }
                cx = s[o] * tx + s[o + 4] * ty + s[o + 8] * tz;
                cy = s[o + 1] * tx + s[o + 5] * ty + s[o + 9] * tz;
                cz = s[o + 2] * tx + s[o + 6] * ty + s[o + 10] * tz;
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
                store3Normalized(sum > 0 ? bx : -bx, sum > 0 ? by : -by, sum > 0 ? bz : -bz, outN, p3);
            }
            if (doT) {
                store3Normalized(sum > 0 ? cx : -cx, sum > 0 ? cy : -cy, sum > 0 ? cz : -cz, outT, p4);
                outT[p4 + 3] = tan[p4 + 3];
            }
        }
    }

    private static IllegalStateException jointOutOfRange(int vertex, int slot, int joint, int jointCount) {
        return new IllegalStateException("vertex " + vertex + " slot " + slot + " refers to joint " + joint
                + " but there are only " + jointCount + " skinning matrices");
    }

    /** Stores {@code (x, y, z)} scaled to unit length as floats at {@code out[o..o+2]}; zero length stays zero. */
    static void store3Normalized(double x, double y, double z, float[] out, int o) {
        double len2 = x * x + y * y + z * z;
        // a zero vector has no direction: keep it zero instead of producing NaN
        double inv = len2 > 0 ? 1 / Math.sqrt(len2) : 0;
        out[o] = (float) (x * inv);
        out[o + 1] = (float) (y * inv);
        out[o + 2] = (float) (z * inv);
    }
}
