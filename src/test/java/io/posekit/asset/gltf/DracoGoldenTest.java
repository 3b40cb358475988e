package io.posekit.asset.gltf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * posekit's Draco decoding against Google's decoder: {@code tools/draco-golden/run.sh} (CI runs it before the tests)
 * makes Draco variants of every conformance glTF asset with glTF Transform (edgebreaker at encode speeds 0 (valence),
 * 5 and 10, sequential, low and high quantization) and decodes each Draco primitive with npm {@code draco3dgltf}. Every
 * variant must import, and each of its primitives decode ({@link DracoDecoder}) to the same triangles with the same
 * corner values: the indices and every attribute byte for byte, normals within {@link #NORMAL_TOLERANCE}; where the
 * vertices come out in another order, the same set of triangles with the same corners (measured: 416 of the 480
 * primitives in Google's vertex order; the 64 others, every primitive of the encode-speed-10 variants but the smallest,
 * in another). Skipped where the files were not made.
 */
class DracoGoldenTest {

    /**
     * The default limits with a parse time of 120 s: this test checks values, not time, and a fresh JVM's first
     * BrainStem decodes (59 primitives, the module's code not yet compiled by the JIT) took more than the default 10 s
     * on two cores shared with two other test suites (docs/performance.md).
     */
    private static final ImportLimits LIMITS;

    static {
        ImportLimits d = ImportLimits.DEFAULT;
        LIMITS = new ImportLimits(d.maxDecodedBytes(), d.maxNodes(), d.maxJointsPerSkin(), d.maxVertices(),
                d.maxInfluencesPerVertex(), d.maxKeysPerTrack(), d.maxClips(), d.maxXmlDepth(), d.maxXmlElements(),
                d.maxZipEntries(), d.maxZipBytes(), d.maxZipRatio(), java.time.Duration.ofSeconds(120));
    }

    /**
     * How far a decoded normal component may differ from Google's: octahedral normals are turned back into vectors in
     * float arithmetic that the port does not repeat operation for operation (measured on the 72 variants: at most
     * 6.3e-7, a few float32 ulps; every other attribute, and the indices, bit for bit).
     */
    static final float NORMAL_TOLERANCE = 1e-6f;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static Path root() {
        return Path.of(System.getProperty("posekit.draco-golden.dir", "target/draco-golden")).toAbsolutePath();
    }

    @TestFactory
    Stream<DynamicTest> everyVariantDecodesAsGooglesDecoderDoes() throws IOException {
        Path list = root().resolve("golden.tsv");
        assumeTrue(Files.isRegularFile(list), list + " is absent (run tools/draco-golden/run.sh)");
        List<String> lines = Files.readAllLines(list).stream().filter(l -> !l.isBlank()).toList();
        assertThat(lines).as("Draco golden variants (6 settings × 12 assets)").hasSize(72);
        return lines.stream().map(line -> {
            String[] f = line.split("\t");
            return DynamicTest.dynamicTest(f[0] + " " + f[1], () -> check(root().resolve(f[2])));
        });
    }

    private static void check(Path glbPath) throws IOException {
        byte[] glb = Files.readAllBytes(glbPath);
        SourceFile file = new SourceFile(glbPath.getFileName().toString(), glb);
        ImportScene scene = new GltfImporter().read(file, new SourceFiles(List.of(file)), LIMITS);
        assertThat(scene.meshes()).isNotEmpty();
        Path expectedPath = Path.of(glbPath.toString().replaceFirst("\\.glb$", ".draco.json"));
        JsonNode expected = JSON.readTree(Files.readAllBytes(expectedPath));
        ByteBuffer in = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN);
        int jsonLength = in.getInt(12);
        JsonNode root = JSON.readTree(Arrays.copyOfRange(glb, 20, 20 + jsonLength));
        int binStart = 28 + jsonLength;
        assertThat(expected.get("primitives")).as("Draco primitives of %s", glbPath).isNotEmpty();
        for (JsonNode p : expected.get("primitives")) {
            String where = glbPath.getParent().getFileName() + "/" + glbPath.getFileName() + " mesh "
                    + p.get("mesh").asInt() + " primitive " + p.get("primitive").asInt();
            JsonNode prim = root.get("meshes").get(p.get("mesh").asInt()).get("primitives").get(p.get("primitive").asInt());
            JsonNode ext = prim.get("extensions").get(DracoPrimitive.EXTENSION);
            JsonNode view = root.get("bufferViews").get(ext.get("bufferView").asInt());
            int offset = binStart + view.path("byteOffset").asInt(0);
            int length = view.get("byteLength").asInt();
            Map<String, Integer> ids = new LinkedHashMap<>();
            for (String name : ext.get("attributes").propertyNames()) {
                ids.put(name, ext.get("attributes").get(name).asInt());
            }
            DracoStreamHeader header = DracoStreamHeader.read(glb, offset, length, where);
            DracoDecoder.Mesh mesh = DracoDecoder.decode(glb, offset, length, header,
                    new LinkedHashSet<>(ids.values()), new DecodeBudget(Long.MAX_VALUE), where);
            compare(where, mesh, ids, p);
        }
    }

    /** One primitive: the same vertex order and values, else the same triangles with the same corners. */
    private static void compare(String where, DracoDecoder.Mesh mesh, Map<String, Integer> ids, JsonNode golden) {
        int[] goldenIndices = ints(Base64.getDecoder().decode(golden.get("indices").asString()));
        Map<String, byte[]> goldenValues = new LinkedHashMap<>();
        Map<String, byte[]> ourValues = new LinkedHashMap<>();
        Map<String, Integer> valueSizes = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> e : ids.entrySet()) {
            JsonNode a = golden.get("attributes").get(e.getKey());
            DracoDecoder.Attribute ours = mesh.attributes().get(e.getValue());
            assertThat(ours.componentType().code).as("%s %s component type", where, e.getKey())
                    .isEqualTo(a.get("componentType").asInt());
            assertThat(ours.components()).as("%s %s components", where, e.getKey()).isEqualTo(a.get("components").asInt());
            goldenValues.put(e.getKey(), Base64.getDecoder().decode(a.get("data").asString()));
            ourValues.put(e.getKey(), ours.values());
            valueSizes.put(e.getKey(), ours.components() * ours.componentType().size);
        }
        assertThat(mesh.indices().length).as("%s indices", where).isEqualTo(goldenIndices.length);
        if (mesh.points() == golden.get("points").asInt() && Arrays.equals(mesh.indices(), goldenIndices)) {
            for (String name : ids.keySet()) {
                assertSameValues(where + " " + name, name, ourValues.get(name), goldenValues.get(name));
            }
            return;
        }
        // another vertex order: compare the triangles as sets of corners
        List<Triangle> ours = triangles(mesh.indices(), ourValues, valueSizes);
        List<Triangle> theirs = triangles(goldenIndices, goldenValues, valueSizes);
        assertThat(ours.stream().map(Triangle::key).toList()).as("%s triangles (reordered)", where)
                .isEqualTo(theirs.stream().map(Triangle::key).toList());
        for (int t = 0; t < ours.size(); t++) {
            assertSameValues(where + " NORMAL of triangle " + t, "NORMAL", ours.get(t).normals(), theirs.get(t).normals());
        }
    }

    private static void assertSameValues(String what, String name, byte[] ours, byte[] theirs) {
        if (!name.equals("NORMAL")) {
            assertThat(ours).as(what).isEqualTo(theirs);
            return;
        }
        assertThat(ours.length).as(what).isEqualTo(theirs.length);
        ByteBuffer a = ByteBuffer.wrap(ours).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer b = ByteBuffer.wrap(theirs).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < ours.length; i += 4) {
            assertThat(a.getFloat(i)).as("%s component %d", what, i / 4)
                    .isCloseTo(b.getFloat(i), org.assertj.core.data.Offset.offset(NORMAL_TOLERANCE));
        }
    }

    /**
     * A triangle as the text of its corners' exact values (every attribute but NORMAL, in hex), rotated to start at
     * its smallest corner, with the normals of those corners (bytes, in the same order) to compare with a tolerance.
     */
    private record Triangle(String key, byte[] normals) {
    }

    private static List<Triangle> triangles(int[] indices, Map<String, byte[]> values, Map<String, Integer> sizes) {
        HexFormat hex = HexFormat.of();
        List<Triangle> out = new ArrayList<>();
        for (int t = 0; t < indices.length / 3; t++) {
            String[] corners = new String[3];
            byte[][] normals = new byte[3][];
            for (int k = 0; k < 3; k++) {
                int v = indices[3 * t + k];
                StringBuilder s = new StringBuilder();
                for (Map.Entry<String, byte[]> e : values.entrySet()) {
                    int size = sizes.get(e.getKey());
                    byte[] value = Arrays.copyOfRange(e.getValue(), v * size, v * size + size);
                    if (e.getKey().equals("NORMAL")) {
                        normals[k] = value;
                    } else {
                        s.append(hex.formatHex(value)).append(' ');
                    }
                }
                corners[k] = s.toString();
            }
            int first = 0;
            for (int k = 1; k < 3; k++) {
                if (corners[k].compareTo(corners[first]) < 0) {
                    first = k;
                }
            }
            StringBuilder key = new StringBuilder();
            java.io.ByteArrayOutputStream n = new java.io.ByteArrayOutputStream();
            for (int k = 0; k < 3; k++) {
                int c = (first + k) % 3;
                key.append(corners[c]).append("| ");
                if (normals[c] != null) {
                    n.writeBytes(normals[c]);
                }
            }
            out.add(new Triangle(key.toString(), n.toByteArray()));
        }
        out.sort((a, b) -> a.key().compareTo(b.key()));
        return out;
    }

    private static int[] ints(byte[] bytes) {
        int[] out = new int[bytes.length / 4];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out);
        return out;
    }
}
