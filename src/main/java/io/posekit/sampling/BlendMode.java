package io.posekit.sampling;

import java.util.Optional;

/** How a {@link BlendLayer} takes part in a {@link BlendingJob}. */
public enum BlendMode {

    /**
     * Mixed with the other normal layers by weight (a weighted average whose weights are normalised to sum to
     * one per node; the rig's rest pose fills in below the job's threshold).
     */
    NORMAL,

    /**
     * A delta pose (see {@link AdditiveDelta}) applied on top of the mixed normal layers, scaled by its
     * weight; weights are absolute, not normalised.
     */
    ADDITIVE;

    /** The wire name: {@code normal} or {@code additive}. */
    public String wireName() {
        return this == NORMAL ? "normal" : "additive";
    }

    /**
     * The mode whose {@link #wireName()} is exactly {@code s} (case-sensitive), or empty for {@code null} or any
     * other string.
     */
    public static Optional<BlendMode> byWireName(String s) {
        if (s == null) {
            return Optional.empty();
        }
        for (BlendMode m : values()) {
            if (m.wireName().equals(s)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
