package io.posekit.api;

import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.sampling.LoopMode;
import io.posekit.sampling.Pose;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The sampling parameters every sampling endpoint takes, validated against an asset: {@code clip} (a name,
 * or an index; absent = the rest pose), {@code time} (seconds, default 0) and {@code loop} ({@code clamp}
 * default, {@code repeat}, {@code pingpong}), and the clip-local time they resolve to.
 *
 * @param clip the clip, or {@code null} for the rest pose
 * @param time the requested time, seconds
 * @param loop how time maps into the clip
 * @param localTime the clip-local time sampled, seconds, or {@code null} without a clip
 */
record Sampling(Clip clip, double time, LoopMode loop, Double localTime) {

    /** Plain decimal numbers only: no NaN, Infinity, hex floats or type suffixes that Java would accept. */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

    static Sampling parse(Model model, String clipParam, String timeParam, String loopParam) {
        double time = parseTime(timeParam);
        LoopMode loop = loopParam == null || loopParam.isEmpty() ? LoopMode.CLAMP
                : LoopMode.byWireName(loopParam).orElseThrow(() -> ApiException.badRequest("Invalid loop mode",
                        "loop '" + loopParam + "' is not one of clamp, repeat, pingpong"));
        if (clipParam == null || clipParam.isEmpty()) {
            return new Sampling(null, time, loop, null);
        }
        int index = model.findClip(clipParam).orElseThrow(() -> ApiException.notFound("Unknown clip",
                "clip '" + clipParam + "' does not exist; clips: " + (model.clips().isEmpty() ? "none"
                        : model.clips().stream().map(c -> "'" + c.name() + "'").collect(Collectors.joining(", ")))));
        Clip clip = model.clips().get(index);
        return new Sampling(clip, time, loop, loop.localTime(time, clip.duration()));
    }

    private static double parseTime(String timeParam) {
        if (timeParam == null || timeParam.isEmpty()) {
            return 0;
        }
        if (!DECIMAL.matcher(timeParam).matches()) {
            throw ApiException.badRequest("Invalid time", "time '" + timeParam
                    + "' is not a finite decimal number of seconds");
        }
        double time = Double.parseDouble(timeParam);
        if (!Double.isFinite(time)) {
            throw ApiException.badRequest("Invalid time", "time '" + timeParam + "' is out of range");
        }
        return time;
    }

    /** The clip's name, or {@code null} for the rest pose. */
    String clipName() {
        return clip == null ? null : clip.name();
    }

    /** Samples the asset's rig and accumulates model matrices. */
    Pose evaluate(Model model) {
        return Pose.evaluate(model.rig(), clip, localTime == null ? 0 : localTime);
    }
}
