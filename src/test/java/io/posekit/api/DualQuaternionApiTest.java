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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Dual-quaternion skinning over real HTTP on the two-bone strip (see {@link SamplingApiTest}) plus a clip Squash that
 * scales Tip to (1, 2, 1) at 1 s. At 2 s of Bend, Tip has turned 90° about Z around its bind position (0,1,0) and
 * Root has moved up 0.5: the 50/50 vertices (±0.5, 1) keep their distance 0.5 from the pivot under dual quaternions
 * (a 45° turn), where linear blending pulls them in to 0.354.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class DualQuaternionApiTest {

    private static final double EPS = 1e-5;
    private static final double H = Math.sqrt(0.5);

    @LocalServerPort
    int port;

    private PosekitClient client;
    private String base;

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        GltfBuilder asset = GltfBuilder.skinnedTwoBoneStrip();
        asset.animation("Squash").track(2, "scale", "LINEAR", new float[] {0, 1}, new float[] {1, 1, 1, 1, 2, 1});
        base = "/api/v1/assets/" + client.upload("strip.glb", asset.toGlb()).json().get("id").asString();
    }

    private double[] vertex(JsonNode positions, int v) {
        return new double[] {positions.get(3 * v).asDouble(), positions.get(3 * v + 1).asDouble(), positions.get(3 * v + 2).asDouble()};
    }

    @Test
    void dualQuaternionsKeepTheBlendedVerticesOnTheirCircle() {
        JsonNode dq = client.get(base + "/meshes/0/skinned?clip=Bend&time=2&skinning=dq").json()
                .get("primitives").get(0).get("positions");
        JsonNode lbs = client.get(base + "/meshes/0/skinned?clip=Bend&time=2").json().get("primitives").get(0).get("positions");
        assertThat(vertex(dq, 3)).containsExactly(new double[] {0.5 * H, 1.5 + 0.5 * H, 0}, within(EPS));
        assertThat(vertex(dq, 2)).containsExactly(new double[] {-0.5 * H, 1.5 - 0.5 * H, 0}, within(EPS));
        assertThat(vertex(lbs, 3)).containsExactly(new double[] {0.25, 1.75, 0}, within(EPS));
        // one influence: the same either way
        for (int v : new int[] {0, 1, 4, 5}) {
            assertThat(vertex(dq, v)).containsExactly(vertex(lbs, v), within(EPS));
        }
        JsonNode normals = client.get(base + "/meshes/0/skinned?clip=Bend&time=2&skinning=dq").json()
                .get("primitives").get(0).get("normals");
        assertThat(vertex(normals, 3)).containsExactly(new double[] {0, 0, 1}, within(EPS));
    }

    @Test
    void skinningMatricesAsDualQuaternions() {
        JsonNode r = client.get(base + "/skins/0/matrices?clip=Bend&time=2&form=dualQuaternion").json();
        JsonNode root = r.get("dualQuaternions").get(0);
        JsonNode tip = r.get("dualQuaternions").get(1);
        assertThat(floats(root)).containsExactly(new double[] {0, 0, 0, 1, 0, 0.25, 0, 0}, within(EPS));
        // Tip: rotation 90° about Z, translation (1, 1.5, 0); dual = ½ (t, 0) · q
        assertThat(floats(tip)).containsExactly(new double[] {0, 0, H, H, 1.25 * H, 0.25 * H, 0, 0}, within(EPS));
        assertThat(floats(r.get("scales"))).containsExactly(new double[] {1, 1}, within(EPS));
        float[] binary = client.get(base + "/skins/0/matrices?clip=Bend&time=2&form=dualQuaternion", "application/octet-stream").floats();
        assertThat(binary).hasSize(18);
        assertThat(binary[17]).isCloseTo(1f, within(1e-6f));
        assertThat(binary[13]).isCloseTo((float) (1.25 * H), within(1e-6f)); // joint 1: real 9–12, dual 13–16, scale 17
    }

    @Test
    void nonUniformScaleIsA422NamingTheJoint() {
        assertProblem(client.get(base + "/meshes/0/skinned?clip=Squash&time=1&skinning=dq"), 422,
                "skin 0 joint 1 ('Tip') has non-uniform scale (1, 2, 1); dual-quaternion skinning cannot represent it;"
                        + " use skinning=linear");
        assertProblem(client.get(base + "/skins/0/matrices?clip=Squash&time=1&form=dualQuaternion"), 422,
                "skin 0 joint 1 ('Tip') has non-uniform scale (1, 2, 1); dual-quaternion skinning cannot represent it;"
                        + " use skinning=linear");
        assertThat(client.get(base + "/meshes/0/skinned?clip=Squash&time=1").status()).isEqualTo(200);
        assertProblem(client.get(base + "/meshes/0/skinned?skinning=spherical"), 400,
                "skinning 'spherical' is not one of linear, dq, authored");
        assertProblem(client.get(base + "/skins/0/matrices?form=euler"), 400, "form 'euler' is not one of matrix, dualQuaternion");
    }

    @Test
    void bakesBlendDualQuaternionsAndRefuseUnrepresentableFramesBeforeStreaming() throws Exception {
        HttpResponse<String> r = post("""
                {"layers": [{"clip": "Bend"}], "times": [0, 1], "timeUnit": "normalized", "skinning": "dq",
                 "outputs": ["skinningDualQuaternions", "skinnedPositions"]}
                """);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode last = JsonMapper.builder().build().readTree(r.body().lines().toList().getLast());
        assertThat(last.get("layerTimes").get(0).asDouble()).isEqualTo(2); // phase 1 of a 2 s clip
        JsonNode dq = last.get("skinningDualQuaternions").get(0).get("values");
        assertThat(dq).hasSize(18);
        assertThat(dq.get(17).asDouble()).isCloseTo(1, within(EPS));
        double[] v3 = vertex(last.get("skinnedPositions").get(0).get("values"), 3);
        assertThat(v3).containsExactly(new double[] {0.5 * H, 1.5 + 0.5 * H, 0}, within(EPS));

        HttpResponse<String> refused = post("""
                {"clip": "Squash", "times": [0, 0.5, 1], "skinning": "dq", "outputs": ["skinnedPositions"]}
                """);
        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(JsonMapper.builder().build().readTree(refused.body()).get("detail").asString()).startsWith(
                "frame 1 (t = 0.5): skin 0 joint 1 ('Tip') has non-uniform scale");
    }

    private HttpResponse<String> post(String body) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + base + "/bake"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static double[] floats(JsonNode array) {
        double[] out = new double[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asDouble();
        }
        return out;
    }
}
