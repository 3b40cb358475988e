package io.posekit.sampling;

import java.util.Optional;

/**
 * How a request time outside a clip's {@code [0, duration]} maps to a clip-local time. The formulas are
 * three.js' {@code LoopOnce} (+ clampWhenFinished), {@code LoopRepeat} and {@code LoopPingPong}, which the
 * conformance data was generated with.
 */
public enum LoopMode {

    /** Hold the first pose before 0 and the last pose after the end: {@code min(max(t, 0), d)}. */
    CLAMP,

    /**
     * Wrap around: {@code t − d·floor(t/d)}. Whole multiples of the duration ({@code t = k·d}, also
     * {@code t = d}) map to 0, not to the end; negative times wrap backwards into {@code [0, d)}.
     */
    REPEAT,

    /**
     * Play forwards, then backwards: with {@code k = floor(t/d)} and {@code r = t − k·d}, the local time is
     * {@code r} for even {@code k} and {@code d − r} for odd {@code k}. So {@code t = d} maps to {@code d},
     * {@code t = 2d} to 0.
     */
    PINGPONG;

    /** The wire name: {@code clamp}, {@code repeat} or {@code pingpong}. */
    public String wireName() {
        return switch (this) {
            case CLAMP -> "clamp";
            case REPEAT -> "repeat";
            case PINGPONG -> "pingpong";
        };
    }

    /**
     * The mode whose {@link #wireName()} is exactly {@code s} (case-sensitive), or empty for {@code null} or
     * any other string.
     */
    public static Optional<LoopMode> byWireName(String s) {
        if (s == null) {
            return Optional.empty();
        }
        for (LoopMode m : values()) {
            if (m.wireName().equals(s)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    /**
     * Clip-local time (s) for request time t (s) of a clip lasting d ≥ 0 s. d == 0 → 0 for every mode.
     * CLAMP: min(max(t,0),d). REPEAT (three.js LoopRepeat): t − d·floor(t/d) (so t = k·d → 0, negative t
     * wraps into [0,d)). PINGPONG (three.js LoopPingPong): k = floor(t/d), r = t − k·d; k odd → d − r, else r.
     *
     * <p>The result is always in {@code [0, d]}: where floating-point rounding of {@code floor(t/d)} would
     * put {@code r} a few ulps outside {@code [0, d]} it is clamped (a slightly negative {@code r} samples
     * like 0 anyway, as in three.js). Degenerate inputs never produce NaN: a duration that is not a
     * positive finite number gives 0; a NaN time gives 0; under CLAMP ±∞ clamp to the ends, under REPEAT
     * and PINGPONG an infinite time (which has no phase) gives 0.
     *
     * @param t request time, seconds
     * @param d clip duration, seconds
     * @return clip-local time in seconds, in {@code [0, d]}
     */
    public double localTime(double t, double d) {
        if (!(d > 0) || d == Double.POSITIVE_INFINITY || Double.isNaN(t)) {
            return 0;
        }
        if (this == CLAMP) {
            return Math.min(Math.max(t, 0), d);
        }
        if (Double.isInfinite(t)) {
            return 0;
        }
        double k = Math.floor(t / d);
        double r = t - k * d;
        // rounding in t/d can leave r a few ulps outside [0, d]; keep the documented range
        r = Math.min(Math.max(r, 0), d);
        if (this == REPEAT) {
            return r;
        }
        // k % 2 is ±1 for odd k (also negative), ±0 for even k; for |k| ≥ 2^53 every double is even
        return k % 2 != 0 ? d - r : r;
    }
}
