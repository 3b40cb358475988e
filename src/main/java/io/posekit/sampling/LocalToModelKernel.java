package io.posekit.sampling;

/**
 * The loop of {@link LocalToModelJob} on one kernel path ({@link io.posekit.math.Kernels}): {@link ScalarLocalToModel}
 * or {@code VectorLocalToModel}. An instance owns a scratch buffer; one per job.
 */
interface LocalToModelKernel {

    /**
     * Writes the model matrices of nodes {@code 0..n-1} (parent-first; {@code parents[i] < i}, −1 for a root) into
     * {@code out} (16 floats per node, column-major) from the local TRS (3, 4 and 3 floats per node).
     */
    void run(int[] parents, float[] translations, float[] rotations, float[] scales, float[] out, int n);
}
