package io.posekit.asset.fbx;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Reads a binary FBX file into an {@link FbxNode} tree.
 *
 * <p>Layout (little-endian): a 27-byte header ({@code "Kaydara FBX Binary  \0"}, {@code 0x1A 0x00}, uint32 version),
 * then the top-level records, closed by a NULL record (what follows, the footer, is ignored). A record is its end
 * offset (absolute), property count and property list length — uint32 each before version 7500, uint64 from 7500 —
 * a uint8 name length and the name, the properties, and, when the end offset leaves room after them, child records
 * closed by a NULL record (a record header of zero bytes, 13 or 25 of them). A property is a type code and its data:
 * {@code Y C I F D L} scalars, {@code S R} a uint32 length and bytes, {@code f d l i b c} arrays of a uint32 element
 * count, uint32 encoding (0 raw, 1 zlib) and uint32 stored length. {@code c} (a byte array, which 3ds Max writes
 * for the header thumbnail's {@code ImageData}) is not in Autodesk's list but assimp and ufbx read it as bytes, and
 * so does posekit ({@code byte[]}): a property nobody reads must not refuse the model.
 *
 * <p>Every offset and length is checked before it is used: a record lies inside its parent (or the file), its end
 * offset lies past its own header, its properties take exactly the declared property list length, every property's
 * data lies inside that list, a raw array stores exactly count × element size bytes and a zlib array inflates to
 * exactly that many; a record's children end with a NULL record exactly at its end offset. An array is charged to
 * the budget (count × element size) before it is allocated or inflated, and zlib data that could not expand to the
 * declared size (deflate expands at most {@value #MAX_DEFLATE_RATIO} times) is refused before allocating. Strings
 * and names are decoded as UTF-8 (malformed sequences become U+FFFD); {@code C} is a letter ({@code String}) when its
 * byte is an ASCII letter (FBX 6.x writes key modes so), else true for any non-zero byte.
 */
final class FbxBinaryReader {

    /** Magic, two bytes, version. */
    static final int HEADER_LENGTH = 27;
    /** The first version whose record headers use 64-bit fields. */
    static final int FIRST_64_BIT_VERSION = 7500;
    /** Deflate's largest possible expansion: one 258-byte match per 2 bits. */
    static final int MAX_DEFLATE_RATIO = 1032;

    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;
    private static final int CHUNK = 64 * 1024;

    private final byte[] b;
    private final DecodeBudget budget;
    private final int maxDepth;
    private final int maxRecords;
    private final Map<String, String> names = new HashMap<>();
    private int fieldSize;
    /** The size of a record header without the name, which is also the size of a NULL record. */
    private int recordHeader;
    private int records;
    private Inflater inflater;
    private byte[] chunk;

    FbxBinaryReader(byte[] bytes, DecodeBudget budget, int maxDepth, int maxRecords) {
        this.b = bytes;
        this.budget = budget;
        this.maxDepth = maxDepth;
        this.maxRecords = maxRecords;
    }

    FbxReader.Document read() {
        int version = header();
        fieldSize = version >= FIRST_64_BIT_VERSION ? 8 : 4;
        recordHeader = 3 * fieldSize + 1;
        try {
            return new FbxReader.Document(version, true, tree());
        } finally {
            if (inflater != null) {
                inflater.end();
            }
        }
    }

    private int header() {
        byte[] magic = FbxReader.BINARY_MAGIC;
        int n = Math.min(b.length, magic.length);
        for (int i = 0; i < n; i++) {
            if (b[i] != magic[i]) {
                throw ImportException.invalid("not an FBX file: it starts like the binary FBX magic but has '"
                        + FbxReader.display(new String(b, 0, n, StandardCharsets.ISO_8859_1))
                        + "' instead of 'Kaydara FBX Binary  \\x00'");
            }
        }
        if (b.length < HEADER_LENGTH) {
            throw ImportException.invalid("the binary FBX header is cut short: the file has " + b.length
                    + " bytes, the header needs " + HEADER_LENGTH);
        }
        if (b[21] != 0x1A || b[22] != 0x00) {
            throw ImportException.invalid(String.format("the binary FBX header has bytes 0x%02X 0x%02X after the magic,"
                    + " not 0x1A 0x00", b[21] & 0xFF, b[22] & 0xFF));
        }
        return FbxReader.checkVersion(u32(23), "the binary FBX header");
    }

    /** A record whose children are being read. */
    private static final class Frame {
        final String name;
        final long start;
        final long end;
        final List<Object> properties;
        final List<FbxNode> children = new ArrayList<>();

        Frame(String name, long start, long end, List<Object> properties) {
            this.name = name;
            this.start = start;
            this.end = end;
            this.properties = properties;
        }

        String where() {
            return FbxReader.record(name) + " at byte " + start;
        }
    }

    private FbxNode tree() {
        ArrayDeque<Frame> stack = new ArrayDeque<>();
        Frame root = new Frame("", -1, b.length, List.of());
        stack.push(root);
        long pos = HEADER_LENGTH;
        while (true) {
            budget.checkTime();
            Frame parent = stack.peek();
            if (parent.end - pos < recordHeader) {
                throw cutShort(parent, root, pos);
            }
            long endOffset = field(pos);
            long count = field(pos + fieldSize);
            long listLength = field(pos + 2L * fieldSize);
            int nameLength = b[(int) pos + 3 * fieldSize] & 0xFF;
            if (endOffset == 0) {
                if (count != 0 || listLength != 0 || nameLength != 0) {
                    throw ImportException.invalid("FBX record at byte " + pos + ": its end offset is 0, which marks a"
                            + " NULL record, but its other header fields are not zero");
                }
                pos += recordHeader;
                stack.pop();
                if (parent == root) {
                    return new FbxNode("", List.of(), root.children);
                }
                if (pos != parent.end) {
                    throw ImportException.invalid(parent.where() + ": the NULL record closing its children ends at"
                            + " byte " + pos + ", but its end offset says the record ends at byte " + parent.end);
                }
                stack.peek().children.add(new FbxNode(parent.name, parent.properties, parent.children));
                continue;
            }
            long nameStart = pos + recordHeader;
            long nameEnd = nameStart + nameLength;
            if (nameEnd > parent.end) {
                throw ImportException.invalid("FBX record at byte " + pos + ": its name of " + nameLength
                        + " bytes runs past " + boundName(parent, root));
            }
            String name = name((int) nameStart, nameLength);
            String where = FbxReader.record(name) + " at byte " + pos;
            if (stack.size() > maxDepth) {
                throw ImportException.invalid(where + ": records are nested deeper than " + maxDepth + " levels");
            }
            if (++records > maxRecords) {
                throw ImportException.tooLarge("the FBX file has more than " + String.format("%,d", maxRecords)
                        + " records (" + where + " is one too many)");
            }
            long end = clamp(endOffset);
            if (end < nameEnd) {
                throw ImportException.invalid(where + ": its end offset " + u(endOffset)
                        + " lies before the end of its own header at byte " + nameEnd);
            }
            if (end > parent.end) {
                throw ImportException.invalid(where + ": its end offset " + u(endOffset) + " lies past "
                        + boundName(parent, root));
            }
            long length = clamp(listLength);
            if (length > end - nameEnd) {
                throw ImportException.invalid(where + ": its property list of " + u(listLength) + " bytes from byte "
                        + nameEnd + " runs past the record's end at byte " + end);
            }
            long propertiesEnd = nameEnd + length;
            long n = clamp(count);
            if (n > length / 2) {
                throw ImportException.invalid(where + ": it declares " + u(count)
                        + (count == 1 ? " property" : " properties") + " in a property list of " + length
                        + " bytes (a property takes at least 2)");
            }
            budget.charge(FbxReader.RECORD_BYTES + n * FbxReader.PROPERTY_BYTES, 1, where);
            List<Object> properties = new ArrayList<>((int) n);
            long p = nameEnd;
            for (int i = 0; i < n; i++) {
                p = property(where, i, (int) n, p, propertiesEnd, properties);
            }
            if (p != propertiesEnd) {
                throw ImportException.invalid(where + ": its " + FbxReader.count(n, "property takes", "properties take")
                        + " " + (p - nameEnd) + " bytes, but its property list length says " + length);
            }
            if (propertiesEnd == end) {
                parent.children.add(new FbxNode(name, properties, List.of()));
                pos = end;
            } else {
                stack.push(new Frame(name, pos, end, properties));
                pos = propertiesEnd;
            }
        }
    }

    private ImportException cutShort(Frame parent, Frame root, long pos) {
        if (parent == root) {
            if (pos == b.length) {
                return ImportException.invalid("the binary FBX file ends at byte " + pos
                        + " without the NULL record that closes its top-level records");
            }
            return ImportException.invalid("the binary FBX file ends at byte " + b.length + " inside the record header"
                    + " at byte " + pos + " (a record header takes " + recordHeader + " bytes)");
        }
        if (pos == parent.end) {
            return ImportException.invalid(parent.where() + ": its children reach its end at byte " + parent.end
                    + " without the NULL record that must close them");
        }
        return ImportException.invalid(parent.where() + ": the child record header at byte " + pos + " needs "
                + recordHeader + " bytes, but only " + (parent.end - pos) + " are left before the record's end at byte "
                + parent.end);
    }

    private String boundName(Frame parent, Frame root) {
        return parent == root
                ? "byte " + b.length + ", the end of the file"
                : "byte " + parent.end + ", where its parent " + parent.where() + " ends";
    }

    /** Reads property {@code index} at {@code p}, adds its value and returns where the next begins. */
    private long property(String where, int index, int count, long p, long end, List<Object> out) {
        if (p >= end) {
            throw ImportException.invalid(where + ": its property list ends at byte " + end + " after " + index
                    + " of its " + FbxReader.count(count, "property", "properties"));
        }
        int code = b[(int) p] & 0xFF;
        int d = (int) p + 1;
        switch (code) {
            case 'Y' -> {
                need(where, index, p, d, 2, end);
                out.add((short) (b[d] & 0xFF | b[d + 1] << 8));
                return d + 2L;
            }
            case 'C' -> {
                need(where, index, p, d, 1, end);
                int c = b[d] & 0xFF;
                // FBX 6.x writes letters as C (a take's key modes U, a, n, …; Shading: Y): kept as the letter, as the
                // ASCII reader gives the bare word
                out.add(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' ? String.valueOf((char) c) : c != 0);
                return d + 1L;
            }
            case 'I' -> {
                need(where, index, p, d, 4, end);
                out.add((int) u32(d));
                return d + 4L;
            }
            case 'F' -> {
                need(where, index, p, d, 4, end);
                out.add(Float.intBitsToFloat((int) u32(d)));
                return d + 4L;
            }
            case 'D' -> {
                need(where, index, p, d, 8, end);
                out.add(Double.longBitsToDouble(u64(d)));
                return d + 8L;
            }
            case 'L' -> {
                need(where, index, p, d, 8, end);
                out.add(u64(d));
                return d + 8L;
            }
            case 'S', 'R' -> {
                need(where, index, p, d, 4, end);
                long length = u32(d);
                if (length > end - (d + 4L)) {
                    throw ImportException.invalid(prop(where, index, code, p) + ": its " + length + " bytes from byte "
                            + (d + 4L) + " run past the end of the record's properties at byte " + end);
                }
                budget.charge(length, 1, where);
                int from = d + 4;
                out.add(code == 'S'
                        ? new String(b, from, (int) length, StandardCharsets.UTF_8)
                        : java.util.Arrays.copyOfRange(b, from, from + (int) length));
                return from + length;
            }
            case 'f', 'd', 'l', 'i', 'b', 'c' -> {
                return array(prop(where, index, code, p), (char) code, d, end, out);
            }
            default -> throw ImportException.invalid(where + ": property " + index + " at byte " + p
                    + " has the unknown type code " + codeName(code));
        }
    }

    /** Fails unless {@code size} bytes of property {@code index}'s data at {@code at} lie before {@code end}. */
    private void need(String where, int index, long p, long at, int size, long end) {
        if (end - at < size) {
            throw ImportException.invalid(prop(where, index, b[(int) p] & 0xFF, p) + ": its " + size
                    + " bytes of data run past the end of the record's properties at byte " + end);
        }
    }

    /** Names property {@code index} (of type {@code code}, at byte {@code p}) in messages; built only when needed. */
    private static String prop(String where, int index, int code, long p) {
        return where + ": property " + index + " (" + typeName(code) + ") at byte " + p;
    }

    private long array(String prop, char code, int d, long end, List<Object> out) {
        if (end - d < 12) {
            throw ImportException.invalid(prop + ": its 12-byte array header runs past the end of the record's"
                    + " properties at byte " + end);
        }
        int size = elementSize(code);
        long n = u32(d);
        long encoding = u32(d + 4);
        long stored = u32(d + 8);
        long bytes = n * size;
        long data = d + 12L;
        String what = prop + ": array of " + n + " " + elements(code) + " (" + bytes + " bytes)";
        if (encoding == 0) {
            if (stored != bytes) {
                throw ImportException.invalid(what + " is stored raw in " + stored + " bytes instead of " + bytes);
            }
            if (bytes > end - data) {
                throw ImportException.invalid(what + " ends at byte " + (data + bytes)
                        + ", past the end of the record's properties at byte " + end);
            }
            budget.charge(n, size, what);
            out.add(raw(code, (int) data, (int) n));
        } else if (encoding == 1) {
            if (stored > end - data) {
                throw ImportException.invalid(what + ", zlib-compressed in " + stored + " bytes, ends at byte "
                        + (data + stored) + ", past the end of the record's properties at byte " + end);
            }
            budget.charge(n, size, what);
            if (bytes > MAX_DEFLATE_RATIO * stored) {
                throw ImportException.invalid(what + " cannot inflate from only " + stored + " bytes of zlib data"
                        + " (deflate expands at most " + MAX_DEFLATE_RATIO + " times)");
            }
            if (n > MAX_ARRAY) {
                throw ImportException.tooLarge(what + " has more elements than one array can hold");
            }
            // an empty array stored as encoding 1 without any zlib bytes is empty, not a cut-short stream
            out.add(n == 0 && stored == 0
                    ? newArray(code, 0)
                    : inflate(what, code, (int) data, (int) stored, (int) n, bytes));
        } else {
            throw ImportException.invalid(what + " has the unknown encoding " + encoding + " (0 is raw, 1 is zlib)");
        }
        return data + stored;
    }

    private Object raw(char code, int at, int n) {
        Object array = newArray(code, n);
        decode(b, at, n * elementSize(code), array, 0, code);
        return array;
    }

    /** Inflates exactly {@code bytes} bytes of zlib data, chunk by chunk, straight into the typed array. */
    private Object inflate(String what, char code, int at, int stored, int n, long bytes) {
        if (inflater == null) {
            inflater = new Inflater();
            chunk = new byte[CHUNK];
        } else {
            inflater.reset();
        }
        Object array = newArray(code, n);
        int size = elementSize(code);
        inflater.setInput(b, at, stored);
        long done = 0;
        try {
            while (done < bytes) {
                budget.checkTimeNow();
                // CHUNK is a multiple of every element size, so chunks never split an element
                int target = (int) Math.min(CHUNK, bytes - done);
                int fill = 0;
                while (fill < target) {
                    int got = inflater.inflate(chunk, fill, target - fill);
                    if (got == 0) {
                        if (inflater.finished()) {
                            throw ImportException.invalid(what + ": its zlib data inflates to only " + (done + fill)
                                    + " bytes");
                        }
                        throw stalled(what);
                    }
                    fill += got;
                }
                decode(chunk, 0, target, array, (int) (done / size), code);
                done += target;
            }
            byte[] one = new byte[1];
            while (!inflater.finished()) {
                if (inflater.inflate(one) > 0) {
                    throw ImportException.invalid(what + ": its zlib data inflates to more than the declared " + bytes
                            + " bytes");
                }
                if (!inflater.finished()) {
                    throw stalled(what);
                }
            }
        } catch (DataFormatException e) {
            throw ImportException.invalid(what + ": its zlib data is corrupt (" + e.getMessage() + ")");
        }
        return array;
    }

    private ImportException stalled(String what) {
        if (inflater.needsDictionary()) {
            return ImportException.invalid(what + ": its zlib data asks for a preset dictionary");
        }
        return ImportException.invalid(what + ": its zlib data ends before the end of its stream");
    }

    private static Object newArray(char code, int n) {
        return switch (code) {
            case 'f' -> new float[n];
            case 'd' -> new double[n];
            case 'l' -> new long[n];
            case 'i' -> new int[n];
            case 'c' -> new byte[n];
            default -> new boolean[n];
        };
    }

    /** Decodes {@code length} little-endian bytes of {@code src} into {@code array} from element {@code index}. */
    private static void decode(byte[] src, int at, int length, Object array, int index, char code) {
        ByteBuffer buffer = ByteBuffer.wrap(src, at, length).slice().order(ByteOrder.LITTLE_ENDIAN);
        switch (array) {
            case float[] f -> buffer.asFloatBuffer().get(f, index, length / 4);
            case double[] v -> buffer.asDoubleBuffer().get(v, index, length / 8);
            case long[] l -> buffer.asLongBuffer().get(l, index, length / 8);
            case int[] v -> buffer.asIntBuffer().get(v, index, length / 4);
            case byte[] c -> System.arraycopy(src, at, c, index, length);
            case boolean[] z -> {
                for (int k = 0; k < length; k++) {
                    z[index + k] = src[at + k] != 0;
                }
            }
            default -> throw new IllegalStateException("array type " + code);
        }
    }

    static int elementSize(char code) {
        return switch (code) {
            case 'b', 'c' -> 1;
            case 'f', 'i' -> 4;
            default -> 8;
        };
    }

    private static String elements(char code) {
        return switch (code) {
            case 'f' -> "floats";
            case 'd' -> "doubles";
            case 'l' -> "longs";
            case 'i' -> "ints";
            case 'c' -> "bytes";
            default -> "booleans";
        };
    }

    private static String typeName(int code) {
        return switch (code) {
            case 'Y' -> "Y, int16";
            case 'C' -> "C, boolean";
            case 'I' -> "I, int32";
            case 'F' -> "F, float32";
            case 'D' -> "D, float64";
            case 'L' -> "L, int64";
            case 'S' -> "S, string";
            case 'R' -> "R, raw bytes";
            case 'f' -> "f, float32 array";
            case 'd' -> "d, float64 array";
            case 'l' -> "l, int64 array";
            case 'i' -> "i, int32 array";
            case 'b' -> "b, boolean array";
            case 'c' -> "c, byte array";
            default -> codeName(code);
        };
    }

    private static String codeName(int code) {
        return code > 0x20 && code < 0x7F
                ? String.format("'%c' (0x%02X)", (char) code, code)
                : String.format("0x%02X", code);
    }

    private String name(int at, int length) {
        String s = new String(b, at, length, StandardCharsets.UTF_8);
        String known = names.putIfAbsent(s, s);
        return known == null ? s : known;
    }

    /** A record header field: uint32 or uint64 (as a long, possibly negative when above 2^63). */
    private long field(long at) {
        return fieldSize == 8 ? u64((int) at) : u32((int) at);
    }

    private long u32(int at) {
        return (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8 | (b[at + 2] & 0xFFL) << 16 | (b[at + 3] & 0xFFL) << 24;
    }

    private long u64(int at) {
        return u32(at) | u32(at + 4) << 32;
    }

    /** A uint64 field for comparisons: values of 2^63 and above (negative as a long) become Long.MAX_VALUE. */
    private static long clamp(long v) {
        return v < 0 ? Long.MAX_VALUE : v;
    }

    private static String u(long v) {
        return Long.toUnsignedString(v);
    }
}
