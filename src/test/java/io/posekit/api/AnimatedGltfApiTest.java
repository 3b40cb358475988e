package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.export.GlbFile;
import io.posekit.export.PosedFixtures;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The animated glTF export over real HTTP, on {@link PosedFixtures#multiMesh()} (the skinned, textured strip with its
 * clip Bend, and two rigid instances): the GLB and the glTF JSON carry the same document, and uploading the GLB again
 * gives the same skinning matrices and skinned vertices as the original at every time asked; bad parameters and an
 * asset with nothing to export are problem+json answers naming what is wrong.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class AnimatedGltfApiTest {

    private static final String GLB = "model/gltf-binary";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    private PosekitClient client;
    private String base;

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        base = client.uploadedAssetPath("multi.glb", PosedFixtures.multiMesh().toGlb());
    }

    @Test
    void theGlbIsTheWholeAnimatedAssetAndUploadsBackToTheSamePoses() {
        PosekitClient.Response r = client.get(base + "/animated.glb", GLB);
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.contentType()).isEqualTo(GLB);
        assertThat(r.headers().firstValue("Content-Disposition")).contains("attachment; filename=\"animated.glb\"");
        // Bend's tracks are glTF's own: written as they are, nothing resampled
        assertThat(r.headers().firstValue("Posekit-Resampled-Keys")).contains("before=0, after=0");
        JsonNode json = GlbFile.parse(r.body()).json();
        assertThat(json.get("skins").size()).isEqualTo(1);
        assertThat(json.get("meshes").size()).isEqualTo(3);
        assertThat(json.get("animations").size()).isEqualTo(1);
        assertThat(json.get("animations").get(0).get("name").asString()).isEqualTo("Bend");
        assertThat(json.get("animations").get(0).get("samplers").get(0).get("interpolation").asString()).isIn("LINEAR", "STEP");
        assertThat(json.get("images").size()).isEqualTo(1);

        PosekitClient.Response again = client.upload("animated.glb", r.body());
        assertThat(again.status()).as(again.toString()).isIn(200, 201);
        String copy = "/api/v1/assets/" + again.json().get("id").asString();
        for (String t : new String[] {"0", "0.5", "1", "1.5", "2", "3"}) {
            String query = "?clip=Bend&time=" + t;
            assertThat(client.get(copy + "/skins/0/matrices" + query).json().get("matrices"))
                    .isEqualTo(client.get(base + "/skins/0/matrices" + query).json().get("matrices"));
            for (int mesh = 0; mesh < 3; mesh++) {
                assertThat(positions(client.get(copy + "/meshes/" + mesh + "/skinned" + query).json()))
                        .as("mesh %d at %s", mesh, t)
                        .isEqualTo(positions(client.get(base + "/meshes/" + mesh + "/skinned" + query).json()));
            }
        }
    }

    private static String positions(JsonNode skinned) {
        StringBuilder b = new StringBuilder();
        for (JsonNode p : skinned.get("primitives")) {
            b.append(p.get("positions")).append(';');
        }
        return b.toString();
    }

    @Test
    void theGltfJsonIsTheSameDocumentWithTheBufferEmbedded() {
        PosekitClient.Response r = client.get(base + "/animated.gltf?clips=Bend", "model/gltf+json");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.contentType()).isEqualTo("model/gltf+json");
        JsonNode json = JSON.readTree(new String(r.body(), StandardCharsets.UTF_8));
        String uri = json.get("buffers").get(0).get("uri").asString();
        String prefix = "data:application/octet-stream;base64,";
        assertThat(uri).startsWith(prefix);
        byte[] buffer = Base64.getDecoder().decode(uri.substring(prefix.length()));
        assertThat((long) buffer.length).isEqualTo(json.get("buffers").get(0).get("byteLength").asLong());

        JsonNode glb = GlbFile.parse(client.get(base + "/animated.glb?clips=Bend", GLB).body()).json();
        ((tools.jackson.databind.node.ObjectNode) json.get("buffers").get(0)).remove("uri");
        assertThat(json).isEqualTo(glb);
    }

    @Test
    void aResamplingRateResamplesAndReportsTheKeys() {
        PosekitClient.Response r = client.get(base + "/animated.glb?fps=10&tolerance=0", GLB);
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        // Tip's rotation and Root's translation on a 10 Hz grid over 2 s: 21 keys each; with tolerance 0 the LINEAR
        // rotation keeps its keys at 0, 1, 2 s plus whatever float rounding keeps, the STEP translation its jumps
        String keys = r.headers().firstValue("Posekit-Resampled-Keys").orElseThrow();
        assertThat(keys).startsWith("before=42, after=");
        assertThat(r.headers().firstValue("Posekit-Max-Error")).isPresent();
    }

    @Test
    void badParametersAreProblems() {
        assertProblem(client.get(base + "/animated.glb?clips=Bend,Jump", GLB), 404, "the asset has no clip named 'Jump'");
        assertProblem(client.get(base + "/animated.glb?fps=0", GLB), 400, "fps 0 is out of range: it must be > 0 and ≤ 1000");
        assertProblem(client.get(base + "/animated.glb?fps=-30", GLB), 400, "fps -30 is out of range: it must be > 0 and ≤ 1000");
        assertProblem(client.get(base + "/animated.glb?fps=1e9", GLB), 400, "fps 1e9 is out of range: it must be > 0 and ≤ 1000");
        assertProblem(client.get(base + "/animated.glb?fps=fast", GLB), 400, "fps 'fast' is not a number");
        assertProblem(client.get(base + "/animated.gltf?tolerance=NaN", "model/gltf+json"), 400,
                "tolerance NaN is out of range: it must be ≥ 0 and ≤ 1");
        assertProblem(client.get(base + "/animated.glb?tolerance=-1", GLB), 400,
                "tolerance -1 is out of range: it must be ≥ 0 and ≤ 1");
        assertProblem(client.get("/api/v1/assets/" + "0".repeat(64) + "/animated.glb", GLB), 404, null);
    }

    @Test
    void anAssetOfNodesAloneIsExportedAsItsNodes() {
        GltfBuilder b = new GltfBuilder();
        int node = b.node("Empty").index();
        b.addScene("scene", node);
        PosekitClient.Response up = client.upload("empty.glb", b.toGlb());
        assertThat(up.status()).as(up.toString()).isIn(200, 201);
        String id = up.json().get("id").asString();
        PosekitClient.Response glb = client.get("/api/v1/assets/" + id + "/animated.glb", GLB);
        assertThat(glb.status()).as(glb.toString()).isEqualTo(200);
        assertThat(io.posekit.export.GlbFile.parse(glb.body()).json().get("nodes").get(0).get("name").asString())
                .isEqualTo("Empty");
    }
}
