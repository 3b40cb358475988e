package io.posekit.sampling;

import io.posekit.math.Matrices;
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
 * rounded to float once when stored, so deep hierarchies do not accumulate float error. Not thread-safe;
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

    // model matrices in double, 16 per node; grown as needed
    private double[] model = new double[0];
    private final double[] local = new double[16];

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
        int n = rig.nodeCount();
        if (model.length < 16 * n) {
            model = new double[16 * n];
        }
        double[] m = model;
        double[] l = local;
        int[] parents = rig.parents();
        float[] t = input.translations();
        float[] r = input.rotations();
        float[] s = input.scales();
        float[] out = output;
        for (int i = 0; i < n; i++) {
            int p = parents[i];
            int mi = 16 * i;
            if (p < 0) {
                Matrices.composeTrs(t, 3 * i, r, 4 * i, s, 3 * i, m, mi);
            } else {
                Matrices.composeTrs(t, 3 * i, r, 4 * i, s, 3 * i, l, 0);
                Matrices.multiplyAffine(m, 16 * p, l, 0, m, mi);
            }
            for (int e = 0; e < 16; e++) {
                out[mi + e] = (float) m[mi + e];
            }
        }
    }
}
