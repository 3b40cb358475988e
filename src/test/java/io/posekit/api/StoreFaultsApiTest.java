package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.store.AssetRepository;
import io.posekit.store.DirectoryAssetStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Faults and races over real HTTP: an asset whose stored bytes rot answers 410 (and shows in health) until it is
 * uploaded again; identical uploads at once create one asset; deleting while others sample never fails a sampler
 * with anything but 404.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class StoreFaultsApiTest {

    @LocalServerPort
    int port;

    @Autowired
    AssetRepository repository;

    @Autowired
    DirectoryAssetStore store;

    private static byte[] glb(String tag) {
        GltfBuilder asset = GltfBuilder.skinnedTwoBoneStrip();
        asset.setRoot("extras", tag);
        return asset.toGlb();
    }

    @Test
    void bitRotIs410AndShowsInHealthUntilTheAssetIsUploadedAgain() throws Exception {
        PosekitClient client = new PosekitClient(port);
        byte[] glb = glb("rot");
        String id = client.upload("rot.glb", glb).json().get("id").asString();
        Path stored = store.root().resolve(id).resolve("files/0");
        byte[] bytes = Files.readAllBytes(stored);
        bytes[bytes.length / 2] ^= 0x04;
        Files.write(stored, bytes);
        repository.cache().invalidateAll(); // the next request must read the store

        String detail = "asset " + id + " is corrupt in the store: content does not match its id;"
                + " delete it and upload again";
        assertProblem(client.get("/api/v1/assets/" + id), 410, detail);
        assertProblem(client.get("/api/v1/assets/" + id + "/pose?clip=Bend&time=1"), 410, detail);
        assertProblem(client.get("/api/v1/assets/" + id + "/meshes/0/skinned"), 410, detail);
        JsonNode health = client.get("/actuator/health").json().get("components").get("store");
        assertThat(health.get("status").asString()).isEqualTo("UP"); // every other asset is still served
        assertThat(health.get("details").get("corrupt").values()).extracting(JsonNode::asString).containsExactly(id);

        PosekitClient.Response again = client.upload("rot.glb", glb);
        assertThat(again.status()).as(again.toString()).isEqualTo(201); // the fresh copy replaces the damaged one
        assertThat(again.json().get("id").asString()).isEqualTo(id);
        assertThat(Files.readAllBytes(stored)).isEqualTo(glb);
        repository.cache().invalidateAll();
        assertThat(client.get("/api/v1/assets/" + id + "/pose?clip=Bend&time=1").status()).isEqualTo(200);
        assertThat(client.get("/actuator/health").json().get("components").get("store").get("details")
                .get("corrupt")).isEmpty();
    }

    @Test
    void identicalUploadsAtOnceCreateOneAsset() throws Exception {
        byte[] glb = glb("same");
        int clients = 8;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<PosekitClient.Response>> responses = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                responses.add(pool.submit(() -> {
                    go.await();
                    return new PosekitClient(port).upload("same.glb", glb);
                }));
            }
            go.countDown();
            Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
            List<String> ids = new ArrayList<>();
            for (Future<PosekitClient.Response> f : responses) {
                PosekitClient.Response r = f.get(60, TimeUnit.SECONDS);
                statuses.merge(r.status(), 1, Integer::sum);
                ids.add(r.json().get("id").asString());
            }
            assertThat(statuses).containsExactlyInAnyOrderEntriesOf(Map.of(201, 1, 200, clients - 1));
            assertThat(ids).containsOnly(ids.getFirst());
            JsonNode listed = new PosekitClient(port).get("/api/v1/assets").json().get("assets");
            assertThat(listed.values()).filteredOn(a -> a.get("id").asString().equals(ids.getFirst())).hasSize(1);
            try (var entries = Files.list(store.root())) {
                assertThat(entries.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".")))
                        .as("no temporary left behind").isEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void deletingWhileOthersSampleAnswers200Or404NeverAnythingElse() throws Exception {
        PosekitClient client = new PosekitClient(port);
        byte[] glb = glb("deleted");
        for (int round = 0; round < 5; round++) {
            String id = client.upload("deleted.glb", glb).json().get("id").asString();
            AtomicBoolean deleted = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<List<Integer>>> samplers = new ArrayList<>();
                for (int t = 0; t < 3; t++) {
                    samplers.add(pool.submit(() -> {
                        PosekitClient mine = new PosekitClient(port);
                        List<Integer> seen = new ArrayList<>();
                        int afterDelete = 0;
                        while (afterDelete < 20) {
                            boolean wasDeleted = deleted.get();
                            PosekitClient.Response r = mine.get("/api/v1/assets/" + id + "/meshes/0/skinned?clip=Bend&time=0.7");
                            if (r.status() != 200) {
                                assertProblem(r, 404, "no asset with id '" + id + "'");
                            } else {
                                assertThat(r.json().get("primitives").get(0).get("positions").size()).isPositive();
                            }
                            if (wasDeleted) {
                                assertThat(r.status()).as("sampled after the delete was acknowledged").isEqualTo(404);
                                afterDelete++;
                            }
                            seen.add(r.status());
                        }
                        return seen;
                    }));
                }
                Thread.sleep(50);
                assertThat(client.delete("/api/v1/assets/" + id).status()).isEqualTo(204);
                deleted.set(true);
                for (Future<List<Integer>> s : samplers) {
                    assertThat(s.get(60, TimeUnit.SECONDS)).containsAnyOf(200, 404).doesNotContainNull();
                }
            } finally {
                pool.shutdownNow();
            }
            assertProblem(client.get("/api/v1/assets/" + id), 404, "no asset with id '" + id + "'");
        }
    }
}
