package io.posekit.asset.fbx;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.Deflater;

/**
 * Writes binary FBX files from an {@link FbxNode} tree, for tests: the root's children become the top-level records.
 * Property types follow {@link FbxNode}'s Java types: {@link Boolean} C, {@link Short} Y, {@link Integer} I,
 * {@link Long} L, {@link Float} F, {@link Double} D, {@link String} S (UTF-8; write binary object names as
 * {@code "Name\0\1Class"}), {@code byte[]} R, and arrays {@code boolean[]} b, {@code int[]} i, {@code long[]} l,
 * {@code float[]} f, {@code double[]} d — raw, or zlib-compressed when asked.
 *
 * <p>Versions below 7500 get 32-bit record headers (13-byte NULL records), 7500 and above 64-bit ones (25 bytes). Like
 * the FBX SDK, a record gets a NULL-terminated child list when it has children or no properties. After the top-level
 * NULL record comes a footer of zeros and the version, which readers ignore.
 *
 * <pre>
 * byte[] file = FbxBinaryWriter.write(FbxBinaryWriter.root(
 *         FbxBinaryWriter.node("Objects", List.of(),
 *                 FbxBinaryWriter.leaf("Model", 42L, "Bone\0\1Model", "LimbNode"))), 7400, true);
 * </pre>
 */
final class FbxBinaryWriter {

    private final int version;
    private final boolean compress;
    private final int field;
    private final Buffer out = new Buffer();

    private FbxBinaryWriter(int version, boolean compress) {
        this.version = version;
        this.compress = compress;
        this.field = version >= 7500 ? 8 : 4;
    }

    /** The file of {@code root}'s children, arrays raw. */
    static byte[] write(FbxNode root, int version) {
        return write(root, version, false);
    }

    /** The file of {@code root}'s children, arrays zlib-compressed when {@code compressArrays}. */
    static byte[] write(FbxNode root, int version, boolean compressArrays) {
        FbxBinaryWriter w = new FbxBinaryWriter(version, compressArrays);
        w.out.bytes(FbxReader.BINARY_MAGIC);
        w.out.u8(0x1A);
        w.out.u8(0x00);
        w.out.u32(version);
        for (FbxNode child : root.children()) {
            w.record(child);
        }
        w.out.zeros(w.nullRecordSize());
        // footer: readers ignore it; 16 bytes, padding, the version and zeros as the SDK's has roughly
        w.out.zeros(16);
        w.out.zeros((16 - w.out.size() % 16) % 16);
        w.out.u32(version);
        w.out.zeros(120);
        return w.out.toByteArray();
    }

    /** The size of a NULL record (and of a record header without its name) for {@code version}. */
    static int nullRecordSize(int version) {
        return version >= 7500 ? 25 : 13;
    }

    private int nullRecordSize() {
        return 3 * field + 1;
    }

    /**
     * A {@code c} byte array property (not in Autodesk's list of types; 3ds Max writes the header thumbnail's
     * {@code ImageData} so), which the reader gives as {@code byte[]}.
     */
    record ByteArray(byte[] bytes) {
    }

    /** A record without children. */
    static FbxNode leaf(String name, Object... properties) {
        return new FbxNode(name, Arrays.asList(properties), List.of());
    }

    /** A record with properties and children. */
    static FbxNode node(String name, List<?> properties, FbxNode... children) {
        return new FbxNode(name, new ArrayList<>(properties), List.of(children));
    }

    /** The synthetic root (named "") holding the top-level records. */
    static FbxNode root(FbxNode... records) {
        return new FbxNode("", List.of(), List.of(records));
    }

    private void record(FbxNode node) {
        int start = out.size();
        out.zeros(3 * field);
        byte[] name = node.name().getBytes(StandardCharsets.UTF_8);
        if (name.length > 255) {
            throw new IllegalArgumentException("record name longer than 255 bytes: " + node.name());
        }
        out.u8(name.length);
        out.bytes(name);
        int propertiesStart = out.size();
        for (Object p : node.properties()) {
            property(p);
        }
        int listLength = out.size() - propertiesStart;
        if (!node.children().isEmpty() || node.properties().isEmpty()) {
            for (FbxNode child : node.children()) {
                record(child);
            }
            out.zeros(nullRecordSize());
        }
        out.patch(start, field, out.size());
        out.patch(start + field, field, node.properties().size());
        out.patch(start + 2 * field, field, listLength);
    }

    private void property(Object p) {
        switch (p) {
            case Boolean v -> {
                out.u8('C');
                out.u8(v ? 1 : 0);
            }
            case Short v -> {
                out.u8('Y');
                out.u8(v & 0xFF);
                out.u8(v >> 8 & 0xFF);
            }
            case Integer v -> {
                out.u8('I');
                out.u32(v);
            }
            case Long v -> {
                out.u8('L');
                out.u64(v);
            }
            case Float v -> {
                out.u8('F');
                out.u32(Float.floatToRawIntBits(v));
            }
            case Double v -> {
                out.u8('D');
                out.u64(Double.doubleToRawLongBits(v));
            }
            case String v -> {
                byte[] bytes = v.getBytes(StandardCharsets.UTF_8);
                out.u8('S');
                out.u32(bytes.length);
                out.bytes(bytes);
            }
            case byte[] v -> {
                out.u8('R');
                out.u32(v.length);
                out.bytes(v);
            }
            case ByteArray v -> array('c', v.bytes().length, v.bytes());
            case boolean[] v -> {
                byte[] data = new byte[v.length];
                for (int k = 0; k < v.length; k++) {
                    data[k] = (byte) (v[k] ? 1 : 0);
                }
                array('b', v.length, data);
            }
            case int[] v -> {
                ByteBuffer data = little(4 * v.length);
                data.asIntBuffer().put(v);
                array('i', v.length, data.array());
            }
            case long[] v -> {
                ByteBuffer data = little(8 * v.length);
                data.asLongBuffer().put(v);
                array('l', v.length, data.array());
            }
            case float[] v -> {
                ByteBuffer data = little(4 * v.length);
                data.asFloatBuffer().put(v);
                array('f', v.length, data.array());
            }
            case double[] v -> {
                ByteBuffer data = little(8 * v.length);
                data.asDoubleBuffer().put(v);
                array('d', v.length, data.array());
            }
            default -> throw new IllegalArgumentException("no FBX property type for " + p.getClass());
        }
    }

    private static ByteBuffer little(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    private void array(char code, int length, byte[] data) {
        byte[] stored = compress ? zlib(data) : data;
        out.u8(code);
        out.u32(length);
        out.u32(compress ? 1 : 0);
        out.u32(stored.length);
        out.bytes(stored);
    }

    /** {@code data} as a zlib stream (header, deflate data, Adler-32), as FBX arrays of encoding 1 store it. */
    static byte[] zlib(byte[] data) {
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        try {
            deflater.setInput(data);
            deflater.finish();
            ByteArrayOutputStream z = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            while (!deflater.finished()) {
                int n = deflater.deflate(buffer);
                z.write(buffer, 0, n);
            }
            return z.toByteArray();
        } finally {
            deflater.end();
        }
    }

    /** A growable little-endian byte buffer whose fields can be patched afterwards. */
    private static final class Buffer {
        private byte[] data = new byte[256];
        private int size;

        int size() {
            return size;
        }

        void u8(int v) {
            ensure(1);
            data[size++] = (byte) v;
        }

        void u32(long v) {
            for (int i = 0; i < 4; i++) {
                u8((int) (v >>> 8 * i));
            }
        }

        void u64(long v) {
            for (int i = 0; i < 8; i++) {
                u8((int) (v >>> 8 * i));
            }
        }

        void bytes(byte[] b) {
            ensure(b.length);
            System.arraycopy(b, 0, data, size, b.length);
            size += b.length;
        }

        void zeros(int n) {
            ensure(n);
            size += n;
        }

        void patch(int at, int width, long v) {
            for (int i = 0; i < width; i++) {
                data[at + i] = (byte) (v >>> 8 * i);
            }
        }

        private void ensure(int n) {
            if (size + n > data.length) {
                data = Arrays.copyOf(data, Math.max(2 * data.length, size + n));
            }
        }

        byte[] toByteArray() {
            return Arrays.copyOf(data, size);
        }
    }
}
