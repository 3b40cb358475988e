package io.posekit.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.api.PosekitClient;
import io.posekit.api.security.ApiKeys;
import io.posekit.warmup.WarmUpAsset;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The start-up warm-up on a secured service (API keys, and no {@code posekit.warm-up.token}: the warm-up drives the API
 * with a key it issued itself, for the tenant {@code posekit-internal}): the readiness probe answers 503 while it runs
 * and 200 only after it is done; {@code /actuator/info} reports it, every exercise (the HTTP ones too) having run and
 * none failed; the warm-up asset is gone from that tenant afterwards. A poller started when the server has
 * started (before the application runners) asks the readiness probe every 10 ms.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "posekit.store.dir=target/test-stores/${random.uuid}",
        "posekit.warm-up.duration=1500ms",
        // never stop early: the poller must see the warm-up running
        "posekit.warm-up.quiet=1h"})
class WarmUpApiTest {

    static final String ADMIN = ApiKeys.generate();
    static final String READER = ApiKeys.generate();
    static Path keyFile;

    /** One readiness answer and the warm-up's status just before and just after it. */
    record Probe(String before, int status, String after) {
    }

    static final List<Probe> probes = new CopyOnWriteArrayList<>();

    @DynamicPropertySource
    static void security(DynamicPropertyRegistry registry) throws IOException {
        keyFile = Files.createTempFile("posekit-keys", ".txt");
        // READER reads as the tenant the warm-up's own key acts as
        Files.write(keyFile, List.of(line(ADMIN, "ops", "posekit:admin"),
                line(READER, InternalTokens.TENANT, "posekit:read")));
        registry.add("posekit.security.api-keys-file", keyFile::toString);
    }

    static String line(String key, String tenant, String scopes) {
        return HexFormat.of().formatHex(ApiKeys.sha256(key)) + " " + tenant + " " + scopes;
    }

    @AfterAll
    static void removeKeys() throws IOException {
        Files.deleteIfExists(keyFile);
    }

    @TestConfiguration
    static class Poller {
        @Bean
        ApplicationListener<ApplicationStartedEvent> readinessPoller(WarmUpRunner runner) {
            return event -> {
                int port = ((WebServerApplicationContext) event.getApplicationContext()).getWebServer().getPort();
                Thread poller = new Thread(() -> poll(port, runner), "readiness-poller");
                poller.setDaemon(true);
                poller.start();
            };
        }

        private static void poll(int port, WarmUpRunner runner) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/actuator/health/readiness")).timeout(Duration.ofSeconds(5)).build();
            long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < end) {
                try {
                    String before = runner.state().status();
                    int status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                    probes.add(new Probe(before, status, runner.state().status()));
                    if (status == 200) {
                        return;
                    }
                    Thread.sleep(10);
                } catch (IOException e) {
                    probes.add(new Probe("-", -1, "-"));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    WarmUpRunner runner;

    @Test
    void readinessTurnsUpOnlyAfterTheWarmUp() {
        // the test runs once the context is ready: the poller has seen 200 or sees it at once
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (probes.stream().noneMatch(p -> p.status() == 200) && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        assertThat(probes).anyMatch(p -> p.status() == 200);
        assertThat(probes).anyMatch(p -> p.before().equals("running") && p.after().equals("running")
                && p.status() == 503);
        for (Probe p : probes) {
            if (p.status() == 200) {
                assertThat(p.after()).as("readiness UP before the warm-up was done: %s", probes).isEqualTo("done");
            }
        }
        assertThat(probes.stream().filter(p -> p.status() == 200)).hasSize(1);
        assertThat(probes.getLast().status()).isEqualTo(200);
    }

    @Test
    void actuatorInfoReportsTheWarmUpEveryExerciseRunNoneFailed() {
        PosekitClient.Response info = new PosekitClient(port).as(ADMIN).get("/actuator/info");
        assertThat(info.status()).isEqualTo(200);
        JsonNode warmUp = info.json().get("warmUp");
        assertThat(warmUp.get("status").asString()).isEqualTo("done");
        assertThat(warmUp.get("http").asString()).isEqualTo("driven at http://127.0.0.1:" + port);
        assertThat(warmUp.get("failures").size()).as("%s", warmUp).isZero();
        assertThat(warmUp.get("stop").asString()).isEqualTo("limit");
        assertThat(warmUp.get("cutShort").asBoolean()).isTrue();
        // windows of an hour: none ended
        assertThat(warmUp.get("windows").asInt()).isZero();
        assertThat(warmUp.get("millis").asLong()).isBetween(1500L, 60_000L);
        List<String> exercises = List.of("parse", "matrices json", "matrices binary", "pose json", "skinned json",
                "skinned binary", "render png", "upload");
        assertThat(warmUp.get("rounds").propertyNames()).containsExactlyElementsOf(exercises);
        for (String e : exercises) {
            assertThat(warmUp.get("rounds").get(e).asLong()).as(e).isPositive();
        }
        assertThat(warmUp.get("rounds").get("matrices json").asLong())
                .isGreaterThanOrEqualTo(warmUp.get("rounds").get("render png").asLong());
        assertThat(warmUp.get("kernelDifference").asDouble()).isBetween(0.0, 1e-5);
        // the admin scope is needed
        assertThat(new PosekitClient(port).as(READER).get("/actuator/info").status()).isEqualTo(403);
        assertThat(runner.state().report().failures()).isEmpty();
    }

    @Test
    void theWarmUpAssetIsDeletedAfterwards() throws Exception {
        String id = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(WarmUpAsset.get().glb()));
        PosekitClient client = new PosekitClient(port).as(READER);
        assertThat(client.get("/api/v1/assets/" + id).status()).isEqualTo(404);
        assertThat(client.get("/api/v1/assets").json().get("assets").size()).isZero();
    }
}
