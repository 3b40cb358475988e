package io.posekit.skinning;

import io.posekit.math.DualQuaternions;
import io.posekit.math.Kernels;

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
 * <p>Two kernels ({@link Kernels}): the scalar one vertex by vertex, and a Vector API one that blends and transforms
 * four vertices at once, one per lane, with the same operations in the same order, so the same results bit for bit.
 *
 * <p>Not thread-safe (the kernel's scratch buffers, allocated with the job; {@link #run()} allocates nothing); reuse
 * one instance per thread.
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
    /** Mesh-space positions to skin instead of the primitive's (e.g. morphed), 3 per vertex, or {@code null}. */
    public float[] inPositions;
    /** Mesh-space normals to skin instead of the primitive's (e.g. morphed), 3 per vertex, or {@code null}. */
    public float[] inNormals;
    /** Destination positions, 3 per vertex (model space), or {@code null} when not wanted. */
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

    private final DualQuaternionBlendKernel kernel;

    /** A job on the kernel path selected for this JVM ({@link Kernels#selected()}). */
    public DualQuaternionSkinningJob() {
        this(Kernels.selected());
    }

    /**
     * A job on the given kernel path (tests compare the two; the results are the same bit for bit).
     *
     * @throws IllegalStateException for {@link Kernels.Path#VECTOR} when {@code jdk.incubator.vector} is absent
     */
    public DualQuaternionSkinningJob(Kernels.Path path) {
        kernel = Kernels.load(path, DualQuaternionBlendKernel.class,
                "io.posekit.skinning.VectorDualQuaternionBlend", ScalarDualQuaternionBlend::new);
    }

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
        final float[] pos = inPositions != null ? inPositions : prim.positions();
        final float[] nrm = prim.normals() == null ? null : inNormals != null ? inNormals : prim.normals();
        final float[] tan = prim.tangents();
        final float[] outN = nrm == null ? null : outNormals;
        final float[] outT = tan == null ? null : outTangents;
        if (outPositions == null && outN == null && outT == null) {
            return;
        }
        kernel.skin(prim, dualQuaternions, scales, pos, nrm, tan, outPositions, outN, outT);
    }
}
