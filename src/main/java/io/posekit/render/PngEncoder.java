package io.posekit.render;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Encodes an {@link RgbaImage} as PNG: 8 bits per channel, RGBA (colour type 6) or, for a picture without any
 * transparency, RGB (colour type 2); no interlacing; every row filtered with PNG's "Up" filter (rendered pictures
 * are mostly runs that repeat from the row above); one IDAT chunk compressed with {@link Deflater} at the given level.
 * Stateless; thread-safe.
 */
public final class PngEncoder {

    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

    private PngEncoder() {
    }

    /** The PNG of {@code image}, compressed fast ({@link Deflater#BEST_SPEED}). */
    public static byte[] encode(RgbaImage image) {
        return encode(image, Deflater.BEST_SPEED);
    }

    /** The PNG of {@code image}, compressed at {@code level} (0–9, {@link Deflater}'s levels). */
    public static byte[] encode(RgbaImage image, int level) {
        int w = image.width(), h = image.height();
        byte[] rgba = image.rgba();
        boolean alpha = false;
        for (int i = 3; i < rgba.length && !alpha; i += 4) {
            alpha = rgba[i] != (byte) 0xFF;
        }
        int channels = alpha ? 4 : 3;
        int stride = channels * w;
        byte[] raw = new byte[(stride + 1) * h];
        byte[] previous = new byte[stride];
        byte[] row = new byte[stride];
        for (int y = 0, o = 0; y < h; y++) {
            if (alpha) {
                System.arraycopy(rgba, 4 * w * y, row, 0, stride);
            } else {
                for (int x = 0, i = 4 * w * y; x < w; x++, i += 4) {
                    row[3 * x] = rgba[i];
                    row[3 * x + 1] = rgba[i + 1];
                    row[3 * x + 2] = rgba[i + 2];
                }
            }
            raw[o++] = 2; // Up: each byte minus the byte above it
            for (int i = 0; i < stride; i++) {
                raw[o++] = (byte) (row[i] - previous[i]);
            }
            byte[] swap = previous;
            previous = row;
            row = swap;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length / 4 + 1024);
        out.writeBytes(SIGNATURE);
        byte[] header = new byte[13];
        putInt(header, 0, w);
        putInt(header, 4, h);
        header[8] = 8;
        header[9] = (byte) (alpha ? 6 : 2);
        chunk(out, "IHDR", header, header.length);
        Deflater deflater = new Deflater(level);
        try {
            deflater.setInput(raw);
            deflater.finish();
            byte[] buffer = new byte[Math.max(1024, raw.length / 2)];
            ByteArrayOutputStream idat = new ByteArrayOutputStream(buffer.length);
            while (!deflater.finished()) {
                int n = deflater.deflate(buffer);
                idat.write(buffer, 0, n);
            }
            byte[] data = idat.toByteArray();
            chunk(out, "IDAT", data, data.length);
        } finally {
            deflater.end();
        }
        chunk(out, "IEND", new byte[0], 0);
        return out.toByteArray();
    }

    private static void chunk(ByteArrayOutputStream out, String type, byte[] data, int length) {
        byte[] len = new byte[4];
        putInt(len, 0, length);
        out.writeBytes(len);
        byte[] t = type.getBytes(StandardCharsets.US_ASCII);
        out.writeBytes(t);
        out.write(data, 0, length);
        CRC32 crc = new CRC32();
        crc.update(t);
        crc.update(data, 0, length);
        byte[] c = new byte[4];
        putInt(c, 0, (int) crc.getValue());
        out.writeBytes(c);
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
