package io.posekit.api.body;

import io.swagger.v3.oas.annotations.media.Schema;
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
 */
@Schema(name = "SamplingRequest")
public record SamplingBody(
        @Schema(description = "One clip (name or index); give this or layers, not both.", example = "Walk") String clip,
        @Schema(description = "The layers of a blend.") List<LayerSpec> layers,
        @Schema(description = "Blend threshold (default 0.1).", defaultValue = "0.1") Double threshold,
        @Schema(description = "Seconds.") Double time,
        @Schema(description = "Frame number at fps.") Double frame,
        @Schema(description = "Frames per second of frame.") Double fps,
        @Schema(description = "Clip durations; for a blend, of each layer's clip.") Double normalized,
        @Schema(description = "Multiplies the time.", defaultValue = "1") Double speed,
        @Schema(allowableValues = {"clamp", "repeat", "pingpong"}, defaultValue = "clamp") String loop) {
}
