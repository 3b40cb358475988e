package io.posekit.sampling;

/**
 * Normalized time: a phase in which 0 is a clip's start and 1 its end, whatever the clip's duration. Layers
 * given the same normalized time are in step even when their clips differ in length (a walk of 1 s and a run
 * of 1.5 s crossfaded at phase 0.5 are both half-way through their cycle).
 *
 * <p>The loop mode is applied to the phase, before scaling by the duration, so every clip of a blend lands on
 * exactly the same phase: phase {@code p = mode.localTime(normalized, 1)}, clip time {@code p × duration}.
 * Hence, for {@code normalized} outside {@code [0, 1]}: {@link LoopMode#REPEAT} wraps ({@code 1.25 → 0.25},
 * {@code −0.25 → 0.75}, and {@code 1 → 0} as for clip times), {@link LoopMode#PINGPONG} bounces
 * ({@code 1.25 → 0.75}, {@code 2 → 0}), {@link LoopMode#CLAMP} clamps to {@code [0, 1]}.
 */
public final class NormalizedTime {

    private NormalizedTime() {
    }

    /**
     * Clip-local time in seconds, in {@code [0, duration]}, for a normalized time.
     *
     * @param normalized phase, 1 = one clip length; a NaN or (under REPEAT/PINGPONG) infinite value gives 0,
     *     as {@link LoopMode#localTime} does
     * @param duration the clip's duration in seconds; a duration that is not a positive finite number gives 0
     * @param mode how a phase outside {@code [0, 1]} is mapped
     */
    public static double toClipTime(double normalized, double duration, LoopMode mode) {
        if (!(duration > 0) || duration == Double.POSITIVE_INFINITY) {
            return 0;
        }
        return mode.localTime(normalized, 1) * duration;
    }

    /**
     * The normalized time of a time in seconds: {@code time / duration}, not wrapped (a leader clip's playback
     * time converted to a phase for its followers). A duration that is not a positive finite number gives 0.
     */
    public static double fromClipTime(double time, double duration) {
        if (!(duration > 0) || duration == Double.POSITIVE_INFINITY) {
            return 0;
        }
        return time / duration;
    }
}
