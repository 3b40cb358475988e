package io.posekit.api.body;

import java.util.List;

/**
 * One layer of a blend: a clip, how much it counts, how it combines, and (optionally) its own time.
 *
 * <p>A layer without its own time follows the request's: with {@code normalized} every layer is at the same phase
 * of its own clip (so a walk and a run of different lengths stay in step); with {@code time} (or {@code frame / fps})
 * every layer is at that many seconds. Its {@code speed} then multiplies it, and its {@code loop} (default the
 * request's) maps it into the clip.
 *
 * @param clip the clip (name or index)
 * @param weight the weight, ≥ 0 (default 1); normal layers are normalised per joint, additive weights are absolute
 * @param mode normal (default) or additive
 * @param time the layer's own time, seconds
 * @param normalized the layer's own time in clip durations
 * @param frame the layer's own time as a frame number at {@code fps}
 * @param fps frames per second of {@code frame}
 * @param speed multiplies the layer's time (default 1)
 * @param loop the layer's loop mode (default the request's)
 * @param mask joint names: the layer only affects these joints and their subtrees (default every node)
 * @param reference for additive layers, what the delta is taken from: {@code first} (default, the clip's first frame),
 *     {@code rest} (the rig's rest pose) or another clip's name (its first frame)
 */
public record LayerSpec(
        String clip,
        Double weight,
        String mode,
        Double time,
        Double normalized,
        Double frame,
        Double fps,
        Double speed,
        String loop,
        List<String> mask,
        String reference) {
}
