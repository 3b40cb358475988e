package io.posekit.sampling;

import io.posekit.math.Kernels;
import io.posekit.rig.Rig;

/**
 * Converts a local pose into model-space matrices (ozz-animation style job: set the public fields, then
 * {@link #run()}).
 *
 * <p>For node {@code i}: {@code model(i) = model(parent(i)) · local(i)} with
 * {@code local(i) = T · R · S} from the pose; a root's model matrix is its local matrix. Model space is the
 * space of the scene root (glTF: scene space). The rig is parent-first ({@code parent(i) < i}), so one
 * forward pass suffices.
 *
 * <p>Precision: the whole chain is accumulated in double (in a scratch buffer the job owns) and each matrix is
 * rounded to float once when stored, so deep hierarchies do not accumulate float error; on either kernel path
 * ({@link Kernels}: scalar, or a column per 256-bit {@code DoubleVector}), which agree to a few double roundings. Not thread-safe;
 * reuse one instance per thread. {@code run()} allocates only when the scratch buffer has to grow for a
 * larger rig than before.
 */
public final class LocalToModelJob {

    /** The rig (its parent indices). Required. */
    public Rig rig;
    /** The local pose; {@code input.nodeCount() == rig.nodeCount()}. Required. */
    public LocalPose input;
    /**
     * Model-space matrices, 16 floats per node, column-major (element row r, column c of node i at
     * {@code 16i + 4c + r}); at least {@code 16 · rig.nodeCount()} long. Required.
     */
    public float[] output;

    private final LocalToModelKernel kernel;

    /** A job on the kernel path selected for this JVM ({@link Kernels#selected()}). */
    public LocalToModelJob() {
        this(Kernels.selected());
    }

    /**
     * A job on the given kernel path (tests compare the two).
     *
     * @throws IllegalStateException for {@link Kernels.Path#VECTOR} when {@code jdk.incubator.vector} is absent
     */
    public LocalToModelJob(Kernels.Path path) {
        kernel = Kernels.load(path, LocalToModelKernel.class, "io.posekit.sampling.VectorLocalToModel",
                ScalarLocalToModel::new);
    }

    /** Whether rig, input and output are set, the input matches the rig and the output is large enough. */
    public boolean validate() {
        return rig != null && input != null && output != null && input.nodeCount() == rig.nodeCount()
                && output.length >= 16L * rig.nodeCount();
    }

    /**
     * Writes the model matrix of every node into {@link #output}.
     *
     * @throws IllegalStateException if {@link #validate()} is false
     */
    public void run() {
        if (!validate()) {
            throw new IllegalStateException("LocalToModelJob inputs are missing or inconsistent");
        }
        kernel.run(rig.parents(), input.translations(), input.rotations(), input.scales(), output, rig.nodeCount());
    }
}
