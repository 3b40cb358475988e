package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.asset.SourceFile;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every {@link AssetStore} does, run against each implementation, with several instances on one backing store
 * as several replicas would be. Subclasses open instances, damage stored files and take the store away.
 */
abstract class AssetStoreContract {

    /** Another instance (a replica) on the same backing store; {@code revalidate} as configured. */
    abstract AssetStore open(Duration revalidate) throws Exception;

    /** Flips one bit of the n-th stored file of asset {@code id}, as bit rot would. */
    abstract void damage(String id, int file) throws Exception;

    /** Removes the n-th stored file of asset {@code id}, as a careless operator would. */
    abstract void removeFile(String id, int file) throws Exception;

    /** Makes the backing store unreachable. */
    abstract void outage() throws Exception;

    /** Brings it back as it was. */
    abstract void recover() throws Exception;

    static SourceFile file(String name, String content) {
        return new SourceFile(name, content.getBytes(StandardCharsets.UTF_8));
    }

    static StoredAsset meta(List<SourceFile> files, Instant created) {
        return new StoredAsset(ContentId.of(files), "a.gltf", "gltf", files.stream().mapToLong(SourceFile::size).sum(),
                created, ContentId.canonicalOrder(files).stream()
                        .map(f -> new StoredAsset.StoredFile(f.name(), f.size())).toList());
    }

    private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

    @Test
    void anAssetStoredByOneReplicaIsFoundReadListedAndDeletedByAnother() throws Exception {
        List<SourceFile> files = List.of(file("b.bin", "xyz"), file("a.gltf", "{}"));
        StoredAsset meta = meta(files, T0);
        AssetStore a = open(Duration.ZERO);
        AssetStore b = open(Duration.ZERO);
        assertThat(b.find(meta.id())).isEmpty();
        assertThat(a.save(meta, files, Refs.of(meta))).isEqualTo(meta);

        assertThat(b.find(meta.id())).contains(meta);
        assertThat(b.list()).containsExactly(meta);
        assertThat(b.readFiles(meta.id()).orElseThrow()).containsExactly(file("a.gltf", "{}"), file("b.bin", "xyz"));

        assertThat(b.delete(meta.id())).isTrue();
        assertThat(b.delete(meta.id())).isFalse();
        assertThat(a.find(meta.id())).isEmpty();
        assertThat(a.readFiles(meta.id())).isEmpty();
        assertThat(a.list()).isEmpty();
        assertThat(open(Duration.ZERO).list()).isEmpty();
    }

    @Test
    void aReplicaTrustsWhatItKnowsForTheRevalidationIntervalButNeverReadsADeletedAsset() throws Exception {
        List<SourceFile> files = List.of(file("a.glb", "glTF"));
        StoredAsset meta = meta(files, T0);
        AssetStore trusting = open(Duration.ofHours(1));
        trusting.save(meta, files, Refs.of(meta));
        assertThat(open(Duration.ZERO).delete(meta.id())).isTrue();

        assertThat(trusting.find(meta.id())).contains(meta); // not looked at again yet
        assertThat(trusting.readFiles(meta.id())).isEmpty(); // but its files are gone: deleted, not corrupt
        assertThat(trusting.corruptIds()).isEmpty();
        assertThat(trusting.find(meta.id())).isEmpty();
    }

    @Test
    void theSameContentStoredTwiceIsOneAssetAndTheFirstCopyWins() throws Exception {
        List<SourceFile> files = List.of(file("a.glb", "glTF"));
        StoredAsset first = meta(files, T0);
        StoredAsset second = new StoredAsset(first.id(), "other.glb", "gltf", 4, T0.plusSeconds(60), first.files());
        AssetStore a = open(Duration.ZERO);
        AssetStore b = open(Duration.ZERO);
        assertThat(a.save(first, files, Refs.of(first))).isSameAs(first);
        assertThat(b.save(second, files, Refs.of(second))).isEqualTo(first);
        assertThat(a.save(second, files, Refs.of(second))).isEqualTo(first);
        assertThat(open(Duration.ZERO).list()).containsExactly(first);
    }

    @Test
    void concurrentSavesOfTheSameContentOnSeveralReplicasStoreOneAsset() throws Exception {
        List<SourceFile> files = List.of(file("a.glb", "glTF".repeat(10_000)));
        List<AssetStore> replicas = List.of(open(Duration.ZERO), open(Duration.ZERO), open(Duration.ZERO));
        int n = 6;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(n);
        List<StoredAsset> results = new ArrayList<>();
        try {
            List<Future<StoredAsset>> saved = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                StoredAsset m = new StoredAsset(ContentId.of(files), "a" + i + ".glb", "gltf", 40_000,
                        T0.plusSeconds(i), List.of(new StoredAsset.StoredFile("a.glb", 40_000)));
                AssetStore replica = replicas.get(i % replicas.size());
                saved.add(threads.submit(() -> {
                    start.await();
                    return replica.save(m, files, Refs.of(m));
                }));
            }
            start.countDown();
            for (Future<StoredAsset> f : saved) {
                results.add(f.get(60, TimeUnit.SECONDS));
            }
        } finally {
            threads.shutdownNow();
        }
        List<StoredAsset> listed = open(Duration.ZERO).list();
        assertThat(listed).hasSize(1);
        // every save answered with the asset as stored (a store without conditional writes may let a later racer's
        // creation time win, but all answers and the listing agree once the race is over)
        assertThat(results).allSatisfy(r -> assertThat(r.id()).isEqualTo(listed.getFirst().id()));
        assertThat(open(Duration.ZERO).readFiles(listed.getFirst().id()).orElseThrow()).containsExactlyElementsOf(files);
    }

    @Test
    void aDamagedFileIsReportedNeverServedAndAnUploadOnAnyReplicaRepairsIt() throws Exception {
        List<SourceFile> files = List.of(file("b.bin", "xyz"), file("a.gltf", "{}"));
        StoredAsset meta = meta(files, T0);
        AssetStore a = open(Duration.ZERO);
        a.save(meta, files, Refs.of(meta));
        damage(meta.id(), 1); // b.bin

        assertThatThrownBy(() -> a.readFiles(meta.id())).isInstanceOf(CorruptAssetException.class)
                .hasMessage("asset " + meta.id() + " is corrupt in the store: content does not match its id;"
                        + " delete it and upload again");
        assertThat(a.corruptIds()).containsExactly(meta.id());
        assertThat(a.corruption(meta.id())).contains("content does not match its id");

        // a replica that never read it: the same upload finds the stored copy damaged and replaces it
        AssetStore b = open(Duration.ZERO);
        StoredAsset again = new StoredAsset(meta.id(), "again.gltf", "gltf", 5, T0.plusSeconds(60), meta.files());
        assertThat(b.save(again, files, Refs.of(again))).isSameAs(again);
        assertThat(b.readFiles(meta.id()).orElseThrow()).containsExactly(file("a.gltf", "{}"), file("b.bin", "xyz"));
        // the replica that saw the damage sees the fresh copy
        assertThat(a.find(meta.id())).contains(again);
        assertThat(a.corruptIds()).isEmpty();
        assertThat(a.readFiles(meta.id()).orElseThrow()).hasSize(2);
    }

    @Test
    void aMissingFileIsReportedNeverServed() throws Exception {
        List<SourceFile> files = List.of(file("b.bin", "xyz"), file("a.gltf", "{}"), file("c.png", "png"));
        StoredAsset meta = meta(files, T0);
        AssetStore a = open(Duration.ZERO);
        a.save(meta, files, Refs.of(meta));
        removeFile(meta.id(), 1); // b.bin
        assertThatThrownBy(() -> a.readFiles(meta.id())).isInstanceOf(CorruptAssetException.class)
                .hasMessage("asset " + meta.id() + " is corrupt in the store: file 1 (b.bin) is missing;"
                        + " delete it and upload again");
        assertThat(a.find(meta.id())).contains(meta); // still stored, and listed, but never served
        assertThat(a.corruptIds()).containsExactly(meta.id());
    }

    @Test
    void aCorruptAssetCanBeDeleted() throws Exception {
        List<SourceFile> files = List.of(file("a.glb", "glTF"));
        StoredAsset meta = meta(files, T0);
        AssetStore a = open(Duration.ZERO);
        a.save(meta, files, Refs.of(meta));
        damage(meta.id(), 0);
        assertThatThrownBy(() -> a.readFiles(meta.id())).isInstanceOf(CorruptAssetException.class);
        assertThat(a.delete(meta.id())).isTrue();
        assertThat(a.corruptIds()).isEmpty();
        assertThat(a.readFiles(meta.id())).isEmpty();
        assertThat(a.delete(meta.id())).isFalse();
    }

    @Test
    void anOutageFailsWhatNeedsTheStoreKeepsWhatIsKnownAndLosesNothing() throws Exception {
        List<SourceFile> kept = List.of(file("a.glb", "glTF"));
        StoredAsset stored = meta(kept, T0);
        List<SourceFile> refused = List.of(file("b.glb", "glTF2"));
        StoredAsset notStored = meta(refused, T0);
        AssetStore a = open(Duration.ZERO);
        AssetStore b = open(Duration.ZERO);
        a.save(stored, kept, Refs.of(stored));
        a.find(stored.id());

        outage();
        try {
            assertThat(a.find(stored.id())).contains(stored); // known here: answered from the index
            assertThatThrownBy(() -> b.find(stored.id())).isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(() -> a.save(notStored, refused, Refs.of(notStored))).isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(a::list).isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(() -> a.readFiles(stored.id())).isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(() -> b.delete(stored.id())).isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(a::check).isInstanceOf(StoreUnavailableException.class);
        } finally {
            recover();
        }
        assertThat(b.find(stored.id())).contains(stored);
        assertThat(b.readFiles(stored.id()).orElseThrow()).containsExactlyElementsOf(kept);
        assertThat(b.find(notStored.id())).isEmpty();
        assertThat(open(Duration.ZERO).list()).containsExactly(stored);
        assertThat(a.corruptIds()).isEmpty();
        assertThat(a.check()).containsEntry("assets", 1);
    }

    @Test
    void stagedFilesAreInvisibleUntilCommitted() throws Exception {
        AssetStore a = open(Duration.ZERO);
        AssetStore b = open(Duration.ZERO);
        List<SourceFile> files = List.of(file("a.glb", "glTF"));
        StoredAsset meta = meta(files, T0);
        AssetStore.Staged staged = a.stage(meta.id(), files);
        assertThat(b.find(meta.id())).isEmpty();
        assertThat(b.list()).isEmpty();
        assertThatThrownBy(() -> b.commit(staged, meta, Refs.of(meta))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("files staged by another store");
        a.discard(staged);
        assertThat(b.find(meta.id())).isEmpty();

        AssetStore.Staged wrongId = a.stage("0".repeat(64), files);
        assertThatThrownBy(() -> a.commit(wrongId, meta, Refs.of(meta))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("files staged for " + "0".repeat(64) + " cannot be stored as " + meta.id());
        assertThat(a.commit(a.stage(meta.id(), files), meta, Refs.of(meta))).isEqualTo(meta);
        assertThat(b.find(meta.id())).contains(meta);
    }

    @Test
    void tenantsHoldReferencesTheLastOfWhichTakesTheAssetWithIt() throws Exception {
        List<SourceFile> files = List.of(file("a.gltf", "{\"refs\":1}"));
        StoredAsset meta = meta(files, T0);
        AssetStore a = open(Duration.ZERO);
        AssetStore b = open(Duration.ZERO);
        Reference acme = Refs.of("acme", meta);
        assertThat(a.save(meta, files, acme)).isEqualTo(meta);
        assertThat(b.reference("acme", meta.id())).contains(acme);
        assertThat(b.reference("globex", meta.id())).isEmpty();
        // another tenant's reference to the same bytes, added on the other replica
        Reference globex = new Reference("globex", meta.id(), "their-name.gltf", "gltf", meta.sizeBytes(),
                T0.plusSeconds(60));
        assertThat(b.addReference(globex)).containsSame(globex);
        // adding it again keeps the first (the same instance is not returned)
        Reference again = new Reference("globex", meta.id(), "renamed.gltf", "gltf", meta.sizeBytes(), T0.plusSeconds(99));
        assertThat(a.addReference(again)).contains(globex);
        assertThat(a.references("globex")).containsExactly(globex);
        assertThat(a.references("acme")).containsExactly(acme);
        assertThat(b.references()).containsExactly(acme, globex);
        // a reference to an asset that is not stored is not added
        assertThat(a.addReference(new Reference("acme", "0".repeat(64), "x", "gltf", 1, T0))).isEmpty();
        // removing one keeps the asset for the other tenant; removing the last deletes it
        assertThat(a.removeReference("acme", meta.id())).isEqualTo(AssetStore.Removal.REFERENCE);
        assertThat(a.removeReference("acme", meta.id())).isEqualTo(AssetStore.Removal.NONE);
        assertThat(b.reference("acme", meta.id())).isEmpty();
        assertThat(b.find(meta.id())).contains(meta);
        assertThat(b.readFiles(meta.id()).orElseThrow()).hasSize(1);
        assertThat(b.removeReference("globex", meta.id())).isEqualTo(AssetStore.Removal.ASSET);
        assertThat(a.find(meta.id())).isEmpty();
        assertThat(a.references()).isEmpty();
        // and a new instance on the store (a restart) finds what is left: nothing
        assertThat(open(Duration.ZERO).references()).isEmpty();
    }

    @Test
    void referencesSurviveARestartAndAnAssetStoredAgainKeepsThem() throws Exception {
        List<SourceFile> files = List.of(file("a.gltf", "{\"refs\":2}"));
        StoredAsset meta = meta(files, T0);
        AssetStore a = open(Duration.ZERO);
        a.save(meta, files, Refs.of("acme", meta));
        assertThat(a.commit(a.stage(meta, files, Refs.of("globex", meta)), meta, Refs.of("globex", meta)))
                .isEqualTo(meta);
        AssetStore restarted = open(Duration.ZERO);
        assertThat(restarted.references("acme")).extracting(Reference::id).containsExactly(meta.id());
        assertThat(restarted.references("globex")).extracting(Reference::id).containsExactly(meta.id());
        // a damaged copy replaced by a fresh upload of one tenant keeps the other's reference
        damage(meta.id(), 0);
        AssetStore fresh = open(Duration.ZERO);
        assertThatThrownBy(() -> fresh.readFiles(meta.id())).isInstanceOf(CorruptAssetException.class);
        fresh.save(meta, files, Refs.of("acme", meta));
        assertThat(fresh.readFiles(meta.id()).orElseThrow()).hasSize(1);
        assertThat(open(Duration.ZERO).reference("globex", meta.id())).isPresent();
    }
}
