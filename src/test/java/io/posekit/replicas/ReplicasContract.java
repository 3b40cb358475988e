package io.posekit.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.PosekitApplication;
import io.posekit.api.PosekitClient;
import io.posekit.asset.gltf.GltfBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Several posekit processes (replicas) on one shared store, over real HTTP: each a whole application with its own
 * cache, as behind a load balancer. What one replica stores every other one serves; a replica restarted with an empty
 * cache parses from the store; an outage of the store answers 503 problem+json with {@code Retry-After} for what needs
 * the store, keeps serving what a replica has parsed, and loses nothing. Subclasses give the store's configuration and
 * take it away.
 */
abstract class ReplicasContract {

    private final List<ConfigurableApplicationContext> running = new ArrayList<>();

    /** The {@code posekit.store.*} properties every replica gets. */
    abstract Map<String, Object> storeProperties();

    /** Makes the store unreachable. */
    abstract void outage() throws Exception;

    /** Brings it back as it was. */
    abstract void recover() throws Exception;

    /** The readiness status code (and health status) of a replica whose store is unreachable. */
    abstract int readinessDuringOutage();

    abstract String storeStatusDuringOutage();

    /** A replica: the whole application on a free port. */
    ConfigurableApplicationContext replica() {
        Map<String, Object> props = new HashMap<>(storeProperties());
        props.put("server.port", "0");
        // a deletion on one replica is seen by the others on their next request
        props.put("posekit.store.revalidate", "0s");
        props.put("spring.main.banner-mode", "off");
        // as arguments: they take precedence over application.yml (builder properties would not)
        String[] args = props.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(PosekitApplication.class).run(args);
        running.add(context);
        return context;
    }

    static PosekitClient client(ConfigurableApplicationContext replica) {
        return new PosekitClient(Integer.parseInt(replica.getEnvironment().getProperty("local.server.port")));
    }

    @AfterEach
    void stopReplicas() throws Exception {
        recover();
        running.forEach(ConfigurableApplicationContext::close);
    }

    private static byte[] glb(String tag) {
        GltfBuilder asset = GltfBuilder.skinnedTwoBoneStrip();
        asset.setRoot("extras", tag);
        return asset.toGlb();
    }

    private static double cacheGets(PosekitClient replica, String result) {
        JsonNode m = replica.get("/actuator/metrics/cache.gets?tag=cache:assets&tag=result:" + result).json();
        return m.get("measurements").get(0).get("value").asDouble();
    }

    @Test
    void uploadedThroughOneServedByAnotherAndByARestartedReplicaAndAnOutageLosesNothing() throws Exception {
        ConfigurableApplicationContext contextA = replica();
        PosekitClient a = client(contextA);
        PosekitClient b = client(replica());

        // upload through A, sample through B: B parses it from the store
        PosekitClient.Response created = a.upload("strip.glb", glb("first"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").asString();
        String pose = "/api/v1/assets/" + id + "/pose?clip=Bend&time=0.7";
        String skinned = "/api/v1/assets/" + id + "/meshes/0/skinned?clip=Bend&time=0.7";
        PosekitClient.Response poseOnA = a.get(pose);
        assertThat(poseOnA.status()).isEqualTo(200);
        PosekitClient.Response poseOnB = b.get(pose);
        assertThat(poseOnB.status()).as(poseOnB.toString()).isEqualTo(200);
        assertThat(poseOnB.body()).isEqualTo(poseOnA.body());
        assertThat(b.get(skinned).body()).isEqualTo(a.get(skinned).body());
        assertThat(cacheGets(b, "miss")).isEqualTo(1.0);
        assertThat(b.get("/api/v1/assets/" + id).json().get("name").asString()).isEqualTo("strip.glb");

        // A restarted with an empty cache parses it again from the store
        contextA.close();
        PosekitClient restarted = client(replica());
        assertThat(cacheGets(restarted, "miss")).isZero();
        assertThat(restarted.get(pose).body()).isEqualTo(poseOnA.body());
        assertThat(cacheGets(restarted, "miss")).isEqualTo(1.0);
        assertThat(restarted.get(pose).body()).isEqualTo(poseOnA.body());
        assertThat(cacheGets(restarted, "hit")).isEqualTo(1.0);

        // a second asset that only the restarted replica has parsed
        String second = restarted.upload("second.glb", glb("second")).json().get("id").asString();
        String secondPose = "/api/v1/assets/" + second + "/pose?clip=Bend&time=0.25";
        byte[] secondBytes = restarted.get(secondPose).body();

        outage();
        try {
            // what a replica has parsed is still served…
            assertThat(b.get(pose).body()).isEqualTo(poseOnA.body());
            assertThat(restarted.get(secondPose).body()).isEqualTo(secondBytes);
            // …what needs the store answers 503 with Retry-After, and nothing is stored
            PosekitClient.Response missing = b.get(secondPose);
            assertStoreUnavailable(missing);
            PosekitClient.Response upload = b.upload("third.glb", glb("third"));
            assertStoreUnavailable(upload);
            assertStoreUnavailable(b.get("/api/v1/assets"));
            assertStoreUnavailable(b.delete("/api/v1/assets/" + id));
            PosekitClient.Response readiness = b.get("/actuator/health/readiness");
            assertThat(readiness.status()).isEqualTo(readinessDuringOutage());
            assertThat(b.get("/actuator/health").json().get("components").get("store").get("status").asString())
                    .isEqualTo(storeStatusDuringOutage());
        } finally {
            recover();
        }

        // the refused listing shows in the store's metrics
        JsonNode refusedLists = b.get("/actuator/metrics/posekit.store.duration?tag=op:list&tag=outcome:unavailable")
                .json().get("measurements");
        assertThat(refusedLists.get(0).get("statistic").asString()).isEqualTo("COUNT");
        assertThat(refusedLists.get(0).get("value").asDouble()).isEqualTo(1.0);

        // nothing was lost or changed: the refused requests go through now
        assertThat(b.get(secondPose).body()).isEqualTo(secondBytes);
        assertThat(b.get("/actuator/health/readiness").status()).isEqualTo(200);
        PosekitClient.Response third = b.upload("third.glb", glb("third"));
        assertThat(third.status()).as(third.toString()).isEqualTo(201);
        List<String> listed = new ArrayList<>();
        restarted.get("/api/v1/assets").json().get("assets").forEach(n -> listed.add(n.get("id").asString()));
        assertThat(listed).containsExactlyInAnyOrder(id, second, third.json().get("id").asString());

        // a deletion through one replica is seen by the others
        assertThat(b.delete("/api/v1/assets/" + id).status()).isEqualTo(204);
        assertThat(restarted.get(pose).status()).isEqualTo(404);
        assertThat(restarted.get("/api/v1/assets/" + id).status()).isEqualTo(404);
    }

    private static void assertStoreUnavailable(PosekitClient.Response r) {
        assertThat(r.status()).as(r.toString()).isEqualTo(503);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.headers().firstValue("Retry-After")).contains("5");
        assertThat(r.json().get("title").asString()).isEqualTo("Storage unavailable");
        assertThat(r.json().get("detail").asString()).endsWith("; nothing was changed, retry after Retry-After seconds");
    }
}
