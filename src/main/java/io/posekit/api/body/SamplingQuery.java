package io.posekit.api.body;

import io.posekit.api.docs.ApiDocs;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * The query parameters that say what to sample, shared by every sampling endpoint: which clip, when (one of
 * {@code time} in seconds, {@code frame} at {@code fps}, or {@code normalized} in clip durations), how fast
 * ({@code speed}) and how time maps into the clip ({@code loop}); or, instead of one clip, a blend of {@code layer}s
 * (each a compact {@code key:value;…} list, see {@link ApiDocs#LAYER}). Raw strings: {@link Sampling#parse} validates
 * them and names what is wrong.
 */
public record SamplingQuery(
        @Parameter(description = ApiDocs.CLIP, example = "Walk") String clip,
        @Parameter(description = ApiDocs.TIME, example = "0.5", schema = @Schema(type = "number", defaultValue = "0"))
        String time,
        @Parameter(description = ApiDocs.FRAME, example = "12", schema = @Schema(type = "number")) String frame,
        @Parameter(description = ApiDocs.FPS, example = "30", schema = @Schema(type = "number")) String fps,
        @Parameter(description = ApiDocs.NORMALIZED, example = "0.25", schema = @Schema(type = "number"))
        String normalized,
        @Parameter(description = ApiDocs.SPEED, example = "1", schema = @Schema(type = "number", defaultValue = "1"))
        String speed,
        @Parameter(description = ApiDocs.LOOP, example = "repeat", schema = @Schema(type = "string",
                allowableValues = {"clamp", "repeat", "pingpong"}, defaultValue = "clamp")) String loop,
        @Parameter(description = ApiDocs.LAYER, example = "clip:Walk;weight:0.7") List<String> layer,
        @Parameter(description = ApiDocs.THRESHOLD, example = "0.1", schema = @Schema(type = "number", defaultValue = "0.1"))
        String threshold) {

    /** A query with only a clip and a loop mode (the rest as absent). */
    public static SamplingQuery of(String clip, String loop) {
        return new SamplingQuery(clip, null, null, null, null, null, loop, null, null);
    }
}
