package io.posekit.asset.gltf.meshopt;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;

/**
 * A bounds-checked forward reader over {@code [start, limit)} of a compressed stream: every read past {@code limit} is
 * an {@link ImportException} (invalid) naming the buffer view, never an index exception. Not thread-safe.
 */
final class Bitstream {

    private final byte[] data;
    private final int start;
    private final int limit;
    private final String where;
    private final DecodeBudget budget;
    private int pos;

    Bitstream(byte[] data, int start, int limit, String where, DecodeBudget budget) {
        this.data = data;
        this.start = start;
        this.limit = limit;
        this.pos = start;
        this.where = where;
        this.budget = budget;
    }

    /** The read position, as an offset from the stream's first byte. */
    int offset() {
        return pos - start;
    }

    /** The absolute index of the read position within the backing array. */
    int position() {
        return pos;
    }

    /** Bytes left before the limit. */
    int remaining() {
        return limit - pos;
    }

    /** Checks the import's deadline (cheap: the clock is read once per many calls). */
    void checkTime() {
        budget.checkTime();
    }

    /** Skips {@code n} bytes, which must lie before the limit; returns the absolute index of the first. */
    int skip(int n, String what) {
        require(n, what);
        int at = pos;
        pos += n;
        return at;
    }

    /** The next byte, unsigned. */
    int u8(String what) {
        require(1, what);
        return data[pos++] & 0xFF;
    }

    /** The unsigned byte at absolute index {@code at} (already bounds-checked by {@link #skip}). */
    int at(int at) {
        return data[at] & 0xFF;
    }

    /**
     * An unsigned LEB128 value of 1 to 5 bytes (each but the last with its high bit set), truncated to 32 bits.
     */
    int varint(String what) {
        int value = 0;
        for (int i = 0; i < 5; i++) {
            int b = u8(what);
            value |= (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw malformed(what + ": a varint at byte " + (offset() - 5) + " runs past 5 bytes");
    }

    private void require(int n, String what) {
        if (n < 0 || n > limit - pos) {
            throw malformed(what + " needs " + n + " bytes at byte " + offset() + " but only " + Math.max(0, limit - pos)
                    + " remain");
        }
    }

    /** An {@link ImportException} (invalid) for this stream, e.g. {@code bufferView 3: meshopt stream: …}. */
    ImportException malformed(String detail) {
        return malformed(where, detail);
    }

    static ImportException malformed(String where, String detail) {
        return ImportException.invalid(where + ": meshopt stream is malformed: " + detail);
    }
}
