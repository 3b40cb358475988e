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

    /** A fresh budget for one import. */
    public DecodeBudget newBudget() {
        return new DecodeBudget(maxDecodedBytes);
    }
}
