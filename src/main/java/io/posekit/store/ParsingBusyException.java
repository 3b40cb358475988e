package io.posekit.store;

import java.time.Duration;

/**
 * The server cannot parse now: every parsing thread is busy and the waiting slots are full, or the import
 * waited too long for a thread, or a re-parse of a stored asset ran out of time. Nothing is wrong with the
 * request; the API answers 503 with {@code Retry-After}.
 */
public final class ParsingBusyException extends RuntimeException {

    private final Duration retryAfter;

    public ParsingBusyException(String detail, Duration retryAfter) {
        super(detail);
        this.retryAfter = retryAfter;
    }

    /** How long the client should wait before trying again (whole seconds, at least one). */
    public Duration retryAfter() {
        return retryAfter;
    }
}
