package io.posekit.sampling;

import io.posekit.clip.Clip;
import io.posekit.skinning.MeshInstance;
import java.util.List;

/**
 * The morph target weights of every mesh instance of a model at one instant: per instance, one weight per
 * morph target (an empty array for an instance without targets). Caller-owned output of {@link MorphWeightsJob};
 * allocate once per model and reuse.
 */
public final class MorphWeights {

    private final float[][] weights;
    private final int[] morphed;

    /** Weights for {@code meshes} (a model's instances), all 0 until a {@link MorphWeightsJob} writes them. */
    public MorphWeights(List<MeshInstance> meshes) {
        this.weights = new float[meshes.size()][];
        int count = 0;
        for (int m = 0; m < weights.length; m++) {
            weights[m] = new float[meshes.get(m).morphTargetCount()];
            if (weights[m].length > 0) {
                count++;
            }
        }
        this.morphed = new int[count];
        for (int m = 0, k = 0; m < weights.length; m++) {
            if (weights[m].length > 0) {
                morphed[k++] = m;
            }
        }
    }

    /**
     * Samples the weights of {@code meshes} at clip-local time {@code localTime} ({@code clip == null}: the
     * instances' default weights). Allocates the result.
     */
    public static MorphWeights evaluate(List<MeshInstance> meshes, Clip clip, double localTime) {
        MorphWeights out = new MorphWeights(meshes);
        MorphWeightsJob job = new MorphWeightsJob();
        job.meshes = meshes;
        job.clip = clip;
        job.time = localTime;
        job.output = out;
        job.run();
        return out;
    }

    /** Number of mesh instances. */
    public int meshCount() {
        return weights.length;
    }

    /** The weights of instance {@code mesh}, one per morph target (live buffer, empty without targets). */
    public float[] weights(int mesh) {
        return weights[mesh];
    }

    /** Whether these buffers are shaped for {@code meshes}: as many instances, as many targets each. */
    public boolean fits(List<MeshInstance> meshes) {
        if (meshes.size() != weights.length) {
            return false;
        }
        for (int m = 0; m < weights.length; m++) {
            if (meshes.get(m).morphTargetCount() != weights[m].length) {
                return false;
            }
        }
        return true;
    }

    /** Indices of the instances that have morph targets, ascending (shared; do not modify). */
    int[] morphed() {
        return morphed;
    }
}
