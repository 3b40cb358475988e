package io.posekit.asset;

/**
 * Caps that keep an import's memory bounded whatever a file claims. Importers never size an allocation by
 * a number read from a file without charging it to a {@link DecodeBudget} built from these limits first.
 *
 * @param maxDecodedBytes the most bytes of arrays one import may decode (vertex data, keys, matrices)
 * @param maxNodes the most scene nodes
 * @param maxZipEntries the most entries a zip upload may hold
 * @param maxZipBytes the most uncompressed bytes a zip upload may expand to
 * @param maxZipRatio the largest uncompressed/compressed ratio of a zip entry (zip bombs)
 */
public record ImportLimits(long maxDecodedBytes, int maxNodes, int maxZipEntries, long maxZipBytes, int maxZipRatio) {

    /** Defaults sized for a shared server: 1 GiB decoded, 100 000 nodes, 1 000 zip entries, 1 GiB unzipped, ratio 200. */
    public static final ImportLimits DEFAULT = new ImportLimits(1L << 30, 100_000, 1_000, 1L << 30, 200);

    /** A fresh budget for one import. */
    public DecodeBudget newBudget() {
        return new DecodeBudget(maxDecodedBytes);
    }
}
