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

    public ImportException(Kind kind, String detail) {
        super(detail);
        this.kind = kind;
    }

    public ImportException(Kind kind, String detail, Throwable cause) {
        super(detail, cause);
        this.kind = kind;
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

    public Kind kind() {
        return kind;
    }
}
