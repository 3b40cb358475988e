package io.posekit.skinning;

import io.posekit.math.Matrices;
import io.posekit.rig.Skin;

/**
 * Computes the skinning matrix of every joint of a skin (ozz-animation style job: set the public fields,
 * then {@link #run()}).
 *
 * <p>Skinning matrix {@code k} = {@code model(jointNodes[k]) · inverseBind[k]}: it maps a mesh-space
 * (bind-shape) vertex straight into model space (the scene root's space). The node carrying the skinned mesh
 * plays no part, as glTF specifies. Products are computed in double and stored as float. Stateless apart
 * from its fields and allocation-free.
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
     * Writes the skinning matrices into {@link #output}.
     *
     * @throws IllegalStateException if {@link #validate()} is false
     */
    public void run() {
        if (!validate()) {
            throw new IllegalStateException("SkinningMatricesJob inputs are missing or inconsistent");
        }
        int[] nodes = skin.jointNodes();
        float[] ibm = skin.inverseBindMatrices();
        float[] model = modelMatrices;
        float[] out = output;
        for (int k = 0, n = nodes.length; k < n; k++) {
            // general product: an inverse bind matrix is not required to be affine
            Matrices.multiply(model, 16 * nodes[k], ibm, 16 * k, out, 16 * k);
        }
    }
}
