package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.store.AssetRepository;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Retargeting over real HTTP: a BVH of a skeleton twice the size of the two-bone strip (joints Root and Tip) retargeted
 * onto the strip as a new asset that answers the sampling, skinning and export endpoints, survives cache eviction, and
 * can itself be a source; bad requests answer problem+json naming the joints.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class RetargetApiTest {

    @LocalServerPort
    int port;

    @Autowired
    AssetRepository repository;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private PosekitClient client;
    private String stripId;
    private String bvhId;

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        stripId = client.upload("strip.glb", GltfBuilder.skinnedTwoBoneStrip().toGlb()).json().get("id").asString();
        bvhId = client.upload("jump.bvh", bvh("Root", "Tip")).json().get("id").asString();
    }

    /** Root (6 channels) ← Tip (3), bones 2 long: at 0.5 s Root is at (0,2,0) and Tip turned 90° about Z. */
    private static byte[] bvh(String root, String tip) {
        return ("""
                HIERARCHY
                ROOT %s
                {
                  OFFSET 0 0 0
                  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
                  JOINT %s
                  {
                    OFFSET 0 2 0
                    CHANNELS 3 Zrotation Xrotation Yrotation
                    End Site
                    {
                      OFFSET 0 2 0
                    }
                  }
                }
                MOTION
                Frames: 2
                Frame Time: 0.5
                0 0 0 0 0 0 0 0 0
                0 2 0 0 0 0 90 0 0
                """).formatted(root, tip).getBytes(StandardCharsets.US_ASCII);
    }

    private PosekitClient.Response post(String path, String json) {
        try {
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofByteArray());
            return new PosekitClient.Response(r.statusCode(), r.headers(), r.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aBvhOfAnotherSizeIsRetargetedOntoTheStripAsANewAsset() {
        PosekitClient.Response made = post("/api/v1/assets/" + stripId + "/retarget",
                "{\"source\":\"" + bvhId + "\"}");

        assertThat(made.status()).as(made.toString()).isEqualTo(201);
        JsonNode body = made.json();
        String newId = body.get("asset").get("id").asString();
        assertThat(newId).isNotIn(stripId, bvhId);
        assertThat(made.headers().firstValue("Location")).contains("/api/v1/assets/" + newId);
        JsonNode report = body.get("report");
        assertThat(report.get("mapped").toString()).isEqualTo(
                "[{\"target\":\"Root\",\"source\":\"Root\",\"rule\":\"exact\"},"
                        + "{\"target\":\"Tip\",\"source\":\"Tip\",\"rule\":\"exact\"}]");
        assertThat(report.get("unmappedTargetCount").asInt()).isZero();
        assertThat(report.get("rootJoint").asString()).isEqualTo("Root");
        // the strip's root is its lowest joint: the scale falls back to the ratio of bone lengths, 1 / 2
        assertThat(report.get("rootScale").asDouble()).isCloseTo(0.5, within(1e-9));
        String clip = report.get("clips").get(0).get("name").asString();
        assertThat(report.get("clips").get(0).get("keys").asInt()).isEqualTo(2);

        String base = "/api/v1/assets/" + newId;
        assertThat(client.get(base).json().get("clips").findValuesAsString("name")).containsExactly("Bend", clip);
        String q = "clip=" + PosekitClient.encode(clip) + "&time=0.5";
        JsonNode pose = client.get(base + "/pose?" + q).json();
        JsonNode tip = pose.get("nodes").get(2);
        assertThat(tip.get("name").asString()).isEqualTo("Tip");
        double angle = Math.toDegrees(2 * Math.atan2(tip.get("rotation").get(2).asDouble(),
                tip.get("rotation").get(3).asDouble()));
        assertThat(angle).isCloseTo(90, within(1e-4));
        assertThat(tip.get("translation").get(1).asDouble()).as("the strip's own bone length").isCloseTo(1, within(1e-6));
        assertThat(pose.get("nodes").get(1).get("translation").get(1).asDouble()).as("2 × 0.5")
                .isCloseTo(1, within(1e-6));
        assertThat(client.get(base + "/skins/0/matrices?" + q).status()).isEqualTo(200);
        assertThat(client.get(base + "/meshes/0/skinned?" + q).status()).isEqualTo(200);
        assertThat(client.get(base + "/posed.glb?" + q).contentType()).startsWith("model/gltf-binary");
        PosekitClient.Response bake = post(base + "/bake", "{\"clip\":\"" + clip
                + "\",\"times\":[0,0.5],\"outputs\":[\"modelPose\",\"skinnedPositions\"]}");
        assertThat(bake.status()).as(bake.toString()).isEqualTo(200);
        assertThat(bake.text().lines().count()).as("a header and two frames, or two frames").isGreaterThanOrEqualTo(2);
        PosekitClient.Response glb = client.get(base + "/animated.glb");
        assertThat(glb.status()).as(glb.toString()).isEqualTo(200);
        assertThat(glb.contentType()).startsWith("model/gltf-binary");
        // the original is untouched
        assertThat(client.get("/api/v1/assets/" + stripId).json().get("clips").findValuesAsString("name"))
                .containsExactly("Bend");

        // evicted, the asset re-parses by running the stored retargeting again
        repository.cache().invalidateAll();
        assertThat(client.get(base + "/pose?" + q).text()).isEqualTo(pose.toString());
        // the same request is the same asset
        assertThat(post("/api/v1/assets/" + stripId + "/retarget", "{\"source\":\"" + bvhId + "\"}").status())
                .isEqualTo(200);
        // a retargeted asset can be a source in turn, and the stacked asset re-parses too
        PosekitClient.Response twice = post("/api/v1/assets/" + bvhId + "/retarget", "{\"source\":\"" + newId
                + "\",\"clips\":[\"" + clip + "\"],\"options\":{\"rootMotion\":2,\"keepTranslations\":false}}");
        assertThat(twice.status()).as(twice.toString()).isEqualTo(201);
        assertThat(twice.json().get("report").get("rootScale").asDouble()).isEqualTo(2);
        String twiceBase = "/api/v1/assets/" + twice.json().get("asset").get("id").asString();
        String twiceClip = twice.json().get("report").get("clips").get(0).get("name").asString();
        String q2 = "clip=" + PosekitClient.encode(twiceClip) + "&time=0.5";
        String before = client.get(twiceBase + "/pose?" + q2).text();
        repository.cache().invalidateAll();
        assertThat(client.get(twiceBase + "/pose?" + q2).text()).isEqualTo(before);
        assertThat(client.get(twiceBase + "/pose?" + q2).json().get("nodes").get(0).get("translation").get(1)
                .asDouble()).as("the strip's root at 1, doubled").isCloseTo(2, within(1e-6));
        // clips added to a retargeted asset stack after the retargeting (clips/2/ after retarget/1/) and re-parse
        PosekitClient.Response added = client.uploadParts("file", java.util.Map.of("more.bvh", bvh("Root", "Tip")),
                base + "/clips");
        assertThat(added.status()).as(added.toString()).isEqualTo(201);
        String addedBase = "/api/v1/assets/" + added.json().get("asset").get("id").asString();
        repository.cache().invalidateAll();
        assertThat(client.get(addedBase).json().get("clips").findValuesAsString("name")).hasSize(3)
                .startsWith("Bend", clip);
        assertThat(client.get(addedBase + "/pose?" + q).text()).isEqualTo(pose.toString());
    }

    @Test
    void badRequestsAnswerProblemsNamingTheJoints() {
        String path = "/api/v1/assets/" + stripId + "/retarget";
        int stored = client.get("/api/v1/assets").json().get("assets").size();

        assertProblem(post(path, "{\"source\":\"" + bvhId + "\",\"jointMap\":{\"Root\":\"Hips\",\"Tail\":\"Tip\"}}"),
                400, "the joint map names joints that do not exist: source 'Hips', target 'Tail'");
        assertProblem(post(path, "{\"source\":\"" + bvhId + "\",\"jointMap\":{\"Root\":\"Tip\",\"Tip\":\"Root\"}}"),
                400, "the joint map makes a cycle: target 'Root' is an ancestor of 'Tip' but their source joints "
                        + "'Tip' and 'Root' are the other way round");
        assertProblem(post(path, "{\"source\":\"" + bvhId + "\",\"jointMap\":{\"Root\":\"Tip\",\"Tip\":\"Tip\"}}"),
                400, null);
        assertProblem(post(path, "{\"source\":\"" + bvhId + "\",\"clips\":[\"Dance\"]}"), 400, null);
        assertProblem(post(path, "{\"source\":\"" + bvhId + "\",\"options\":{\"rootMotion\":\"fast\"}}"), 400, null);
        assertProblem(post(path, "{\"clips\":[]}"), 400, null);
        String other = client.upload("other.bvh", bvh("Pelvis_x", "Bone_y")).json().get("id").asString();
        PosekitClient.Response nothing = post(path, "{\"source\":\"" + other + "\"}");
        assertProblem(nothing, 422, null);
        assertThat(nothing.json().get("detail").asString()).contains("target joints: Root, Tip",
                "source joints: Pelvis_x, Bone_y");
        assertProblem(post(path, "{\"source\":\"" + "0".repeat(64) + "\"}"), 404,
                "no asset with id '" + "0".repeat(64) + "'");
        assertThat(client.get("/api/v1/assets").json().get("assets")).hasSize(stored + 1); // only other.bvh
    }
}
