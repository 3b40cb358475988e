package io.posekit.render;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes frames as an animated, endlessly looping GIF89a: one global palette for all frames (so colours hold still
 * over the animation), each frame whole (no cropping), LZW-compressed, with its delay.
 *
 * <p><b>Palette.</b> Median cut over a histogram of every frame's opaque pixels (alpha ≥ 128), colours reduced to 5
 * bits per channel for the histogram: the box with the most pixels × longest side is split at its median along that
 * side until there are 255 boxes (256 without transparency); each palette entry is the mean of its pixels' full
 * 8-bit colours. Each pixel takes the nearest entry (squared RGB distance) of its 5-bit colour. No dithering.
 *
 * <p><b>Transparency.</b> When some pixel has alpha &lt; 128, palette index 0 is transparent, those pixels take it,
 * and frames are disposed to the background, so a moving figure leaves no trail; otherwise nothing is transparent.
 *
 * <p>Stateless; thread-safe.
 */
public final class GifEncoder {

    private static final int BINS = 1 << 15;

    private GifEncoder() {
    }

    /**
     * The GIF of {@code frames}, all the same size.
     *
     * @param delays each frame's delay, hundredths of a second (0..65535), one per frame
     * @throws IllegalArgumentException without frames, with frames of different sizes, or a delay count that differs
     */
    public static byte[] encode(List<RgbaImage> frames, int[] delays) {
        if (frames.isEmpty() || delays.length != frames.size()) {
            throw new IllegalArgumentException("a GIF needs frames and one delay per frame");
        }
        int w = frames.getFirst().width(), h = frames.getFirst().height();
        long[] count = new long[BINS];
        long[] sumR = new long[BINS], sumG = new long[BINS], sumB = new long[BINS];
        boolean transparent = false;
        for (RgbaImage f : frames) {
            if (f.width() != w || f.height() != h) {
                throw new IllegalArgumentException("frames of different sizes");
            }
            byte[] p = f.rgba();
            for (int i = 0; i < p.length; i += 4) {
                if ((p[i + 3] & 0xFF) < 128) {
                    transparent = true;
                    continue;
                }
                int r = p[i] & 0xFF, g = p[i + 1] & 0xFF, b = p[i + 2] & 0xFF;
                int bin = r >> 3 << 10 | g >> 3 << 5 | b >> 3;
                count[bin]++;
                sumR[bin] += r;
                sumG[bin] += g;
                sumB[bin] += b;
            }
        }
        int first = transparent ? 1 : 0;
        int[] palette = medianCut(count, sumR, sumG, sumB, 256 - first);
        int[] table = new int[256];
        System.arraycopy(palette, 0, table, first, palette.length);
        int[] nearest = new int[BINS];
        Arrays.fill(nearest, -1);

        ByteArrayOutputStream out = new ByteArrayOutputStream(w * h * frames.size() / 4 + 1024);
        out.writeBytes("GIF89a".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        short16(out, w);
        short16(out, h);
        out.write(0xF7); // global colour table, 8 bits of colour resolution, 256 entries
        out.write(0); // background colour index
        out.write(0); // no aspect ratio
        for (int c : table) {
            out.write(c >> 16 & 0xFF);
            out.write(c >> 8 & 0xFF);
            out.write(c & 0xFF);
        }
        // NETSCAPE2.0 application extension: loop forever
        out.writeBytes(new byte[] {0x21, (byte) 0xFF, 0x0B, 'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0', 3, 1,
            0, 0, 0});
        byte[] indices = new byte[w * h];
        LzwWriter lzw = new LzwWriter();
        for (int f = 0; f < frames.size(); f++) {
            byte[] p = frames.get(f).rgba();
            for (int i = 0, o = 0; o < indices.length; i += 4, o++) {
                if ((p[i + 3] & 0xFF) < 128) {
                    indices[o] = 0;
                    continue;
                }
                int bin = (p[i] & 0xFF) >> 3 << 10 | (p[i + 1] & 0xFF) >> 3 << 5 | (p[i + 2] & 0xFF) >> 3;
                int k = nearest[bin];
                if (k < 0) {
                    k = nearest[bin] = first + closest(palette, bin);
                }
                indices[o] = (byte) k;
            }
            int delay = delays[f];
            if (delay < 0 || delay > 0xFFFF) {
                throw new IllegalArgumentException("delay " + delay + " is not within 0..65535");
            }
            // graphic control extension: disposal 2 (restore to background) with transparency, else 1 (leave)
            out.writeBytes(new byte[] {0x21, (byte) 0xF9, 4, (byte) (transparent ? 2 << 2 | 1 : 1 << 2),
                (byte) delay, (byte) (delay >> 8), 0, 0});
            out.write(0x2C);
            short16(out, 0);
            short16(out, 0);
            short16(out, w);
            short16(out, h);
            out.write(0); // no local colour table, not interlaced
            out.write(8); // LZW minimum code size
            lzw.write(indices, out);
        }
        out.write(0x3B);
        return out.toByteArray();
    }

    private static void short16(ByteArrayOutputStream out, int v) {
        out.write(v & 0xFF);
        out.write(v >> 8 & 0xFF);
    }

    /** The palette index whose colour is nearest to the middle of 5-bit colour {@code bin}. */
    private static int closest(int[] palette, int bin) {
        int r = (bin >> 10 << 3) + 4, g = (bin >> 5 & 31) << 3 | 4, b = (bin & 31) << 3 | 4;
        int best = 0;
        int bestDistance = Integer.MAX_VALUE;
        for (int k = 0; k < palette.length; k++) {
            int c = palette[k];
            int dr = (c >> 16 & 0xFF) - r, dg = (c >> 8 & 0xFF) - g, db = (c & 0xFF) - b;
            int d = dr * dr + dg * dg + db * db;
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        return best;
    }

    /** Up to {@code colours} RGB colours ({@code 0xRRGGBB}) by median cut of the used bins (at least one colour). */
    static int[] medianCut(long[] count, long[] sumR, long[] sumG, long[] sumB, int colours) {
        int used = 0;
        for (long c : count) {
            used += c > 0 ? 1 : 0;
        }
        if (used == 0) {
            return new int[] {0};
        }
        int[] bins = new int[used];
        for (int bin = 0, n = 0; bin < BINS; bin++) {
            if (count[bin] > 0) {
                bins[n++] = bin;
            }
        }
        // boxes as [from, to) ranges of bins, with their split score (pixels × longest side) and that side
        int[] from = new int[colours];
        int[] to = new int[colours];
        double[] score = new double[colours];
        int[] axis = new int[colours];
        long[] keys = new long[used];
        int boxes = 1;
        to[0] = used;
        measure(0, bins, count, from, to, score, axis);
        while (boxes < colours) {
            int pick = -1;
            double best = 0;
            for (int k = 0; k < boxes; k++) {
                if (score[k] > best) {
                    best = score[k];
                    pick = k;
                }
            }
            if (pick < 0) {
                break; // every box is a single colour
            }
            int a = axis[pick];
            int lo = from[pick], hi = to[pick];
            for (int i = lo; i < hi; i++) {
                keys[i] = (long) channel(bins[i], a) << 16 | bins[i];
            }
            Arrays.sort(keys, lo, hi);
            long total = 0;
            for (int i = lo; i < hi; i++) {
                bins[i] = (int) (keys[i] & 0xFFFF);
                total += count[bins[i]];
            }
            // split where half the pixels are on each side, keeping both sides non-empty
            long seen = 0;
            int split = lo + 1;
            for (int i = lo; i < hi - 1; i++) {
                seen += count[bins[i]];
                split = i + 1;
                if (2 * seen >= total) {
                    break;
                }
            }
            from[boxes] = split;
            to[boxes] = hi;
            to[pick] = split;
            measure(pick, bins, count, from, to, score, axis);
            measure(boxes, bins, count, from, to, score, axis);
            boxes++;
        }
        int[] palette = new int[boxes];
        for (int k = 0; k < boxes; k++) {
            long n = 0, r = 0, g = 0, b = 0;
            for (int i = from[k]; i < to[k]; i++) {
                n += count[bins[i]];
                r += sumR[bins[i]];
                g += sumG[bins[i]];
                b += sumB[bins[i]];
            }
            palette[k] = (int) ((r + n / 2) / n) << 16 | (int) ((g + n / 2) / n) << 8 | (int) ((b + n / 2) / n);
        }
        return palette;
    }

    /** Box {@code k}'s split score and axis: pixels × its longest side (0 for a single bin). */
    private static void measure(int k, int[] bins, long[] count, int[] from, int[] to, double[] score, int[] axis) {
        int[] lo = {31, 31, 31};
        int[] hi = {0, 0, 0};
        long pixels = 0;
        for (int i = from[k]; i < to[k]; i++) {
            int bin = bins[i];
            for (int a = 0; a < 3; a++) {
                int v = channel(bin, a);
                lo[a] = Math.min(lo[a], v);
                hi[a] = Math.max(hi[a], v);
            }
            pixels += count[bin];
        }
        int longest = 0;
        for (int a = 1; a < 3; a++) {
            if (hi[a] - lo[a] > hi[longest] - lo[longest]) {
                longest = a;
            }
        }
        axis[k] = longest;
        score[k] = to[k] - from[k] < 2 ? 0 : (double) pixels * (hi[longest] - lo[longest]);
    }

    private static int channel(int bin, int axis) {
        return bin >> (10 - 5 * axis) & 31;
    }

    /**
     * GIF's variable-length LZW for 8-bit indices: codes from 9 to 12 bits (clear 256, end 257), the table cleared when
     * it is full; the code stream packed least significant bit first into sub-blocks of up to 255 bytes. Keeps its
     * hash table between frames.
     */
    static final class LzwWriter {

        private static final int CLEAR = 256;
        private static final int END = 257;
        private static final int MAX_CODES = 4096;
        private static final int TABLE = 8192; // power of two, twice the codes: short probes
        private final int[] keys = new int[TABLE];
        private final short[] codes = new short[TABLE];
        private ByteArrayOutputStream out;
        private final byte[] block = new byte[255];
        private int blockLength;
        private int bits;
        private int bitCount;
        private int codeSize;
        private int next;

        void write(byte[] indices, ByteArrayOutputStream sink) {
            out = sink;
            blockLength = 0;
            bits = 0;
            bitCount = 0;
            reset();
            emit(CLEAR);
            int prefix = indices.length == 0 ? -1 : indices[0] & 0xFF;
            for (int i = 1; i < indices.length; i++) {
                int c = indices[i] & 0xFF;
                int key = prefix << 8 | c;
                int slot = (key * 0x9E3779B1) >>> 19;
                while (keys[slot] != -1 && keys[slot] != key) {
                    slot = (slot + 1) & (TABLE - 1);
                }
                if (keys[slot] == key) {
                    prefix = codes[slot];
                    continue;
                }
                emit(prefix);
                if (next < MAX_CODES) {
                    keys[slot] = key;
                    codes[slot] = (short) next++;
                } else {
                    emit(CLEAR);
                    reset();
                }
                prefix = c;
            }
            if (prefix >= 0) {
                emit(prefix);
            }
            emit(END);
            if (bitCount > 0) {
                put((byte) bits);
            }
            flushBlock();
            out.write(0); // block terminator
        }

        private void reset() {
            Arrays.fill(keys, -1);
            codeSize = 9;
            next = END + 1;
        }

        /** Writes {@code code} with the current size, then widens codes once the next entry would not fit. */
        private void emit(int code) {
            bits |= code << bitCount;
            bitCount += codeSize;
            while (bitCount >= 8) {
                put((byte) bits);
                bits >>>= 8;
                bitCount -= 8;
            }
            if (code == CLEAR) {
                codeSize = 9;
            } else if (next > (1 << codeSize) - 1 && codeSize < 12) {
                codeSize++;
            }
        }

        private void put(byte b) {
            block[blockLength++] = b;
            if (blockLength == 255) {
                flushBlock();
            }
        }

        private void flushBlock() {
            if (blockLength > 0) {
                out.write(blockLength);
                out.write(block, 0, blockLength);
                blockLength = 0;
            }
        }
    }
}
