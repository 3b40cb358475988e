package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.gltf.GltfBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Morph targets over real HTTP on {@link GltfBuilder#morphedTwoBoneStrip()}: the skinned strip of
 * {@link SamplingApiTest} with target 0 = (1,0,0) (normal deltas (1,0,0)) and target 1 = (0,0,1) on every vertex,
 * mesh weights [0, 0.5], and clip Morph (1 s) driving the weights LINEAR from (0,0) to (1,0). Skinned meshes,
 * bounds and bakes are all morphed before skinning.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class MorphApiTest {

    private static final double EPS = 1e-6;
    private static final double COS = Math.cos(Math.toRadians(67.5));
    private static final double SIN = Math.sin(Math.toRadians(67.5));

    @LocalServerPort
    int port;

    private PosekitClient client;
    private String base;

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        base = client.uploadedAssetPath("morph.glb", GltfBuilder.morphedTwoBoneStrip().toGlb());
    }

    @Test
    void theSummaryReportsTargetsAndDefaultWeights() {
        JsonNode summary = client.get(base).json();
        JsonNode mesh = summary.get("meshes").get(0);
        assertThat(mesh.get("morphTargets").asInt()).isEqualTo(2);
        assertThat(mesh.get("morphWeights").toString()).isEqualTo("[0.0,0.5]");
        assertThat(summary.get("warnings")).isEmpty();
        assertThat(summary.get("clips").get(1).get("name").asString()).isEqualTo("Morph");
    }

    @Test
    void skinnedVerticesAreMorphedFirst() {
        // rest pose = bind pose, default weights (0, 0.5): z + 0.5
        JsonNode rest = client.get(base + "/meshes/0/skinned").json().get("primitives").get(0);
        assertVertex(rest.get("positions"), 0, -0.5, 0, 0.5);
        assertVertex(rest.get("positions"), 5, 0.5, 2, 0.5);
        assertVertex(rest.get("normals"), 2, 0, 0, 1);
        // Morph halfway: weights (0.5, 0) → x + 0.5; normals (0.5,0,1) normalised
        JsonNode half = client.get(base + "/meshes/0/skinned?clip=Morph&time=0.5").json().get("primitives").get(0);
        assertVertex(half.get("positions"), 0, 0, 0, 0);
        assertVertex(half.get("positions"), 5, 1, 2, 0);
        double n = 1 / Math.sqrt(1.25);
        assertVertex(half.get("normals"), 4, 0.5 * n, 0, n);
        // Bend at 1.5 s with the default weights: morph (z + 0.5), then skin
        JsonNode bent = client.get(base + "/meshes/0/skinned?clip=Bend&time=1.5").json().get("primitives").get(0);
        assertVertex(bent.get("positions"), 0, -0.5, 0.5, 0.5);
        assertVertex(bent.get("positions"), 4, -0.5 * COS - SIN, -0.5 * SIN + COS + 1.5, 0.5);
        // binary answers the same floats
        float[] bin = client.get(base + "/meshes/0/skinned?clip=Morph&time=0.5&attributes=position",
                "application/octet-stream").floats();
        assertThat(bin).hasSize(18);
        assertThat(bin[15]).isEqualTo(1f);
    }

    @Test
    void boundsAreMorphed() {
        // Morph at 1 s: weights (1, 0) → x ∈ [0.5, 1.5]
        JsonNode asset = client.get(base + "/bounds?clip=Morph&time=1").json().get("asset");
        assertVertex(asset.get("min"), 0, 0.5, 0, 0);
        assertVertex(asset.get("max"), 0, 1.5, 2, 0);
        JsonNode rest = client.get(base + "/bounds").json().get("asset");
        assertVertex(rest.get("min"), 0, -0.5, 0, 0.5);
    }

    @Test
    void bakedFramesAreMorphed() throws Exception {
        HttpResponse<byte[]> r = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + base + "/bake"))
                        .header("Content-Type", "application/json").header("Accept", "application/x-ndjson")
                        .POST(HttpRequest.BodyPublishers.ofString("""
                                {"clip": "Morph", "times": [0, 0.5, 1], "outputs": ["skinnedPositions", "skinnedNormals"]}
                                """)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.statusCode()).isEqualTo(200);
        List<String> lines = new String(r.body(), StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(3);
        double[] times = {0, 0.5, 1};
        JsonMapper json = JsonMapper.builder().build();
        for (int f = 0; f < 3; f++) {
            JsonNode frame = json.readTree(lines.get(f));
            JsonNode skinned = client.get(base + "/meshes/0/skinned?clip=Morph&time=" + times[f]).json()
                    .get("primitives").get(0);
            assertThat(frame.get("skinnedPositions").get(0).get("values")).isEqualTo(skinned.get("positions"));
            assertThat(frame.get("skinnedNormals").get(0).get("values")).isEqualTo(skinned.get("normals"));
            // vertex 1 (0.5, 0, 0) moves by t·(1,0,0)
            assertVertex(frame.get("skinnedPositions").get(0).get("values"), 1, 0.5 + times[f], 0, 0);
        }
    }

    @Test
    void aWeightsChannelWithTheWrongCountIsRejected() {
        GltfBuilder b = GltfBuilder.morphedTwoBoneStrip();
        b.animation("Bad").track(0, "weights", "LINEAR", new float[] {0, 1}, new float[] {0, 0, 0, 1, 1, 1});
        assertProblem(client.upload("bad.glb", b.toGlb()), 422, "clip 'Bad': the weights track of node 0 ('Strip') "
                + "has 3 weights per key but mesh 0 on that node has 2 morph targets");
        GltfBuilder c = GltfBuilder.morphedTwoBoneStrip();
        c.set("meshes", 0, "weights", new float[] {1});
        assertProblem(client.upload("bad.glb", c.toGlb()), 422, "mesh 0: weights must have 2 numbers, not 1");
    }

    private static void assertVertex(JsonNode flat, int v, double x, double y, double z) {
        assertThat(flat.get(3 * v).asDouble()).as("x of vertex %d", v).isCloseTo(x, within(EPS));
        assertThat(flat.get(3 * v + 1).asDouble()).as("y of vertex %d", v).isCloseTo(y, within(EPS));
        assertThat(flat.get(3 * v + 2).asDouble()).as("z of vertex %d", v).isCloseTo(z, within(EPS));
    }
}
