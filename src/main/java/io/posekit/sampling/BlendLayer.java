package io.posekit.sampling;

/**
 * One input of a {@link BlendingJob}: an already sampled local pose, how much it counts and how it combines.
 *
 * <p>A plain description: the constructor checks nothing, {@link BlendingJob#validate()} decides whether a
 * layer is usable (pose present and sized for the rig, weight finite and ≥ 0, mode present, joint weights
 * either {@code null} or one finite value ≥ 0 per node). The pose and the joint-weight array are shared, not
 * copied (like a {@link io.posekit.clip.Track}'s arrays): callers must not change them while a job reads
 * them.
 *
 * @param pose the layer's local pose (for {@link BlendMode#ADDITIVE}: a delta pose, see
 *     {@link AdditiveDelta}); {@code pose.nodeCount()} must equal the rig's node count
 * @param weight the layer weight, finite and ≥ 0; 0 makes the layer contribute nothing. Normal layers'
 *     weights are relative (normalised per node), additive weights are absolute (1 = the full delta)
 * @param mode normal or additive
 * @param jointWeights optional per-node weights in rig node order, each finite and ≥ 0, multiplied with
 *     {@code weight} (a mask, see {@link JointMask}); {@code null} means 1 for every node
 */
public record BlendLayer(LocalPose pose, float weight, BlendMode mode, float[] jointWeights) {

    /** A normal layer over all nodes. */
    public static BlendLayer normal(LocalPose pose, float weight) {
        return new BlendLayer(pose, weight, BlendMode.NORMAL, null);
    }

    /** An additive layer over all nodes; {@code delta} is a delta pose (see {@link AdditiveDelta}). */
    public static BlendLayer additive(LocalPose delta, float weight) {
        return new BlendLayer(delta, weight, BlendMode.ADDITIVE, null);
    }

    /** This layer with per-node weights {@code jointWeights} (shared, not copied; {@code null} = all 1). */
    public BlendLayer withJointWeights(float[] jointWeights) {
        return new BlendLayer(pose, weight, mode, jointWeights);
    }

    /** The effective weight of node {@code i}: {@code weight × jointWeights[i]} (or {@code weight} without). */
    public double nodeWeight(int i) {
        return jointWeights == null ? weight : (double) weight * jointWeights[i];
    }
}
