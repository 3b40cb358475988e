package io.posekit.retarget;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to retarget and how.
 *
 * @param clips names (or indices) of the source clips to retarget, in order; empty for all of them
 * @param jointMap {@code targetJoint → sourceJoint} node names (kept sorted by target joint); empty to match joints by
 *     name and humanoid role
 * @param rootMotion how the root joint's translation is scaled
 * @param rootJoint the target joint whose translation carries the root motion, or {@code null} for the first mapped
 *     joint without a mapped ancestor (the hips of a humanoid)
 * @param keepTranslations whether the source's animated translations of mapped joints other than the root are kept
 *     (scaled and turned into the target's frames); false keeps the target's rest translations, so its proportions
 */
public record RetargetRequest(List<String> clips, Map<String, String> jointMap, RootMotion rootMotion, String rootJoint,
        boolean keepTranslations) {

    public RetargetRequest {
        clips = List.copyOf(clips);
        // sorted by target joint: the same map always reads, checks and reports in the same order
        jointMap = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(jointMap));
        Objects.requireNonNull(rootMotion, "rootMotion");
    }

    /**
     * How the root's translation is scaled: {@code AUTO} by the ratio of the two skeletons' hip heights,
     * {@code NONE} not at all (the root stays at its rest translation: no root motion), or by a given factor.
     *
     * @param mode the mode
     * @param factor the factor for {@link Mode#FACTOR} (finite, ≥ 0), else ignored
     */
    public record RootMotion(Mode mode, double factor) {

        /** The modes. */
        public enum Mode {
            AUTO, NONE, FACTOR
        }

        public static final RootMotion AUTO = new RootMotion(Mode.AUTO, 1);

        public RootMotion {
            if (mode == Mode.FACTOR && !(factor >= 0 && Double.isFinite(factor))) {
                throw new IllegalArgumentException("root motion scale " + factor + " is not a finite number ≥ 0");
            }
        }

        /**
         * Parses {@code auto}, {@code none} or a decimal number.
         *
         * @throws IllegalArgumentException for anything else, or a negative or non-finite number
         */
        public static RootMotion parse(String text) {
            if (text == null || text.equals("auto")) {
                return AUTO;
            }
            if (text.equals("none")) {
                return new RootMotion(Mode.NONE, 0);
            }
            try {
                return new RootMotion(Mode.FACTOR, Double.parseDouble(text));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("root motion '" + text + "' is not auto, none or a number", e);
            }
        }

        /** The wire form: {@code auto}, {@code none} or the number. */
        public String wireName() {
            return switch (mode) {
                case AUTO -> "auto";
                case NONE -> "none";
                case FACTOR -> Double.toString(factor);
            };
        }
    }
}
