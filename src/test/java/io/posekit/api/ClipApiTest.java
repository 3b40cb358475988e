package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.store.AssetRepository;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Clips from another file over real HTTP: the two-bone strip (joints Root and Tip, clip Bend) gets clips from an
 * animation-only glTF and from a BVH, bound by joint name, as a new asset.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class ClipApiTest {

    @LocalServerPort
    int port;

    @Autowired
    AssetRepository repository;

    private PosekitClient client;
    private String baseId;

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        baseId = client.upload("strip.glb", GltfBuilder.skinnedTwoBoneStrip().toGlb()).json().get("id").asString();
    }

    /** Nodes Root ← Tip and Tail (no mesh): Wave raises Root to (0,3,0) over 1 s and wags Tail; Bend moves Root too. */
    private static byte[] animations() {
        GltfBuilder b = new GltfBuilder();
        int root = b.node("Root").children(1).index();
        b.node("Tip").translation(0, 1, 0);
        int tail = b.node("Tail").index();
        b.addScene("Scene", root, tail);
        b.defaultScene(0);
        b.animation("Wave")
                .track(root, "translation", "LINEAR", new float[] {0, 1}, new float[] {0, 0, 0, 0, 3, 0})
                .track(tail, "translation", "LINEAR", new float[] {0, 1}, new float[] {0, 0, 0, 1, 0, 0});
        b.animation("Bend").track(root, "translation", "STEP", new float[] {0}, new float[] {0, 7, 0});
        return b.toGlb();
    }

    @Test
    void clipsAreBoundByJointNameIntoANewAsset() {
        PosekitClient.Response r = client.upload("moves.glb", animations());
        assertThat(r.status()).isEqualTo(201); // stored as an asset of its own too: it is a valid glTF
        PosekitClient.Response added = client.uploadParts("file", java.util.Map.of("moves.glb", animations()),
                "/api/v1/assets/" + baseId + "/clips");
        assertThat(added.status()).as(added.toString()).isEqualTo(201);
        JsonNode body = added.json();
        String newId = body.get("asset").get("id").asString();
        assertThat(newId).isNotEqualTo(baseId);
        assertThat(added.headers().firstValue("Location")).contains("/api/v1/assets/" + newId);
        JsonNode wave = body.get("clips").get(0);
        assertThat(wave.get("name").asString()).isEqualTo("Wave");
        assertThat(wave.get("tracks").asInt()).isEqualTo(1);
        assertThat(wave.get("unmatched").toString()).isEqualTo("[\"Tail\"]");
        assertThat(wave.get("notAnimated").toString()).isEqualTo("[\"Tip\"]");
        assertThat(wave.get("notAnimatedCount").asInt()).isEqualTo(1);
        assertThat(wave.get("rules").toString()).isEqualTo("{\"humanoid_map\":0,\"name\":1}");
        assertThat(body.get("binding").toString())
                .isEqualTo("{\"rule\":\"name\",\"turned\":false,\"translationScale\":1.0}");
        JsonNode bend = body.get("clips").get(1);
        assertThat(bend.get("name").asString()).isEqualTo("Bend (2)"); // the asset already has a Bend
        assertThat(bend.get("sourceName").asString()).isEqualTo("Bend");

        String base = "/api/v1/assets/" + newId;
        JsonNode pose = client.get(base + "/pose?clip=Wave&time=0.5").json();
        assertThat(pose.get("nodes").findValues("translation").get(1).get(1).asDouble()).isCloseTo(1.5, within(1e-6));
        assertThat(client.get(base).json().get("clips").findValuesAsString("name"))
                .containsExactly("Bend", "Wave", "Bend (2)");
        // the original is untouched
        assertThat(client.get("/api/v1/assets/" + baseId).json().get("clips").findValuesAsString("name")).containsExactly("Bend");

        // the combined asset re-parses from the store the same way
        repository.cache().invalidateAll();
        assertThat(client.get(base + "/pose?clip=Wave&time=0.5").text()).isEqualTo(pose.toString());
        // the same addition again is the same asset; another addition stacks on the combined one
        assertThat(client.uploadParts("file", java.util.Map.of("moves.glb", animations()),
                "/api/v1/assets/" + baseId + "/clips").status()).isEqualTo(200);
        PosekitClient.Response again = client.uploadParts("file", java.util.Map.of("jump.bvh", bvh()), base + "/clips");
        assertThat(again.status()).as(again.toString()).isEqualTo(201);
        String thirdId = again.json().get("asset").get("id").asString();
        repository.cache().invalidateAll();
        assertThat(client.get("/api/v1/assets/" + thirdId).json().get("clips")).hasSize(4);
    }

    /** Root (6 channels) ← Tip (3): at 0.5 s Root is at (0,2,0) and Tip turned 90° about Z. */
    private static byte[] bvh() {
        return """
                HIERARCHY
                ROOT Root
                {
                  OFFSET 0 0 0
                  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
                  JOINT Tip
                  {
                    OFFSET 0 1 0
                    CHANNELS 3 Zrotation Xrotation Yrotation
                    End Site
                    {
                      OFFSET 0 1 0
                    }
                  }
                }
                MOTION
                Frames: 2
                Frame Time: 0.5
                0 0 0 0 0 0 0 0 0
                0 2 0 0 0 0 90 0 0
                """.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void aBvhClipDrivesTheGltfRig() {
        PosekitClient.Response added = client.uploadParts("file", java.util.Map.of("jump.bvh", bvh()),
                "/api/v1/assets/" + baseId + "/clips");
        assertThat(added.status()).as(added.toString()).isEqualTo(201);
        JsonNode clip = added.json().get("clips").get(0);
        assertThat(clip.get("unmatched")).isEmpty();
        assertThat(clip.get("notAnimatedCount").asInt()).isZero();
        String base = "/api/v1/assets/" + added.json().get("asset").get("id").asString();
        JsonNode pose = client.get(base + "/pose?clip=" + PosekitClient.encode(clip.get("name").asString()) + "&time=0.5").json();
        JsonNode tip = pose.get("nodes").get(2);
        assertThat(tip.get("name").asString()).isEqualTo("Tip");
        double angle = Math.toDegrees(2 * Math.atan2(tip.get("rotation").get(2).asDouble(), tip.get("rotation").get(3).asDouble()));
        assertThat(angle).isCloseTo(90, within(1e-4));
        assertThat(pose.get("nodes").get(1).get("translation").get(1).asDouble()).isCloseTo(2, within(1e-6));
    }

    @Test
    void refusesFilesThatAddNothing() {
        String path = "/api/v1/assets/" + baseId + "/clips";
        int stored = client.get("/api/v1/assets").json().get("assets").size();
        GltfBuilder still = new GltfBuilder();
        still.addScene("Scene", still.node("Root").index());
        still.defaultScene(0);
        assertProblem(client.uploadParts("file", java.util.Map.of("still.glb", still.toGlb()), path), 422,
                "the file has no clips to add");
        GltfBuilder other = new GltfBuilder();
        int hips = other.node("Hips").index();
        other.addScene("Scene", hips);
        other.defaultScene(0);
        other.animation("Sway").track(hips, "translation", "LINEAR", new float[] {0, 1}, new float[] {0, 0, 0, 1, 0, 0});
        assertProblem(client.uploadParts("file", java.util.Map.of("sway.glb", other.toGlb()), path), 422,
                "no track of the file's clips ('Sway') targets a node named like one of the asset's");
        assertProblem(client.uploadParts("file", java.util.Map.of("moves.glb", animations()),
                "/api/v1/assets/" + "0".repeat(64) + "/clips"), 404, "no asset with id '" + "0".repeat(64) + "'");
        assertThat(client.get("/api/v1/assets").json().get("assets")).hasSize(stored); // nothing stored by the failures
    }
}
