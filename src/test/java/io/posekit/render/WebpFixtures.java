package io.posekit.render;

import java.io.ByteArrayOutputStream;

/**
 * Test fixture: WebP images built in code, as the WebP container's lossless (VP8L) bitstream allows most simply: one
 * colour, every channel's prefix code a "simple code" of one symbol, so every pixel takes no bits. No transform, no
 * colour cache, no meta prefix codes.
 */
public final class WebpFixtures {

    private WebpFixtures() {
    }

    /** A {@code width × height} (1..16384) lossless WebP of one colour {@code argb} ({@code 0xAARRGGBB}). */
    public static byte[] solid(int width, int height, int argb) {
        Bits bits = new Bits();
        bits.write(width - 1, 14);
        bits.write(height - 1, 14);
        bits.write((argb >>> 24) == 0xFF ? 0 : 1, 1); // alpha is used
        bits.write(0, 3); // version 0
        bits.write(0, 1); // no transform
        bits.write(0, 1); // no colour cache
        bits.write(0, 1); // no meta prefix codes
        for (int shift : new int[] {8, 16, 0, 24}) { // green, red, blue, alpha
            simpleCode(bits, (argb >>> shift) & 0xFF);
        }
        bits.write(1, 1); // distance: simple code
        bits.write(0, 1); // one symbol
        bits.write(0, 1); // of 1 bit
        bits.write(0, 1); // symbol 0
        // zero padding: decoders read their bit buffer ahead (TwelveMonkeys' fails at the end of the stream otherwise)
        for (int i = 0; i < 8 + width * height; i++) {
            bits.write(0, 8);
        }
        byte[] payload = bits.bytes();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int chunk = 1 + payload.length;
        int padded = chunk + (chunk & 1);
        out.writeBytes("RIFF".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        le32(out, 4 + 8 + padded);
        out.writeBytes("WEBPVP8L".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        le32(out, chunk);
        out.write(0x2F);
        out.writeBytes(payload);
        if ((chunk & 1) != 0) {
            out.write(0);
        }
        return out.toByteArray();
    }

    private static void simpleCode(Bits bits, int symbol) {
        bits.write(1, 1); // simple code
        bits.write(0, 1); // one symbol
        bits.write(1, 1); // of 8 bits
        bits.write(symbol, 8);
    }

    private static void le32(ByteArrayOutputStream out, int v) {
        out.write(v);
        out.write(v >>> 8);
        out.write(v >>> 16);
        out.write(v >>> 24);
    }

    /** Bits packed least significant first, as VP8L reads them. */
    private static final class Bits {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private long acc;
        private int count;

        void write(int value, int n) {
            acc |= (long) (value & ((1 << n) - 1)) << count;
            count += n;
            while (count >= 8) {
                out.write((int) (acc & 0xFF));
                acc >>>= 8;
                count -= 8;
            }
        }

        byte[] bytes() {
            if (count > 0) {
                out.write((int) (acc & 0xFF));
                acc = 0;
                count = 0;
            }
            return out.toByteArray();
        }
    }
}
