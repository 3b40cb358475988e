package io.posekit.skinning;

/**
 * The loop of {@link SkinningMatricesJob} on one kernel path ({@link io.posekit.math.Kernels}):
 * {@link ScalarSkinningMatrices} or {@code VectorSkinningMatrices}.
 */
interface SkinningMatricesKernel {

    /**
     * {@code out[k] = model[nodes[k]] · inverseBind[k]} for every joint {@code k} (16 floats each, column-major).
     *
     * @throws IllegalStateException ({@link SkinningMatricesJob#nodeOutOfRange}) at the first joint whose node is not
     *     in {@code [0, modelCount)}; the joints before it are written
     */
    void run(int[] nodes, float[] inverseBinds, float[] model, int modelCount, float[] out);
}
