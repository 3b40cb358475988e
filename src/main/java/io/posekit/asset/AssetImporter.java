package io.posekit.asset;

/**
 * Reads one model format into the format-neutral {@link ImportScene}. Implementations are stateless and
 * thread-safe, never touch the file system or network (sibling files come only from the upload), check
 * every count, offset and length against the data before allocating, and report every problem as an
 * {@link ImportException} whose message names what is wrong and where.
 */
public interface AssetImporter {

    /** The format this importer reads. */
    AssetFormat format();

    /**
     * Imports {@code main}, resolving references to other files against {@code upload}.
     *
     * @param main the model file (already confirmed to have this importer's extension)
     * @param upload every file of the upload, {@code main} included
     * @param limits caps on what the import may allocate
     * @throws ImportException when the file is invalid, unsupported or too large
     */
    ImportScene read(SourceFile main, SourceFiles upload, ImportLimits limits);

    /**
     * The bytes of an upload's files that {@link #read} holds in memory whole while it runs (the rest it reads in place,
     * from a file mapped into memory), so a server can reserve that much memory before the import starts. The
     * importer's own structures are not counted: the {@link DecodeBudget} bounds those.
     *
     * @param main the model file, as for {@link #read}
     * @param upload every file of the upload, {@code main} included
     */
    default long heldBytes(SourceFile main, java.util.List<SourceFile> upload) {
        return upload.stream().mapToLong(SourceFile::size).sum();
    }
}
