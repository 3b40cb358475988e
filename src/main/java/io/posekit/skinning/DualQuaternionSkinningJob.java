package io.posekit.skinning;

import io.posekit.math.DualQuaternions;

/**
 * Dual-quaternion skinning (Kavan et al. 2008, with their two-phase handling of scale) of one primitive from
 * mesh space (the bind shape) into model space (ozz-animation style job: set the public fields, then
 * {@link #run()}). The counterpart of {@link SkinningJob} that keeps the volume of twisted and bent joints (no
 * "candy-wrapper" collapse), for rigs whose joints are rigid up to a uniform scale.
 *
 * <p>Joint {@code j} is the rigid transformation {@code D[j]} (unit dual quaternion
 * {@code dualQuaternions[8j..8j+7]}: real xyzw, dual xyzw) after the uniform scale {@code s[j] = scales[j]}
 * about the mesh-space origin, i.e. skinning matrix {@code M[j] = T·R·(s·I)} as split by
 * {@link SkinningDualQuaternionsJob}. For each vertex, over all {@link Primitive#influencesPerVertex()} slots:
 * <ul>
 *   <li>Weights: as {@link SkinningJob} — normalised to sum 1 ({@code w_i / Σw}); a vertex whose weights sum to
 *       0 (or to a non-finite value) is bound with weight 1 to its slot-0 joint; slots of weight 0 are skipped,
 *       so their joint index is never read.</li>
 *   <li>Scale (phase 1, blended linearly): {@code s̄ = Σ w_i s[j_i]}.</li>
 *   <li>Rigid part (phase 2): {@code D̄ = DLB(w, D)}, {@link DualQuaternions#blend}: the weighted sum with each
 *       dual quaternion's sign chosen to lie in the hemisphere of the largest-weight influence, normalised.</li>
 *   <li>Position: {@code p' = D̄ (s̄ · p)} (rotate, then translate). With one influence this is exactly
 *       {@code M[j] p}, as linear blend skinning gives.</li>
 *   <li>Normal: {@code n' = normalize(sign(s̄) · R(D̄) n)}: a uniform scale does not change directions, so the
 *       rotation alone carries them; {@code s̄ = 0} (joints scaled to nothing) gives a zero normal, as the
 *       singular normal matrix does in {@link SkinningJob}.</li>
 *   <li>Tangent: {@code xyz' = normalize(sign(s̄) · R(D̄) xyz)}, {@code w} (handedness) copied.</li>
 * </ul>
 * A vertex whose blend is degenerate (real part summing to zero, only possible with negative weights) follows
 * its slot-0 joint alone. Everything is computed in double and stored as float.
 *
 * <p>Not thread-safe (two small scratch buffers, allocated with the job; {@link #run()} allocates nothing);
 * reuse one instance per thread.
 */
public final class DualQuaternionSkinningJob {

    /** The primitive to skin; it must carry influences ({@code influencesPerVertex() > 0}). Required. */
    public Primitive primitive;
    /**
     * Per-joint rigid parts, 8 floats per skin joint: a unit dual quaternion, real {@code x, y, z, w} then dual
     * {@code x, y, z, w} ({@link SkinningDualQuaternionsJob} output). Required.
     */
    public float[] dualQuaternions;
    /**
     * Per-joint uniform scales (unitless, applied in mesh space before the rigid part), 1 float per skin joint
     * ({@link SkinningDualQuaternionsJob} output; {@code NaN} marks a joint that cannot be skinned with).
     * Required.
     */
    public float[] scales;
    /** Destination positions, 3 per vertex (model space), or {@code null} when not wanted. */
    /** Mesh-space positions to skin instead of the primitive's (e.g. morphed), 3 per vertex, or {@code null}. */
    public float[] inPositions;
    /** Mesh-space normals to skin instead of the primitive's (e.g. morphed), 3 per vertex, or {@code null}. */
    public float[] inNormals;
    public float[] outPositions;
    /**
     * Destination normals, 3 per vertex (model space, unit length or zero), or {@code null}; ignored when the
     * primitive has no normals.
     */
    public float[] outNormals;
    /**
     * Destination tangents, 4 per vertex (xyz model space unit length or zero, w handedness), or {@code null};
     * ignored when the primitive has no tangents.
     */
    public float[] outTangents;

    // the vertex's blended dual quaternion, and a transformed point or direction
    private final double[] blended = new double[DualQuaternions.STRIDE];
    private final double[] out3 = new double[3];

    /**
     * Whether the inputs are present and consistent: primitive, dual quaternions and scales set, the primitive
     * has influences, every wanted output is large enough, and no output is one of the primitive's arrays,
     * an input or another output.
     *
     * <p>Joint indices are per-vertex data and are checked while skinning instead: {@link #run()} throws when a
     * vertex refers to a joint without a dual quaternion and scale, or whose scale is {@code NaN}.
     */
    public boolean validate() {
        Primitive p = primitive;
        float[] dq = dualQuaternions;
        float[] s = scales;
        if (p == null || dq == null || s == null || p.influencesPerVertex() <= 0 || dq == s) {
            return false;
        }
        float[] outN = p.normals() == null ? null : outNormals;
        float[] outT = p.tangents() == null ? null : outTangents;
        return notInput(outPositions, dq, s) && notInput(outN, dq, s) && notInput(outT, dq, s)
                && SkinningOutputs.valid(p, inPositions, inNormals, outPositions, outNormals, outTangents);
    }

    private static boolean notInput(float[] out, float[] dq, float[] s) {
        return out == null || (out != dq && out != s);
    }

    /**
     * Skins the primitive into the wanted outputs.
     *
     * @throws IllegalStateException if {@link #validate()} is false, or if a vertex refers (through a slot of
     *     non-zero weight, or slot 0 of a vertex whose weights sum to 0) to a joint {@code ≥ min(
     *     dualQuaternions.length / 8, scales.length)} or whose scale is {@code NaN} (a joint
     *     {@link SkinningDualQuaternionsJob} could not represent and was told was unused); in that case the
     *     outputs are partly written
     */
    public void run() {
        if (!validate()) {
            throw new IllegalStateException("DualQuaternionSkinningJob inputs are missing or inconsistent");
        }
        final Primitive prim = primitive;
        final float[] dqs = dualQuaternions;
        final float[] sc = scales;
        final int jointCount = Math.min(dqs.length / DualQuaternions.STRIDE, sc.length);
        final int k = prim.influencesPerVertex();
        final int[] joints = prim.joints();
        final float[] weights = prim.weights();
        final float[] pos = inPositions != null ? inPositions : prim.positions();
        final float[] nrm = prim.normals() == null ? null : inNormals != null ? inNormals : prim.normals();
        final float[] tan = prim.tangents();
        final float[] outP = outPositions;
        final float[] outN = nrm == null ? null : outNormals;
        final float[] outT = tan == null ? null : outTangents;
        if (outP == null && outN == null && outT == null) {
            return;
        }
        final double[] d = blended;
        final double[] r = out3;
        final int vertexCount = prim.vertexCount();
        for (int v = 0; v < vertexCount; v++) {
            final int base = v * k;
            double sum = 0;
            double scaleSum = 0;
            for (int i = 0; i < k; i++) {
                final float w = weights[base + i];
                if (w == 0) {
                    continue;
                }
                final int j = checkedJoint(joints, base, i, v, jointCount, sc);
                sum += w;
                scaleSum += w * sc[j];
            }
            final double scale;
            if (sum != 0 && Double.isFinite(sum)
                    && DualQuaternions.blend(dqs, joints, weights, base, k, d, 0)) {
                scale = scaleSum / sum;
            } else {
                // as three.js normalizeSkinWeights (and SkinningJob): a vertex without usable weights follows
                // its slot-0 joint; so does a degenerate blend, which only negative weights can produce
                final int j = checkedJoint(joints, base, 0, v, jointCount, sc);
                final int o = DualQuaternions.STRIDE * j;
                for (int c = 0; c < DualQuaternions.STRIDE; c++) {
                    d[c] = dqs[o + c];
                }
                scale = sc[j];
            }
            final int p3 = 3 * v;
            final int p4 = 4 * v;
            if (outP != null) {
                // phase 1: the blended uniform scale in mesh space; phase 2: the blended rigid motion
                DualQuaternions.transformPoint(d, 0, scale * pos[p3], scale * pos[p3 + 1], scale * pos[p3 + 2], r, 0);
                outP[p3] = (float) r[0];
                outP[p3 + 1] = (float) r[1];
                outP[p3 + 2] = (float) r[2];
            }
            // the normal matrix of R·(s·I) is R/s: the rotation, flipped for a negative s, collapsed for s = 0
            final double sign = Math.signum(scale);
            if (outN != null) {
                DualQuaternions.transformVector(d, 0, nrm[p3], nrm[p3 + 1], nrm[p3 + 2], r, 0);
                SkinningJob.store3Normalized(sign * r[0], sign * r[1], sign * r[2], outN, p3);
            }
            if (outT != null) {
                DualQuaternions.transformVector(d, 0, tan[p4], tan[p4 + 1], tan[p4 + 2], r, 0);
                SkinningJob.store3Normalized(sign * r[0], sign * r[1], sign * r[2], outT, p4);
                outT[p4 + 3] = tan[p4 + 3];
            }
        }
    }

    /** The joint of slot {@code slot} of vertex {@code vertex}, checked to have a usable dual quaternion. */
    private static int checkedJoint(int[] joints, int base, int slot, int vertex, int jointCount, float[] scales) {
        final int j = joints[base + slot];
        if (j >= jointCount) {
            throw new IllegalStateException("vertex " + vertex + " slot " + slot + " refers to joint " + j
                    + " but there are only " + jointCount + " dual quaternions and scales");
        }
        if (Float.isNaN(scales[j])) {
            throw new IllegalStateException("vertex " + vertex + " slot " + slot + " refers to joint " + j
                    + ", which dual-quaternion skinning cannot represent (scale NaN: it was converted as unused)");
        }
        return j;
    }
}
