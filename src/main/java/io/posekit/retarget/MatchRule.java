package io.posekit.retarget;

/** How a target joint came to be driven, in the order {@link JointMatcher} tries the rules. */
public enum MatchRule {
    /** Named by the request's joint map. */
    MAP,
    /**
     * Taken from a humanoid bone map the file declares (VRM 0.x, VRM 1.0, VRM animation): the same bone in both
     * sides' maps, or, with one map, that side's bone (from the map) and the other side's joint (by name) having the
     * same {@link HumanoidRole}.
     */
    HUMANOID_MAP,
    /** The same name on both sides. */
    EXACT,
    /** The same name once namespaces, rig prefixes, side spellings, case and separators are normalised. */
    NORMALISED,
    /** The same humanoid bone role (hips, spine chain, upper arm…) in the built-in table. */
    ROLE,
    /** An unmatched target joint between two matched ones, turned by interpolating them (a longer chain). */
    CHAIN;

    /** The wire name: lower case. */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
