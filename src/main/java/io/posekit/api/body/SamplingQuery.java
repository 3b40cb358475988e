package io.posekit.api.body;

import java.util.List;

/**
 * The query parameters that say what to sample, shared by every sampling endpoint: which clip, when (one of
 * {@code time} in seconds, {@code frame} at {@code fps}, or {@code normalized} in clip durations), how fast
 * ({@code speed}), what the time counts ({@code timeBase}: {@code clip}, the default, or {@code scene}) and how time
 * maps into the clip ({@code loop}); or, instead of one clip, a blend of {@code layer}s
 * (each a compact {@code key:value;…} list, see {@code api-spec/openapi.yaml}). Raw strings: {@code Sampling.parse} validates
 * them and names what is wrong.
 */
public record SamplingQuery(
        String clip,
        String time,
        String frame,
        String fps,
        String normalized,
        String speed,
        String loop,
        List<String> layer,
        String threshold,
        String timeBase) {

    /** A query with only a clip and a loop mode (the rest as absent). */
    public static SamplingQuery of(String clip, String loop) {
        return new SamplingQuery(clip, null, null, null, null, null, loop, null, null, null);
    }
}
