package io.posekit.asset;

import java.time.Duration;

/**
 * Caps that keep an import's memory and time bounded whatever a file claims. Importers never size an allocation
 * by a number read from a file without charging it to a {@link DecodeBudget} built from these limits first, and
 * the model an import produces is checked against the structural caps before it is used. Exceeding a cap is
 * {@link ImportException.Kind#TOO_LARGE} (413), running out of time {@link ImportException.Kind#INVALID} (422).
 *
 * @param maxDecodedBytes the most bytes of arrays one import may decode (vertex data, keys, matrices)
 * @param maxNodes the most scene nodes
 * @param maxJointsPerSkin the most joints in one skin
 * @param maxVertices the most vertices in all primitives of an asset together
 * @param maxInfluencesPerVertex the most joint influences one vertex may have
 * @param maxKeysPerTrack the most keys in one animation track or curve
 * @param maxClips the most clips
 * @param maxXmlDepth the deepest element nesting of an XML document (COLLADA)
 * @param maxXmlElements the most elements of an XML document
 * @param maxZipEntries the most entries a zip upload may hold
 * @param maxZipBytes the most uncompressed bytes a zip upload (or compressed data inside a file) may expand to
 * @param maxZipRatio the largest uncompressed/compressed ratio of a zip entry (zip bombs)
 * @param parseTime the longest one import may take; past it the import stops with a 422
 */
public record ImportLimits(long maxDecodedBytes, int maxNodes, int maxJointsPerSkin, long maxVertices,
        int maxInfluencesPerVertex, int maxKeysPerTrack, int maxClips, int maxXmlDepth, int maxXmlElements,
        int maxZipEntries, long maxZipBytes, int maxZipRatio, Duration parseTime) {

    /**
     * Defaults sized for a shared server: 1 GiB decoded, 100 000 nodes, 10 000 joints per skin, 20 million
     * vertices, 64 influences per vertex, 1 million keys per track, 10 000 clips, XML depth 256 and 5 million
     * elements, 1 000 zip entries, 1 GiB unzipped, ratio 200, 10 s of parsing.
     */
    public static final ImportLimits DEFAULT = new ImportLimits(1L << 30, 100_000, 10_000, 20_000_000L, 64,
            1_000_000, 10_000, 256, 5_000_000, 1_000, 1L << 30, 200, Duration.ofSeconds(10));

    public ImportLimits {
        if (maxDecodedBytes < 0 || maxNodes < 0 || maxJointsPerSkin < 0 || maxVertices < 0 || maxInfluencesPerVertex < 0
                || maxKeysPerTrack < 0 || maxClips < 0 || maxXmlDepth < 0 || maxXmlElements < 0 || maxZipEntries < 0
                || maxZipBytes < 0 || maxZipRatio < 0 || parseTime == null || parseTime.isNegative()) {
            throw new IllegalArgumentException("import limits must not be negative");
        }
    }

    /** The defaults with the given budget, node and zip caps (the rest as {@link #DEFAULT}). */
    public ImportLimits(long maxDecodedBytes, int maxNodes, int maxZipEntries, long maxZipBytes, int maxZipRatio) {
        this(maxDecodedBytes, maxNodes, DEFAULT.maxJointsPerSkin, DEFAULT.maxVertices, DEFAULT.maxInfluencesPerVertex,
                DEFAULT.maxKeysPerTrack, DEFAULT.maxClips, DEFAULT.maxXmlDepth, DEFAULT.maxXmlElements, maxZipEntries,
                maxZipBytes, maxZipRatio, DEFAULT.parseTime);
    }

    /** The configuration property of {@link #maxDecodedBytes}. */
    public static final String DECODED_BYTES = "posekit.limits.decoded-bytes";
    /** The configuration property of {@link #maxNodes}. */
    public static final String NODES = "posekit.limits.nodes";
    /** The configuration property of {@link #maxJointsPerSkin}. */
    public static final String JOINTS_PER_SKIN = "posekit.limits.joints-per-skin";
    /** The configuration property of {@link #maxVertices}. */
    public static final String VERTICES = "posekit.limits.vertices";
    /** The configuration property of {@link #maxInfluencesPerVertex}. */
    public static final String INFLUENCES_PER_VERTEX = "posekit.limits.influences-per-vertex";
    /** The configuration property of {@link #maxKeysPerTrack}. */
    public static final String KEYS_PER_TRACK = "posekit.limits.keys-per-track";
    /** The configuration property of {@link #maxClips}. */
    public static final String CLIPS = "posekit.limits.clips";
    /** The configuration property of {@link #maxXmlDepth}. */
    public static final String XML_DEPTH = "posekit.limits.xml-depth";
    /** The configuration property of {@link #maxXmlElements}. */
    public static final String XML_ELEMENTS = "posekit.limits.xml-elements";
    /** The configuration property of {@link #maxZipEntries}. */
    public static final String ZIP_ENTRIES = "posekit.limits.zip-entries";
    /** The configuration property of {@link #maxZipBytes} (a zip may expand to at most the upload limit). */
    public static final String ZIP_BYTES = "posekit.upload.max-bytes";
    /** The configuration property of {@link #maxZipRatio}. */
    public static final String ZIP_RATIO = "posekit.limits.zip-ratio";
    /** The configuration property of {@link #parseTime}. */
    public static final String PARSE_TIME = "posekit.limits.parse-time";

    /** A copy with another {@link #parseTime} (tests, and callers that run an import under a stricter deadline). */
    public ImportLimits withParseTime(Duration time) {
        return new ImportLimits(maxDecodedBytes, maxNodes, maxJointsPerSkin, maxVertices, maxInfluencesPerVertex,
                maxKeysPerTrack, maxClips, maxXmlDepth, maxXmlElements, maxZipEntries, maxZipBytes, maxZipRatio, time);
    }

    /**
     * A fresh budget for one import: {@link #maxDecodedBytes} to decode, and a deadline {@link #parseTime} from now
     * (create it when the import starts).
     */
    public DecodeBudget newBudget() {
        return new DecodeBudget(this);
    }

    /**
     * The 413 for a count over a cap, e.g. {@code skin 0 has 12000 joints; the limit is 10000
     * (posekit.limits.joints-per-skin)}.
     *
     * @param subject what has too many, e.g. {@code skin 0}
     * @param count how many it has
     * @param noun what it has too many of, e.g. {@code joints}
     * @param limit the cap
     * @param property the configuration property of the cap, e.g. {@link #JOINTS_PER_SKIN}
     */
    public static ImportException exceeded(String subject, long count, String noun, long limit, String property) {
        return ImportException.tooLarge(subject + " has " + count + " " + noun + "; the limit is " + limit + " ("
                + property + ")");
    }

    /** {@code duration} for messages: {@code 10 s}, {@code 1.5 s}, {@code 250 ms}. */
    static String describe(Duration duration) {
        long millis = duration.toMillis();
        if (duration.getNano() % 1_000_000 != 0 && millis < 1) {
            return duration.toNanos() / 1000 + " µs";
        }
        if (millis % 1000 == 0) {
            return millis / 1000 + " s";
        }
        if (millis < 1000) {
            return millis + " ms";
        }
        return java.math.BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString() + " s";
    }
}
