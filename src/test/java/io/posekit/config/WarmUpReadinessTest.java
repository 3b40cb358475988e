package io.posekit.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.api.PosekitClient;
import io.posekit.warmup.WarmUp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.JsonNode;

/**
 * Readiness waits for the warm-up's rate to level off: an exercise contributed as a bean gets faster for its first
 * {@value #CLIMB_MILLIS} ms (each step costs less, from 3 ms to nothing) and then stays as fast. A poller asks the
 * readiness probe every 10 ms from the moment the server has started: it answers 503 throughout the climb and 200
 * only after it. The safety limit ({@code posekit.warm-up.duration}) is well past the climb: on a quiet machine the
 * warm-up stops steady before it, on a busy one (the test JVM's compilers still at work) it is cut short there; either
 * way, never during the climb. {@link io.posekit.warmup.WarmUpTest} proves the plateau rule itself on a clock of its
 * own.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "posekit.store.dir=target/test-stores/${random.uuid}",
        "posekit.warm-up.duration=12s",
        "posekit.warm-up.quiet=200ms",
        "logging.level.io.posekit.config.WarmUpRunner=DEBUG"})
class WarmUpReadinessTest {

    static final long CLIMB_MILLIS = 3000;

    /** One readiness answer and when it came, nanoseconds of {@link System#nanoTime}. */
    record Probe(long at, int status) {
    }

    static final List<Probe> probes = new CopyOnWriteArrayList<>();
    /** When the climbing exercise first ran; 0 before. */
    static final AtomicLong climbStart = new AtomicLong();

    @TestConfiguration
    static class Climbing {
        @Bean
        WarmUp.Exercise climbing() {
            return new WarmUp.Exercise("climbs", round -> {
                long now = System.nanoTime();
                climbStart.compareAndSet(0, now);
                long left = CLIMB_MILLIS * 1_000_000 - (now - climbStart.get());
                if (left > 0) {
                    // 3 ms at the start, nothing at the end of the climb
                    LockSupport.parkNanos(left * 3_000_000 / (CLIMB_MILLIS * 1_000_000));
                }
            });
        }

        @Bean
        ApplicationListener<ApplicationStartedEvent> readinessPoller() {
            return event -> {
                int port = ((WebServerApplicationContext) event.getApplicationContext()).getWebServer().getPort();
                Thread poller = new Thread(() -> poll(port), "readiness-poller");
                poller.setDaemon(true);
                poller.start();
            };
        }

        private static void poll(int port) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/actuator/health/readiness")).timeout(Duration.ofSeconds(5)).build();
            long end = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (System.nanoTime() < end) {
                try {
                    int status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                    probes.add(new Probe(System.nanoTime(), status));
                    if (status == 200) {
                        return;
                    }
                    Thread.sleep(10);
                } catch (IOException e) {
                    probes.add(new Probe(System.nanoTime(), -1));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    @LocalServerPort
    int port;

    @Test
    void readinessStays503WhileTheRateClimbsAndTurnsUpOnceItLevelsOff() {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (probes.stream().noneMatch(p -> p.status() == 200) && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        long climbEnd = climbStart.get() + CLIMB_MILLIS * 1_000_000;
        assertThat(climbStart.get()).isPositive();
        Probe ready = probes.stream().filter(p -> p.status() == 200).findFirst().orElseThrow();
        assertThat(ready.at()).as("readiness UP %d ms before the climb ended", (climbEnd - ready.at()) / 1_000_000)
                .isGreaterThan(climbEnd);
        // asked all along the climb: 503 in its last half second too
        assertThat(probes).anyMatch(p -> p.status() == 503 && p.at() > climbEnd - 500_000_000L && p.at() < climbEnd);
        assertThat(probes.stream().filter(p -> p.at() < ready.at())).allMatch(p -> p.status() == 503);

        JsonNode warmUp = new PosekitClient(port).get("/actuator/info").json().get("warmUp");
        assertThat(warmUp.get("stop").asString()).as("%s", warmUp).isIn("steady", "limit");
        assertThat(warmUp.get("cutShort").asBoolean()).isEqualTo(warmUp.get("stop").asString().equals("limit"));
        assertThat(warmUp.get("rounds").get("climbs").asLong()).isPositive();
        assertThat(warmUp.get("failures").size()).as("%s", warmUp).isZero();
        assertThat(warmUp.get("rate").asLong()).isPositive();
        assertThat(warmUp.get("windows").asInt()).isGreaterThan((int) (CLIMB_MILLIS / 200));
    }
}
