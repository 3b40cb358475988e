package io.posekit.asset.x;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.Deflater;

/**
 * Writes {@code .x} documents for the tests, the same content as text or as the binary token stream (32- or 64-bit
 * floats), and packs them into MSZIP ({@code tzip}/{@code bzip}) with {@link Deflater}. Written from the DirectX file
 * format description, independently of the importer.
 */
public final class XWriter {

    enum Mode { TEXT, BINARY }

    private final Mode mode;
    private final int floatBits;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private int indent;

    XWriter(Mode mode, int floatBits) {
        this.mode = mode;
        this.floatBits = floatBits;
        if (mode == Mode.TEXT) {
            // the header is a line of its own
            out.write('\n');
        }
    }

    public static XWriter text() {
        return new XWriter(Mode.TEXT, 32);
    }

    public static XWriter binary(int floatBits) {
        return new XWriter(Mode.BINARY, floatBits);
    }

    /** Starts a data object {@code type [name] {}. */
    public XWriter open(String type, String name) {
        if (mode == Mode.TEXT) {
            line(type + (name == null ? "" : " " + name) + " {");
            indent++;
        } else {
            name(type);
            if (name != null) {
                name(name);
            }
            token(0x0A);
        }
        return this;
    }

    public XWriter open(String type) {
        return open(type, null);
    }

    public XWriter close() {
        if (mode == Mode.TEXT) {
            indent--;
            line("}");
        } else {
            token(0x0B);
        }
        return this;
    }

    /** A reference {@code { name }}. */
    public XWriter ref(String name) {
        if (mode == Mode.TEXT) {
            line("{ " + name + " }");
        } else {
            token(0x0A);
            name(name);
            token(0x0B);
        }
        return this;
    }

    public XWriter ints(long... values) {
        if (mode == Mode.TEXT) {
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < values.length; i++) {
                s.append(values[i]).append(i + 1 < values.length ? "," : ";");
            }
            line(s.toString());
        } else {
            token(0x06);
            dword(values.length);
            for (long v : values) {
                dword(v);
            }
        }
        return this;
    }

    public XWriter floats(double... values) {
        if (mode == Mode.TEXT) {
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < values.length; i++) {
                s.append(format(values[i])).append(i + 1 < values.length ? "," : ";");
            }
            line(s.toString());
        } else {
            token(0x07);
            dword(values.length);
            for (double v : values) {
                ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
                if (floatBits == 64) {
                    b.putDouble(v);
                    out.write(b.array(), 0, 8);
                } else {
                    b.putFloat((float) v);
                    out.write(b.array(), 0, 4);
                }
            }
        }
        return this;
    }

    /** Floats as decimals: the shortest text that reads back to the same float. */
    private static String format(double v) {
        float f = (float) v;
        return f == Math.rint(f) && Math.abs(f) < 1e7 ? String.valueOf((long) f) + ".000000" : Float.toString(f);
    }

    public XWriter string(String s) {
        if (mode == Mode.TEXT) {
            line("\"" + s + "\";");
        } else {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            token(0x02);
            dword(b.length);
            out.write(b, 0, b.length);
            token(0x14);
        }
        return this;
    }

    /**
     * Separators closing structures in text ({@code ;} after a matrix's values closes the Matrix4x4, {@code ;,} after
     * a key's values closes the TimedFloatKeys and separates it from the next); the binary format has none.
     */
    public XWriter sep(String separators) {
        if (mode == Mode.TEXT) {
            line(separators);
        }
        return this;
    }

    /** Raw text (text mode only), e.g. a template or a comment. */
    public XWriter raw(String text) {
        if (mode != Mode.TEXT) {
            throw new IllegalStateException("raw text in a binary document");
        }
        line(text);
        return this;
    }

    /** A binary token with no record (binary mode only). */
    public XWriter token(int code) {
        out.write(code & 0xFF);
        out.write(code >>> 8 & 0xFF);
        return this;
    }

    private void name(String name) {
        byte[] b = name.getBytes(StandardCharsets.UTF_8);
        token(0x01);
        dword(b.length);
        out.write(b, 0, b.length);
    }

    private void dword(long v) {
        out.write((int) v & 0xFF);
        out.write((int) (v >>> 8) & 0xFF);
        out.write((int) (v >>> 16) & 0xFF);
        out.write((int) (v >>> 24) & 0xFF);
    }

    private void line(String s) {
        byte[] b = ("  ".repeat(Math.max(0, indent)) + s + "\n").getBytes(StandardCharsets.UTF_8);
        out.write(b, 0, b.length);
    }

    /** The data after the header. */
    public byte[] body() {
        return out.toByteArray();
    }

    /** The file: header ({@code xof 0303txt 0032} and so on) and data. */
    public byte[] file() {
        return concat(header(false), body());
    }

    /** The file MSZIP-compressed ({@code tzip}/{@code bzip}) in blocks of {@code blockSize} uncompressed bytes. */
    public byte[] compressed(int blockSize) {
        return mszip(header(true), body(), blockSize);
    }

    private byte[] header(boolean compressed) {
        String format = mode == Mode.TEXT ? (compressed ? "tzip" : "txt ") : (compressed ? "bzip" : "bin ");
        return ("xof 0303" + format + (floatBits == 64 ? "0064" : "0032")).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * MSZIP: after the header the uint32 size of the decompressed file including the header, then per block
     * [uint16 uncompressed size][uint16 compressed size incl. 'CK']['CK'][raw deflate], each block's deflate stream
     * using the previous block's data as its dictionary.
     */
    public static byte[] mszip(byte[] header, byte[] body, int blockSize) {
        ByteArrayOutputStream z = new ByteArrayOutputStream();
        z.write(header, 0, header.length);
        int total = header.length + body.length;
        z.write(total & 0xFF);
        z.write(total >>> 8 & 0xFF);
        z.write(total >>> 16 & 0xFF);
        z.write(total >>> 24 & 0xFF);
        for (int at = 0; at < body.length; at += blockSize) {
            int n = Math.min(blockSize, body.length - at);
            byte[] block = deflate(body, at, n, at == 0 ? null : Arrays.copyOfRange(body, Math.max(0, at - blockSize), at));
            int packed = block.length + 2;
            z.write(n & 0xFF);
            z.write(n >>> 8 & 0xFF);
            z.write(packed & 0xFF);
            z.write(packed >>> 8 & 0xFF);
            z.write('C');
            z.write('K');
            z.write(block, 0, block.length);
        }
        return z.toByteArray();
    }

    public static byte[] deflate(byte[] data, int from, int length, byte[] dictionary) {
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
        try {
            if (dictionary != null) {
                deflater.setDictionary(dictionary);
            }
            deflater.setInput(data, from, length);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            while (!deflater.finished()) {
                int n = deflater.deflate(buffer);
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    public static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
