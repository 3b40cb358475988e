package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Policy;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.SourceFile;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Far more parsed assets than the cache budget: the cache stays within its budget, the heap with it (give or
 * take a stated headroom), and every asset still answers, parsed again from the store on demand.
 */
class CachePressureTest {

    private static final long BUDGET = 8L << 20;
    /** What the heap may hold beyond the budget: the repository, the store's index, the metrics, one parse in flight. */
    private static final long HEADROOM = 8L << 20;
    private static final int ASSETS = 40;

    @TempDir
    Path dir;

    @Test
    void fortyMegabytesOfModelsInAnEightMegabyteCache() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        int vertices = GeneratedAssets.verticesForModelBytes(1 << 20);
        long baseline = HeapProbe.usedAfterGc();
        try (ParsingPool pool = new ParsingPool(2, 16, Duration.ofSeconds(60), meters)) {
            AssetRepository repo = new AssetRepository(new DirectoryAssetStore(dir), AssetImporters.all(ImportLimits.DEFAULT), pool,
                    BUDGET, Clock.systemUTC(), meters);
            Policy.Eviction<String, AssetRepository.Loaded> eviction = repo.cache().policy().eviction().orElseThrow();
            List<String> ids = new ArrayList<>();
            long uploadedModelBytes = 0;
            long largestModel = 0;
            long maxWeighed = 0;
            long maxTransient = 0;
            for (int i = 0; i < ASSETS; i++) {
                AssetRepository.Added added = repo.add(Reference.DEFAULT_TENANT, List.of(new SourceFile("a" + i + ".glb",
                        GeneratedAssets.skinnedMesh(vertices, 1000 + i))));
                assertThat(added.created()).isTrue();
                ids.add(added.asset().meta().id());
                uploadedModelBytes += added.asset().model().footprintBytes();
                largestModel = Math.max(largestModel, added.asset().model().footprintBytes());
                maxTransient = Math.max(maxTransient, eviction.weightedSize().orElseThrow());
                maxWeighed = Math.max(maxWeighed, settledWeight(repo, eviction));
            }
            assertThat(uploadedModelBytes).isGreaterThan(4 * BUDGET);
            assertThat(maxWeighed).as("(a) the cache's weighed size").isLessThanOrEqualTo(BUDGET);

            long heap = HeapProbe.usedAfterGc() - baseline;
            assertThat(heap).as("(b) heap retained after the uploads, against budget + headroom")
                    .isLessThanOrEqualTo(BUDGET + HEADROOM);

            for (int round = 0; round < 2; round++) {
                for (String id : ids) {
                    AssetRepository.Loaded loaded = repo.find(id).orElseThrow();
                    assertThat(loaded.model().meshes().getFirst().primitives().getFirst().vertexCount()).isEqualTo(vertices);
                    maxTransient = Math.max(maxTransient, eviction.weightedSize().orElseThrow());
                    maxWeighed = Math.max(maxWeighed, settledWeight(repo, eviction));
                }
            }
            assertThat(maxWeighed).as("(a) the cache's weighed size, reading everything back").isLessThanOrEqualTo(BUDGET);
            assertThat(maxTransient).as("(a) the weighed size before the cache's maintenance: one model over at most")
                    .isLessThanOrEqualTo(BUDGET + largestModel);
            long reloads = meters.get("posekit.import.duration").tags("source", "reload").timer().count();
            assertThat(reloads).as("(c) evicted assets were parsed again").isGreaterThanOrEqualTo(ASSETS);
            long heapAfterReads = HeapProbe.usedAfterGc() - baseline;
            assertThat(heapAfterReads).isLessThanOrEqualTo(BUDGET + HEADROOM);
            System.out.printf(Locale.ROOT, "cache pressure: %d assets, %s of models uploaded into a %s cache;"
                    + " max weighed %s (%d cached at the end); heap retained %s after uploads, %s after reading all"
                    + " twice (%d re-parses); budget + headroom %s%n",
                    ASSETS, HeapProbe.mb(uploadedModelBytes), HeapProbe.mb(BUDGET), HeapProbe.mb(maxWeighed),
                    repo.cache().estimatedSize(), HeapProbe.mb(heap), HeapProbe.mb(heapAfterReads), reloads,
                    HeapProbe.mb(BUDGET + HEADROOM));
        }
    }

    /**
     * The cache's weighed size once its maintenance has caught up. Why not the size right after a {@code cleanUp()}: a
     * loaded model is weighed when its future completes, by a callback on the parsing thread that may run after the
     * caller woke up from that future and after its {@code cleanUp()}, so the size can be one model over the budget
     * until the next maintenance (Caffeine bounds the size eventually, not at every instant). Waits 5 s at most.
     */
    private static long settledWeight(AssetRepository repo, Policy.Eviction<String, AssetRepository.Loaded> eviction) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (true) {
            repo.cache().cleanUp();
            long weighed = eviction.weightedSize().orElseThrow();
            if (weighed <= BUDGET || System.nanoTime() > deadline) {
                return weighed;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return weighed;
            }
        }
    }
}
