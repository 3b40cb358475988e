package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.export.PosedFixtures;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;

/**
 * The {@code compress} parameter of {@code posed.glb}, {@code animated.glb} and {@code animated.gltf} over real HTTP,
 * on {@link PosedFixtures#multiMesh()} with a grid: each value declares its extensions, the compressed files upload back to
 * posekit with the same meshes and vertex counts, and any other value is a 400 problem naming the parameter. (How
 * closely the compressed files pose: {@code io.posekit.export.CompressedExportTest}.)
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class CompressedGlbApiTest {

    private static final String GLB = "model/gltf-binary";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    private PosekitClient client;
    private String base;

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        base = client.uploadedAssetPath("multi.glb", withGrid().toGlb());
    }

    /** {@link PosedFixtures#multiMesh()} and a rigid 40 × 40 vertex grid "Grid" (large enough for meshopt to shrink). */
    static GltfBuilder withGrid() {
        GltfBuilder b = PosedFixtures.multiMesh();
        int w = 40;
        float[] positions = new float[3 * w * w];
        for (int i = 0; i < w * w; i++) {
            positions[3 * i] = (i % w) * 0.05f;
            positions[3 * i + 1] = (float) Math.sin(i * 0.1) * 0.1f;
            positions[3 * i + 2] = (i / w) * 0.05f;
        }
        int[] indices = new int[6 * (w - 1) * (w - 1)];
        int k = 0;
        for (int r = 0; r < w - 1; r++) {
            for (int c = 0; c < w - 1; c++) {
                int a = r * w + c;
                int[] quad = {a, a + w, a + 1, a + 1, a + w, a + w + 1};
                System.arraycopy(quad, 0, indices, k, 6);
                k += 6;
            }
        }
        int pos = b.addFloatAccessor(positions, "VEC3");
        int idx = b.addIntAccessor(indices, GltfBuilder.UNSIGNED_SHORT, "SCALAR");
        int mesh = b.mesh("Grid").primitive(GltfBuilder.attributes("POSITION", pos), idx).index();
        int node = b.node("Grid").mesh(mesh).index();
        ((ArrayNode) b.json().get("scenes").get(0).get("nodes")).add(node);
        return b;
    }

    private static JsonNode jsonChunk(byte[] glb) {
        int length = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN).getInt(12);
        return JSON.readTree(new String(glb, 20, length, StandardCharsets.UTF_8).strip());
    }

    private static List<String> required(JsonNode json) {
        List<String> out = new ArrayList<>();
        json.path("extensionsRequired").forEach(n -> out.add(n.asString()));
        return out;
    }

    private List<Integer> vertexCounts(String assetPath) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; ; i++) {
            PosekitClient.Response r = client.get(assetPath + "/meshes/" + i);
            if (r.status() == 404) {
                return out;
            }
            assertThat(r.status()).as(r.toString()).isEqualTo(200);
            for (JsonNode p : r.json().get("primitives")) {
                out.add(p.get("vertexCount").asInt(-1));
            }
        }
    }

    @Test
    void eachValueDeclaresItsExtensionsAndUploadsBack() {
        String[][] cases = {{"none"}, {"quantize", "KHR_mesh_quantization"},
            {"meshopt", "KHR_mesh_quantization", "EXT_meshopt_compression"}};
        for (String route : new String[] {"/posed.glb?clip=Bend&time=1.5&compress=", "/animated.glb?compress="}) {
            List<Integer> counts = null;
            for (String[] c : cases) {
                PosekitClient.Response r = client.get(base + route + c[0], GLB);
                assertThat(r.status()).as(r.toString()).isEqualTo(200);
                JsonNode json = jsonChunk(r.body());
                assertThat(required(json)).as(route + c[0]).containsExactly(java.util.Arrays.copyOfRange(c, 1, c.length));
                if (!c[0].equals("none")) {
                    assertThat(json.get("asset").get("extras").get("compression").asString()).isEqualTo(c[0]);
                }
                List<Integer> back = vertexCounts(client.uploadedAssetPath("back.glb", r.body()));
                if (counts == null) {
                    counts = back;
                }
                assertThat(back).as(route + c[0]).isEqualTo(counts).isNotEmpty();
            }
        }
        PosekitClient.Response gltf = client.get(base + "/animated.gltf?compress=meshopt", "model/gltf+json");
        assertThat(gltf.status()).as(gltf.toString()).isEqualTo(200);
        JsonNode json = JSON.readTree(gltf.body());
        assertThat(required(json)).containsExactly("KHR_mesh_quantization", "EXT_meshopt_compression");
        assertThat(json.get("buffers").get(0).get("uri").asString()).startsWith("data:application/octet-stream;base64,");
        assertThat(json.get("buffers").get(1).has("uri")).isFalse();
    }

    @Test
    void dracoDeclaresItsExtensionAndUploadsBackWithTheSameTriangles() {
        for (String route : new String[] {"/posed.glb?clip=Bend&time=1.5&compress=", "/animated.glb?compress=",
            "/animated.gltf?compress="}) {
            boolean glb = route.contains(".glb");
            PosekitClient.Response plain = client.get(base + route + "none", glb ? GLB : "model/gltf+json");
            PosekitClient.Response r = client.get(base + route + "draco", glb ? GLB : "model/gltf+json");
            assertThat(r.status()).as(r.toString()).isEqualTo(200);
            JsonNode json = glb ? jsonChunk(r.body()) : JSON.readTree(r.body());
            assertThat(required(json)).as(route).containsExactly("KHR_draco_mesh_compression");
            assertThat(json.get("asset").get("extras").get("compression").asString()).isEqualTo("draco");
            assertThat(triangles(client.uploadedAssetPath(glb ? "back.glb" : "back.gltf", r.body())))
                    .as(route).isEqualTo(triangles(client.uploadedAssetPath(glb ? "plain.glb" : "plain.gltf",
                            plain.body())));
        }
    }

    /**
     * The mode, triangle count (of a triangle list: indexed or not; Draco's are always indexed) or index count, and
     * attribute names of every primitive of the uploaded asset (its summary).
     */
    private List<String> triangles(String assetPath) {
        PosekitClient.Response r = client.get(assetPath);
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        List<String> out = new ArrayList<>();
        for (JsonNode m : r.json().get("meshes")) {
            for (JsonNode p : m.get("primitives")) {
                int indices = p.get("indexCount").asInt(-1);
                String mode = p.get("mode").asString();
                int count = mode.equals("triangles") ? (indices > 0 ? indices : p.get("vertexCount").asInt()) / 3 : indices;
                out.add(mode + " " + count + " " + p.get("attributes"));
            }
        }
        return out;
    }

    @Test
    void anUnknownValueIsAProblemNamingTheParameter() {
        assertProblem(client.get(base + "/posed.glb?compress=gzip", GLB), 400,
                "compress 'gzip' is not one of none, quantize, meshopt, draco");
        assertProblem(client.get(base + "/animated.glb?compress=MESHOPT", GLB), 400,
                "compress 'MESHOPT' is not one of none, quantize, meshopt, draco");
        assertProblem(client.get(base + "/animated.gltf?compress=", "model/gltf+json"), 400,
                "compress '' is not one of none, quantize, meshopt, draco");
    }
}
