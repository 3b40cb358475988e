package io.posekit.store;

/** An operation that would make a tenant hold more than its quota allows; nothing was stored. */
public final class QuotaExceededException extends RuntimeException {

    public QuotaExceededException(String message) {
        super(message);
    }
}
