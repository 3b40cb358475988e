package io.posekit.asset;

/**
 * Running total of the bytes one import has decided to allocate. Importers {@link #charge} before each
 * allocation sized by file data, so a lying count fails with a precise 413 instead of exhausting the heap.
 * Not thread-safe: one budget per import.
 */
public final class DecodeBudget {

    private final long limit;
    private long used;

    public DecodeBudget(long limitBytes) {
        this.limit = limitBytes;
    }

    /**
     * Records an allocation of {@code elements × bytesPerElement} bytes for {@code what}.
     *
     * @throws ImportException (too large) when the total would exceed the limit, or the size overflows
     */
    public void charge(long elements, int bytesPerElement, String what) {
        if (elements < 0) {
            throw ImportException.invalid(what + ": negative size " + elements);
        }
        long bytes;
        try {
            bytes = Math.multiplyExact(elements, (long) bytesPerElement);
            used = Math.addExact(used, bytes);
        } catch (ArithmeticException e) {
            throw ImportException.tooLarge(what + ": " + elements + " elements overflow the decode budget");
        }
        if (used > limit) {
            throw ImportException.tooLarge(what + " needs " + bytes + " bytes, which takes the import past its limit of "
                    + limit + " decoded bytes");
        }
    }

    /** Bytes charged so far. */
    public long used() {
        return used;
    }
}
