package io.posekit.asset.ktx2;

import io.posekit.asset.ImportException;

/**
 * Reads a Basis Universal bit stream: bits are taken least significant first from consecutive bytes (the order of
 * Basis's {@code bitwise_decoder}). Reading past the end of the slice is an error, never zero padding, so a truncated
 * stream fails instead of decoding garbage.
 */
final class BitReader {

    private final byte[] data;
    private final int end;
    private final String where;
    private int pos;
    private long buffer;
    private int buffered;

    /**
     * @param data the bytes (not copied)
     * @param offset where the stream starts in {@code data}
     * @param length its length in bytes (the caller has checked {@code offset + length <= data.length})
     * @param where how errors name the stream, e.g. {@code texture.ktx2: BasisLZ endpoints}
     */
    BitReader(byte[] data, int offset, int length, String where) {
        this.data = data;
        this.pos = offset;
        this.end = offset + length;
        this.where = where;
    }

    /**
     * The next {@code count} bits (0..32) as an unsigned number, the first read in bit 0.
     *
     * @throws ImportException (invalid) when the stream ends first
     */
    int bits(int count) {
        while (buffered < count) {
            if (pos >= end) {
                throw ImportException.invalid(where + " ends early (truncated or corrupt)");
            }
            buffer |= (long) (data[pos++] & 0xFF) << buffered;
            buffered += 8;
        }
        int value = (int) (buffer & ((1L << count) - 1));
        buffer >>>= count;
        buffered -= count;
        return value;
    }

    /** The next bit. */
    int bit() {
        return bits(1);
    }

    /**
     * A variable-length number of {@code chunkBits}-bit chunks, each followed by a continuation bit (Basis's
     * {@code decode_vlc}), least significant chunk first.
     *
     * @throws ImportException (invalid) when it runs past 32 bits
     */
    int vlc(int chunkBits) {
        int chunkMask = (1 << chunkBits) - 1;
        long value = 0;
        int shift = 0;
        while (true) {
            int s = bits(chunkBits + 1);
            value |= (long) (s & chunkMask) << shift;
            shift += chunkBits;
            if ((s >>> chunkBits) == 0) {
                break;
            }
            if (shift >= 32) {
                throw ImportException.invalid(where + ": a variable-length count runs past 32 bits");
            }
        }
        if (value > Integer.MAX_VALUE) {
            throw ImportException.invalid(where + ": a variable-length count " + value + " is out of range");
        }
        return (int) value;
    }
}
