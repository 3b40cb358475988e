package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.SourceFile;
import io.posekit.asset.gltf.GltfBuilder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AssetRepositoryTest {

    @TempDir
    Path dir;

    private final Clock clock = Clock.fixed(Instant.parse("2026-11-22T12:00:00Z"), ZoneOffset.UTC);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private AssetRepository repository(long cacheBytes) {
        return new AssetRepository(new AssetStore(dir), AssetImporters.all(ImportLimits.DEFAULT), cacheBytes, clock,
                meters);
    }

    @Test
    void addsOnceAndFindsAgainAfterARestart() {
        List<SourceFile> files = List.of(new SourceFile("strip.glb", GltfBuilder.skinnedTwoBoneStrip().toGlb()));
        AssetRepository first = repository(1 << 20);
        AssetRepository.Added added = first.add(files);
        assertThat(added.created()).isTrue();
        assertThat(added.asset().meta().createdAt()).isEqualTo(clock.instant());
        assertThat(first.add(files).created()).isFalse();

        AssetRepository restarted = repository(1 << 20);
        AssetRepository.Loaded loaded = restarted.find(added.asset().meta().id()).orElseThrow();
        assertThat(loaded.meta()).isEqualTo(added.asset().meta());
        assertThat(loaded.model().clips().getFirst().name()).isEqualTo("Bend");
        assertThat(restarted.cache().stats().missCount()).isEqualTo(1);

        assertThat(meters.get("posekit.upload.size").tag("outcome", "created").summary().count()).isEqualTo(1);
        assertThat(meters.get("posekit.upload.size").tag("outcome", "existing").summary().totalAmount())
                .isEqualTo(files.getFirst().size());
        assertThat(meters.get("posekit.import.duration").tags("source", "upload", "format", "gltf", "outcome", "success")
                .timer().count()).isEqualTo(1);
        assertThat(meters.get("posekit.import.duration").tags("source", "reload", "format", "gltf", "outcome", "success")
                .timer().count()).isEqualTo(1);
        assertThat(meters.get("cache.gets").tags("cache", "assets", "result", "miss").functionCounter().count()).isGreaterThan(0);
    }

    @Test
    void reparsesFromTheStoreWhenTheCacheCannotHoldTheModel() {
        AssetRepository tiny = repository(1); // no model fits: every lookup parses again
        String id = tiny.add(List.of(new SourceFile("strip.glb", GltfBuilder.skinnedTwoBoneStrip().toGlb())))
                .asset().meta().id();
        tiny.cache().cleanUp();
        assertThat(tiny.cache().estimatedSize()).isZero();
        assertThat(tiny.find(id)).isPresent();
        assertThat(tiny.find(id).orElseThrow().model().rig().nodeCount()).isEqualTo(3);
    }

    @Test
    void aFailedUploadStoresNothing() {
        AssetRepository repo = repository(1 << 20);
        assertThatThrownBy(() -> repo.add(List.of(new SourceFile("bad.glb", new byte[] {1, 2, 3}))))
                .isInstanceOf(ImportException.class);
        assertThat(repo.list()).isEmpty();
        assertThat(dir.toFile().list()).isEmpty();
        assertThat(meters.get("posekit.upload.size").tag("outcome", "rejected").summary().count()).isEqualTo(1);
        assertThat(meters.get("posekit.import.duration").tags("format", "unknown", "outcome", "invalid").timer().count())
                .isEqualTo(1);
    }

    @Test
    void unknownAndMalformedIdsAreNotFound() {
        AssetRepository repo = repository(1 << 20);
        assertThat(repo.find("0".repeat(64))).isEmpty();
        assertThat(repo.find("../../etc/passwd")).isEmpty();
        assertThat(repo.delete("../x")).isFalse();
    }
}
