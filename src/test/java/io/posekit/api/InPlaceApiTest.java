package io.posekit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.gltf.GltfBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * In-place clips over real HTTP: a character (Armature at (0, 0, 0) → Hips at (0, 1, 0) → Spine) whose clip Walk moves
 * the hips from (0, 1, 0) to (0, 1, 2) over one second.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class InPlaceApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    private PosekitClient client;
    private String base;

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        GltfBuilder b = new GltfBuilder();
        int armature = b.node("Armature").children(1).index();
        int hips = b.node("Hips").translation(0, 1, 0).children(2).index();
        b.node("Spine").translation(0, 0.3f, 0).index();
        b.addScene("Scene", armature);
        b.defaultScene(0);
        b.animation("Walk").track(hips, "translation", "LINEAR", new float[] {0, 1}, new float[] {0, 1, 0, 0, 1, 2});
        base = client.uploadedAssetPath("character.glb", b.toGlb());
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static JsonNode node(JsonNode pose, String name) {
        for (JsonNode n : pose.get("nodes")) {
            if (name.equals(n.get("name").asString())) {
                return n;
            }
        }
        throw new AssertionError("no node " + name);
    }

    @Test
    void theInPlaceClipKeepsTheHipsInPlaceAndPutsTheMotionOnTheTopNode() throws Exception {
        HttpResponse<String> r = post(base + "/clips/Walk/in-place", "{\"fps\": 10}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        JsonNode made = JSON.readTree(r.body());
        assertThat(made.get("clip").asString()).isEqualTo("Walk (in place)");
        assertThat(made.get("source").asString()).isEqualTo("Walk");
        assertThat(made.get("rootJoint").asString()).isEqualTo("Hips");
        assertThat(made.get("topNode").asString()).isEqualTo("Armature");
        assertThat(made.get("components").toString()).isEqualTo("[\"horizontal\",\"yaw\"]");
        assertThat(made.get("keys").asInt()).isEqualTo(11);
        String location = r.headers().firstValue("Location").orElseThrow();
        assertThat(location).isEqualTo("/api/v1/assets/" + made.get("asset").get("id").asString());
        assertThat(made.get("asset").get("clips")).hasSize(2);

        String clip = PosekitClient.encode("Walk (in place)");
        for (double t : new double[] {0.25, 0.5, 1}) {
            JsonNode local = client.get(location + "/pose?clip=" + clip + "&time=" + t).json();
            assertVector(node(local, "Hips").get("translation"), 0, 1, 0);
            assertVector(node(local, "Armature").get("translation"), 0, 0, 2 * t);
            // the model pose is the original's
            JsonNode inPlace = client.get(location + "/pose?space=model&clip=" + clip + "&time=" + t).json();
            JsonNode original = client.get(base + "/pose?space=model&clip=Walk&time=" + t).json();
            for (String joint : new String[] {"Hips", "Spine"}) {
                for (int i = 0; i < 16; i++) {
                    assertThat(node(inPlace, joint).get("matrix").get(i).asDouble()).isCloseTo(
                            node(original, joint).get("matrix").get(i).asDouble(), within(1e-6));
                }
            }
        }
        // exported as games import it: the animation drives the top node and the hips
        JsonNode gltf = JSON.readTree(client.get(location + "/animated.gltf?clips=" + clip).body());
        JsonNode animation = gltf.get("animations").get(0);
        assertThat(animation.get("name").asString()).isEqualTo("Walk (in place)");
        java.util.Set<String> driven = new java.util.TreeSet<>();
        for (JsonNode channel : animation.get("channels")) {
            driven.add(gltf.get("nodes").get(channel.get("target").get("node").asInt()).get("name").asString() + "."
                    + channel.get("target").get("path").asString());
        }
        assertThat(driven).containsExactly("Armature.rotation", "Armature.translation", "Hips.rotation",
                "Hips.translation");
    }

    @Test
    void problemsAreNamed() throws Exception {
        HttpResponse<String> r = post(base + "/clips/Run/in-place", "{}");
        assertThat(r.statusCode()).isEqualTo(404);
        r = post(base + "/clips/Walk/in-place", "{\"rootJoint\": \"Armature\"}");
        assertThat(r.statusCode()).isEqualTo(422);
        assertThat(JSON.readTree(r.body()).get("detail").asString()).isEqualTo("the root joint 'Armature' is a scene"
                + " root: no node above it can carry the motion");
        r = post(base + "/clips/Walk/in-place", "{\"speed\": 2}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(r.body()).get("detail").asString()).isEqualTo("unknown field 'speed'; fields:"
                + " rootJoint, rootComponents, fps, name");
    }

    private static void assertVector(JsonNode v, double... expected) {
        for (int i = 0; i < expected.length; i++) {
            assertThat(v.get(i).asDouble()).as("component " + i + " of " + v).isCloseTo(expected[i], within(1e-5));
        }
    }
}
