package io.posekit.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.posekit.fuzz.FuzzClient.Response;
import io.posekit.fuzz.Mutants.Mutant;
import io.posekit.fuzz.Seeds.Seed;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.json.JsonMapper;

/**
 * The upload fuzzer: seeded mutants of valid files of every format through the real HTTP upload path; every
 * request must end in a 2xx or a precise 4xx problem within the parse-time budget plus slack, and the heap the
 * server retains must stay bounded (see {@link FuzzCampaign}). The report goes to {@code target/fuzz-report.md},
 * failing mutants to {@code target/fuzz-failures/}.
 *
 * <p>System properties: {@code posekit.fuzz.mutants} per format (default 5000, 35 000 in all: about 90 s on two
 * cores), {@code posekit.fuzz.seed}, {@code posekit.fuzz.formats} (comma-separated wire names, default all),
 * {@code posekit.fuzz.first} (first mutant index, for replaying one:
 * {@code -Dposekit.fuzz.formats=gltf -Dposekit.fuzz.first=123 -Dposekit.fuzz.mutants=1}).
 * The {@code fuzz} Maven profile runs only this test with enough mutants for 100 000 in all.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "posekit.store.dir=target/test-stores/${random.uuid}",
    "posekit.limits.parse-time=" + UploadFuzzTest.PARSE_TIME_SECONDS + "s",
    "posekit.cache.max-bytes=" + UploadFuzzTest.CACHE_MEGABYTES + "MB",
    // one access-log line per request would be hundreds of thousands of lines
    "logging.level.posekit.access=WARN"})
class UploadFuzzTest {

    static final int PARSE_TIME_SECONDS = 5;
    static final int CACHE_MEGABYTES = 64;
    /**
     * What a request may take: the parse-time budget, plus slack for reading the upload, storing it and answering
     * (and for a full collection between batches landing on a request).
     */
    static final Duration BUDGET = Duration.ofSeconds(PARSE_TIME_SECONDS + 5);
    /**
     * The most heap the JVM may retain after a full collection: the cache budget plus headroom for the Spring
     * context, the fuzzer's seeds and tallies and the test framework (55 to 65 MiB retained in all, measured).
     */
    static final long RETAINED_HEAP_BOUND = (CACHE_MEGABYTES + 256L) << 20;

    private static final long SEED = Long.getLong("posekit.fuzz.seed", 20_251_107L);
    private static final int MUTANTS = Integer.getInteger("posekit.fuzz.mutants", 5000);
    private static final int FIRST = Integer.getInteger("posekit.fuzz.first", 0);
    private static final String FORMATS = System.getProperty("posekit.fuzz.formats", String.join(",", Seeds.FORMATS));

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    @Test
    // 35 000 uploads: about 90 s on an idle CI machine, several times that on a busy one
    @org.junit.jupiter.api.Timeout(value = 20, unit = java.util.concurrent.TimeUnit.MINUTES)
    void everyMutantEndsInSuccessOrAPreciseProblemWithBoundedHeap() throws Exception {
        FuzzClient client = new FuzzClient(port, BUDGET.multipliedBy(6));
        Map<String, List<Seed>> seeds = new LinkedHashMap<>();
        for (String format : FORMATS.split(",")) {
            List<Seed> of = Seeds.all().get(format.strip());
            assertThat(of).as("seeds of format '%s'", format).isNotNull();
            seeds.put(format.strip(), of);
        }
        everySeedImports(client, seeds);

        Path failures = Path.of("target", "fuzz-failures");
        deleteRecursively(failures); // only this run's failures are there afterwards
        FuzzCampaign.Settings settings = new FuzzCampaign.Settings(SEED, FIRST, MUTANTS, BUDGET, 2, 250, failures);
        FuzzCampaign.Result result = new FuzzCampaign(client, settings, meters).run(seeds);
        String report = FuzzReport.markdown(result);
        Files.writeString(Path.of("target", "fuzz-report.md"), report, StandardCharsets.UTF_8);
        System.out.println(report);

        assertThat(result.mutants()).isEqualTo((long) MUTANTS * seeds.size());
        assertThat(result.failures()).as("failing mutants (see target/fuzz-report.md and target/fuzz-failures/)")
                .isEmpty();
        // the importers' safety net (outcome bug) and exceptions escaping the import (outcome error) are our bugs
        assertThat(result.parseOutcomes()).doesNotContainKeys("bug", "error");
        assertThat(result.maxRetainedHeap()).as("heap retained after a full collection").isLessThan(RETAINED_HEAP_BOUND);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** A fuzzer whose seeds fail proves nothing: each seed, unmutated, is created (201) and then deleted. */
    private static void everySeedImports(FuzzClient client, Map<String, List<Seed>> seeds) {
        JsonMapper json = JsonMapper.builder().build();
        for (List<Seed> of : seeds.values()) {
            for (Seed seed : of) {
                Mutant m = Mutants.unmutated(seed);
                Response r = client.upload(m.parts(), false);
                assertThat(r.status()).as("seed %s: %s", seed.name(), r).isEqualTo(201);
                assertThat(json.readTree(r.body()).path("format").asString()).as("seed %s", seed.name())
                        .isEqualTo(seed.format());
                String id = json.readTree(r.body()).path("id").asString();
                assertThat(client.delete("/api/v1/assets/" + id).status()).isEqualTo(204);
            }
        }
    }
}
