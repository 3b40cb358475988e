package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxBinaryWriter.leaf;
import static io.posekit.asset.fbx.FbxBinaryWriter.node;
import static io.posekit.asset.fbx.FbxBinaryWriter.root;
import static io.posekit.asset.fbx.FbxContainerTestSupport.EVERY_TYPE;
import static io.posekit.asset.fbx.FbxContainerTestSupport.SMALL;
import static io.posekit.asset.fbx.FbxContainerTestSupport.assertInvalid;
import static io.posekit.asset.fbx.FbxContainerTestSupport.assertSameTree;
import static io.posekit.asset.fbx.FbxContainerTestSupport.failure;
import static io.posekit.asset.fbx.FbxContainerTestSupport.field;
import static io.posekit.asset.fbx.FbxContainerTestSupport.propertiesStart;
import static io.posekit.asset.fbx.FbxContainerTestSupport.read;
import static io.posekit.asset.fbx.FbxContainerTestSupport.recordStart;
import static io.posekit.asset.fbx.FbxContainerTestSupport.u32;
import static io.posekit.asset.fbx.FbxContainerTestSupport.withField;
import static io.posekit.asset.fbx.FbxContainerTestSupport.withU32;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The binary container: round trips of every property type and layout, and every lie a header can tell. */
class FbxBinaryReaderTest {

    private static final int V32 = 7400;
    private static final int V64 = 7500;

    @ParameterizedTest(name = "version {0}, zlib arrays {1}")
    @CsvSource({"7400,false", "7400,true", "7500,false", "7500,true", "7300,true", "7700,false"})
    void everyPropertyTypeRoundTrips(int version, boolean zlib) {
        FbxReader.Document d = read(FbxBinaryWriter.write(EVERY_TYPE, version, zlib));

        assertThat(d.version()).isEqualTo(version);
        assertThat(d.binary()).isTrue();
        assertThat(d.root().name()).isEmpty();
        assertThat(d.root().properties()).isEmpty();
        assertSameTree(EVERY_TYPE, d.root());
        FbxNode scalars = d.root().child("Objects").child("Scalars");
        assertThat(scalars.properties()).extracting(p -> p.getClass().getSimpleName()).containsExactly(
                "Boolean", "Boolean", "Short", "Short", "Integer", "Integer", "Long", "Long", "Float", "Float", "Float",
                "Double", "Double", "Double");
        assertThat(d.root().child("Objects").child("Strings").string(2)).isEqualTo("Name\0\1Class");
    }

    @ParameterizedTest(name = "version {0}, zlib arrays {1}")
    @CsvSource({"7400,false", "7400,true", "7500,false", "7500,true"})
    void largeArraysSpanManyInflateChunks(int version, boolean zlib) {
        double[] vertices = new double[30_001];
        int[] indices = new int[40_003];
        boolean[] flags = new boolean[70_001];
        for (int i = 0; i < vertices.length; i++) {
            vertices[i] = Math.sin(i) * i;
        }
        for (int i = 0; i < indices.length; i++) {
            indices[i] = i % 3 == 2 ? -i - 1 : i;
        }
        for (int i = 0; i < flags.length; i++) {
            flags[i] = i % 7 == 0;
        }
        FbxNode tree = root(node("Objects", List.of(), leaf("Geometry", vertices, indices, flags)));
        byte[] file = FbxBinaryWriter.write(tree, version, zlib);
        DecodeBudget budget = ImportLimits.DEFAULT.newBudget();

        assertSameTree(tree, FbxReader.read(file, ImportLimits.DEFAULT, budget).root());
        // the arrays' payload (8 + 4 + 1 bytes per element), two records and three properties
        assertThat(budget.used()).isEqualTo(30_001L * 8 + 40_003L * 4 + 70_001L + 2 * FbxReader.RECORD_BYTES
                + 3 * FbxReader.PROPERTY_BYTES);
    }

    @Test
    void versionsBelow7500Use32BitRecordHeadersAndFromIt64Bit() {
        byte[] v32 = FbxBinaryWriter.write(SMALL, V32);
        byte[] v64 = FbxBinaryWriter.write(SMALL, V64);

        // the first record starts right after the 27-byte header; its name length byte follows 3 fields
        assertThat(v32[27 + 12]).isEqualTo((byte) "Objects".length());
        assertThat(v64[27 + 24]).isEqualTo((byte) "Objects".length());
        assertThat(field(v32, 27, V32, 0)).isEqualTo(241);
        assertThat(field(v64, 27, V64, 0)).isEqualTo(241 + 4 * 12 + 2 * 12);
        // the same bytes read with the other layout are not a valid file
        byte[] relabelled = withU32(v32, 23, V64);
        assertThat(failure(() -> read(relabelled)).kind()).isEqualTo(ImportException.Kind.INVALID);
        assertSameTree(SMALL, read(v32).root());
        assertSameTree(SMALL, read(v64).root());
    }

    /** The offsets of SMALL at version 7400, worked out by hand, that the messages below quote. */
    @Test
    void smallFileLayout() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32);
        assertThat(recordStart(f, "Objects", V32)).isEqualTo(27);
        assertThat(recordStart(f, "Model", V32)).isEqualTo(47);
        assertThat(field(f, 47, V32, 0)).isEqualTo(141);
        assertThat(field(f, 47, V32, 2)).isEqualTo(38);
        assertThat(recordStart(f, "Version", V32)).isEqualTo(103);
        assertThat(recordStart(f, "Vertices", V32)).isEqualTo(141);
        assertThat(field(f, 141, V32, 0)).isEqualTo(228);
        assertThat(recordStart(f, "Takes", V32)).isEqualTo(241);
        assertThat(field(f, 241, V32, 0)).isEqualTo(265);
    }

    // --- end offsets ---

    @Test
    void endOffsetPastTheParentIsRejected() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32);
        assertInvalid(withField(f, 141, V32, 0, 242), "FBX record Vertices at byte 141: its end offset 242 lies past"
                + " byte 241, where its parent FBX record Objects at byte 27 ends");
        assertInvalid(withField(f, 241, V32, 0, f.length + 1), "FBX record Takes at byte 241: its end offset "
                + (f.length + 1) + " lies past byte " + f.length + ", the end of the file");
    }

    @Test
    void endOffsetInsideTheOwnHeaderIsRejected() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32);
        assertInvalid(withField(f, 47, V32, 0, 50),
                "FBX record Model at byte 47: its end offset 50 lies before the end of its own header at byte 65");
        assertInvalid(withField(f, 47, V32, 0, 47),
                "FBX record Model at byte 47: its end offset 47 lies before the end of its own header at byte 65");
    }

    @Test
    void endOffsetCuttingThePropertiesIsRejected() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32);
        assertInvalid(withField(f, 47, V32, 0, 100), "FBX record Model at byte 47: its property list of 38 bytes from"
                + " byte 65 runs past the record's end at byte 100");
    }

    @Test
    void endOffsetNotMatchingTheChildrenIsRejected() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32);
        // one byte too far: the NULL record closing Model's children ends at 141, not 142
        assertInvalid(withField(f, 27, V32, 0, 242), "FBX record Objects at byte 27: the NULL record closing its"
                + " children ends at byte 241, but its end offset says the record ends at byte 242");
        // ends where its NULL record starts
        assertInvalid(withField(f, 27, V32, 0, 228), "FBX record Objects at byte 27: its children reach its end at"
                + " byte 228 without the NULL record that must close them");
        // a leaf claiming one byte of children
        assertInvalid(withField(f, 141, V32, 0, 229), "FBX record Vertices at byte 141: the child record header at"
                + " byte 228 needs 13 bytes, but only 1 are left before the record's end at byte 229");
    }

    @Test
    void sixtyFourBitEndOffsetsAboveTwoToTheSixtyThreeAreReportedUnsigned() {
        byte[] f = FbxBinaryWriter.write(SMALL, V64);
        int vertices = recordStart(f, "Vertices", V64);
        assertInvalid(withField(f, vertices, V64, 0, Long.MIN_VALUE), "FBX record Vertices at byte " + vertices
                + ": its end offset 9223372036854775808 lies past byte " + field(f, 27, V64, 0)
                + ", where its parent FBX record Objects at byte 27 ends");
        assertInvalid(withField(f, vertices, V64, 2, -1L), "FBX record Vertices at byte " + vertices
                + ": its property list of 18446744073709551615 bytes from byte " + (vertices + 25 + 8)
                + " runs past the record's end at byte " + field(f, vertices, V64, 0));
        assertInvalid(withField(f, vertices, V64, 1, 1L << 40), "FBX record Vertices at byte " + vertices
                + ": it declares 1099511627776 properties in a property list of 66 bytes (a property takes at least"
                + " 2)");
    }

    @Test
    void aNullRecordWithOtherFieldsSetIsRejected() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32);
        byte[] broken = f.clone();
        broken[228 + 12] = 3; // the name length of Objects' NULL record
        assertInvalid(broken, "FBX record at byte 228: its end offset is 0, which marks a NULL record, but its other"
                + " header fields are not zero");
    }

    @Test
    void aMissingTopLevelNullRecordIsRejected() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32);
        assertInvalid(Arrays.copyOf(f, 265), "the binary FBX file ends at byte 265 without the NULL record that"
                + " closes its top-level records");
        assertInvalid(Arrays.copyOf(f, 270), "the binary FBX file ends at byte 270 inside the record header at byte"
                + " 265 (a record header takes 13 bytes)");
        // the footer after it is ignored, whatever it holds
        byte[] noFooter = Arrays.copyOf(f, 278);
        assertSameTree(SMALL, read(noFooter).root());
    }

    // --- property counts and lengths ---

    @Test
    void propertyListLengthMustMatchWhatThePropertiesTake() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32);
        assertInvalid(withField(f, 47, V32, 2, 39), "FBX record Model at byte 47: its 3 properties take 38 bytes, but"
                + " its property list length says 39");
        assertInvalid(withField(f, 47, V32, 2, 37), "FBX record Model at byte 47: property 2 (S, string) at byte 90:"
                + " its 8 bytes from byte 95 run past the end of the record's properties at byte 102");
        assertInvalid(withField(f, 47, V32, 2, 12), "FBX record Model at byte 47: property 1 (S, string) at byte 74:"
                + " its 4 bytes of data run past the end of the record's properties at byte 77");
        assertInvalid(withField(f, 47, V32, 2, 6), "FBX record Model at byte 47: property 0 (L, int64) at byte 65:"
                + " its 8 bytes of data run past the end of the record's properties at byte 71");
    }

    @Test
    void propertyCountMustMatchTheList() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32);
        assertInvalid(withField(f, 47, V32, 1, 4), "FBX record Model at byte 47: its property list ends at byte 103"
                + " after 3 of its 4 properties");
        assertInvalid(withField(f, 47, V32, 1, 2), "FBX record Model at byte 47: its 2 properties take 25 bytes, but"
                + " its property list length says 38");
        assertInvalid(withField(f, 47, V32, 1, 20), "FBX record Model at byte 47: it declares 20 properties in a"
                + " property list of 38 bytes (a property takes at least 2)");
    }

    @Test
    void recordsWithoutANameAreNamedSo() {
        FbxNode tree = root(node("", List.of(1), leaf("Child", 2)), leaf("Takes", "x"));
        byte[] f = FbxBinaryWriter.write(tree, V32);
        assertSameTree(tree, read(f).root());
        assertInvalid(withField(f, 27, V32, 2, 6), "FBX record (no name) at byte 27: its 1 property takes 5 bytes, but"
                + " its property list length says 6");
    }

    /**
     * 3ds Max writes the header thumbnail's {@code ImageData} as a {@code c} array (bytes), a type Autodesk's list
     * lacks; assimp and ufbx read it, and nothing in a header may refuse the model: read as bytes, raw or zlib.
     */
    @ParameterizedTest(name = "version {0}, zlib arrays {1}")
    @CsvSource({"7400,false", "7400,true", "7500,false", "7500,true"})
    void max3dsThumbnailByteArrayIsReadAsBytes(int version, boolean zlib) {
        byte[] pixels = new byte[300];
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = (byte) (i * 7);
        }
        FbxNode header = node("FBXHeaderExtension", List.of(), node("SceneInfo", List.of("GlobalInfo\0\1SceneInfo",
                "UserData"), node("Thumbnail", List.of(), leaf("Version", 100), leaf("Format", 0), leaf("Size", 10, 10),
                leaf("ImageData", new FbxBinaryWriter.ByteArray(pixels)))));
        FbxReader.Document d = read(FbxBinaryWriter.write(root(header, node("Objects", List.of())), version, zlib));
        Object data = d.root().child("FBXHeaderExtension").child("SceneInfo").child("Thumbnail").child("ImageData")
                .property(0);
        assertThat(data).isInstanceOf(byte[].class);
        assertThat((byte[]) data).containsExactly(pixels);

        // and the model it heads imports
        FbxNode model = new FbxSceneFixture().model(1, "box", 0).root();
        List<FbxNode> top = new ArrayList<>(List.of(header));
        top.addAll(model.children());
        byte[] file = FbxBinaryWriter.write(new FbxNode("", List.of(), top), version, zlib);
        io.posekit.asset.SourceFile main = new io.posekit.asset.SourceFile("max.fbx", file);
        io.posekit.asset.ImportScene scene = new FbxImporter().read(main,
                new io.posekit.asset.SourceFiles(List.of(main)), ImportLimits.DEFAULT);
        assertThat(scene.nodes()).extracting(io.posekit.asset.ImportScene.Node::name).containsExactly("box");
    }

    @Test
    void unknownTypeCodesAreNamedWithTheirOffset() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32);
        byte[] broken = f.clone();
        broken[223] = 'Z'; // the 'I' of Vertices' second property
        assertInvalid(broken, "FBX record Vertices at byte 141: property 1 at byte 223 has the unknown type code"
                + " 'Z' (0x5A)");
        broken[223] = 0;
        assertInvalid(broken, "FBX record Vertices at byte 141: property 1 at byte 223 has the unknown type code 0x00");
    }

    @Test
    void recordNamesRunningPastTheFileAreRejected() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32);
        byte[] broken = f.clone();
        broken[241 + 12] = (byte) 200; // Takes' name length
        assertInvalid(Arrays.copyOf(broken, 300), "FBX record at byte 241: its name of 200 bytes runs past byte 300,"
                + " the end of the file");
        broken = f.clone();
        broken[141 + 12] = (byte) 200;
        assertInvalid(broken, "FBX record at byte 141: its name of 200 bytes runs past byte 241, where its parent FBX"
                + " record Objects at byte 27 ends");
    }

    // --- arrays ---

    /** Vertices' array property: type code at 162, then count at 163, encoding at 167, stored length at 171. */
    private static final int ARRAY = 162;

    @Test
    void rawArraysMustStoreExactlyCountTimesSize() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32);
        assertThat(u32(f, ARRAY + 1)).isEqualTo(6);
        assertThat(u32(f, ARRAY + 9)).isEqualTo(48);
        assertInvalid(withU32(f, ARRAY + 1, 3_000_000), "FBX record Vertices at byte 141: property 0 (d, float64 array)"
                + " at byte 162: array of 3000000 doubles (24000000 bytes) is stored raw in 48 bytes instead of"
                + " 24000000");
        assertInvalid(withU32(f, ARRAY + 9, 40), "FBX record Vertices at byte 141: property 0 (d, float64 array) at"
                + " byte 162: array of 6 doubles (48 bytes) is stored raw in 40 bytes instead of 48");
    }

    @Test
    void rawArraysEndingPastTheRecordAreRejectedBeforeAllocating() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32);
        byte[] lying = withU32(withU32(f, ARRAY + 1, 3_000_000), ARRAY + 9, 24_000_000);
        // a tiny budget shows nothing was charged or allocated for the lie
        DecodeBudget budget = new DecodeBudget(10_000);
        ImportException e = failure(() -> FbxReader.read(lying, ImportLimits.DEFAULT, budget));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
        assertThat(e.getMessage()).isEqualTo("FBX record Vertices at byte 141: property 0 (d, float64 array) at byte"
                + " 162: array of 3000000 doubles (24000000 bytes) ends at byte 24000175, past the end of the record's"
                + " properties at byte 228");
    }

    @Test
    void zlibArraysMustInflateToExactlyCountTimesSize() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32, true);
        int array = propertiesStart(f, recordStart(f, "Vertices", V32), V32);
        long stored = u32(f, array + 9);
        String prefix = "FBX record Vertices at byte 141: property 0 (d, float64 array) at byte " + array + ": ";
        assertThat(u32(f, array + 5)).isEqualTo(1);

        assertInvalid(withU32(f, array + 1, 7), prefix + "array of 7 doubles (56 bytes): its zlib data inflates to only"
                + " 48 bytes");
        assertInvalid(withU32(f, array + 1, 5), prefix + "array of 5 doubles (40 bytes): its zlib data inflates to more"
                + " than the declared 40 bytes");
        assertInvalid(withU32(f, array + 9, stored + 1000), prefix + "array of 6 doubles (48 bytes), zlib-compressed"
                + " in " + (stored + 1000) + " bytes, ends at byte " + (array + 13 + stored + 1000)
                + ", past the end of the record's properties at byte " + field(f, 141, V32, 0));
        assertInvalid(withU32(f, array + 5, 2), prefix + "array of 6 doubles (48 bytes) has the unknown encoding 2"
                + " (0 is raw, 1 is zlib)");
    }

    @Test
    void corruptOrCutShortZlibStreamsAreInvalid() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32, true);
        int array = propertiesStart(f, recordStart(f, "Vertices", V32), V32);
        int data = array + 13;
        int stored = (int) u32(f, array + 9);
        String prefix = "FBX record Vertices at byte 141: property 0 (d, float64 array) at byte " + array
                + ": array of 6 doubles (48 bytes): ";

        byte[] badChecksum = f.clone();
        badChecksum[data + stored - 1] ^= 0x55;
        assertInvalid(badChecksum, prefix + "its zlib data is corrupt (incorrect data check)");
        byte[] badHeader = f.clone();
        badHeader[data] = 0x00;
        assertInvalid(badHeader, prefix + "its zlib data is corrupt (incorrect header check)");

        // the stream without its last 4 bytes (the Adler-32), the record shortened to match
        byte[] cut = new byte[f.length - 4];
        System.arraycopy(f, 0, cut, 0, data + stored - 4);
        System.arraycopy(f, data + stored, cut, data + stored - 4, f.length - data - stored);
        cut = withU32(cut, array + 9, stored - 4);
        cut = withField(cut, 141, V32, 0, field(f, 141, V32, 0) - 4);
        cut = withField(cut, 141, V32, 2, field(f, 141, V32, 2) - 4);
        cut = withField(cut, 27, V32, 0, field(f, 27, V32, 0) - 4);
        long takesEnd = field(f, recordStart(f, "Takes", V32), V32, 0);
        cut = withField(cut, recordStart(cut, "Takes", V32), V32, 0, takesEnd - 4);
        assertInvalid(cut, prefix + "its zlib data ends before the end of its stream");
    }

    @Test
    void emptyZlibArraysWithoutDataAreAccepted() {
        byte[] f = FbxBinaryWriter.write(root(leaf("Empty", new double[0], 1)), V32, true);
        int array = propertiesStart(f, 27, V32);
        // some writers store an empty array as encoding 1 without any zlib bytes: cut them out
        int stored = (int) u32(f, array + 9);
        byte[] bare = new byte[f.length - stored];
        System.arraycopy(f, 0, bare, 0, array + 13);
        System.arraycopy(f, array + 13 + stored, bare, array + 13, f.length - array - 13 - stored);
        bare = withU32(bare, array + 9, 0);
        bare = withField(bare, 27, V32, 0, field(f, 27, V32, 0) - stored);
        bare = withField(bare, 27, V32, 2, field(f, 27, V32, 2) - stored);

        assertSameTree(root(leaf("Empty", new double[0], 1)), read(bare).root());
    }

    @Test
    void aZipBombFailsAtTheBudgetBeforeInflating() {
        // 64 MiB of zeros deflate to about 64 KiB; the array declares the 8 Mi doubles they are
        byte[] zeros = new byte[1 << 20];
        java.util.zip.Deflater deflater = new java.util.zip.Deflater(9);
        java.io.ByteArrayOutputStream z = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[1 << 16];
        for (int i = 0; i < 64; i++) {
            deflater.setInput(zeros);
            while (!deflater.needsInput()) {
                z.write(buffer, 0, deflater.deflate(buffer));
            }
        }
        deflater.finish();
        while (!deflater.finished()) {
            z.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        byte[] bomb = bombFile(z.toByteArray(), 8L << 20);
        ImportLimits limits = new ImportLimits(16 << 20, 1000, 10, 1 << 20, 200);

        long allocated = allocatedBytes();
        long started = System.nanoTime();
        ImportException e = failure(() -> FbxReader.read(bomb, limits, limits.newBudget()));
        long millis = (System.nanoTime() - started) / 1_000_000;
        allocated = allocatedBytes() - allocated;

        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo("FBX record Bomb at byte 27: property 0 (d, float64 array) at byte 44:"
                + " array of 8388608 doubles (67108864 bytes) needs 67108864 bytes, which takes the import past its"
                + " limit of 16777216 decoded bytes (posekit.limits.decoded-bytes)");
        assertThat(millis).isLessThan(1000);
        if (allocated >= 0) {
            assertThat(allocated).as("bytes allocated while reading").isLessThan(4L << 20);
        }

        // the largest count a file can declare, with the default budget
        byte[] huge = withU32(bomb, 45, 0xFFFF_FFFFL);
        ImportException e2 = failure(() -> read(huge));
        assertThat(e2.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e2.getMessage()).startsWith("FBX record Bomb at byte 27: property 0 (d, float64 array) at byte 44:"
                + " array of 4294967295 doubles (34359738360 bytes) needs 34359738360 bytes");
    }

    @Test
    void zlibDataTooShortForItsDeclaredSizeIsRefusedBeforeAllocating() {
        byte[] stream = FbxBinaryWriter.zlib(new byte[48]);
        byte[] lying = bombFile(stream, 1_000_000);
        assertInvalid(lying, "FBX record Bomb at byte 27: property 0 (d, float64 array) at byte 44: array of 1000000"
                + " doubles (8000000 bytes) cannot inflate from only " + stream.length + " bytes of zlib data (deflate"
                + " expands at most 1032 times)");
    }

    /** A file of one record "Bomb" holding a zlib double array of {@code count} elements stored as {@code stream}. */
    private static byte[] bombFile(byte[] stream, long count) {
        byte[] f = FbxBinaryWriter.write(root(leaf("Bomb", new double[0])), V32, true);
        int array = propertiesStart(f, 27, V32);
        int stored = (int) u32(f, array + 9);
        byte[] out = new byte[f.length - stored + stream.length];
        System.arraycopy(f, 0, out, 0, array + 13);
        System.arraycopy(stream, 0, out, array + 13, stream.length);
        System.arraycopy(f, array + 13 + stored, out, array + 13 + stream.length, f.length - array - 13 - stored);
        int delta = stream.length - stored;
        out = withU32(out, array + 1, count);
        out = withU32(out, array + 9, stream.length);
        out = withField(out, 27, V32, 0, field(f, 27, V32, 0) + delta);
        return withField(out, 27, V32, 2, field(f, 27, V32, 2) + delta);
    }

    private static long allocatedBytes() {
        if (java.lang.management.ManagementFactory.getThreadMXBean()
                instanceof com.sun.management.ThreadMXBean bean && bean.isThreadAllocatedMemorySupported()) {
            return bean.getCurrentThreadAllocatedBytes();
        }
        return -1;
    }

    // --- limits ---

    @Test
    void nestingIsLimitedTo256Levels() {
        FbxNode chain256 = chain(256);
        assertSameTree(chain256, read(FbxBinaryWriter.write(chain256, V32)).root());

        byte[] deeper = FbxBinaryWriter.write(chain(257), V32);
        int last = 27 + 256 * (13 + 5);
        assertInvalid(deeper, "FBX record Level at byte " + last + ": records are nested deeper than 256 levels");
    }

    /** Records "Level" nested {@code depth} deep, the innermost holding one integer. */
    static FbxNode chain(int depth) {
        FbxNode n = leaf("Level", 1);
        for (int i = 1; i < depth; i++) {
            n = node("Level", List.of(), n);
        }
        return root(n);
    }

    @Test
    void theRecordCountIsLimited() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32);
        ImportException e = failure(() -> FbxReader.read(f, ImportLimits.DEFAULT, ImportLimits.DEFAULT.newBudget(),
                256, 3));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo("the FBX file has more than 3 records (FBX record Vertices at byte 141 is"
                + " one too many)");
        assertThat(FbxReader.MAX_RECORDS).isEqualTo(10_000_000);
        assertThat(FbxReader.MAX_DEPTH).isEqualTo(256);
    }

    @Test
    void theTreeItselfIsChargedToTheBudget() {
        byte[] f = FbxBinaryWriter.write(SMALL, V32);
        DecodeBudget budget = ImportLimits.DEFAULT.newBudget();
        FbxReader.read(f, ImportLimits.DEFAULT, budget);
        // 5 records, 7 properties, 13 string bytes, 6 doubles
        assertThat(budget.used()).isEqualTo(5 * 64 + 7 * 16 + ("Bone\0\1Model".length() + "LimbNode".length() + 1)
                + 6 * 8);

        ImportException e = failure(() -> FbxReader.read(f, ImportLimits.DEFAULT, new DecodeBudget(150)));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo("FBX record Model at byte 47 needs 112 bytes, which takes the import past"
                + " its limit of 150 decoded bytes (posekit.limits.decoded-bytes)");
    }

    @Test
    void manyRecordsReadWithoutRecursionTrouble() {
        List<FbxNode> records = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            records.add(leaf("C", "OO", (long) i, 0L));
        }
        FbxNode tree = root(node("Connections", List.of(), records.toArray(FbxNode[]::new)));
        FbxReader.Document d = read(FbxBinaryWriter.write(tree, V64));
        assertThat(d.root().child("Connections").children()).hasSize(20_000);
        assertThat(d.root().child("Connections").children().get(19_999).integer(1)).isEqualTo(19_999);
    }
}
