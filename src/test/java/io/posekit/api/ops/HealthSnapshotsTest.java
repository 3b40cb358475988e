package io.posekit.api.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HealthSnapshotsTest {

    private final AtomicInteger computed = new AtomicInteger();
    private final AtomicLong epoch = new AtomicLong();

    /** Answers "path#n" (n: how many computations so far); "nowhere" does not exist. */
    private HealthSnapshots.Snapshot compute(List<String> path) {
        int n = computed.incrementAndGet();
        if (path.equals(List.of("nowhere"))) {
            return new HealthSnapshots.Snapshot(404, new byte[0], new byte[0], 0);
        }
        return new HealthSnapshots.Snapshot(200, (String.join("/", path) + "#" + n).getBytes(StandardCharsets.UTF_8),
                new byte[0], 0);
    }

    private static String body(HealthSnapshots.Snapshot s) {
        return new String(s.body(), StandardCharsets.UTF_8);
    }

    @Test
    void anAnswerIsComputedOnceAndKeptUntilTheEpochMoves() {
        try (HealthSnapshots snapshots = new HealthSnapshots(this::compute, epoch::get, Duration.ofHours(1))) {
            assertThat(snapshots.isCurrent(List.of("readiness"))).isFalse();
            assertThat(body(snapshots.get(List.of("readiness")))).isEqualTo("readiness#1");
            assertThat(snapshots.isCurrent(List.of("readiness"))).isTrue();
            assertThat(body(snapshots.get(List.of("readiness")))).isEqualTo("readiness#1");
            assertThat(body(snapshots.get(List.of()))).isEqualTo("#2");
            assertThat(computed).hasValue(2);

            epoch.incrementAndGet(); // e.g. the store became unreachable
            assertThat(snapshots.isCurrent(List.of("readiness"))).isFalse();
            assertThat(body(snapshots.get(List.of("readiness")))).isEqualTo("readiness#3");
            assertThat(body(snapshots.get(List.of("readiness")))).isEqualTo("readiness#3");
            assertThat(computed).hasValue(3);
        }
    }

    @Test
    void pathsThatDoNotExistAreNotKept() {
        try (HealthSnapshots snapshots = new HealthSnapshots(this::compute, epoch::get, Duration.ofHours(1))) {
            assertThat(snapshots.get(List.of("nowhere")).status()).isEqualTo(404);
            assertThat(snapshots.get(List.of("nowhere")).status()).isEqualTo(404);
            assertThat(snapshots.isCurrent(List.of("nowhere"))).isFalse();
            assertThat(computed).hasValue(2);
        }
    }

    @Test
    void atMostMaxPathsAreKept() {
        try (HealthSnapshots snapshots = new HealthSnapshots(this::compute, epoch::get, Duration.ofHours(1))) {
            for (int i = 0; i <= HealthSnapshots.MAX_PATHS; i++) {
                snapshots.get(List.of("c" + i));
            }
            assertThat(snapshots.isCurrent(List.of("c0"))).isTrue();
            assertThat(snapshots.isCurrent(List.of("c" + (HealthSnapshots.MAX_PATHS - 1)))).isTrue();
            assertThat(snapshots.isCurrent(List.of("c" + HealthSnapshots.MAX_PATHS))).isFalse();
        }
    }

    @Test
    void keptAnswersAreComputedAgainInTheBackground() throws InterruptedException {
        try (HealthSnapshots snapshots = new HealthSnapshots(this::compute, epoch::get, Duration.ofMillis(20))) {
            assertThat(body(snapshots.get(List.of("liveness")))).isEqualTo("liveness#1");
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (computed.get() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(computed.get()).isGreaterThanOrEqualTo(3);
            assertThat(body(snapshots.get(List.of("liveness")))).startsWith("liveness#").isNotEqualTo("liveness#1");
            assertThat(snapshots.isCurrent(List.of("liveness"))).isTrue();
        }
    }

    @Test
    void actuatorsMediaTypeUnlessPlainJsonIsAskedFor() {
        assertThat(HealthRoutes.contentType(null)).isEqualTo(HealthRoutes.ACTUATOR_V3);
        assertThat(HealthRoutes.contentType("*/*")).isEqualTo(HealthRoutes.ACTUATOR_V3);
        assertThat(HealthRoutes.contentType("application/json")).isEqualTo("application/json");
        assertThat(HealthRoutes.contentType("application/json, */*;q=0.5")).isEqualTo("application/json");
        assertThat(HealthRoutes.contentType(HealthRoutes.ACTUATOR_V3 + ", application/json"))
                .isEqualTo(HealthRoutes.ACTUATOR_V3);
    }
}
