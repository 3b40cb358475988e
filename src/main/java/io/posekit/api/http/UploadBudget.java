package io.posekit.api.http;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The request body bytes all requests together may hold in memory while they arrive and are handled: a JSON body's
 * buffer, an upload's fixed receive buffer, and an upload's files while they are parsed (an importer reads a file
 * whole); each reserved before it is allocated (a request that would pass the cap is answered 503 with
 * {@code Retry-After}, one that could never fit 413), and released when its exchange ends. A request declaring a
 * length that cannot fit now is refused before its body is read. An upload's body itself is streamed to disk as it
 * arrives and holds no memory. So a thousand slow uploads, or lying {@code Content-Length}s, hold at most this much
 * heap. Thread-safe.
 */
public final class UploadBudget {

    private final long max;
    private final AtomicLong held = new AtomicLong();

    /** @param max the most bytes held at once */
    public UploadBudget(long max) {
        this.max = max;
    }

    /** The most bytes held at once. */
    public long max() {
        return max;
    }

    /** Whether a body of {@code declared} bytes could be held now (0: unknown length, checked as it arrives). */
    public boolean fits(long declared) {
        return held.get() + declared <= max;
    }

    /** Reserves {@code bytes}; false (nothing reserved) when that would pass the cap. */
    public boolean reserve(long bytes) {
        while (true) {
            long now = held.get();
            if (now + bytes > max) {
                return false;
            }
            if (held.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** Releases what {@link #reserve} took. */
    public void release(long bytes) {
        if (bytes > 0) {
            held.addAndGet(-bytes);
        }
    }

    /** Bytes held now. */
    public long held() {
        return held.get();
    }
}
