package io.posekit.asset;

/**
 * An upload that cannot be imported. The message is the precise, user-facing detail: what is wrong and
 * where (e.g. {@code accessor 7: count 4000 × stride 12 exceeds bufferView 3 length 1024}).
 */
public class ImportException extends RuntimeException {

    /** Why the import failed; the API maps each kind to an HTTP status. */
    public enum Kind {
        /** The file is not valid for its format (422). */
        INVALID,
        /** The format, or a feature the file requires, is not supported (415). */
        UNSUPPORTED,
        /** The content exceeds a configured limit (413). */
        TOO_LARGE
    }

    private final Kind kind;
    private final boolean importerBug;

    public ImportException(Kind kind, String detail) {
        super(detail);
        this.kind = kind;
        this.importerBug = false;
    }

    public ImportException(Kind kind, String detail, Throwable cause) {
        this(kind, detail, cause, false);
    }

    private ImportException(Kind kind, String detail, Throwable cause, boolean importerBug) {
        super(detail, cause);
        this.kind = kind;
        this.importerBug = importerBug;
    }

    /** A file that is not valid: 422. */
    public static ImportException invalid(String detail) {
        return new ImportException(Kind.INVALID, detail);
    }

    /** An unsupported format or required feature: 415. */
    public static ImportException unsupported(String detail) {
        return new ImportException(Kind.UNSUPPORTED, detail);
    }

    /** Content over a limit: 413. */
    public static ImportException tooLarge(String detail) {
        return new ImportException(Kind.TOO_LARGE, detail);
    }

    /**
     * An importer failed with an exception it did not mean to throw ({@code cause}): still the client's file
     * that cannot be read (422), but a bug of ours that the file met, to be logged and counted as one.
     */
    public static ImportException importerBug(String detail, Throwable cause) {
        return new ImportException(Kind.INVALID, detail, cause, true);
    }

    public Kind kind() {
        return kind;
    }

    /** Whether this is an importer's unexpected failure ({@link #importerBug}) rather than a problem it reported. */
    public boolean importerBug() {
        return importerBug;
    }
}
