package io.posekit.skinning;

/**
 * The loop of {@link DualQuaternionSkinningJob}, on one kernel path ({@link io.posekit.math.Kernels}):
 * {@link ScalarDualQuaternionBlend} or {@code VectorDualQuaternionBlend}, with the same results bit for bit. An
 * instance owns scratch buffers; one per job.
 */
interface DualQuaternionBlendKernel {

    /**
     * Skins every vertex of {@code prim} by the rules of {@link DualQuaternionSkinningJob}, from validated inputs:
     * {@code pos}, {@code nrm}, {@code tan} are the mesh-space inputs ({@code nrm}/{@code tan} null when the primitive
     * has none), each output null when not wanted.
     *
     * @throws IllegalStateException when a vertex refers to a joint without a dual quaternion or with a NaN scale
     *     (see {@link DualQuaternionSkinningJob#run()})
     */
    void skin(Primitive prim, float[] dualQuaternions, float[] scales, float[] pos, float[] nrm, float[] tan,
            float[] outP, float[] outN, float[] outT);
}
