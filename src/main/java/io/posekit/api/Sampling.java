package io.posekit.api;

import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.sampling.LoopMode;
import io.posekit.sampling.MorphWeights;
import io.posekit.sampling.Pose;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What a sampling request asks for, validated against an asset: the clip ({@code clip}: a name, or an index;
 * absent = the rest pose), the playback time and how it maps into the clip.
 *
 * <p>The playback time in seconds is one of {@code time}; {@code frame / fps}; or {@code normalized × duration}
 * (default 0), multiplied by {@code speed} (default 1, negative allowed). The loop mode ({@code clamp} default,
 * {@code repeat}, {@code pingpong}) maps it to the clip-local time that is sampled.
 *
 * @param clip the clip, or {@code null} for the rest pose
 * @param time the playback time, seconds (after unit conversion and speed, before loop mapping)
 * @param loop how time maps into the clip
 * @param localTime the clip-local time sampled, seconds, or {@code null} without a clip
 */
record Sampling(Clip clip, double time, LoopMode loop, Double localTime) {

    /** Plain decimal numbers only: no NaN, Infinity, hex floats or type suffixes that Java would accept. */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

    /**
     * Validates {@code q} against {@code model}.
     *
     * @throws ApiException 400 for a malformed or conflicting time, speed or loop; 404 for an unknown clip
     */
    static Sampling parse(Model model, SamplingQuery q) {
        LoopMode loop = present(q.loop()) ? LoopMode.byWireName(q.loop()).orElseThrow(() -> ApiException.badRequest(
                "Invalid loop mode", "loop '" + q.loop() + "' is not one of clamp, repeat, pingpong")) : LoopMode.CLAMP;
        Clip clip = present(q.clip()) ? clip(model, q.clip()) : null;
        double time = playbackTime(q, clip);
        if (present(q.speed())) {
            time *= number(q.speed(), "speed", "a finite decimal number");
            if (!Double.isFinite(time)) {
                throw ApiException.badRequest("Invalid time", "time × speed is out of range");
            }
        }
        if (time == 0) {
            time = 0; // no -0.0 in the echo
        }
        return new Sampling(clip, time, loop, clip == null ? null : loop.localTime(time, clip.duration()));
    }

    private static Clip clip(Model model, String name) {
        int index = model.findClip(name).orElseThrow(() -> ApiException.notFound("Unknown clip",
                "clip '" + name + "' does not exist; clips: " + (model.clips().isEmpty() ? "none"
                        : model.clips().stream().map(c -> "'" + c.name() + "'").collect(Collectors.joining(", ")))));
        return model.clips().get(index);
    }

    /** Seconds from whichever of time, frame/fps and normalized is given. */
    private static double playbackTime(SamplingQuery q, Clip clip) {
        int given = (present(q.time()) ? 1 : 0) + (present(q.frame()) ? 1 : 0) + (present(q.normalized()) ? 1 : 0);
        if (given > 1) {
            throw ApiException.badRequest("Invalid time", "give at most one of time, frame (with fps) and normalized");
        }
        if (present(q.fps()) != present(q.frame())) {
            throw ApiException.badRequest("Invalid time", present(q.fps()) ? "fps is only meaningful with frame"
                    : "frame needs fps (frames per second)");
        }
        if (present(q.frame())) {
            double frame = number(q.frame(), "frame", "a finite decimal frame number");
            double fps = number(q.fps(), "fps", "a positive decimal number of frames per second");
            if (!(fps > 0)) {
                throw ApiException.badRequest("Invalid time", "fps '" + q.fps()
                        + "' is not a positive decimal number of frames per second");
            }
            return finite(frame / fps, "frame / fps");
        }
        if (present(q.normalized())) {
            double normalized = number(q.normalized(), "normalized", "a finite decimal number of clip durations");
            if (clip == null) {
                throw ApiException.badRequest("Invalid time", "normalized time needs a clip (the rest pose has no duration)");
            }
            return finite(normalized * clip.duration(), "normalized × duration");
        }
        return present(q.time()) ? number(q.time(), "time", "a finite decimal number of seconds") : 0;
    }

    private static double finite(double value, String what) {
        if (!Double.isFinite(value)) {
            throw ApiException.badRequest("Invalid time", what + " is out of range");
        }
        return value;
    }

    /** A plain finite decimal number, or a 400 saying {@code name 'value' is not <what>} / is out of range. */
    private static double number(String value, String name, String what) {
        if (!DECIMAL.matcher(value).matches()) {
            throw ApiException.badRequest("Invalid " + name, name + " '" + value + "' is not " + what);
        }
        double d = Double.parseDouble(value);
        if (!Double.isFinite(d)) {
            throw ApiException.badRequest("Invalid " + name, name + " '" + value + "' is out of range");
        }
        return d;
    }

    private static boolean present(String s) {
        return s != null && !s.isEmpty();
    }

    /** The clip's name, or {@code null} for the rest pose. */
    String clipName() {
        return clip == null ? null : clip.name();
    }

    /** The morph weights of every mesh instance at the sampled time (the defaults for the rest pose). */
    MorphWeights morphWeights(Model model) {
        return MorphWeights.evaluate(model.meshes(), clip, localTime == null ? 0 : localTime);
    }

    /** Samples the asset's rig and accumulates model matrices. */
    Pose evaluate(Model model) {
        return Pose.evaluate(model.rig(), clip, localTime == null ? 0 : localTime);
    }
}
