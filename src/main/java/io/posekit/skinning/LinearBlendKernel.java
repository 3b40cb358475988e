package io.posekit.skinning;

/**
 * The loop of {@link SkinningJob}, on one kernel path ({@link io.posekit.math.Kernels}): {@link ScalarLinearBlend} or
 * {@code VectorLinearBlend}. An instance owns scratch buffers; one per job.
 */
interface LinearBlendKernel {

    /**
     * Skins vertices {@code [from, end)} of {@code prim} by the rules of {@link SkinningJob}, from validated inputs:
     * {@code pos}, {@code nrm}, {@code tan} are the mesh-space inputs ({@code nrm}/{@code tan} null when the primitive
     * has none), each output null when not wanted.
     *
     * @throws IllegalStateException when a vertex refers to a joint without a skinning matrix (see
     *     {@link SkinningJob#run()})
     */
    void skin(Primitive prim, float[] skinningMatrices, float[] pos, float[] nrm, float[] tan, float[] outP,
            float[] outN, float[] outT, int from, int end);
}
