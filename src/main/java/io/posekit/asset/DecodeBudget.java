package io.posekit.asset;

import java.time.Duration;

/**
 * The running costs of one import: the bytes it has decided to allocate, and the time it has taken. Importers
 * {@link #charge} before each allocation sized by file data, so a lying count fails with a precise 413 instead of
 * exhausting the heap, and call {@link #checkTime()} from their long loops, so no file keeps a parser busy past
 * {@link ImportLimits#parseTime()}: past the deadline, or once the importing thread is interrupted (the service
 * cancels a parse that outlives its time that way), the import stops with a 422 ({@code parsing took longer than
 * 10 s (posekit.limits.parse-time)}). The budget also carries the import's {@link #limits()}, so code that is handed
 * a budget can check the structural caps as early as it sees a count.
 *
 * <p>Not thread-safe: one budget per import, created when the import starts ({@link ImportLimits#newBudget()}).
 */
public final class DecodeBudget {

    /** {@link #checkTime()} reads the clock once per this many calls (a power of two). */
    private static final int CHECK_EVERY = 64;

    private final long limit;
    private final ImportLimits limits;
    private final long start;
    private final long timeLimitNanos;
    private long used;
    private int ticks;

    /** A budget of {@code limitBytes} with no deadline (interruption still stops it); the other limits as default. */
    public DecodeBudget(long limitBytes) {
        this(limitBytes, ImportLimits.DEFAULT, Long.MAX_VALUE);
    }

    /** A budget of {@code limits}' decoded bytes with a deadline {@code limits.parseTime()} from now. */
    public DecodeBudget(ImportLimits limits) {
        this(limits.maxDecodedBytes(), limits, nanos(limits.parseTime()));
    }

    private DecodeBudget(long limitBytes, ImportLimits limits, long timeLimitNanos) {
        this.limit = limitBytes;
        this.limits = limits;
        this.timeLimitNanos = timeLimitNanos;
        this.start = System.nanoTime();
    }

    private static long nanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** The limits this import runs under. */
    public ImportLimits limits() {
        return limits;
    }

    /**
     * Records an allocation of {@code elements × bytesPerElement} bytes for {@code what} (and checks the time).
     *
     * @throws ImportException (too large) when the total would exceed the limit, or the size overflows; (invalid)
     *     past the deadline or when the thread is interrupted
     */
    public void charge(long elements, int bytesPerElement, String what) {
        checkTimeNow();
        if (elements < 0) {
            throw ImportException.invalid(what + ": negative size " + elements);
        }
        long bytes;
        try {
            bytes = Math.multiplyExact(elements, (long) bytesPerElement);
            used = Math.addExact(used, bytes);
        } catch (ArithmeticException e) {
            throw ImportException.tooLarge(what + ": " + elements + " elements overflow the decode budget ("
                    + ImportLimits.DECODED_BYTES + ")");
        }
        if (used > limit) {
            throw ImportException.tooLarge(what + " needs " + bytes + " bytes, which takes the import past its limit of "
                    + limit + " decoded bytes (" + ImportLimits.DECODED_BYTES + ")");
        }
    }

    /**
     * Stops the import once it is past its deadline or its thread is interrupted. Cheap enough to call on every
     * iteration of a parsing loop: the clock is read once every {@value #CHECK_EVERY} calls.
     *
     * @throws ImportException (invalid) {@code parsing took longer than 10 s (posekit.limits.parse-time)}
     */
    public void checkTime() {
        if ((++ticks & (CHECK_EVERY - 1)) == 0) {
            checkTimeNow();
        }
    }

    /** {@link #checkTime()} reading the clock now, for loops whose iterations are expensive. */
    public void checkTimeNow() {
        if (System.nanoTime() - start > timeLimitNanos || Thread.currentThread().isInterrupted()) {
            // the interrupt status stays set: whoever interrupted the thread may still look at it
            throw ImportException.invalid("parsing took longer than " + ImportLimits.describe(limits.parseTime()) + " ("
                    + ImportLimits.PARSE_TIME + ")");
        }
    }

    /** Bytes that may still be charged before the limit: for memory an importer holds only for a while. */
    public long remaining() {
        return limit - used;
    }

    /** The most bytes this import may charge. */
    public long limitBytes() {
        return limit;
    }

    /** Bytes charged so far. */
    public long used() {
        return used;
    }

    /** Nanoseconds since the import started. */
    public long elapsedNanos() {
        return System.nanoTime() - start;
    }
}
