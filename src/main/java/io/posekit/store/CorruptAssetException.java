package io.posekit.store;

/**
 * A stored asset whose files no longer hash to its id (bit rot, a truncated or missing file, an unreadable
 * manifest). It is never served as something else: the API answers 410 Gone until it is deleted (or the same
 * content is uploaded again, which replaces the damaged copy).
 */
public final class CorruptAssetException extends RuntimeException {

    private final String id;
    private final String reason;

    public CorruptAssetException(String id, String reason) {
        super("asset " + id + " is corrupt in the store: " + reason + "; delete it and upload again");
        this.id = id;
        this.reason = reason;
    }

    /** What is wrong, e.g. {@code content does not match its id}. */
    public String reason() {
        return reason;
    }

    /** The asset's content id. */
    public String id() {
        return id;
    }
}
