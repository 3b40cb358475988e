package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.gltf.GltfBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Blending over real HTTP on the two-bone strip with a second clip: Bend (2 s; Root steps to (0,0.5,0) at 1 s, Tip
 * turns about Z at 45°/s) and Lift (4 s; Root rises linearly from (0,0,0) to (0,4,0), Tip untouched = rest).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class BlendApiTest {

    private static final double EPS = 1e-6;

    @LocalServerPort
    int port;

    private PosekitClient client;
    private String base;

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        GltfBuilder asset = GltfBuilder.skinnedTwoBoneStrip();
        asset.animation("Lift").track(1, "translation", "LINEAR", new float[] {0, 4}, new float[] {0, 0, 0, 0, 4, 0});
        base = client.uploadedAssetPath("strip.glb", asset.toGlb());
    }

    private JsonNode node(JsonNode pose, String name) {
        for (JsonNode n : pose.get("nodes")) {
            if (name.equals(n.get("name").asString())) {
                return n;
            }
        }
        throw new AssertionError("no node " + name);
    }

    /** The angle about +Z of a rotation quaternion, degrees. */
    private static double zDegrees(JsonNode q) {
        assertThat(q.get(0).asDouble()).isCloseTo(0, within(EPS));
        assertThat(q.get(1).asDouble()).isCloseTo(0, within(EPS));
        return Math.toDegrees(2 * Math.atan2(q.get(2).asDouble(), q.get(3).asDouble()));
    }

    @Test
    void normalLayersMixByWeight() {
        JsonNode pose = client.get(base + "/pose?layer=clip:Bend;weight:0.5&layer=clip:Lift;weight:0.5&time=1").json();
        assertThat(pose.get("clip").isNull()).isTrue();
        assertVector(node(pose, "Root").get("translation"), 0, 0.75, 0); // (0.5 + 1) / 2
        assertThat(zDegrees(node(pose, "Tip").get("rotation"))).isCloseTo(22.5, within(1e-4)); // 45° with the rest
        JsonNode layers = pose.get("layers");
        assertThat(layers).hasSize(2);
        assertThat(layers.get(1).get("clip").asString()).isEqualTo("Lift");
        assertThat(layers.get(1).get("weight").asDouble()).isEqualTo(0.5);
        assertThat(layers.get(1).get("mode").asString()).isEqualTo("normal");
        assertThat(layers.get(1).get("localTime").asDouble()).isEqualTo(1);

        // weights are relative: 3 and 1 are 0.75 and 0.25
        JsonNode skewed = client.get(base + "/pose?layer=clip:Bend;weight:3&layer=clip:Lift;weight:1&time=1").json();
        assertVector(node(skewed, "Root").get("translation"), 0, 0.75 * 0.5 + 0.25 * 1, 0);
    }

    @Test
    void normalizedTimeKeepsClipsOfDifferentLengthsInStep() {
        JsonNode pose = client.get(base + "/pose?layer=clip:Bend&layer=clip:Lift&normalized=0.5").json();
        assertThat(pose.get("layers").get(0).get("localTime").asDouble()).isEqualTo(1); // half of 2 s
        assertThat(pose.get("layers").get(1).get("localTime").asDouble()).isEqualTo(2); // half of 4 s
        assertVector(node(pose, "Root").get("translation"), 0, (0.5 + 2) / 2, 0);
        // a layer's own time and speed override the request's
        JsonNode own = client.get(base + "/pose?layer=clip:Bend;time:0.5;speed:2&layer=clip:Lift;normalized:0.25&time=9").json();
        assertThat(own.get("layers").get(0).get("localTime").asDouble()).isEqualTo(1);
        assertThat(own.get("layers").get(1).get("localTime").asDouble()).isEqualTo(1);
    }

    @Test
    void masksLimitALayerToSubtrees() {
        JsonNode pose = client.get(base + "/pose?layer=clip:Bend&layer=clip:Lift;mask:Tip&time=1").json();
        assertVector(node(pose, "Root").get("translation"), 0, 0.5, 0); // Lift does not reach Root
        assertThat(zDegrees(node(pose, "Tip").get("rotation"))).isCloseTo(22.5, within(1e-4));
    }

    @Test
    void additiveLayersAddTheirChangeFromTheFirstFrame() {
        JsonNode pose = client.get(base + "/pose?layer=clip:Bend&layer=clip:Lift;mode:additive&time=2").json();
        assertVector(node(pose, "Root").get("translation"), 0, 0.5 + 2, 0);
        assertThat(zDegrees(node(pose, "Tip").get("rotation"))).isCloseTo(90, within(1e-4));
        // half an additive layer adds half the change; reference rest = the same here (the rest pose is the first frame)
        JsonNode half = client.get(base + "/pose?layer=clip:Bend&layer=clip:Lift;mode:additive;weight:0.5;reference:rest&time=2")
                .json();
        assertVector(node(half, "Root").get("translation"), 0, 0.5 + 1, 0);
    }

    @Test
    void belowTheThresholdTheRestPoseFillsIn() {
        // one layer at 0.05 under the default threshold 0.1: half Bend, half rest
        JsonNode pose = client.get(base + "/pose?layer=clip:Bend;weight:0.05&time=1").json();
        assertVector(node(pose, "Root").get("translation"), 0, 0.25, 0);
        JsonNode lower = client.get(base + "/pose?layer=clip:Bend;weight:0.05&time=1&threshold=0.05").json();
        assertVector(node(lower, "Root").get("translation"), 0, 0.5, 0);
    }

    @Test
    void thePostBodyFormIsTheSameBlend() throws Exception {
        String body = """
                {"normalized": 0.5, "loop": "repeat",
                 "layers": [{"clip": "Bend", "weight": 0.5}, {"clip": "Lift", "weight": 0.5, "mask": ["Root"]}]}
                """;
        String query = "?layer=clip:Bend;weight:0.5&layer=clip:Lift;weight:0.5;mask:Root&normalized=0.5&loop=repeat";
        for (String path : new String[] {"/pose", "/skins/0/matrices", "/meshes/0/skinned", "/pose?space=model"}) {
            String sep = path.contains("?") ? "&" : "?";
            HttpResponse<String> posted = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + port + base + path)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(posted.statusCode()).as(posted.body()).isEqualTo(200);
            String viaQuery = client.get(base + path + (path.contains("?") ? "&" + query.substring(1) : query)).text();
            assertThat(JsonMapper.builder().build().readTree(posted.body()))
                    .isEqualTo(JsonMapper.builder().build().readTree(viaQuery));
            assertThat(sep).isNotNull();
        }
        // the skeleton and the bounds follow the blend too
        JsonNode skeleton = client.get(base + "/skeleton" + query).json();
        assertThat(skeleton.get("layers")).hasSize(2);
        assertThat(client.get(base + "/bounds" + query).json().get("layers")).hasSize(2);
    }

    @Test
    void rejectsMalformedBlends() {
        assertProblem(client.get(base + "/pose?clip=Bend&layer=clip:Lift"), 400, "give clip or layers, not both");
        assertProblem(client.get(base + "/pose?layer=weight:1"), 400, "layer 0: clip is required");
        assertProblem(client.get(base + "/pose?layer=clip:Bend&layer=clip:Jump"), 404,
                "layer 1: clip 'Jump' does not exist; clips: 'Bend', 'Lift'");
        assertProblem(client.get(base + "/pose?layer=clip:Bend;colour:red"), 400, "layer 0: unknown key 'colour'; keys:"
                + " clip, weight, mode, time, normalized, frame, fps, speed, loop, mask, reference");
        assertProblem(client.get(base + "/pose?layer=clip:Bend;weight:-1"), 400, "layer 0: weight must not be negative, not -1.0");
        assertProblem(client.get(base + "/pose?layer=clip:Bend;weight:heavy"), 400,
                "layer 0: weight 'heavy' is not a finite decimal number");
        assertProblem(client.get(base + "/pose?layer=clip:Bend;mask:Tail"), 400, "layer 0: mask: unknown joint name 'Tail'");
        assertProblem(client.get(base + "/pose?layer=clip:Bend;mode:multiply"), 400,
                "layer 0: mode 'multiply' is not one of normal, additive");
        assertProblem(client.get(base + "/pose?layer=clip:Bend;time:1;normalized:0.5"), 400,
                "layer 0: give at most one of time, frame (with fps) and normalized");
        assertProblem(client.get(base + "/pose?layer=clip:Bend;reference:rest"), 400,
                "layer 0: reference is only meaningful for additive layers");
        assertProblem(client.get(base + "/pose?layer=clip:Bend&threshold=0"), 400,
                "threshold must be a positive finite number, not 0.0");
        assertProblem(client.get(base + "/pose?clip=Bend&threshold=0.2"), 400, "threshold is only meaningful with layers");
        assertProblem(client.get(base + "/pose?" + "layer=clip:Bend&".repeat(17)), 400, "a blend has 1 to 16 layers, not 17");
        assertProblem(client.get(base + "/bounds?layer=clip:Bend&over=clip"), 400, "over=clip bounds one clip, not a blend");
    }

    private static void assertVector(JsonNode actual, double... expected) {
        assertThat(actual).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            assertThat(actual.get(i).asDouble()).as("component " + i).isCloseTo(expected[i], within(EPS));
        }
    }
}
