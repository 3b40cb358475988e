package io.posekit.sampling;

import io.posekit.clip.Clip;
import io.posekit.rig.Rig;
import java.util.ArrayList;
import java.util.List;

/**
 * Samples several clips and blends them into one pose of a rig, with buffers it owns and reuses: a sampling job
 * and pose per layer, the additive layers' reference poses (sampled once, at construction), a {@link BlendingJob}
 * and the model matrices. After construction, {@link #evaluate} allocates nothing.
 *
 * <p>A normal layer contributes its clip sampled at its clip-local time. An additive layer contributes the
 * difference of that sample from its reference ({@link AdditiveDelta}: {@code q · q_ref⁻¹}, {@code t − t_ref},
 * {@code s / s_ref}), applied on top of the normal mix (see {@link BlendingJob} for weights, masks and the threshold).
 *
 * <p>Not thread-safe: one instance per request or per bake.
 */
public final class BlendEvaluator {

    /**
     * One input: a clip, how it combines and, for an additive layer, its reference pose.
     *
     * @param clip the clip sampled
     * @param weight the layer weight (≥ 0)
     * @param mode normal or additive
     * @param jointWeights per-node weights (a {@link JointMask}), or {@code null} for all nodes
     * @param reference for an additive layer the pose its delta is taken from ({@code null} = the clip's first
     *     frame); ignored for normal layers
     */
    public record Layer(Clip clip, float weight, BlendMode mode, float[] jointWeights, LocalPose reference) {
    }

    private final Rig rig;
    private final List<Layer> layers;
    private final SamplingJob[] samplers;
    private final LocalPose[] poses;
    private final LocalPose[] references;
    private final BlendingJob blending = new BlendingJob();
    private final LocalPose output;
    private final LocalToModelJob toModel = new LocalToModelJob();
    private final float[] modelMatrices;

    /**
     * @param rig the rig every clip animates
     * @param layers the layers, at least one
     * @param threshold the blending threshold ({@link BlendingJob#threshold}), finite and &gt; 0
     * @throws IllegalArgumentException for no layers, a non-positive threshold, or a reference pose of the wrong size
     */
    public BlendEvaluator(Rig rig, List<Layer> layers, float threshold) {
        if (layers.isEmpty() || !(threshold > 0) || !Float.isFinite(threshold)) {
            throw new IllegalArgumentException("a blend needs a layer and a positive finite threshold");
        }
        this.rig = rig;
        this.layers = List.copyOf(layers);
        int n = layers.size();
        this.samplers = new SamplingJob[n];
        this.poses = new LocalPose[n];
        this.references = new LocalPose[n];
        List<BlendLayer> blendLayers = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Layer layer = layers.get(i);
            SamplingJob job = new SamplingJob();
            job.rig = rig;
            job.clip = layer.clip();
            poses[i] = new LocalPose(rig.nodeCount());
            job.output = poses[i];
            samplers[i] = job;
            if (layer.mode() == BlendMode.ADDITIVE) {
                LocalPose reference = layer.reference();
                if (reference == null) {
                    reference = new LocalPose(rig.nodeCount());
                    AdditiveDelta.sampleFirstFrame(new SamplingJob(), rig, layer.clip(), reference);
                } else if (reference.nodeCount() != rig.nodeCount()) {
                    throw new IllegalArgumentException("reference pose has " + reference.nodeCount() + " nodes, the rig "
                            + rig.nodeCount());
                }
                references[i] = reference;
            }
            blendLayers.add(new BlendLayer(poses[i], layer.weight(), layer.mode(), layer.jointWeights()));
        }
        this.output = new LocalPose(rig.nodeCount());
        this.modelMatrices = new float[16 * rig.nodeCount()];
        blending.rig = rig;
        blending.layers = List.copyOf(blendLayers);
        blending.threshold = threshold;
        blending.output = output;
        toModel.rig = rig;
        toModel.input = output;
        toModel.output = modelMatrices;
        if (!blending.validate()) {
            throw new IllegalArgumentException("a layer weight or joint weight is negative or not finite,"
                    + " or a mask has the wrong length");
        }
    }

    /** The layers, in order. */
    public List<Layer> layers() {
        return layers;
    }

    /**
     * Samples layer {@code i} at {@code localTimes[i]} (clip-local seconds, already loop-mapped), blends, and
     * accumulates model matrices.
     *
     * @throws IllegalArgumentException when {@code localTimes} has fewer entries than layers
     */
    public void evaluate(double[] localTimes) {
        if (localTimes.length < samplers.length) {
            throw new IllegalArgumentException("one local time per layer is needed");
        }
        for (int i = 0; i < samplers.length; i++) {
            samplers[i].time = localTimes[i];
            samplers[i].run();
            if (references[i] != null) {
                AdditiveDelta.compute(references[i], poses[i], poses[i]);
            }
        }
        blending.run();
        toModel.run();
    }

    /** The blended local pose of the last evaluation (live buffers). */
    public LocalPose local() {
        return output;
    }

    /** Model matrices of the last evaluation, 16 per node (live buffer). */
    public float[] modelMatrices() {
        return modelMatrices;
    }

    /** The rig. */
    public Rig rig() {
        return rig;
    }
}
