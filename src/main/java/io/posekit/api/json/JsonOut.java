package io.posekit.api.json;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A JSON text written straight into bytes, for the answers where a general serializer's cost shows: one reusable
 * buffer per thread, floats by {@link FloatText} (shortest text that reads back as the same float), then one copy
 * into a pooled network buffer. The caller writes well-formed JSON: this class adds commas only where told
 * ({@link #comma}).
 *
 * <p>Not thread-safe; {@link #get()} hands each thread its own, emptied.
 */
public final class JsonOut {

    private static final ThreadLocal<JsonOut> LOCAL = ThreadLocal.withInitial(JsonOut::new);
    /** Buffers grown past this are dropped after use rather than kept by the thread. */
    private static final int KEEP = 1 << 20;
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private byte[] buf = new byte[8192];
    private int size;

    private JsonOut() {
    }

    /** This thread's writer, empty. */
    public static JsonOut get() {
        JsonOut out = LOCAL.get();
        if (out.buf.length > KEEP) {
            out.buf = new byte[8192];
        }
        out.size = 0;
        return out;
    }

    private void room(int n) {
        if (size + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
        }
    }

    /** Writes ASCII text as is (punctuation, keys known to need no escaping). */
    public JsonOut raw(String ascii) {
        int n = ascii.length();
        room(n);
        ascii.getBytes(0, n, buf, size);
        size += n;
        return this;
    }

    public JsonOut raw(byte[] bytes) {
        room(bytes.length);
        System.arraycopy(bytes, 0, buf, size, bytes.length);
        size += bytes.length;
        return this;
    }

    public JsonOut raw(char c) {
        room(1);
        buf[size++] = (byte) c;
        return this;
    }

    /** {@code "name":} for a name that needs no escaping. */
    public JsonOut key(String name) {
        room(name.length() + 3);
        buf[size++] = '"';
        name.getBytes(0, name.length(), buf, size);
        size += name.length();
        buf[size++] = '"';
        buf[size++] = ':';
        return this;
    }

    public JsonOut comma() {
        return raw(',');
    }

    /** A JSON string (or {@code null}), escaped: quotes, backslashes and control characters; UTF-8 otherwise. */
    public JsonOut string(String s) {
        return raw(quoted(s));
    }

    /** The JSON text of a string, quoted and escaped, as UTF-8 bytes (for answers to precompute); {@code null} too. */
    public static byte[] quoted(String s) {
        if (s == null) {
            return new byte[] {'n', 'u', 'l', 'l'};
        }
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        int extra = 2;
        for (byte b : utf8) {
            if (b == '"' || b == '\\') {
                extra += 1;
            } else if (b >= 0 && b < 0x20) {
                extra += 5;
            }
        }
        byte[] out = new byte[utf8.length + extra];
        int o = 0;
        out[o++] = '"';
        for (byte b : utf8) {
            if (b == '"' || b == '\\') {
                out[o++] = '\\';
                out[o++] = b;
            } else if (b >= 0 && b < 0x20) {
                out[o++] = '\\';
                out[o++] = 'u';
                out[o++] = '0';
                out[o++] = '0';
                out[o++] = HEX[b >> 4];
                out[o++] = HEX[b & 15];
            } else {
                out[o++] = b;
            }
        }
        out[o] = '"';
        return out;
    }

    public JsonOut number(int v) {
        return raw(Integer.toString(v));
    }

    /** A double as Java (and Jackson) write it, e.g. {@code 0.5}, {@code 1.0E-5}; {@code null} for null. */
    public JsonOut number(Double v) {
        return v == null ? raw("null") : number(v.doubleValue());
    }

    public JsonOut number(double v) {
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException("JSON has no text for " + v);
        }
        return raw(Double.toString(v));
    }

    /** A float's shortest text. @throws IllegalArgumentException for NaN or infinity */
    public JsonOut number(float v) {
        room(FloatText.MAX_LENGTH);
        size = FloatText.write(v, buf, size);
        return this;
    }

    /** {@code [v0,v1,…]} of {@code count} floats from {@code values[from]}. */
    public JsonOut floats(float[] values, int from, int count) {
        room(2 + count * (FloatText.MAX_LENGTH + 1));
        byte[] b = buf;
        int o = size;
        b[o++] = '[';
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                b[o++] = ',';
            }
            o = FloatText.write(values[from + i], b, o);
        }
        b[o++] = ']';
        size = o;
        return this;
    }

    /** {@code [v0,…]} of a whole array, or {@code null}. */
    public JsonOut floats(float[] values) {
        return values == null ? raw("null") : floats(values, 0, values.length);
    }

    /** The bytes written so far. */
    public int size() {
        return size;
    }

    /** A copy of the text in a pooled network buffer (the caller, or the server once sent, releases it). */
    public ByteBuf toByteBuf() {
        ByteBuf out = ByteBufAllocator.DEFAULT.directBuffer(size);
        out.writeBytes(buf, 0, size);
        return out;
    }

    /** A copy of the text as a byte array. */
    public byte[] toBytes() {
        return Arrays.copyOf(buf, size);
    }
}
