package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.store.ParsingPool;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * A flood of uploads over real HTTP with one parsing thread and one waiting slot: the upload that finds both taken
 * is refused at once with 503 and {@code Retry-After}, nothing of it is stored, and sampling a cached asset goes on
 * answering while the parsing thread is busy.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "posekit.store.dir=target/test-stores/${random.uuid}", "posekit.parsing.threads=1", "posekit.parsing.queue=1",
        "posekit.limits.parse-time=30s"})
@Import(SlowImports.class)
class ParsingCapacityApiTest {

    @LocalServerPort
    int port;

    @Autowired
    ParsingPool parsing;

    @BeforeEach
    void block() {
        SlowImports.close();
    }

    @AfterEach
    void unblock() {
        SlowImports.release();
    }

    private static byte[] glb(String tag) {
        GltfBuilder asset = GltfBuilder.skinnedTwoBoneStrip();
        asset.setRoot("extras", tag);
        return asset.toGlb();
    }

    @Test
    void aFullParsingPoolAnswers503WithRetryAfterWhileSamplingGoesOn() throws Exception {
        PosekitClient client = new PosekitClient(port);
        String cached = client.upload("ready.glb", glb("ready")).json().get("id").asString();

        CompletableFuture<PosekitClient.Response> running =
                CompletableFuture.supplyAsync(() -> client.upload("slow-1.glb", glb("slow 1")));
        ParsingPoolTestSupport.eventually(() -> parsing.active() == 1);
        CompletableFuture<PosekitClient.Response> waiting =
                CompletableFuture.supplyAsync(() -> client.upload("slow-2.glb", glb("slow 2")));
        ParsingPoolTestSupport.eventually(() -> parsing.queued(ParsingPool.Kind.UPLOAD) == 1);

        PosekitClient.Response refused = client.upload("third.glb", glb("third"));
        assertProblem(refused, 503, "every parsing thread is busy and the 1 waiting slots for uploads are taken;"
                + " try again later");
        assertThat(refused.headers().firstValue("Retry-After")).contains("30");
        assertThat(SlowImports.PARSED).doesNotContain("third.glb"); // refused before it was read, never parsed

        // the parsing thread is blocked, yet the cached asset is sampled as usual
        PosekitClient.Response pose = client.get("/api/v1/assets/" + cached + "/pose?clip=Bend&time=1");
        assertThat(pose.status()).isEqualTo(200);
        assertThat(client.get("/api/v1/assets/" + cached + "/meshes/0/skinned?clip=Bend&time=1").status())
                .isEqualTo(200);
        assertThat(running).isNotDone();
        assertThat(client.get("/api/v1/assets").json().get("assets")).hasSize(1);

        SlowImports.release();
        assertThat(running.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
        assertThat(waiting.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
        assertThat(SlowImports.PARSED).containsExactly("ready.glb", "slow-1.glb", "slow-2.glb");
        assertThat(client.get("/api/v1/assets").json().get("assets")).hasSize(3);
        // once there is room again, the refused upload goes through
        assertThat(client.upload("third.glb", glb("third")).status()).isEqualTo(201);
    }
}
