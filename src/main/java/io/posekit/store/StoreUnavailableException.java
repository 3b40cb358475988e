package io.posekit.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/**
 * The asset store could not be reached or could not complete an operation: a directory that is gone, full or
 * read-only, an object store that refuses, fails or times out. Transient from the client's point of view: the API
 * answers 503 with {@code Retry-After}. Nothing stored was changed by the failed operation.
 */
public final class StoreUnavailableException extends UncheckedIOException {

    /** How long a client should wait before retrying. */
    public static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    public StoreUnavailableException(String message, IOException cause) {
        super(message, cause);
    }

    /** How long a client should wait before retrying. */
    public Duration retryAfter() {
        return RETRY_AFTER;
    }
}
