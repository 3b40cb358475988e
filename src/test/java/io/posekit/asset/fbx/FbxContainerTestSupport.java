package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxBinaryWriter.leaf;
import static io.posekit.asset.fbx.FbxBinaryWriter.node;
import static io.posekit.asset.fbx.FbxBinaryWriter.root;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Shared fixtures and assertions of the FBX container tests (binary and ASCII readers). */
final class FbxContainerTestSupport {

    private FbxContainerTestSupport() {
    }

    /**
     * A small document with a record holding properties and children, a raw-or-zlib double array and a scalar after
     * it: {@code Objects { Model: 42, "Bone\0\1Model", "LimbNode" { Version: 232 } Vertices: d[6], 7 } Takes: "x"}.
     */
    static final FbxNode SMALL = root(
            node("Objects", List.of(),
                    node("Model", List.of(42L, "Bone\0\1Model", "LimbNode"), leaf("Version", 232)),
                    leaf("Vertices", new double[] {1, 2, 3, 4, 5, 6}, 7)),
            leaf("Takes", "x"));

    /** Every property type with edge values and every record shape (leaf, parent, no properties). */
    static final FbxNode EVERY_TYPE = root(
            node("FBXHeaderExtension", List.of(), leaf("FBXVersion", 7400), leaf("Creator", "posekit test")),
            node("Objects", List.of(),
                    node("Model", List.of(42L, "Bone\0\1Model", "LimbNode"),
                            node("Properties70", List.of(),
                                    leaf("P", "Lcl Translation", "Lcl Translation", "", "A", 1.5, -2.0, 3.25))),
                    leaf("Scalars", true, false, (short) -12345, Short.MAX_VALUE, Integer.MIN_VALUE, 7,
                            Long.MAX_VALUE, -1L, 1.5f, Float.NaN, -0.0f, -0.0, Double.MIN_VALUE,
                            Double.NEGATIVE_INFINITY),
                    leaf("Strings", "", "Bône ✓", "Name\0\1Class", "quote \" ; { } , :"),
                    leaf("Raw", new byte[] {0, 1, 2, (byte) 255}, new byte[0]),
                    leaf("Arrays", new boolean[] {true, false, true}, new int[] {1, -2, Integer.MAX_VALUE, 0, 5},
                            new long[] {Long.MIN_VALUE, 0, 5}, new float[] {0.5f, -1f, Float.POSITIVE_INFINITY},
                            new double[] {Math.PI, -0.0, 1e300, Double.NaN}),
                    leaf("Empty", new boolean[0], new int[0], new long[0], new float[0], new double[0]),
                    leaf("NoProperties"),
                    node("ChildrenOnly", List.of(), leaf("Child", 1), node("Grandchild", List.of(), leaf("Deep", 2L)))),
            leaf("Takes", "end"));

    static FbxReader.Document read(byte[] bytes) {
        return FbxReader.read(bytes, ImportLimits.DEFAULT, ImportLimits.DEFAULT.newBudget());
    }

    static FbxReader.Document readAscii(String text) {
        return read(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The ImportException {@code call} fails with (the test fails when it succeeds or throws anything else). */
    static ImportException failure(ThrowingCallable call) {
        ImportException e = catchThrowableOfType(ImportException.class, call);
        assertThat(e).as("expected an ImportException").isNotNull();
        return e;
    }

    static void assertInvalid(byte[] bytes, String message) {
        ImportException e = failure(() -> read(bytes));
        assertThat(e.getMessage()).isEqualTo(message);
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
    }

    static void assertInvalid(String ascii, String message) {
        assertInvalid(ascii.getBytes(StandardCharsets.UTF_8), message);
    }

    /** Asserts the trees are equal: names, property types and values (arrays by content, bit for bit), children. */
    static void assertSameTree(FbxNode expected, FbxNode actual) {
        compare("", expected, actual);
    }

    private static void compare(String path, FbxNode e, FbxNode a) {
        String here = path + "/" + e.name();
        assertThat(a.name()).as(here + " name").isEqualTo(e.name());
        assertThat(a.properties().size()).as(here + " property count").isEqualTo(e.properties().size());
        for (int i = 0; i < e.properties().size(); i++) {
            Object ev = e.properties().get(i);
            Object av = a.properties().get(i);
            assertThat(Objects.deepEquals(ev, av))
                    .as("%s property %d: expected %s %s but was %s %s", here, i, type(ev), show(ev), type(av), show(av))
                    .isTrue();
        }
        assertThat(a.children().size()).as(here + " child count").isEqualTo(e.children().size());
        for (int i = 0; i < e.children().size(); i++) {
            compare(here, e.children().get(i), a.children().get(i));
        }
    }

    private static String type(Object v) {
        return v.getClass().getSimpleName();
    }

    private static String show(Object v) {
        return switch (v) {
            case double[] d -> Arrays.toString(d);
            case float[] f -> Arrays.toString(f);
            case long[] l -> Arrays.toString(l);
            case int[] i -> Arrays.toString(i);
            case boolean[] z -> Arrays.toString(z);
            case byte[] r -> Arrays.toString(r);
            default -> String.valueOf(v);
        };
    }

    /** {@code node} with the types an ASCII file gives: integers as Long, reals as Double, arrays long[]/double[]. */
    static FbxNode asciiTypes(FbxNode node) {
        List<Object> properties = new ArrayList<>();
        for (Object p : node.properties()) {
            properties.add(switch (p) {
                case Short v -> (long) v;
                case Integer v -> (long) v;
                case Float v -> (double) v;
                case int[] v -> Arrays.stream(v).asLongStream().toArray();
                case float[] v -> {
                    double[] d = new double[v.length];
                    for (int k = 0; k < v.length; k++) {
                        d[k] = v[k];
                    }
                    yield d;
                }
                case Boolean v -> throw new IllegalArgumentException("ASCII FBX has no booleans");
                default -> p;
            });
        }
        return new FbxNode(node.name(), properties, node.children().stream().map(FbxContainerTestSupport::asciiTypes)
                .toList());
    }

    /** How many records the tree holds below its root. */
    static int records(FbxNode node) {
        int n = 0;
        for (FbxNode c : node.children()) {
            n += 1 + records(c);
        }
        return n;
    }

    /** The byte offset of the first record named {@code name} of a binary file (names must be unambiguous). */
    static int recordStart(byte[] file, String name, int version) {
        byte[] pattern = (((char) name.length()) + name).getBytes(StandardCharsets.ISO_8859_1);
        int header = FbxBinaryWriter.nullRecordSize(version) - 1;
        for (int i = FbxBinaryReader.HEADER_LENGTH + header; i + pattern.length <= file.length; i++) {
            if (Arrays.equals(file, i, i + pattern.length, pattern, 0, pattern.length)) {
                return i - header;
            }
        }
        throw new AssertionError("no record named " + name);
    }

    /** Where the properties of the record at {@code start} begin. */
    static int propertiesStart(byte[] file, int start, int version) {
        int header = FbxBinaryWriter.nullRecordSize(version);
        return start + header + (file[start + header - 1] & 0xFF);
    }

    /** Header field {@code index} (0 end offset, 1 property count, 2 property list length) of the record at start. */
    static long field(byte[] file, int start, int version, int index) {
        int width = version >= 7500 ? 8 : 4;
        long v = 0;
        for (int i = width - 1; i >= 0; i--) {
            v = v << 8 | (file[start + index * width + i] & 0xFF);
        }
        return v;
    }

    /** Overwrites record header field {@code index} of the record at {@code start}. */
    static byte[] withField(byte[] file, int start, int version, int index, long value) {
        int width = version >= 7500 ? 8 : 4;
        byte[] copy = file.clone();
        for (int i = 0; i < width; i++) {
            copy[start + index * width + i] = (byte) (value >>> 8 * i);
        }
        return copy;
    }

    static long u32(byte[] file, int at) {
        return (file[at] & 0xFFL) | (file[at + 1] & 0xFFL) << 8 | (file[at + 2] & 0xFFL) << 16
                | (file[at + 3] & 0xFFL) << 24;
    }

    static byte[] withU32(byte[] file, int at, long value) {
        byte[] copy = file.clone();
        for (int i = 0; i < 4; i++) {
            copy[at + i] = (byte) (value >>> 8 * i);
        }
        return copy;
    }
}
