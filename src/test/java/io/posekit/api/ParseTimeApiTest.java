package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.store.ParsingPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * The parse-time budget over real HTTP: an upload whose parse outlives {@code posekit.limits.parse-time} answers 422
 * naming the limit, its parsing thread is interrupted and freed, and nothing is stored.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "posekit.store.dir=target/test-stores/${random.uuid}", "posekit.parsing.threads=1",
        "posekit.limits.parse-time=500ms"})
@Import(SlowImports.class)
class ParseTimeApiTest {

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

    @Test
    void aParseThatOutlivesTheBudgetIs422AndItsThreadIsFreed() throws Exception {
        PosekitClient client = new PosekitClient(port);
        long start = System.nanoTime();
        PosekitClient.Response slow = client.upload("slow.glb", GltfBuilder.skinnedTwoBoneStrip().toGlb());
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertProblem(slow, 422, "parsing took longer than 500 ms (posekit.limits.parse-time)");
        assertThat(millis).as("answered soon after the budget").isBetween(500L, 10_000L);
        ParsingPoolTestSupport.eventually(() -> SlowImports.INTERRUPTED.contains("slow.glb"));
        ParsingPoolTestSupport.eventually(() -> parsing.active() == 0);
        assertThat(client.get("/api/v1/assets").json().get("assets")).isEmpty();

        // the one parsing thread is free again: a normal upload goes through
        assertThat(client.upload("fine.glb", GltfBuilder.skinnedTwoBoneStrip().toGlb()).status()).isEqualTo(201);
        assertThat(parsing.queued(ParsingPool.Kind.UPLOAD)).isZero();
    }
}
