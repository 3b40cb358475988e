package io.posekit.render;

import java.time.Duration;

/**
 * The server cannot render now: every render thread is busy and every waiting slot is taken. Nothing is wrong with
 * the request; the API answers 503 with {@code Retry-After}.
 */
public final class RenderBusyException extends RuntimeException {

    private final Duration retryAfter;

    public RenderBusyException(String detail, Duration retryAfter) {
        super(detail);
        this.retryAfter = retryAfter;
    }

    /** How long the client should wait before trying again (whole seconds, at least one). */
    public Duration retryAfter() {
        return retryAfter;
    }
}
