package io.posekit.sampling;

/**
 * The LINEAR rotation loop of {@link GroupSampler}, on one kernel path ({@link io.posekit.math.Kernels}):
 * {@link ScalarSlerp} or {@code VectorSlerp}, with the same results bit for bit. An instance owns scratch buffers;
 * one per job.
 */
interface SlerpKernel {

    /**
     * Writes {@link io.posekit.math.Quaternions#slerp} of every track of a component-major rotation group
     * ({@link io.posekit.clip.ClipLayout.Group#componentMajor()}) from key {@code k} to key {@code k + 1} at fraction
     * {@code 0 < s < 1} into {@code out} at {@code 4 · nodes[i]}.
     *
     * @param v the group's values
     * @param nodes the group's nodes
     */
    void run(float[] v, int[] nodes, int k, double s, float[] out);
}
