package io.posekit.api.body;

import java.util.List;

/**
 * The JSON body of the POST variants of the sampling endpoints: the same choices as the query parameters
 * ({@link SamplingQuery}), and a blend as a list of layers instead of one clip.
 *
 * @param clip one clip (name or index); give this or {@code layers}, not both; neither = the rest pose
 * @param layers the layers of a blend
 * @param threshold the blend threshold: a joint whose normal layers weigh less than it is blended with the rest pose
 *     (default 0.1)
 * @param time seconds
 * @param frame a frame number at {@code fps}
 * @param fps frames per second of {@code frame}
 * @param normalized clip durations (for a blend, of each layer's clip)
 * @param speed multiplies the time
 * @param loop clamp (default), repeat or pingpong
 * @param timeBase what {@code time} and {@code frame} count: {@code clip} (default) or {@code scene}
 * @param rootMotion {@code extract} answers the pose in place and the root's motion beside it (default none)
 * @param rootJoint the joint whose motion is extracted (default: the hips, found as retargeting finds them)
 * @param rootComponents what is extracted: any of horizontal, vertical, yaw, rotation (default horizontal, yaw)
 * @param previousTime the playback time (seconds, as echoed in {@code time}) of the previous sample: the answer then
 *     has the motion since it
 * @param ik IK chains applied after sampling (and after root-motion extraction), in order
 */
public record SamplingBody(
        String clip,
        List<LayerSpec> layers,
        Double threshold,
        Double time,
        Double frame,
        Double fps,
        Double normalized,
        Double speed,
        String loop,
        String timeBase,
        String rootMotion,
        String rootJoint,
        List<String> rootComponents,
        Double previousTime,
        List<IkSpec> ik) {

    /** The largest body the sampling operations read, bytes (16 layers with long masks fit many times over). */
    public static final long MAX_BYTES = 1 << 20;
}
