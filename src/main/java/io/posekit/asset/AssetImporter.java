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
}
