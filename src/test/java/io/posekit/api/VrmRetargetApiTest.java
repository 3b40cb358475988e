package io.posekit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.retarget.VrmAvatars;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * A VRM animation ({@code walk.vrma}) retargeted onto a VRM 0.x avatar ({@code avatar.vrm}) over real HTTP, both
 * generated in code ({@link VrmAvatars}): every pair comes from the humanoid maps (rule {@code humanoid_map}), and
 * the avatar walks towards its own front, −Z.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class VrmRetargetApiTest {

    @LocalServerPort
    int port;

    private PosekitClient client;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void setUp() {
        client = new PosekitClient(port);
    }

    private PosekitClient.Response post(String path, String json) throws IOException, InterruptedException {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        return new PosekitClient.Response(r.statusCode(), r.headers(), r.body());
    }

    @Test
    void aVrmAnimationOntoAVrm0AvatarPairsByTheMapsAndWalksTowardsItsFront() throws Exception {
        String avatar = client.upload("avatar.vrm", VrmAvatars.glb(VrmAvatars.Kind.VRM0, null)).json().get("id").asString();
        String walk = client.upload("walk.vrma", VrmAvatars.glb(VrmAvatars.Kind.VRMA, VrmAvatars.turnAndWalk()))
                .json().get("id").asString();
        PosekitClient.Response made = post("/api/v1/assets/" + avatar + "/retarget", "{\"source\":\"" + walk + "\"}");
        assertThat(made.status()).as(made.toString()).isEqualTo(201);
        JsonNode report = made.json().get("report");
        assertThat(report.get("mapped")).hasSize(21);
        for (JsonNode pair : report.get("mapped")) {
            assertThat(pair.get("rule").asString()).isEqualTo("humanoid_map");
            assertThat(pair.get("source").asString()).isEqualTo(pair.get("target").asString());
        }
        assertThat(report.get("unmappedTargetCount").asInt()).isZero();
        String base = "/api/v1/assets/" + made.json().get("asset").get("id").asString();
        JsonNode hips = client.get(base + "/pose?clip=TurnAndWalk&time=1").json().get("nodes").get(0);
        assertThat(hips.get("name").asString()).isEqualTo("bone_00");
        assertThat(hips.get("translation").get(0).asDouble()).isCloseTo(0, within(1e-5));
        assertThat(hips.get("translation").get(1).asDouble()).isCloseTo(1, within(1e-5));
        assertThat(hips.get("translation").get(2).asDouble()).isCloseTo(-0.5, within(1e-5));
    }
}
