package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.GltfTestSupport.assertInvalid;
import static io.posekit.asset.gltf.GltfTestSupport.failure;
import static io.posekit.asset.gltf.GltfTestSupport.importGlb;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.skinning.Primitive;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code KHR_draco_mesh_compression}: a primitive with every attribute kind glTF has (float positions, normals,
 * tangents, two texture coordinate sets, unsigned-byte colours, 16-bit joints above 255, float weights), Draco-encoded
 * in code ({@link DracoGlb}), imports to the uncompressed file's values: vertex for vertex with the sequential
 * method, triangle for triangle with edgebreaker (which reorders). Every disagreement between the stream and the
 * accessor declarations, and corrupt or hostile streams, are 422s naming what is wrong.
 */
class DracoImportTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The grid of {@link DracoGlb#addGrid} alone in a scene. */
    static GltfBuilder grid(boolean integers) {
        GltfBuilder b = new GltfBuilder();
        b.addScene("Scene", b.node("Grid").mesh(DracoGlb.addGrid(b, integers)).index());
        return b;
    }

    /** The grid as a GLB, and Draco-compressed with {@code options} (with its integer attributes when sequential). */
    static byte[] plain(DracoGlb.Options options) {
        return grid(options == DracoGlb.Options.SEQUENTIAL).toGlb();
    }

    static byte[] draco(DracoGlb.Options options) {
        return DracoGlb.compress(plain(options), options);
    }

    private static Primitive primitive(ImportScene scene) {
        return scene.meshes().getFirst().primitives().getFirst();
    }

    @Test
    void sequentialDracoDecodesEveryVertexAsStored() {
        Primitive expected = primitive(importGlb(plain(DracoGlb.Options.SEQUENTIAL)));
        ImportScene scene = importGlb(draco(DracoGlb.Options.SEQUENTIAL));
        assertThat(scene.warnings()).isEmpty();
        Primitive p = primitive(scene);
        assertThat(p.vertexCount()).isEqualTo(20);
        assertThat(p.positions()).containsExactly(expected.positions());
        assertThat(p.normals()).containsExactly(expected.normals());
        assertThat(p.tangents()).containsExactly(expected.tangents());
        assertThat(p.texcoordSets()).hasSize(2);
        assertThat(p.texcoordSets().get(0)).containsExactly(expected.texcoordSets().get(0));
        assertThat(p.texcoordSets().get(1)).containsExactly(expected.texcoordSets().get(1));
        assertThat(p.colors()).containsExactly(expected.colors());
        assertThat(p.joints()).containsExactly(expected.joints());
        assertThat(p.joints()).contains(1019, 433); // 16-bit joints above 255 come through whole
        assertThat(p.weights()).containsExactly(expected.weights());
        assertThat(p.indices()).containsExactly(expected.indices());
    }

    /** Draco turned off by the operator: a file that needs it refused naming the setting. */
    @Test
    void withDracoTurnedOffADracoFileIs415NamingTheSetting() {
        byte[] glb = draco(DracoGlb.Options.SEQUENTIAL);
        ImportException e = org.junit.jupiter.api.Assertions.assertThrows(ImportException.class,
                () -> new GltfImporter(false).read(new io.posekit.asset.SourceFile("grid.glb", glb),
                        new io.posekit.asset.SourceFiles(List.of(new io.posekit.asset.SourceFile("grid.glb", glb))),
                        io.posekit.asset.ImportLimits.DEFAULT));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.UNSUPPORTED);
        assertThat(e.getMessage()).isEqualTo("mesh 0 primitive 0: KHR_draco_mesh_compression is not decoded here:"
                + " Draco decoding is turned off (posekit.limits.draco=false)");
        // the plain twin is read either way
        byte[] plainGlb = plain(DracoGlb.Options.SEQUENTIAL);
        assertThat(new GltfImporter(false).read(new io.posekit.asset.SourceFile("grid.glb", plainGlb),
                new io.posekit.asset.SourceFiles(List.of(new io.posekit.asset.SourceFile("grid.glb", plainGlb))),
                io.posekit.asset.ImportLimits.DEFAULT).meshes()).hasSize(1);
    }

    @Test
    void edgebreakerDracoDecodesTheSameTrianglesWithTheSameCornerValues() {
        Primitive expected = primitive(importGlb(plain(DracoGlb.Options.EDGEBREAKER)));
        Primitive p = primitive(importGlb(draco(DracoGlb.Options.EDGEBREAKER)));
        assertThat(p.indexCount()).isEqualTo(72);
        assertThat(p.indices()).isNotEqualTo(expected.indices()); // the traversal's own order
        assertThat(triangles(p)).isEqualTo(triangles(expected));
    }

    /**
     * Every triangle as the text of its three corners' values (all attributes), rotated to start at its smallest
     * corner (a traversal may start a triangle at any corner, keeping its winding), sorted.
     */
    static List<String> triangles(Primitive p) {
        List<String> out = new ArrayList<>();
        int[] idx = p.indices();
        for (int t = 0; t < idx.length / 3; t++) {
            String[] corners = new String[3];
            for (int k = 0; k < 3; k++) {
                corners[k] = corner(p, idx[3 * t + k]);
            }
            int first = 0;
            for (int k = 1; k < 3; k++) {
                if (corners[k].compareTo(corners[first]) < 0) {
                    first = k;
                }
            }
            out.add(corners[first] + " | " + corners[(first + 1) % 3] + " | " + corners[(first + 2) % 3]);
        }
        out.sort(null);
        return out;
    }

    private static String corner(Primitive p, int v) {
        StringBuilder s = new StringBuilder();
        s.append(Arrays.toString(Arrays.copyOfRange(p.positions(), 3 * v, 3 * v + 3)));
        s.append(Arrays.toString(Arrays.copyOfRange(p.normals(), 3 * v, 3 * v + 3)));
        s.append(Arrays.toString(Arrays.copyOfRange(p.tangents(), 4 * v, 4 * v + 4)));
        for (float[] uv : p.texcoordSets()) {
            s.append(Arrays.toString(Arrays.copyOfRange(uv, 2 * v, 2 * v + 2)));
        }
        if (p.colors() != null) {
            s.append(Arrays.toString(Arrays.copyOfRange(p.colors(), 4 * v, 4 * v + 4)));
        }
        int k = p.influencesPerVertex();
        s.append(Arrays.toString(Arrays.copyOfRange(p.joints(), k * v, k * v + k)));
        s.append(Arrays.toString(Arrays.copyOfRange(p.weights(), k * v, k * v + k)));
        return s.toString();
    }

    // ------------------------------------------------------------------ declarations that disagree with the stream

    /** The Draco GLB of the grid with its JSON edited. */
    private static byte[] edited(DracoGlb.Options options, java.util.function.Consumer<ObjectNode> edit) {
        return editJson(draco(options), edit);
    }

    private static ObjectNode accessor(ObjectNode root, String attribute) {
        int index = root.get("meshes").get(0).get("primitives").get(0).get("attributes").get(attribute).asInt();
        return (ObjectNode) root.get("accessors").get(index);
    }

    private static ObjectNode ext(ObjectNode root) {
        return (ObjectNode) root.get("meshes").get(0).get("primitives").get(0).get("extensions")
                .get("KHR_draco_mesh_compression");
    }

    private static final String P = "mesh 0 primitive 0 KHR_draco_mesh_compression";

    @Test
    void aCountOtherThanTheStreamsIsNamed() {
        assertInvalid(() -> importGlb(edited(DracoGlb.Options.SEQUENTIAL, r -> accessor(r, "POSITION").put("count", 21))),
                P + ": the Draco data has 20 vertices but POSITION accessor 0 declares 21");
        assertInvalid(() -> importGlb(edited(DracoGlb.Options.EDGEBREAKER, r -> accessor(r, "NORMAL").put("count", 21))),
                P + " attribute NORMAL (accessor 1): the Draco data has 20 vertices but the accessor declares 21");
        assertInvalid(() -> importGlb(edited(DracoGlb.Options.SEQUENTIAL,
                r -> ((ObjectNode) r.get("accessors").get(8)).put("count", 93))),
                P + ": the Draco data has 24 triangles but indices accessor 8 declares 93 indices");
    }

    @Test
    void aTypeOrComponentTypeOtherThanTheStreamsIsNamed() {
        assertInvalid(() -> importGlb(edited(DracoGlb.Options.SEQUENTIAL,
                r -> accessor(r, "JOINTS_0").put("componentType", GltfBuilder.UNSIGNED_BYTE))),
                P + " attribute JOINTS_0 (accessor 6): the Draco attribute holds UINT16 but the accessor's componentType "
                        + "is unsigned byte");
        assertInvalid(() -> importGlb(edited(DracoGlb.Options.SEQUENTIAL,
                r -> accessor(r, "TEXCOORD_1").put("type", "VEC3"))),
                "mesh 0 primitive 0: TEXCOORD_1 accessor 4 must be VEC2, not VEC3");
        assertInvalid(() -> importGlb(edited(DracoGlb.Options.SEQUENTIAL,
                r -> accessor(r, "WEIGHTS_0").put("componentType", GltfBuilder.UNSIGNED_SHORT).put("normalized", true))),
                P + " attribute WEIGHTS_0 (accessor 7): the Draco attribute holds FLOAT32 but the accessor's "
                        + "componentType is unsigned short");
    }

    @Test
    void aValueOutsideTheDeclaredBoundsIsNamed() {
        assertInvalid(() -> importGlb(edited(DracoGlb.Options.SEQUENTIAL,
                r -> accessor(r, "POSITION").set("max", JSON.valueToTree(new float[] {0.5f, 0.8f, 0.12f})))),
                P + " attribute POSITION (accessor 0): the Draco data's vertex 15 component 1 is 0.90000004, above its "
                        + "max 0.8");
        assertInvalid(() -> importGlb(edited(DracoGlb.Options.SEQUENTIAL,
                r -> accessor(r, "JOINTS_0").set("min", JSON.valueToTree(new int[] {1000, 300, 1, 0})))),
                P + " attribute JOINTS_0 (accessor 6): the Draco data's vertex 0 component 2 is 0.0, below its min 1.0");
    }

    @Test
    void unknownOrForeignAttributesAreNamed() {
        assertInvalid(() -> importGlb(edited(DracoGlb.Options.SEQUENTIAL, r -> ((ObjectNode) ext(r).get("attributes"))
                .put("NORMAL", 42))), P + ": the Draco data has no attribute with unique id 42");
        assertInvalid(() -> importGlb(edited(DracoGlb.Options.SEQUENTIAL, r -> ((ObjectNode) ext(r).get("attributes"))
                .put("TEXCOORD_7", 9))), P + " attribute TEXCOORD_7 is not one of the primitive's attributes");
        assertInvalid(() -> importGlb(edited(DracoGlb.Options.SEQUENTIAL, r -> ((ObjectNode) ext(r).get("attributes"))
                .put("NORMAL", 0))), P + " attribute NORMAL: unique id 0 is given to two attributes");
        assertInvalid(() -> importGlb(edited(DracoGlb.Options.SEQUENTIAL,
                r -> ((ObjectNode) r.get("meshes").get(0).get("primitives").get(0)).put("mode", 0))),
                P + ": the primitive's mode is 0; Draco primitives are read as triangle lists (mode 4) only");
    }

    // ------------------------------------------------------------------ corrupt and hostile streams

    /** The Draco GLB of the grid with its stream (the last buffer view) replaced by {@code stream}. */
    private static byte[] withStream(DracoGlb.Options options, byte[] stream) {
        byte[] glb = draco(options);
        ByteBuffer in = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN);
        int jsonLength = in.getInt(12);
        ObjectNode root = (ObjectNode) JSON.readTree(Arrays.copyOfRange(glb, 20, 20 + jsonLength));
        int binLength = in.getInt(20 + jsonLength);
        byte[] bin = Arrays.copyOfRange(glb, 28 + jsonLength, 28 + jsonLength + binLength);
        ObjectNode view = (ObjectNode) root.get("bufferViews").get(root.get("bufferViews").size() - 1);
        int offset = view.get("byteOffset").asInt();
        byte[] out = Arrays.copyOf(bin, offset + stream.length);
        System.arraycopy(stream, 0, out, offset, stream.length);
        view.put("byteLength", stream.length);
        ((ObjectNode) root.get("buffers").get(0)).put("byteLength", out.length);
        return DracoGlb.glb(JSON.writeValueAsString(root).getBytes(StandardCharsets.UTF_8), out);
    }

    /** The Draco stream the grid encodes to with {@code options}. */
    static byte[] stream(DracoGlb.Options options) {
        byte[] glb = draco(options);
        return DracoGlb.lastStream(glb);
    }

    @Test
    void aStreamThatIsNotDracoOrNotAMeshIsNamed() {
        byte[] s = stream(DracoGlb.Options.EDGEBREAKER);
        byte[] notDraco = s.clone();
        notDraco[0] = 'd';
        assertInvalid(() -> importGlb(withStream(DracoGlb.Options.EDGEBREAKER, notDraco)), P + ": the Draco data does not start with the DRACO magic");
        byte[] version = s.clone();
        version[6] = 7;
        assertInvalid(() -> importGlb(withStream(DracoGlb.Options.EDGEBREAKER, version)),
                P + ": Draco bitstream version 2.7 is not read (2.0 to 2.2 are)");
        byte[] cloud = s.clone();
        cloud[7] = 0;
        assertInvalid(() -> importGlb(withStream(DracoGlb.Options.EDGEBREAKER, cloud)), P + ": the Draco data is a point cloud, not a triangular mesh");
        assertInvalid(() -> importGlb(withStream(DracoGlb.Options.EDGEBREAKER, Arrays.copyOf(s, 12))),
                P + ": the Draco data ends inside its header (1 bytes needed, 0 left)");
    }

    @Test
    void aTruncatedOrScrambledStreamIsA422NotACrash() {
        byte[] s = stream(DracoGlb.Options.EDGEBREAKER);
        for (int cut : new int[] {s.length / 4, s.length / 2, s.length - 1}) {
            ImportException e = failure(() -> importGlb(withStream(DracoGlb.Options.EDGEBREAKER, Arrays.copyOf(s, cut))));
            assertThat(e.kind()).as("cut at %d", cut).isEqualTo(ImportException.Kind.INVALID);
            assertThat(e.importerBug()).isFalse();
            assertThat(e).hasMessageStartingWith(P + ": ");
        }
        java.util.SplittableRandom random = new java.util.SplittableRandom(40);
        int failed = 0;
        for (int i = 0; i < 300; i++) {
            byte[] m = s.clone();
            for (int k = 0; k < 4; k++) {
                m[20 + random.nextInt(m.length - 20)] = (byte) random.nextInt(256);
            }
            try {
                importGlb(withStream(DracoGlb.Options.EDGEBREAKER, m));
            } catch (ImportException e) {
                assertThat(e.importerBug()).as("mutant %d: %s", i, e.getMessage()).isFalse();
                assertThat(e).hasMessageStartingWith(P);
                failed++;
            }
        }
        // a scrambled stream may still decode to values within the declarations; most do not
        assertThat(failed).isGreaterThan(150);
    }

    @Test
    void aRunOfContinuationBytesIsNamedNotAStackOverflow() {
        byte[] s = stream(DracoGlb.Options.SEQUENTIAL);
        // header (11 bytes), then the sequential counts as varints that never end
        byte[] bomb = Arrays.copyOf(s, 200_000);
        Arrays.fill(bomb, 11, bomb.length, (byte) 0x80);
        assertInvalid(() -> importGlb(withStream(DracoGlb.Options.SEQUENTIAL, bomb)), P + ": a Draco count is longer than 32 bits");
    }

    @Test
    void hugeDeclaredCountsAreRefusedBeforeDecoding() {
        // the indices accessor declares 2^28 × 3 indices and the stream as many faces: charged before decoding
        byte[] s = stream(DracoGlb.Options.SEQUENTIAL);
        ByteBuffer header = ByteBuffer.allocate(s.length + 8);
        header.put(s, 0, 11);
        header.put(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01}); // 2^28 faces
        header.put((byte) 20); // 20 points
        header.put(s, 13, s.length - 13);
        byte[] big = withStream(DracoGlb.Options.SEQUENTIAL, Arrays.copyOf(header.array(), header.position()));
        byte[] glb = editJson(big, r -> ((ObjectNode) r.get("accessors").get(8)).put("count", 3 * (1 << 28)));
        ImportException e = failure(() -> GltfTestSupport.importFiles(new ImportLimits(64L << 20, 1000, 64, 1L << 30,
                100), new SourceFile("g.glb", glb)));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        // 16 MiB + 2^28 triangles × 512 + twice the stream, in whole pages: past what a 32-bit decoder addresses
        assertThat(e).hasMessage(P + " Draco decoding needs 137455796224 bytes, more than a WebAssembly decoder "
                + "addresses (4294967296)");
    }

    @Test
    void aDecodePastTheDeadlineIsA422AndItsThreadIsStopped() throws Exception {
        // a 700 × 700 grid (976,802 triangles): its decode takes far longer than the 40 ms this import is given (a
        // 300 × 300 grid decoded within them on a fast run)
        byte[] stream = DracoHostileStreamTest.grid(700);
        DracoStreamHeader header = DracoStreamHeader.read(stream, 0, stream.length, "big");
        ImportLimits d = ImportLimits.DEFAULT;
        ImportLimits limits = new ImportLimits(d.maxDecodedBytes(), d.maxNodes(), d.maxJointsPerSkin(), d.maxVertices(),
                d.maxInfluencesPerVertex(), d.maxKeysPerTrack(), d.maxClips(), d.maxXmlDepth(), d.maxXmlElements(),
                d.maxZipEntries(), d.maxZipBytes(), d.maxZipRatio(), java.time.Duration.ofMillis(40));
        long began = System.nanoTime();
        assertInvalid(() -> DracoDecoder.decode(stream, 0, stream.length, header, java.util.Set.of(0),
                limits.newBudget(), "big"), "big: the Draco data is corrupt or too slow to decode: its decoding did not end within the parse time of "
                        + "40 ms (posekit.limits.parse-time)");
        // the decode's thread was interrupted at the deadline and has ended: no thread decodes on
        assertThat(System.nanoTime() - began).isLessThan(2_000_000_000L);
        assertThat(Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("draco-decode")))
                .isEmpty();
    }

    private static byte[] editJson(byte[] glb, java.util.function.Consumer<ObjectNode> edit) {
        ByteBuffer in = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN);
        int jsonLength = in.getInt(12);
        ObjectNode root = (ObjectNode) JSON.readTree(Arrays.copyOfRange(glb, 20, 20 + jsonLength));
        int binLength = in.getInt(20 + jsonLength);
        edit.accept(root);
        return DracoGlb.glb(JSON.writeValueAsString(root).getBytes(StandardCharsets.UTF_8),
                Arrays.copyOfRange(glb, 28 + jsonLength, 28 + jsonLength + binLength));
    }
}
