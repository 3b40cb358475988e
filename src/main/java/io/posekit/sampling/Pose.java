package io.posekit.sampling;

import io.posekit.clip.Clip;
import io.posekit.rig.Rig;

/**
 * The pose of a whole rig at one instant: local TRS of every node and its model-space matrix.
 *
 * @param local local translations, rotations and scales, relative to each node's parent
 * @param modelMatrices 16 floats per node, column-major, in model space (the scene root's space)
 */
public record Pose(LocalPose local, float[] modelMatrices) {

    /**
     * Samples {@code clip} at clip-local time {@code localTime} (seconds; {@code clip == null} gives the
     * rest pose) and accumulates model matrices. Allocates the returned pose; allocation-free otherwise.
     */
    public static Pose evaluate(Rig rig, Clip clip, double localTime) {
        LocalPose local = new LocalPose(rig.nodeCount());
        SamplingJob sampling = new SamplingJob();
        sampling.rig = rig;
        sampling.clip = clip;
        sampling.time = localTime;
        sampling.output = local;
        sampling.run();
        float[] model = new float[16 * rig.nodeCount()];
        LocalToModelJob toModel = new LocalToModelJob();
        toModel.rig = rig;
        toModel.input = local;
        toModel.output = model;
        toModel.run();
        return new Pose(local, model);
    }
}
