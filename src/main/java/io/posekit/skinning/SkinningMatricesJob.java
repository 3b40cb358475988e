package io.posekit.skinning;

import io.posekit.math.Kernels;
import io.posekit.rig.Skin;

/**
 * Computes the skinning matrix of every joint of a skin (ozz-animation style job: set the public fields,
 * then {@link #run()}).
 *
 * <p>Skinning matrix {@code k} = {@code model(jointNodes[k]) · inverseBind[k]}: it maps a mesh-space
 * (bind-shape) vertex straight into model space (the scene root's space). The node carrying the skinned mesh
 * plays no part, as glTF specifies. Products are computed in double and stored as float, on either kernel path
 * ({@link Kernels}: scalar, or a column per 256-bit {@code DoubleVector}). Allocation-free.
 */
public final class SkinningMatricesJob {

    /** The skin. Required. */
    public Skin skin;
    /**
     * Model matrices of the rig nodes, 16 floats per node, column-major (a
     * {@link io.posekit.sampling.LocalToModelJob} output). Required; must cover every joint node.
     */
    public float[] modelMatrices;
    /** Destination: 16 floats per skin joint, column-major; at least {@code 16 · skin.jointCount()} long. */
    public float[] output;

    private final SkinningMatricesKernel kernel;

    /** A job on the kernel path selected for this JVM ({@link Kernels#selected()}). */
    public SkinningMatricesJob() {
        this(Kernels.selected());
    }

    /**
     * A job on the given kernel path (tests compare the two).
     *
     * @throws IllegalStateException for {@link Kernels.Path#VECTOR} when {@code jdk.incubator.vector} is absent
     */
    public SkinningMatricesJob(Kernels.Path path) {
        kernel = Kernels.load(path, SkinningMatricesKernel.class, "io.posekit.skinning.VectorSkinningMatrices",
                ScalarSkinningMatrices::new);
    }

    /**
     * Whether skin, model matrices and output are set, every joint node has a model matrix
     * ({@code 0 ≤ node < modelMatrices.length / 16}) and the output, a different array from the model
     * matrices, holds one matrix per joint.
     */
    public boolean validate() {
        if (skin == null || modelMatrices == null || output == null || output == modelMatrices
                || output.length < 16L * skin.jointCount()) {
            return false;
        }
        int nodes = modelMatrices.length / 16;
        for (int node : skin.jointNodes()) {
            if (node < 0 || node >= nodes) {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes the skinning matrices into {@link #output}. The joint nodes are checked as they are read (so a run walks
     * the joints once): with a node outside the model matrices the outputs of the joints before it are written.
     *
     * @throws IllegalStateException if {@link #validate()} is false
     */
    public void run() {
        if (skin == null || modelMatrices == null || output == null || output == modelMatrices
                || output.length < 16L * skin.jointCount()) {
            throw new IllegalStateException("SkinningMatricesJob inputs are missing or inconsistent");
        }
        int[] nodes = skin.jointNodes();
        int modelCount = modelMatrices.length / 16;
        kernel.run(nodes, skin.inverseBindMatrices(), modelMatrices, modelCount, output);
    }

    /** The exception for joint {@code k}'s node outside the model matrices (either kernel). */
    static IllegalStateException nodeOutOfRange(int joint, int node, int modelCount) {
        return new IllegalStateException("SkinningMatricesJob inputs are missing or inconsistent: joint " + joint
                + " is node " + node + " but there are " + modelCount + " model matrices");
    }
}
