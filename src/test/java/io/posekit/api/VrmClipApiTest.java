package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.clip.Clip;
import io.posekit.retarget.VrmAvatars;
import io.posekit.store.AssetRepository;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * A VRM animation ({@code walk.vrma}, joints {@code J_Bip_00}…) posted to {@code …/clips} of VRM avatars
 * ({@code avatar.vrm}, joints {@code bone_00}…) over real HTTP, both generated in code ({@link VrmAvatars}): the
 * tracks are bound by the humanoid maps (no joint name is shared but the hair's), the answer says so, and the bound
 * clip plays the animation's keys: as they are on a VRM 1.0 avatar, turned 180° about Y on a VRM 0.x one.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class VrmClipApiTest {

    @LocalServerPort
    int port;

    @Autowired
    AssetRepository repository;

    private PosekitClient client;

    @BeforeEach
    void setUp() {
        client = new PosekitClient(port);
    }

    private String avatar(VrmAvatars.Kind kind) {
        PosekitClient.Response r = client.upload("avatar.vrm", VrmAvatars.glb(kind, null, VrmAvatars::nodeName,
                Map.of(), true));
        assertThat(r.status()).as(r.toString()).isIn(200, 201);
        return r.json().get("id").asString();
    }

    private static byte[] walk(Map<Integer, float[]> restRotations) {
        return VrmAvatars.glb(VrmAvatars.Kind.VRMA, VrmAvatars.turnAndWalk(), i -> String.format("J_Bip_%02d", i),
                restRotations, true);
    }

    /** The local node {@code name} of the pose of {@code asset}'s TurnAndWalk at {@code time}. */
    private JsonNode node(String asset, String time, String name) {
        PosekitClient.Response pose = client.get("/api/v1/assets/" + asset + "/pose?clip=TurnAndWalk&time=" + time
                + "&space=local");
        assertThat(pose.status()).as(pose.toString()).isEqualTo(200);
        for (JsonNode n : pose.json().get("nodes")) {
            if (n.get("name").asString().equals(name)) {
                return n;
            }
        }
        throw new AssertionError("no node " + name + " in " + pose);
    }

    private static float[] floats(JsonNode array) {
        float[] f = new float[array.size()];
        for (int i = 0; i < f.length; i++) {
            f[i] = array.get(i).floatValue();
        }
        return f;
    }

    private JsonNode postClips(String avatar, byte[] vrma) {
        PosekitClient.Response added = client.uploadParts("file", Map.of("walk.vrma", vrma),
                "/api/v1/assets/" + avatar + "/clips");
        assertThat(added.status()).as(added.toString()).isEqualTo(201);
        return added.json();
    }

    @Test
    void aVrmAnimationBindsToAVrm1AvatarByTheHumanoidMapsAndPlaysItsKeys() {
        JsonNode added = postClips(avatar(VrmAvatars.Kind.VRM1), walk(Map.of()));

        assertThat(added.get("binding").get("rule").asString()).isEqualTo("humanoid_map");
        assertThat(added.get("binding").get("turned").asBoolean()).isFalse();
        assertThat(added.get("binding").get("translationScale").asDouble()).isEqualTo(1.0);
        JsonNode clip = added.get("clips").get(0);
        assertThat(clip.get("name").asString()).isEqualTo("TurnAndWalk");
        assertThat(clip.get("tracks").asInt()).isEqualTo(4);
        assertThat(clip.get("rules").get("humanoid_map").asInt()).isEqualTo(4);
        assertThat(clip.get("rules").get("name").asInt()).isZero();
        assertThat(clip.get("unmatched")).isEmpty();
        String asset = added.get("asset").get("id").asString();

        Clip walk = VrmAvatars.turnAndWalk();
        float[] spine = walk.tracks().get(2).values(); // keys at 0 and 1 s: the spine 30° about +X at 1 s
        assertThat(floats(node(asset, "1", "bone_01").get("rotation"))).containsExactly(spine[4], spine[5], spine[6],
                spine[7]);
        float[] arm = walk.tracks().get(3).values();
        assertThat(floats(node(asset, "1", "bone_06").get("rotation"))).containsExactly(arm[4], arm[5], arm[6], arm[7]);
        assertThat(floats(node(asset, "1", "bone_00").get("translation"))).containsExactly(0, 1, 0.5f);
        assertThat(floats(node(asset, "0", "bone_01").get("rotation"))).containsExactly(0, 0, 0, 1);

        // the combined asset re-binds the same way when parsed again from its stored files
        repository.cache().invalidateAll();
        assertThat(floats(node(asset, "1", "bone_01").get("rotation"))).containsExactly(spine[4], spine[5], spine[6],
                spine[7]);
    }

    @Test
    void ontoAVrm0AvatarTheClipIsTurnedAndTheAnswerSaysSo() {
        JsonNode added = postClips(avatar(VrmAvatars.Kind.VRM0), walk(Map.of()));

        assertThat(added.get("binding").get("rule").asString()).isEqualTo("humanoid_map");
        assertThat(added.get("binding").get("turned").asBoolean()).isTrue();
        String asset = added.get("asset").get("id").asString();
        float[] spine = VrmAvatars.turnAndWalk().tracks().get(2).values();
        // R·q·R⁻¹ with R 180° about Y: x and z negated; the hips walk towards the avatar's front, −Z
        assertThat(floats(node(asset, "1", "bone_01").get("rotation"))).containsExactly(-spine[4], spine[5], -spine[6],
                spine[7]);
        assertThat(floats(node(asset, "1", "bone_00").get("translation"))).containsExactly(-0f, 1, -0.5f);
    }

    @Test
    void aRestPoseTheAvatarDoesNotShareIsA422PointingToRetarget() {
        float h = (float) Math.sin(Math.toRadians(10));
        float c = (float) Math.cos(Math.toRadians(10));
        String avatar = avatar(VrmAvatars.Kind.VRM1);
        PosekitClient.Response r = client.uploadParts("file", Map.of("walk.vrma", walk(Map.of(1, new float[] {h, 0,
                0, c}))), "/api/v1/assets/" + avatar + "/clips");

        assertProblem(r, 422, null);
        assertThat(r.json().get("detail").asString()).contains("humanoid bone 'spine'", "20.00° apart", "retarget");
    }
}
