package io.posekit.skinning;

import io.posekit.math.Kernels;
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
 *       {@code normalizeSkinWeights} does. A slot of weight 0 contributes nothing, whatever joint it names (even one
 *       without a skinning matrix), as long as the skinning matrices are finite; a non-finite matrix makes every
 *       vertex that names it non-finite (the service refuses non-finite output).</li>
 *   <li>Position: {@code p' = Σ w_i · S[j_i] · p}.</li>
 *   <li>Normal: {@code n' = normalize(Σ w_i · N[j_i] · n)}, where {@code N[j]} is the inverse transpose of the
 *       upper 3×3 of {@code S[j]} ({@link Matrices#normalMatrix}, computed once per joint per run); a
 *       zero-length result stays zero.</li>
 *   <li>Tangent: {@code xyz' = normalize(Σ w_i · upper3×3(S[j_i]) · xyz)}, {@code w} (handedness) copied.</li>
 * </ul>
 * {@code S[j]} is skinning matrix {@code j} (a {@link SkinningMatricesJob} output); results are stored as float.
 *
 * <p>Kernels: the loop runs on the path {@link Kernels#selected()} (or the one given to the constructor): the scalar
 * kernel computes in double with fused multiply-adds; the Vector API kernel blends each vertex's joint matrices as
 * 16-float rows and transforms 4–16 vertices per instruction in float (results within 1e-5 relative of the scalar
 * ones). When every joint is a rotation (its normal matrix equals its upper 3×3 to 1e-4, the usual case), both
 * transform normals by the blended matrix itself. {@link #firstVertex} and {@link #endVertex} select a range, so
 * disjoint ranges of one primitive can be skinned by separate jobs on separate threads ({@link Skinner} does that for
 * large primitives).
 *
 * <p>Not thread-safe: the job's kernel owns scratch tables, which grow as needed (the only allocation, and only when a
 * skin with more joints than before is seen); reuse one instance per thread.
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

    /** First vertex to skin (inclusive); 0 by default. */
    public int firstVertex;
    /** Vertex after the last one to skin (exclusive), or −1 (the default) for the primitive's vertex count. */
    public int endVertex = -1;

    private final LinearBlendKernel kernel;

    /** A job on the kernel path selected for this JVM ({@link Kernels#selected()}). */
    public SkinningJob() {
        this(Kernels.selected());
    }

    /**
     * A job on the given kernel path (tests compare the two).
     *
     * @throws IllegalStateException for {@link Kernels.Path#VECTOR} when {@code jdk.incubator.vector} is absent
     */
    public SkinningJob(Kernels.Path path) {
        kernel = Kernels.load(path, LinearBlendKernel.class, "io.posekit.skinning.VectorLinearBlend",
                ScalarLinearBlend::new);
    }

    /**
     * Whether the inputs are present and consistent: primitive and skinning matrices set, the primitive has
     * influences, every wanted output is large enough, no output is one of the primitive's own arrays or
     * another output, and {@code 0 ≤ firstVertex ≤ end ≤ vertexCount} (end = {@link #endVertex}, or the vertex count
     * when it is −1).
     *
     * <p>Joint indices are per-vertex data and are checked while skinning instead (so validation stays O(1)):
     * {@link #run()} throws when a vertex refers to a joint without a skinning matrix.
     */
    public boolean validate() {
        Primitive p = primitive;
        if (p == null || skinningMatrices == null || p.influencesPerVertex() <= 0) {
            return false;
        }
        int end = endVertex == -1 ? p.vertexCount() : endVertex;
        if (firstVertex < 0 || firstVertex > end || end > p.vertexCount()) {
            return false;
        }
        return SkinningOutputs.valid(p, inPositions, inNormals, outPositions, outNormals, outTangents);
    }

    /**
     * Skins the vertices {@code [firstVertex, end)} of the primitive into the wanted outputs (at the same indices).
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
        final float[] pos = inPositions != null ? inPositions : prim.positions();
        final float[] nrm = prim.normals() == null ? null : inNormals != null ? inNormals : prim.normals();
        final float[] tan = prim.tangents();
        final float[] outN = nrm == null ? null : outNormals;
        final float[] outT = tan == null ? null : outTangents;
        if (outPositions == null && outN == null && outT == null) {
            return;
        }
        final int end = endVertex == -1 ? prim.vertexCount() : endVertex;
        kernel.skin(prim, skinningMatrices, pos, nrm, tan, outPositions, outN, outT, firstVertex, end);
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
