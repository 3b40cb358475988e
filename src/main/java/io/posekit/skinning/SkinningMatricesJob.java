package io.posekit.skinning;

import io.posekit.math.Kernels;
import io.posekit.rig.Skin;

/**
 * Computes the skinning matrix of every joint of a skin (ozz-animation style job: set the public fields,
 * then {@link #run()}).
 *
 * <p>Skinning matrix {@code k} = {@code model(jointNodes[k]) · inverseBind[k]}: it maps a mesh-space
 * (bind-shape) vertex straight into model space (the scene root's space). The node carrying the skinned mesh
 * plays no part, as glTF specifies — unless the skin is carried by it ({@link Skin#carrier()}, Maya's skins): then
 * every matrix is multiplied on the left by {@code model(carrier) · carrierBind⁻¹}. Products are computed in double and stored as float, on either kernel path
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
    private final double[] carry = new double[16];
    private final double[] column = new double[4];

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
     * Whether skin, model matrices and output are set, every joint node (and the carrier, if any) has a model matrix
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
        return skin.carrier() < nodes;
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
        if (skin.carrier() >= 0) {
            carry(modelCount);
        }
    }

    /** Multiplies every output matrix on the left by {@code model(carrier) · carrierBind⁻¹} (products in double). */
    private void carry(int modelCount) {
        int node = skin.carrier();
        if (node >= modelCount) {
            throw new IllegalStateException("SkinningMatricesJob inputs are missing or inconsistent: the skin's carrier"
                    + " is node " + node + " but there are " + modelCount + " model matrices");
        }
        float[] bind = skin.carrierBindInverse();
        int m = 16 * node;
        for (int c = 0; c < 4; c++) {
            for (int r = 0; r < 4; r++) {
                double sum = 0;
                for (int k = 0; k < 4; k++) {
                    sum += (double) modelMatrices[m + 4 * k + r] * bind[4 * c + k];
                }
                carry[4 * c + r] = sum;
            }
        }
        for (int j = 0; j < skin.jointCount(); j++) {
            int o = 16 * j;
            for (int c = 0; c < 4; c++) {
                for (int r = 0; r < 4; r++) {
                    double sum = 0;
                    for (int k = 0; k < 4; k++) {
                        sum += carry[4 * k + r] * output[o + 4 * c + k];
                    }
                    column[r] = sum;
                }
                for (int r = 0; r < 4; r++) {
                    output[o + 4 * c + r] = (float) column[r];
                }
            }
        }
    }

    /** The exception for joint {@code k}'s node outside the model matrices (either kernel). */
    static IllegalStateException nodeOutOfRange(int joint, int node, int modelCount) {
        return new IllegalStateException("SkinningMatricesJob inputs are missing or inconsistent: joint " + joint
                + " is node " + node + " but there are " + modelCount + " model matrices");
    }
}
