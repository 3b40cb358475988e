package io.posekit.asset.ktx2;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;

/**
 * Decodes Basis Universal UASTC 4×4 blocks (16 bytes each, little-endian, bits read least significant first) into
 * pixels, as the UASTC specification defines them and its transcoder's RGBA32 output has them: the mode from a
 * 7-bit prefix code, the transcoding hints skipped, the dual-plane component and the partition pattern (the patterns
 * BC7 and ASTC share), endpoints in bounded integer sequence encoding (trits or quints first, then the low bits)
 * dequantized as ASTC dequantizes them, weights with one bit fewer at each subset's anchor texel, and every channel
 * interpolated as ASTC interpolates an 8-bit linear endpoint pair ({@code (l·(64−w) + h·w + 32) >> 6} on endpoints
 * widened to 16 bits, then the top 8 bits). Mode 8 is a solid colour.
 */
final class UastcBlocks {

    static final int BLOCK_BYTES = 16;

    private static final int RGB = 3;
    private static final int RGBA = 4;
    private static final int LA = 2;

    // per mode 0..18: prefix code length, endpoint range (BISE index), channels, weight bits, planes, subsets,
    // hint bits to skip
    private static final int[] CODE_BITS = {4, 6, 5, 5, 5, 5, 5, 5, 5, 5, 3, 2, 3, 5, 5, 7, 6, 6, 4};
    private static final int[] RANGE = {19, 20, 8, 7, 12, 20, 18, 12, 0, 8, 13, 13, 19, 20, 20, 20, 20, 20, 11};
    private static final int[] CHANNELS = {RGB, RGB, RGB, RGB, RGB, RGB, RGB, RGB, RGBA, RGBA, RGBA, RGBA, RGBA, RGBA,
        RGBA, LA, LA, LA, RGB};
    private static final int[] WEIGHT_BITS = {4, 2, 3, 2, 2, 3, 2, 2, 0, 2, 4, 2, 3, 1, 2, 4, 2, 2, 5};
    private static final int[] PLANES = {1, 1, 1, 1, 1, 1, 2, 1, 0, 1, 1, 2, 1, 2, 1, 1, 1, 2, 1};
    private static final int[] SUBSETS = {1, 1, 2, 3, 2, 1, 1, 2, 0, 2, 1, 1, 1, 1, 1, 1, 2, 1, 1};
    private static final int[] HINT_BITS = {15, 15, 15, 15, 15, 15, 15, 15, 0, 23, 17, 17, 17, 23, 23, 23, 23, 23, 15};
    private static final int SOLID = 8;
    private static final int RESERVED = 19;

    /** The mode of each value of a block's low 7 bits (19: reserved). */
    private static final int[] MODE_OF_PREFIX = new int[128];

    static {
        int[] row = {11, 0, 10, 3, 11, 15, 12, 7, 11, 18, 10, 5, 11, 14, 12, 9, 11, 0, 10, 4, 11, 16, 12, 8,
            11, 18, 10, 6, 11, 2, 12, 13, 11, 0, 10, 3, 11, 17, 12, 7, 11, 18, 10, 5, 11, 14, 12, 9,
            11, 0, 10, 4, 11, 1, 12, 8, 11, 18, 10, 6, 11, 2, 12, 13};
        for (int i = 0; i < 128; i++) {
            MODE_OF_PREFIX[i] = row[i & 63];
        }
        MODE_OF_PREFIX[0x45] = RESERVED; // 1000101: the reserved code; its twin 0000101 is mode 15
    }

    // bounded integer sequence ranges 0..20: plain bits, trits, quints; ASTC dequantization's B bit pattern and C
    private static final int[] BISE_BITS = {1, 0, 2, 0, 1, 3, 1, 2, 4, 2, 3, 5, 3, 4, 6, 4, 5, 7, 5, 6, 8};
    private static final int[] BISE_TRITS = {0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0};
    private static final int[] BISE_QUINTS = {0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0};
    private static final String[] DEQ_B = {null, null, null, null, "000000000", null, "000000000", "b000b0bb0", null,
        "b0000bb00", "cb000cbcb", null, "cb0000cbc", "dcb000dcb", null, "dcb0000dc", "edcb000ed", null, "edcb0000e",
        "fedcb000f", null};
    private static final int[] DEQ_C = {0, 0, 0, 0, 204, 0, 113, 93, 0, 54, 44, 0, 26, 22, 0, 13, 11, 0, 6, 5, 0};

    private static final int[][] WEIGHT_VALUES = {null, {0, 64}, {0, 21, 43, 64}, {0, 9, 18, 27, 37, 46, 55, 64},
        {0, 4, 8, 12, 17, 21, 25, 29, 35, 39, 43, 47, 52, 56, 60, 64},
        {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58,
            60, 62, 64}};

    /** The 30 two-subset patterns, texel by texel (row by row), and each subset's anchor texel. */
    private static final String[] PATTERNS_2 = {
        "0011001100110011", "0001000100010001", "1000100010001000", "0001001100110111", "1111111011101100",
        "0011011101111111", "1110110010000000", "1111111011001000", "0000000000010011", "1100100000000000",
        "0000000101111111", "1111111111101000", "1110100000000000", "1111111100000000", "0000111111111111",
        "1111111111110000", "1000111011111111", "1111111101110001", "0111001100010000", "0011000100000000",
        "0000100011001110", "1111111101110011", "1000110011001110", "0011000100010000", "1111011101110011",
        "0110011001100110", "1111000000001111", "1010101010101010", "1111000011110000", "1001001101101100"};
    private static final int[][] ANCHORS_2 = {{0, 2}, {0, 3}, {1, 0}, {0, 3}, {7, 0}, {0, 2}, {3, 0}, {7, 0}, {0, 11},
        {2, 0}, {0, 7}, {11, 0}, {3, 0}, {8, 0}, {0, 4}, {12, 0}, {1, 0}, {8, 0}, {0, 1}, {0, 2}, {0, 4}, {8, 0},
        {1, 0}, {0, 2}, {4, 0}, {0, 1}, {4, 0}, {1, 0}, {4, 0}, {1, 0}};
    /** The 11 three-subset patterns and anchors. */
    private static final String[] PATTERNS_3 = {
        "0000000011221122", "1111111100002222", "1111000000002222", "1111222200000000", "1120112011201120",
        "0112011201120112", "0211021102110211", "2000200021112111", "2012201220122012", "1111000022221111",
        "0022001100110022"};
    private static final int[][] ANCHORS_3 = {{0, 8, 10}, {8, 0, 12}, {4, 0, 12}, {8, 0, 4}, {3, 0, 2}, {0, 1, 3},
        {0, 2, 1}, {1, 9, 0}, {1, 2, 0}, {4, 0, 8}, {0, 6, 2}};
    /** Mode 7's 19 two-subset patterns (of BC7's three-subset ones) and anchors. */
    private static final String[] PATTERNS_2_3 = {
        "0000111100000000", "0010001000100010", "1100110010000000", "0000000100110011", "1111111100001111",
        "0100010001000100", "0001001111111111", "0111001100110011", "1100000000111100", "0111011100000000",
        "0000000011101110", "1100000000001100", "0111001100000000", "0000000111111111", "1111111111110110",
        "1100110011001000", "1111111110001000", "0011011011001000", "1111011100000000"};
    private static final int[][] ANCHORS_2_3 = {{0, 4}, {0, 2}, {2, 0}, {0, 7}, {8, 0}, {0, 1}, {0, 3}, {0, 1}, {2, 0},
        {0, 1}, {0, 8}, {2, 0}, {0, 1}, {0, 7}, {12, 0}, {2, 0}, {9, 0}, {0, 2}, {4, 0}};

    private UastcBlocks() {
    }

    /**
     * Decodes {@code ceil(width/4) × ceil(height/4)} blocks starting at {@code offset} of {@code data} (the caller has
     * checked they are there) into {@code rgba} ({@code width × height} pixels, 4 bytes each, rows top first), cropping
     * the blocks past the image's edge.
     *
     * @throws ImportException (invalid) for a block of the reserved mode or a pattern index past its table
     */
    static void decode(byte[] data, int offset, int width, int height, byte[] rgba, DecodeBudget budget,
            String where) {
        int blocksX = (width + 3) >>> 2;
        int blocksY = (height + 3) >>> 2;
        int[] texels = new int[16 * 4];
        int[] scratch = new int[18 * 2 + 32];
        for (int by = 0; by < blocksY; by++) {
            budget.checkTime();
            for (int bx = 0; bx < blocksX; bx++) {
                int at = offset + (by * blocksX + bx) * BLOCK_BYTES;
                block(data, at, texels, scratch, where, bx, by);
                for (int y = 0; y < 4 && by * 4 + y < height; y++) {
                    for (int x = 0; x < 4 && bx * 4 + x < width; x++) {
                        int p = ((by * 4 + y) * width + bx * 4 + x) * 4;
                        int t = (y * 4 + x) * 4;
                        rgba[p] = (byte) texels[t];
                        rgba[p + 1] = (byte) texels[t + 1];
                        rgba[p + 2] = (byte) texels[t + 2];
                        rgba[p + 3] = (byte) texels[t + 3];
                    }
                }
            }
        }
    }

    /** One block's 16 texels into {@code out} (r, g, b, a per texel, 0..255). */
    static void block(byte[] data, int at, int[] out, int[] scratch, String where, int bx, int by) {
        Bits in = new Bits(data, at);
        int mode = MODE_OF_PREFIX[in.peek(7)];
        if (mode == RESERVED) {
            throw ImportException.invalid(where + ": UASTC block (" + bx + ", " + by + ") uses the reserved mode");
        }
        in.skip(CODE_BITS[mode]);
        if (mode == SOLID) {
            int r = in.read(8);
            int g = in.read(8);
            int b = in.read(8);
            int a = in.read(8);
            for (int t = 0; t < 16; t++) {
                out[t * 4] = r;
                out[t * 4 + 1] = g;
                out[t * 4 + 2] = b;
                out[t * 4 + 3] = a;
            }
            return;
        }
        in.skip(HINT_BITS[mode]);
        int channels = CHANNELS[mode];
        int planes = PLANES[mode];
        int subsets = SUBSETS[mode];
        int compsel = 0;
        if (planes == 2) {
            compsel = channels == LA ? 3 : in.read(2);
        }
        String pattern = null;
        int[] anchors = {0};
        if (subsets > 1) {
            String[] table = mode == 7 ? PATTERNS_2_3 : subsets == 2 ? PATTERNS_2 : PATTERNS_3;
            int[][] anchorTable = mode == 7 ? ANCHORS_2_3 : subsets == 2 ? ANCHORS_2 : ANCHORS_3;
            int index = in.read(subsets == 3 ? 4 : 5);
            if (index >= table.length) {
                throw ImportException.invalid(where + ": UASTC block (" + bx + ", " + by + ") has pattern " + index
                        + " of " + table.length);
            }
            pattern = table[index];
            anchors = anchorTable[index];
        }
        int endpointCount = channels * subsets * 2;
        int range = RANGE[mode];
        int[] endpoints = scratch; // [0, endpointCount): trit/quint, then 8-bit values in [18, 18 + endpointCount)
        readEndpoints(in, range, endpointCount, endpoints);
        int weightBits = WEIGHT_BITS[mode];
        int[] values = WEIGHT_VALUES[weightBits];
        int[] weights = new int[32];
        for (int t = 0; t < 16; t++) {
            int bits = weightBits;
            for (int anchor : anchors) {
                if (anchor == t) {
                    bits--;
                }
            }
            for (int p = 0; p < planes; p++) {
                weights[t * planes + p] = values[in.read(bits)];
            }
        }
        for (int t = 0; t < 16; t++) {
            int subset = pattern == null ? 0 : pattern.charAt(t) - '0';
            int e = 18 + subset * channels * 2;
            for (int c = 0; c < 4; c++) {
                int w = weights[t * planes + (planes == 2 && c == compsel ? 1 : 0)];
                int lo;
                int hi;
                if (channels == LA) {
                    int k = c < 3 ? 0 : 2;
                    lo = endpoints[e + k];
                    hi = endpoints[e + k + 1];
                } else if (c == 3 && channels == RGB) {
                    lo = 255;
                    hi = 255;
                } else {
                    lo = endpoints[e + c * 2];
                    hi = endpoints[e + c * 2 + 1];
                }
                out[t * 4 + c] = interpolate(lo, hi, w);
            }
        }
    }

    private static int interpolate(int lo, int hi, int w) {
        int l = lo << 8 | lo;
        int h = hi << 8 | hi;
        return ((l * (64 - w) + h * w + 32) >> 6) >> 8;
    }

    /** Reads {@code count} endpoint values of BISE range {@code range}; their 8-bit values to {@code out[18..]}. */
    private static void readEndpoints(Bits in, int range, int count, int[] out) {
        int bits = BISE_BITS[range];
        if (BISE_QUINTS[range] == 1) {
            int i = 0;
            for (; i + 3 <= count; i += 3) {
                unpack(in.read(7), 5, 3, out, i);
            }
            int rest = count - i;
            if (rest > 0) {
                unpack(in.read(rest == 1 ? 3 : 5), 5, rest, out, i);
            }
        } else if (BISE_TRITS[range] == 1) {
            int i = 0;
            for (; i + 5 <= count; i += 5) {
                unpack(in.read(8), 3, 5, out, i);
            }
            int rest = count - i;
            if (rest > 0) {
                unpack(in.read(new int[] {0, 2, 4, 5, 7}[rest]), 3, rest, out, i);
            }
        }
        for (int i = 0; i < count; i++) {
            int low = bits > 0 ? in.read(bits) : 0;
            out[18 + i] = dequantize(range, out[i], low);
        }
    }

    private static void unpack(int packed, int base, int n, int[] out, int at) {
        for (int k = 0; k < n; k++) {
            out[at + k] = packed % base;
            packed /= base;
        }
    }

    /** ASTC's colour endpoint dequantization to 0..255. */
    private static int dequantize(int range, int tritOrQuint, int low) {
        int bits = BISE_BITS[range];
        if (BISE_TRITS[range] == 0 && BISE_QUINTS[range] == 0) {
            int v = 0;
            for (int shift = 8 - bits; shift > -bits; shift -= bits) {
                v |= shift >= 0 ? low << shift : low >>> -shift;
            }
            return v & 0xFF;
        }
        int a = (low & 1) != 0 ? 0x1FF : 0;
        int b = 0;
        String pattern = DEQ_B[range];
        for (int j = 0; j < 9; j++) {
            b <<= 1;
            char ch = pattern.charAt(j);
            if (ch != '0') {
                b |= (low >>> (ch - 'a')) & 1;
            }
        }
        int t = (tritOrQuint * DEQ_C[range] + b) ^ a;
        return (a & 0x80) | (t >>> 2);
    }

    /** The 128 bits of one block, read least significant first. */
    private static final class Bits {
        private final long lo;
        private final long hi;
        private int pos;

        Bits(byte[] d, int at) {
            long l = 0;
            long h = 0;
            for (int i = 7; i >= 0; i--) {
                l = l << 8 | (d[at + i] & 0xFF);
                h = h << 8 | (d[at + 8 + i] & 0xFF);
            }
            lo = l;
            hi = h;
        }

        int peek(int n) {
            long v;
            if (pos >= 64) {
                v = hi >>> (pos - 64);
            } else if (pos == 0) {
                v = lo;
            } else {
                v = lo >>> pos | hi << (64 - pos);
            }
            return (int) (v & ((1L << n) - 1));
        }

        int read(int n) {
            if (n == 0) {
                return 0;
            }
            if (pos + n > 128) {
                throw new IllegalStateException("a UASTC block has 128 bits");
            }
            int v = peek(n);
            pos += n;
            return v;
        }

        void skip(int n) {
            pos += n;
        }
    }
}
