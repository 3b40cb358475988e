package io.posekit.asset.ktx2;

import io.posekit.asset.ImportException;

/**
 * A canonical prefix code of up to {@value #MAX_CODE_SIZE} bits as Basis Universal stores them (codes assigned in
 * symbol order within each length, shorter first; the code's most significant bit is read first), read from the
 * stream by {@link #read}. An over-subscribed code is rejected when built; a bit pattern that is no code (an
 * incomplete code) fails when decoded. Immutable.
 */
final class HuffmanCode {

    static final int MAX_CODE_SIZE = 16;
    /** Bits of the used-symbol count in a stored table. */
    private static final int MAX_SYMS_LOG2 = 14;
    private static final int CODE_LENGTH_CODES = 21;
    private static final int SMALL_ZERO_RUN = 17;
    private static final int BIG_ZERO_RUN = 18;
    private static final int SMALL_REPEAT = 19;
    /** The order in which the code-length code's sizes are stored. */
    private static final int[] CODE_LENGTH_ORDER = {
        SMALL_ZERO_RUN, BIG_ZERO_RUN, SMALL_REPEAT, 20, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15, 16};

    private final int[] count = new int[MAX_CODE_SIZE + 1];
    private final int[] firstCode = new int[MAX_CODE_SIZE + 1];
    private final int[] firstIndex = new int[MAX_CODE_SIZE + 1];
    private final int[] symbols;
    private final String where;

    /**
     * The code with these code sizes (0 = symbol unused).
     *
     * @throws ImportException (invalid) when a size exceeds {@value #MAX_CODE_SIZE} or the code is over-subscribed
     */
    HuffmanCode(int[] codeSizes, String where) {
        this.where = where;
        int used = 0;
        for (int size : codeSizes) {
            if (size < 0 || size > MAX_CODE_SIZE) {
                throw ImportException.invalid(where + ": a code size of " + size + " bits");
            }
            if (size > 0) {
                count[size]++;
                used++;
            }
        }
        long kraft = 0;
        for (int len = 1; len <= MAX_CODE_SIZE; len++) {
            kraft += (long) count[len] << (MAX_CODE_SIZE - len);
        }
        if (kraft > 1L << MAX_CODE_SIZE) {
            throw ImportException.invalid(where + ": its prefix code is over-subscribed");
        }
        symbols = new int[used];
        int code = 0;
        int index = 0;
        for (int len = 1; len <= MAX_CODE_SIZE; len++) {
            firstCode[len] = code;
            firstIndex[len] = index;
            index += count[len];
            code = (code + count[len]) << 1;
        }
        int[] next = firstIndex.clone();
        for (int s = 0; s < codeSizes.length; s++) {
            if (codeSizes[s] > 0) {
                symbols[next[codeSizes[s]]++] = s;
            }
        }
    }

    /** Whether the code has no symbol (a table stored as empty); decoding from it fails. */
    boolean isEmpty() {
        return symbols.length == 0;
    }

    /**
     * The next symbol.
     *
     * @throws ImportException (invalid) when the bits are no code of this table or the stream ends
     */
    int decode(BitReader in) {
        int code = 0;
        for (int len = 1; len <= MAX_CODE_SIZE; len++) {
            code = (code << 1) | in.bit();
            int d = code - firstCode[len];
            if (d >= 0 && d < count[len]) {
                return symbols[firstIndex[len] + d];
            }
        }
        throw ImportException.invalid(where + ": a bit pattern that is no code of its prefix code");
    }

    /**
     * A table as Basis stores it: the used-symbol count (14 bits), the code-length code's sizes (3 bits each, in
     * {@link #CODE_LENGTH_ORDER}), then the symbols' sizes in that code with zero runs and repeats.
     *
     * @throws ImportException (invalid) when the table is malformed
     */
    static HuffmanCode read(BitReader in, String where) {
        int total = in.bits(MAX_SYMS_LOG2);
        if (total == 0) {
            return new HuffmanCode(new int[0], where);
        }
        int[] lengthSizes = new int[CODE_LENGTH_CODES];
        int stored = in.bits(5);
        if (stored < 1 || stored > CODE_LENGTH_CODES) {
            throw ImportException.invalid(where + ": " + stored + " code-length codes (1.." + CODE_LENGTH_CODES + ")");
        }
        for (int i = 0; i < stored; i++) {
            lengthSizes[CODE_LENGTH_ORDER[i]] = in.bits(3);
        }
        HuffmanCode lengths = new HuffmanCode(lengthSizes, where + " code lengths");
        if (lengths.isEmpty()) {
            throw ImportException.invalid(where + ": an empty code-length code");
        }
        int[] sizes = new int[total];
        int cur = 0;
        while (cur < total) {
            int c = lengths.decode(in);
            if (c <= MAX_CODE_SIZE) {
                sizes[cur++] = c;
            } else if (c == SMALL_ZERO_RUN) {
                cur += in.bits(3) + 3;
            } else if (c == BIG_ZERO_RUN) {
                cur += in.bits(7) + 11;
            } else {
                if (cur == 0) {
                    throw ImportException.invalid(where + ": a code-size repeat before any size");
                }
                int run = c == SMALL_REPEAT ? in.bits(2) + 3 : in.bits(7) + 7;
                int prev = sizes[cur - 1];
                if (prev == 0 || cur + run > total) {
                    throw ImportException.invalid(where + ": a code-size repeat out of range");
                }
                for (int i = 0; i < run; i++) {
                    sizes[cur++] = prev;
                }
            }
        }
        if (cur > total) {
            throw ImportException.invalid(where + ": code sizes run past the " + total + " symbols");
        }
        return new HuffmanCode(sizes, where);
    }
}
