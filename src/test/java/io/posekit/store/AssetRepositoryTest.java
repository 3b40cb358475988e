package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.posekit.asset.AssetFormat;
import io.posekit.asset.AssetImporter;
import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.asset.gltf.GltfBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AssetRepositoryTest {

    @TempDir
    Path dir;

    private final Clock clock = Clock.fixed(Instant.parse("2026-11-22T12:00:00Z"), ZoneOffset.UTC);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private final List<ParsingPool> pools = new ArrayList<>();

    private AssetRepository repository(long cacheBytes) {
        ParsingPool pool = new ParsingPool(2, 16, java.time.Duration.ofSeconds(60), meters);
        pools.add(pool);
        return new AssetRepository(new DirectoryAssetStore(dir), AssetImporters.all(ImportLimits.DEFAULT), pool, cacheBytes,
                clock, meters);
    }

    @AfterEach
    void closePools() {
        pools.forEach(ParsingPool::close);
    }

    @Test
    void addsOnceAndFindsAgainAfterARestart() {
        List<SourceFile> files = List.of(new SourceFile("strip.glb", GltfBuilder.skinnedTwoBoneStrip().toGlb()));
        AssetRepository first = repository(1 << 20);
        AssetRepository.Added added = first.add(Reference.DEFAULT_TENANT, files);
        assertThat(added.created()).isTrue();
        assertThat(added.asset().meta().createdAt()).isEqualTo(clock.instant());
        assertThat(first.add(Reference.DEFAULT_TENANT, files).created()).isFalse();

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
        // the second upload of the same bytes found the model in the cache
        assertThat(meters.get("cache.gets").tags("cache", "assets", "result", "hit").functionCounter().count()).isGreaterThan(0);
    }

    @Test
    void aZippedUploadIsStagedWhole() throws Exception {
        // its model file is told from the zip's central directory, so the description and the reference are made
        // durable with the files, in the one round of syncs before the parse ends, and the commit only renames
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(bytes)) {
            zip.putNextEntry(new java.util.zip.ZipEntry("strip/strip.glb"));
            zip.write(GltfBuilder.skinnedTwoBoneStrip().toGlb());
            zip.closeEntry();
        }
        Path root = dir.toAbsolutePath().normalize();
        List<String> syncs = java.util.Collections.synchronizedList(new ArrayList<>());
        DirectoryAssetStore store = new DirectoryAssetStore(dir, synced -> {
            if (!root.equals(synced)) {
                syncs.add(root.relativize(synced).toString().replaceAll("^\\.incoming-[0-9a-f-]{36}", ".incoming-*"));
                return;
            }
            // what the staged copy held when the store directory (which names it) was synced
            try (java.util.stream.Stream<Path> in = Files.list(root);
                    java.util.stream.Stream<Path> held = Files.list(in.filter(
                            p -> p.getFileName().toString().startsWith(".incoming-")).findFirst().orElseThrow())) {
                syncs.add("<root> with " + held.map(p -> p.getFileName().toString()).sorted().toList());
            }
        });
        ParsingPool pool = new ParsingPool(2, 16, java.time.Duration.ofSeconds(60), meters);
        pools.add(pool);
        AssetRepository repository = new AssetRepository(store, AssetImporters.all(ImportLimits.DEFAULT), pool, 1 << 20,
                clock, meters);

        AssetRepository.Added added = repository.add(Reference.DEFAULT_TENANT,
                List.of(new SourceFile("strip.zip", bytes.toByteArray())));
        assertThat(added.asset().meta().name()).isEqualTo("strip.glb");
        assertThat(added.asset().meta().format()).isEqualTo("gltf");
        assertThat(syncs).containsExactlyInAnyOrder(".incoming-*/files", ".incoming-*", ".incoming-*/refs",
                "<root> with [files, manifest.json, refs]");
        assertThat(new DirectoryAssetStore(dir).find(added.asset().meta().id())).contains(added.asset().meta());
        assertThat(new DirectoryAssetStore(dir).reference(Reference.DEFAULT_TENANT, added.asset().meta().id()))
                .contains(added.reference());
    }

    /**
     * What a power loss leaves after an acknowledged upload whose rename had not reached the disk, and after a failed
     * one whose removal had not: their staged copies (no test can cut the power; the rename is undone by hand).
     */
    @Test
    void uploadsACrashLeftStagedArePublishedAtTheNextStartOnlyWhenTheyImportAgain() throws Exception {
        List<SourceFile> files = List.of(new SourceFile("strip.glb", GltfBuilder.skinnedTwoBoneStrip().toGlb()));
        AssetRepository.Added added = repository(1 << 20).add("acme", files);
        String id = added.asset().meta().id();
        Files.move(dir.resolve(id), dir.resolve(".incoming-" + java.util.UUID.randomUUID()));
        List<SourceFile> bad = List.of(new SourceFile("bad.glb", new byte[] {1, 2, 3}));
        String badId = ContentId.of(bad);
        new DirectoryAssetStore(dir).stage(new StoredAsset(badId, "bad.glb", "gltf", 3, clock.instant(),
                List.of(new StoredAsset.StoredFile("bad.glb", 3))), bad,
                new Reference("acme", badId, "bad.glb", "gltf", 3, clock.instant()));

        AssetRepository restarted = repository(1 << 20);
        assertThat(restarted.recoverUploads()).containsExactly(added.asset().meta());
        assertThat(DirectoryAssetStoreTest.entries(dir)).containsExactly(id);
        assertThat(restarted.reference("acme", id)).contains(added.reference());
        assertThat(restarted.list("acme")).containsExactly(added.reference());
        assertThat(restarted.find("acme", id).orElseThrow().model().clips().getFirst().name()).isEqualTo("Bend");
        assertThat(restarted.find("acme", badId)).isEmpty();
        // both parsed as uploads are; the recovered model is not cached (the find above parsed it again)
        assertThat(meters.get("posekit.import.duration").tags("source", "recovery", "format", "gltf", "outcome", "success")
                .timer().count()).isEqualTo(1);
        assertThat(meters.get("posekit.import.duration").tags("source", "recovery", "format", "unknown", "outcome", "invalid")
                .timer().count()).isEqualTo(1);
        assertThat(restarted.cache().stats().missCount()).isEqualTo(1);
        assertThat(meters.get("posekit.store.duration").tags("op", "recover", "outcome", "success").timer().count())
                .isEqualTo(1);
    }

    @Test
    void reparsesFromTheStoreWhenTheCacheCannotHoldTheModel() {
        AssetRepository tiny = repository(1); // no model fits: every lookup parses again
        String id = tiny.add(Reference.DEFAULT_TENANT, List.of(new SourceFile("strip.glb", GltfBuilder.skinnedTwoBoneStrip().toGlb())))
                .asset().meta().id();
        tiny.cache().cleanUp();
        assertThat(tiny.cache().estimatedSize()).isZero();
        assertThat(tiny.find(id)).isPresent();
        assertThat(tiny.find(id).orElseThrow().model().rig().nodeCount()).isEqualTo(3);
    }

    @Test
    void aFailedUploadStoresNothing() {
        AssetRepository repo = repository(1 << 20);
        assertThatThrownBy(() -> repo.add(Reference.DEFAULT_TENANT, List.of(new SourceFile("bad.glb", new byte[] {1, 2, 3}))))
                .isInstanceOf(ImportException.class);
        assertThat(repo.list()).isEmpty();
        assertThat(DirectoryAssetStoreTest.entries(dir)).isEmpty();
        assertThat(meters.get("posekit.upload.size").tag("outcome", "rejected").summary().count()).isEqualTo(1);
        assertThat(meters.get("posekit.import.duration").tags("format", "unknown", "outcome", "invalid").timer().count())
                .isEqualTo(1);
    }

    @Test
    void importerBugsAndReportedProblemsAreCountedApart() {
        AssetRepository repo = repository(1 << 20);
        // malformed XML: the COLLADA reader reports it precisely, keeping the XML parser's exception as the cause
        ImportException malformed = catchThrowableOfType(ImportException.class,
                () -> repo.add(Reference.DEFAULT_TENANT, List.of(new SourceFile("bad.dae", "<COLLADA><asset>".getBytes(StandardCharsets.UTF_8)))));
        assertThat(malformed.getCause()).isNotNull();
        assertThat(malformed.importerBug()).isFalse();
        assertThat(meters.get("posekit.import.duration").tags("format", "unknown", "outcome", "invalid").timer().count())
                .isEqualTo(1);
        assertThat(meters.find("posekit.import.duration").tag("outcome", "bug").timer()).isNull();

        ParsingPool pool = new ParsingPool(1, 1, Duration.ofSeconds(60), meters);
        pools.add(pool);
        AssetImporter failing = new AssetImporter() {
            @Override
            public AssetFormat format() {
                return AssetFormat.GLTF;
            }

            @Override
            public ImportScene read(SourceFile main, SourceFiles upload, ImportLimits limits) {
                throw new ArrayIndexOutOfBoundsException(7);
            }
        };
        AssetRepository buggy = new AssetRepository(new DirectoryAssetStore(dir),
                new AssetImporters(List.of(failing), ImportLimits.DEFAULT), pool, 1 << 20, clock, meters);
        assertThatThrownBy(() -> buggy.add(Reference.DEFAULT_TENANT, List.of(new SourceFile("a.glb", new byte[] {1}))))
                .isInstanceOfSatisfying(ImportException.class, e -> assertThat(e.importerBug()).isTrue());
        assertThat(meters.get("posekit.import.duration").tags("format", "unknown", "outcome", "bug").timer().count())
                .isEqualTo(1);
    }

    @Test
    void unknownAndMalformedIdsAreNotFound() {
        AssetRepository repo = repository(1 << 20);
        assertThat(repo.find("0".repeat(64))).isEmpty();
        assertThat(repo.find("../../etc/passwd")).isEmpty();
        assertThat(repo.delete("../x")).isFalse();
    }

    @Test
    void concurrentIdenticalUploadsCreateOnceParseOnceAndLeaveNoTemporaries() throws Exception {
        AssetRepository repo = repository(64 << 20);
        List<SourceFile> files = List.of(new SourceFile("same.glb", GeneratedAssets.skinnedMesh(30_000, 1)));
        int n = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(n);
        List<AssetRepository.Added> results = new ArrayList<>();
        try {
            List<Future<AssetRepository.Added>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(threads.submit(() -> {
                    start.await();
                    return repo.add(Reference.DEFAULT_TENANT, files);
                }));
            }
            start.countDown();
            for (Future<AssetRepository.Added> f : futures) {
                results.add(f.get(60, TimeUnit.SECONDS));
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(results.stream().filter(AssetRepository.Added::created)).hasSize(1);
        assertThat(results).extracting(a -> a.asset().meta()).containsOnly(results.getFirst().asset().meta());
        assertThat(repo.list()).hasSize(1);
        assertThat(DirectoryAssetStoreTest.entries(dir)).containsExactly(ContentId.of(files));
        assertThat(meters.get("posekit.import.duration").tags("source", "upload").timer().count()).isEqualTo(1);
    }

    @Test
    void aCorruptAssetIsReportedUntilDeletedOrUploadedAgain() throws Exception {
        List<SourceFile> files = List.of(new SourceFile("strip.glb", GltfBuilder.skinnedTwoBoneStrip().toGlb()));
        String id = repository(1 << 20).add(Reference.DEFAULT_TENANT, files).asset().meta().id();
        DirectoryAssetStoreTest.flipAByte(dir.resolve(id).resolve("files/0"), 100);

        AssetRepository restarted = repository(1 << 20); // nothing cached: the next lookup reads the files
        assertThatThrownBy(() -> restarted.find(id)).isInstanceOf(CorruptAssetException.class)
                .hasMessage("asset " + id + " is corrupt in the store: content does not match its id;"
                        + " delete it and upload again");
        assertThatThrownBy(() -> restarted.find(id)).isInstanceOf(CorruptAssetException.class);
        assertThat(restarted.list()).extracting(StoredAsset::id).containsExactly(id);

        // the same content again replaces the damaged copy
        AssetRepository.Added repaired = restarted.add(Reference.DEFAULT_TENANT, files);
        assertThat(repaired.created()).isTrue();
        assertThat(restarted.find(id)).isPresent();
        assertThat(Files.readAllBytes(dir.resolve(id).resolve("files/0"))).isEqualTo(files.getFirst().bytes());

        DirectoryAssetStoreTest.flipAByte(dir.resolve(id).resolve("files/0"), 100);
        AssetRepository again = repository(1 << 20);
        assertThatThrownBy(() -> again.find(id)).isInstanceOf(CorruptAssetException.class);
        assertThat(again.delete(id)).isTrue();
        assertThat(again.find(id)).isEmpty();
    }

    @Test
    void deletingWhileOthersReadNeverFailsAReader() throws Exception {
        AssetRepository repo = repository(1); // nothing stays cached: every read parses again, racing the delete
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 30; round++) {
                GltfBuilder asset = GltfBuilder.skinnedTwoBoneStrip();
                asset.setRoot("extras", "round " + round);
                String id = repo.add(Reference.DEFAULT_TENANT, List.of(new SourceFile("r.glb", asset.toGlb()))).asset().meta().id();
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Optional<AssetRepository.Loaded>>> readers = new ArrayList<>();
                for (int r = 0; r < 3; r++) {
                    readers.add(threads.submit(() -> {
                        start.await();
                        Optional<AssetRepository.Loaded> last = Optional.empty();
                        for (int k = 0; k < 5; k++) {
                            last = repo.find(id);
                        }
                        return last;
                    }));
                }
                Future<Boolean> deleter = threads.submit(() -> {
                    start.await();
                    return repo.delete(id);
                });
                start.countDown();
                assertThat(deleter.get(30, TimeUnit.SECONDS)).isTrue();
                for (Future<Optional<AssetRepository.Loaded>> reader : readers) {
                    reader.get(30, TimeUnit.SECONDS); // present or empty; never an exception
                }
                assertThat(repo.find(id)).isEmpty();
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(new DirectoryAssetStore(dir).list()).isEmpty();
        assertThat(DirectoryAssetStoreTest.leftovers(dir)).isEmpty();
    }
}
