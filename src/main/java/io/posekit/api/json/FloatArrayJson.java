package io.posekit.api.json;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.json.JsonGeneratorBase;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.BeanProperty;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.jdk.JDKArraySerializers;

/**
 * Jackson's {@code float[]} serializer, with the numbers of plain JSON output formatted by {@link FloatText} straight
 * into the generator's buffer instead of one {@code Float.toString} string per number; the bytes are the same. Skinned
 * vertices and skinning matrices are thousands of floats per response, and those strings were most of its cost.
 *
 * <p>The elements go out as raw runs of up to {@value Run#FLOATS} comma-separated numbers, the generator adding the
 * comma between runs. Everything else is Jackson's own behaviour, used as is: arrays with NaN or infinities (written
 * as Jackson writes them, as strings), pretty printing, numbers written as strings, element filtering, generators of
 * other formats or token buffers.
 */
public final class FloatArrayJson extends JDKArraySerializers.FloatArraySerializer {

    private FloatArrayJson() {
    }

    /** A Jackson module that writes every {@code float[]} with this serializer. */
    public static JacksonModule module() {
        return new SimpleModule("posekit-float-arrays").addSerializer(float[].class, new FloatArrayJson());
    }

    private FloatArrayJson(FloatArrayJson source, BeanProperty property, Boolean unwrapSingle, Object suppressableValue,
            boolean suppressNulls) {
        super(source, property, unwrapSingle, suppressableValue, suppressNulls);
    }

    @Override
    protected JDKArraySerializers.FloatArraySerializer _withResolved(BeanProperty property, Boolean unwrapSingle,
            Object suppressableValue, boolean suppressNulls) {
        return new FloatArrayJson(this, property, unwrapSingle, suppressableValue, suppressNulls);
    }

    @Override
    public void serializeContents(float[] value, JsonGenerator g, SerializationContext ctxt) {
        if (!plainJson(g) || _needToCheckFiltering(ctxt) || !allFinite(value)) {
            super.serializeContents(value, g, ctxt);
            return;
        }
        Run run = new Run(value);
        for (int from = 0; from < value.length; from += Run.FLOATS) {
            run.select(from, Math.min(value.length, from + Run.FLOATS));
            g.writeRawValue(run);
        }
    }

    /** Whether {@code g} writes JSON text whose numbers are bare and unindented, as {@link Run} writes them. */
    private static boolean plainJson(JsonGenerator g) {
        return g instanceof JsonGeneratorBase json && json.getPrettyPrinter() == null
                && !json.isEnabled(JsonWriteFeature.WRITE_NUMBERS_AS_STRINGS);
    }

    private static boolean allFinite(float[] values) {
        for (float v : values) {
            if (!Float.isFinite(v)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The JSON text of elements [from, to) of a float array, comma-separated, as one raw value. It is rendered anew
     * each time it is asked for (nothing in it needs escaping, so its quoted and unquoted forms are the same); the
     * {@code append…} forms decline (-1) when the buffer has less room than the longest possible run, and the
     * generator then writes the {@code as…} form instead.
     */
    private static final class Run implements SerializableString {

        static final int FLOATS = 32;
        static final int MAX_BYTES = FLOATS * (FloatText.MAX_LENGTH + 1);

        private final float[] values;
        private int from;
        private int to;

        Run(float[] values) {
            this.values = values;
        }

        void select(int from, int to) {
            this.from = from;
            this.to = to;
        }

        private int render(byte[] out, int at) {
            at = FloatText.write(values[from], out, at);
            for (int i = from + 1; i < to; i++) {
                out[at++] = ',';
                at = FloatText.write(values[i], out, at);
            }
            return at;
        }

        private byte[] bytes() {
            byte[] scratch = new byte[MAX_BYTES];
            return Arrays.copyOf(scratch, render(scratch, 0));
        }

        @Override
        public int appendUnquotedUTF8(byte[] buffer, int offset) {
            return buffer.length - offset < MAX_BYTES ? -1 : render(buffer, offset) - offset;
        }

        @Override
        public int appendQuotedUTF8(byte[] buffer, int offset) {
            return appendUnquotedUTF8(buffer, offset);
        }

        @Override
        public int appendUnquoted(char[] buffer, int offset) {
            if (buffer.length - offset < MAX_BYTES) {
                return -1;
            }
            byte[] text = bytes();
            for (int i = 0; i < text.length; i++) {
                buffer[offset + i] = (char) text[i];
            }
            return text.length;
        }

        @Override
        public int appendQuoted(char[] buffer, int offset) {
            return appendUnquoted(buffer, offset);
        }

        @Override
        public String getValue() {
            return new String(bytes(), StandardCharsets.US_ASCII);
        }

        @Override
        public int charLength() {
            return bytes().length;
        }

        @Override
        public char[] asQuotedChars() {
            return getValue().toCharArray();
        }

        @Override
        public byte[] asUnquotedUTF8() {
            return bytes();
        }

        @Override
        public byte[] asQuotedUTF8() {
            return bytes();
        }

        @Override
        public int writeUnquotedUTF8(OutputStream out) throws IOException {
            byte[] text = bytes();
            out.write(text);
            return text.length;
        }

        @Override
        public int writeQuotedUTF8(OutputStream out) throws IOException {
            return writeUnquotedUTF8(out);
        }

        @Override
        public int putUnquotedUTF8(ByteBuffer buffer) {
            byte[] text = bytes();
            if (buffer.remaining() < text.length) {
                return -1;
            }
            buffer.put(text);
            return text.length;
        }

        @Override
        public int putQuotedUTF8(ByteBuffer buffer) {
            return putUnquotedUTF8(buffer);
        }

        @Override
        public String toString() {
            return getValue();
        }
    }
}
