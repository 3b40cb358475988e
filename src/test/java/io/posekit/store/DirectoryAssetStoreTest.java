package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.asset.SourceFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryAssetStoreTest {

    @TempDir
    Path dir;

    private static SourceFile file(String name, String content) {
        return new SourceFile(name, content.getBytes(StandardCharsets.UTF_8));
    }

    private static StoredAsset meta(List<SourceFile> files) {
        return new StoredAsset(ContentId.of(files), "a.gltf", "gltf", 5, Instant.parse("2026-11-22T10:00:00Z"),
                ContentId.canonicalOrder(files).stream().map(f -> new StoredAsset.StoredFile(f.name(), f.size())).toList());
    }

    @Test
    void savesReadsListsAndDeletesAcrossRestarts() {
        List<SourceFile> files = List.of(file("b.bin", "xyz"), file("a.gltf", "{}"));
        StoredAsset meta = meta(files);
        DirectoryAssetStore store = new DirectoryAssetStore(dir);
        assertThat(store.save(meta, files, Refs.of(meta))).isEqualTo(meta);

        AssetStore reopened = new DirectoryAssetStore(dir);
        assertThat(reopened.find(meta.id())).contains(meta);
        assertThat(reopened.list()).containsExactly(meta);
        List<SourceFile> read = reopened.readFiles(meta.id()).orElseThrow();
        assertThat(read).containsExactly(file("a.gltf", "{}"), file("b.bin", "xyz"));

        assertThat(reopened.delete(meta.id())).isTrue();
        assertThat(reopened.delete(meta.id())).isFalse();
        assertThat(new DirectoryAssetStore(dir).list()).isEmpty();
        assertThat(dir.resolve(meta.id())).doesNotExist();
    }

    @Test
    void aDeletedAssetsDirectoryIsTheNextUploadsAndItsOldContentIsGone() throws IOException {
        List<SourceFile> files = List.of(file("b.bin", "xyz"), file("a.gltf", "{}"));
        StoredAsset meta = meta(files);
        DirectoryAssetStore store = new DirectoryAssetStore(dir);
        store.save(meta, files, Refs.of(meta));
        Object inode = Files.getAttribute(dir.resolve(meta.id()), "unix:ino");
        store.delete(meta.id());

        List<SourceFile> other = List.of(file("c.glb", "glTF"));
        StoredAsset next = meta(other);
        store.save(next, other, Refs.of(next));
        assertThat(Files.getAttribute(dir.resolve(next.id()), "unix:ino")).isEqualTo(inode);
        assertThat(spares(dir)).isEmpty();
        assertThat(dir.resolve(next.id()).resolve("files").toFile().list()).containsExactly("0");
        assertThat(dir.resolve(next.id()).resolve("refs").toFile().list()).hasSize(1);
        assertThat(new DirectoryAssetStore(dir).readFiles(next.id())).contains(other);
        assertThat(new DirectoryAssetStore(dir).find(meta.id())).isEmpty();
    }

    @Test
    void aSharedStoreKeepsNoSpareDirectory() {
        // another replica's start-up removes temporaries older than an hour: a spare could go while this one holds it
        List<SourceFile> files = List.of(file("a.glb", "glTF"));
        StoredAsset meta = meta(files);
        DirectoryAssetStore shared = new DirectoryAssetStore(dir, true, java.time.Duration.ofSeconds(10));
        shared.save(meta, files, Refs.of(meta));
        shared.delete(meta.id());
        assertThat(dir.toFile().list()).isEmpty();
    }

    @Test
    void savingTheSameContentTwiceKeepsTheFirst() {
        List<SourceFile> files = List.of(file("a.glb", "glTF"));
        StoredAsset first = meta(files);
        DirectoryAssetStore store = new DirectoryAssetStore(dir);
        store.save(first, files, Refs.of(first));
        StoredAsset second = new StoredAsset(first.id(), "renamed.glb", "gltf", 4, Instant.now(), first.files());
        assertThat(store.save(second, files, Refs.of(second))).isEqualTo(first);
        assertThat(new DirectoryAssetStore(dir).find(first.id())).contains(first);
    }

    @Test
    void removesIncompleteWritesAndIgnoresForeignEntriesOnStart() throws IOException {
        Files.createDirectories(dir.resolve(".incoming-123/files"));
        Files.writeString(dir.resolve(".incoming-123/files/0"), "partial");
        Files.createDirectories(dir.resolve("not-an-id"));
        String bogusId = "0".repeat(64);
        Files.createDirectories(dir.resolve(bogusId));
        Files.writeString(dir.resolve(bogusId).resolve("manifest.json"), "{broken");
        DirectoryAssetStore store = new DirectoryAssetStore(dir);
        assertThat(store.list()).isEmpty();
        assertThat(dir.resolve(".incoming-123")).doesNotExist();
        assertThat(dir.resolve("not-an-id")).exists();
    }

    @Test
    void removesAHealthProbeAndADeletionLeftByACrashOnStart() throws IOException {
        Files.writeString(dir.resolve(".health-4711.probe"), "");
        Files.createDirectories(dir.resolve(".deleted-123/files"));
        Files.writeString(dir.resolve(".deleted-123/files/0"), "deleted");
        Files.createDirectories(dir.resolve(SpareDirectories.PREFIX + "456/refs"));
        new DirectoryAssetStore(dir);
        assertThat(dir.toFile().list()).isEmpty();
    }

    /**
     * What a {@link DirectoryAssetStore.DirectorySync} is asked to sync, relative to the store directory, and what the
     * store directory holds at that moment (temporary names without their random part).
     */
    /** What each directory sync saw ({@link #describeSync}), in the order they ended. */
    private final List<String> syncs = java.util.Collections.synchronizedList(new ArrayList<>());

    /** A store whose directory syncs are recorded in {@link #syncs}. */
    private DirectoryAssetStore recordingStore() {
        return new DirectoryAssetStore(dir, this::recordSync);
    }

    private void recordSync(Path synced) throws IOException {
        syncs.add(describeSync(synced));
    }

    private String describeSync(Path synced) throws IOException {
        Path root = dir.toAbsolutePath().normalize();
        String what = root.equals(synced) ? "<root>" : root.relativize(synced).toString();
        try (Stream<Path> entries = Files.list(root)) {
            return mask(what) + " holding " + entries.map(p -> mask(p.getFileName().toString())).sorted().toList();
        }
    }

    private static String mask(String name) {
        return name.replaceAll("^\\.(incoming|deleted)-[0-9a-f-]{36}", ".$1-*");
    }

    @Test
    void aSaveReturnsOnceItsStagedCopyIsSyncedAndADeleteOnceItsRenameIs() throws IOException {
        // the staged copy's directories and the store directory are synced at once (on several threads), so in any
        // order; the store directory then holds the staged copy's name, which recovery finds if the rename is lost
        DirectoryAssetStore store = recordingStore();
        List<SourceFile> files = List.of(file("b.bin", "xyz"), file("a.gltf", "{}"));
        StoredAsset meta = meta(files);

        store.save(meta, files, Refs.of(meta));
        // the files, the manifest and the uploading tenant's reference are made durable together; the rename into
        // place is not synced (nothing is synced twice, and nothing after the parse)
        assertThat(syncs).containsExactlyInAnyOrder(
                ".incoming-*/files holding [.incoming-*]",
                ".incoming-* holding [.incoming-*]",
                ".incoming-*/refs holding [.incoming-*]",
                "<root> holding [.incoming-*]");
        assertThat(entries(dir)).containsExactly(meta.id());

        syncs.clear();
        store.delete(meta.id());
        assertThat(syncs).containsExactly("<root> holding [.deleted-*]");
        assertThat(entries(dir)).isEmpty();
        // emptied, its directory is kept for the next upload: no sync, nothing of the asset in it
        assertThat(spares(dir)).singleElement().satisfies(spare -> assertThat(
                dir.resolve(spare).toFile().list()).containsExactlyInAnyOrder("files", "refs"));
    }

    @Test
    void aCommitOfWhatWasStagedWithItsDescriptionAndReferenceSyncsNothing() throws IOException {
        DirectoryAssetStore store = recordingStore();
        List<SourceFile> files = List.of(file("b.bin", "xyz"), file("a.gltf", "{}"));
        StoredAsset meta = meta(files);

        AssetStore.Staged staged = store.stage(meta, files, Refs.of(meta));
        assertThat(syncs).containsExactlyInAnyOrder(
                ".incoming-*/files holding [.incoming-*]",
                ".incoming-* holding [.incoming-*]",
                ".incoming-*/refs holding [.incoming-*]",
                "<root> holding [.incoming-*]");
        assertThat(store.find(meta.id())).isEmpty(); // staged is not stored

        syncs.clear();
        assertThat(store.commit(staged, meta, Refs.of(meta))).isEqualTo(meta);
        assertThat(syncs).isEmpty();
        assertThat(new DirectoryAssetStore(dir).find(meta.id())).contains(meta);
        assertThat(new DirectoryAssetStore(dir).readFiles(meta.id()).orElseThrow())
                .extracting(SourceFile::name).containsExactly("a.gltf", "b.bin");
    }

    @Test
    void aSharedStoreSyncsTheStoreDirectoryAfterTheRenameAndNotBefore() throws IOException {
        // another replica's start-up keeps a young incoming directory, so a shared store cannot leave the rename to
        // recovery: it syncs it, as before recovery existed
        DirectoryAssetStore store = new DirectoryAssetStore(dir, true, java.time.Duration.ofSeconds(10), this::recordSync);
        List<SourceFile> files = List.of(file("b.bin", "xyz"), file("a.gltf", "{}"));
        StoredAsset meta = meta(files);

        AssetStore.Staged staged = store.stage(meta, files, Refs.of(meta));
        assertThat(syncs).containsExactlyInAnyOrder(
                ".incoming-*/files holding [.incoming-*]",
                ".incoming-* holding [.incoming-*]",
                ".incoming-*/refs holding [.incoming-*]");
        syncs.clear();
        store.commit(staged, meta, Refs.of(meta));
        assertThat(syncs).containsExactly("<root> holding [" + meta.id() + "]");
    }

    @Test
    void aCommitWithAnotherDescriptionThanTheStagedOneStoresTheCommittedOne() throws IOException {
        DirectoryAssetStore store = recordingStore();
        List<SourceFile> files = List.of(file("a.glb", "glTF"));
        StoredAsset staged = meta(files);
        StoredAsset committed = new StoredAsset(staged.id(), "inner.glb", "gltf", 4,
                Instant.parse("2026-11-22T10:00:01Z"), staged.files());

        AssetStore.Staged s = store.stage(staged, files, Refs.of(staged));
        syncs.clear();
        assertThat(store.commit(s, committed, Refs.of(staged))).isEqualTo(committed);
        // the replaced manifest is made durable in its directory before the rename, which is not synced
        assertThat(syncs).containsExactly(".incoming-* holding [.incoming-*]");
        assertThat(new DirectoryAssetStore(dir).find(staged.id())).contains(committed);
    }

    @Test
    void filesStagedWithoutTheirDescriptionGetItAndTheReferenceSyncedAtCommitBeforeTheRename() throws IOException {
        // an upload whose names do not tell its model file (a zip whose central directory names other files than its
        // entries do): its description is known only from its parse
        DirectoryAssetStore store = recordingStore();
        List<SourceFile> files = List.of(file("cube.zip", "PK"));
        StoredAsset meta = meta(files);

        AssetStore.Staged staged = store.stage(meta.id(), files);
        assertThat(syncs).containsExactlyInAnyOrder(".incoming-*/files holding [.incoming-*]",
                "<root> holding [.incoming-*]");
        syncs.clear();
        assertThat(store.commit(staged, meta, Refs.of(meta))).isEqualTo(meta);
        assertThat(syncs).containsExactlyInAnyOrder(".incoming-* holding [.incoming-*]",
                ".incoming-*/refs holding [.incoming-*]");
        assertThat(new DirectoryAssetStore(dir).reference(Reference.DEFAULT_TENANT, meta.id())).contains(Refs.of(meta));
    }

    @Test
    void aStagedCopyWhoseSyncFailsIsRemovedAndNothingIsStored() {
        Path root = dir.toAbsolutePath().normalize();
        DirectoryAssetStore store = new DirectoryAssetStore(dir, synced -> {
            if (!root.equals(synced) && synced.getFileName().toString().equals("files")) {
                throw new IOException("EIO");
            }
        });
        List<SourceFile> files = List.of(file("a.glb", "glTF"), file("b.bin", "x"));
        StoredAsset meta = meta(files);
        assertThatThrownBy(() -> store.stage(meta, files)).isInstanceOf(StoreUnavailableException.class)
                .hasMessage("cannot store asset " + meta.id()).hasRootCauseMessage("EIO");
        assertThat(entries(dir)).isEmpty();
        assertThat(store.find(meta.id())).isEmpty();
    }

    @Test
    void aFailedSyncFailsTheSaveUntilASaveThatSyncs() throws IOException {
        AtomicBoolean failIncoming = new AtomicBoolean(true);
        AtomicBoolean failRoot = new AtomicBoolean(true);
        Path root = dir.toAbsolutePath().normalize();
        DirectoryAssetStore.DirectorySync failing = synced -> {
            if (root.equals(synced) ? failRoot.get() : failIncoming.get()) {
                throw new IOException("EIO");
            }
        };
        DirectoryAssetStore store = new DirectoryAssetStore(dir, failing);
        List<SourceFile> files = List.of(file("a.glb", "glTF"));
        StoredAsset meta = meta(files);

        // the incoming directory could not be synced: nothing is left behind
        assertThatThrownBy(() -> store.save(meta, files, Refs.of(meta))).isInstanceOf(UncheckedIOException.class)
                .hasMessage("cannot store asset " + meta.id()).hasRootCauseMessage("EIO");
        assertThat(entries(dir)).isEmpty();

        // the store directory, holding the incoming directory's name, could not be synced: the same
        failIncoming.set(false);
        assertThatThrownBy(() -> store.save(meta, files, Refs.of(meta))).isInstanceOf(StoreUnavailableException.class)
                .hasMessage("cannot store asset " + meta.id()).hasRootCauseMessage("EIO");
        assertThat(store.list()).isEmpty();
        assertThat(entries(dir)).isEmpty();

        // shared, the rename is synced after it: renamed into place but not synced is not acknowledged, so renamed
        // away again
        DirectoryAssetStore shared = new DirectoryAssetStore(dir, true, java.time.Duration.ofSeconds(10), failing);
        assertThatThrownBy(() -> shared.save(meta, files, Refs.of(meta))).isInstanceOf(StoreUnavailableException.class)
                .hasMessage("cannot store asset " + meta.id()).hasRootCauseMessage("EIO");
        assertThat(shared.find(meta.id())).isEmpty();
        assertThat(shared.list()).isEmpty();
        assertThat(entries(dir)).isEmpty();

        // saving again writes it once more, and acknowledges it once the syncs succeed
        failRoot.set(false);
        assertThat(store.save(meta, files, Refs.of(meta))).isEqualTo(meta);
        assertThat(store.list()).containsExactly(meta);
        assertThat(entries(dir)).containsExactly(meta.id());
        assertThat(new DirectoryAssetStore(dir).find(meta.id())).contains(meta);
    }

    /** Flips one bit of a stored file, as bit rot would. */
    static void flipAByte(Path file, int offset) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[offset] ^= 0x10;
        Files.write(file, bytes);
    }

    /** The names in a store directory but its spare directories ({@link SpareDirectories}), sorted. */
    static List<String> entries(Path dir) {
        String[] names = dir.toFile().list();
        return java.util.Arrays.stream(names == null ? new String[0] : names)
                .filter(n -> !n.startsWith(SpareDirectories.PREFIX)).sorted().toList();
    }

    /** The spare directories in a store directory. */
    static List<String> spares(Path dir) {
        String[] names = dir.toFile().list();
        return java.util.Arrays.stream(names == null ? new String[0] : names)
                .filter(n -> n.startsWith(SpareDirectories.PREFIX)).toList();
    }

    static List<String> leftovers(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".")).toList();
        }
    }

    @Test
    void aFlippedByteIsReportedNeverServed() throws IOException {
        List<SourceFile> files = List.of(file("b.bin", "xyz"), file("a.gltf", "{}"));
        StoredAsset meta = meta(files);
        new DirectoryAssetStore(dir).save(meta, files, Refs.of(meta));
        flipAByte(dir.resolve(meta.id()).resolve("files/1"), 1); // b.bin: xyz -> xjz

        DirectoryAssetStore store = new DirectoryAssetStore(dir);
        assertThat(store.find(meta.id())).contains(meta); // known, listed…
        assertThatThrownBy(() -> store.readFiles(meta.id())).isInstanceOf(CorruptAssetException.class)
                .hasMessage("asset " + meta.id() + " is corrupt in the store: content does not match its id;"
                        + " delete it and upload again");
        assertThat(store.corruptIds()).containsExactly(meta.id());
        assertThat(store.corruption(meta.id())).contains("content does not match its id");
        // …and stays corrupt without reading again
        assertThatThrownBy(() -> store.readFiles(meta.id())).isInstanceOf(CorruptAssetException.class);

        assertThat(store.delete(meta.id())).isTrue();
        assertThat(store.corruptIds()).isEmpty();
        assertThat(store.readFiles(meta.id())).isEmpty();
        assertThat(dir.resolve(meta.id())).doesNotExist();
    }

    @Test
    void aMissingFileIsReported() throws IOException {
        List<SourceFile> files = List.of(file("b.bin", "xyz"), file("a.gltf", "{}"));
        StoredAsset meta = meta(files);
        DirectoryAssetStore store = new DirectoryAssetStore(dir);
        store.save(meta, files, Refs.of(meta));
        Files.delete(dir.resolve(meta.id()).resolve("files/1"));
        assertThatThrownBy(() -> store.readFiles(meta.id())).isInstanceOf(CorruptAssetException.class)
                .hasMessage("asset " + meta.id() + " is corrupt in the store: file 1 (b.bin) is missing;"
                        + " delete it and upload again");
    }

    @Test
    void anUnreadableManifestIsCorruptAndCanBeDeleted() throws IOException {
        List<SourceFile> files = List.of(file("a.glb", "glTF"));
        StoredAsset meta = meta(files);
        new DirectoryAssetStore(dir).save(meta, files, Refs.of(meta));
        Files.writeString(dir.resolve(meta.id()).resolve("manifest.json"), "{\"id\":");

        DirectoryAssetStore store = new DirectoryAssetStore(dir);
        assertThat(store.list()).isEmpty();
        assertThat(store.corruption(meta.id())).contains("its manifest is unreadable");
        assertThatThrownBy(() -> store.readFiles(meta.id())).isInstanceOf(CorruptAssetException.class)
                .hasMessageContaining("its manifest is unreadable");
        assertThat(store.delete(meta.id())).isTrue();
        assertThat(dir.resolve(meta.id())).doesNotExist();
        assertThat(store.delete(meta.id())).isFalse();
    }

    @Test
    void savingTheSameContentAgainReplacesACorruptCopy() throws IOException {
        List<SourceFile> files = List.of(file("a.glb", "glTF"));
        StoredAsset first = meta(files);
        DirectoryAssetStore store = new DirectoryAssetStore(dir);
        store.save(first, files, Refs.of(first));
        flipAByte(dir.resolve(first.id()).resolve("files/0"), 0);
        assertThatThrownBy(() -> store.readFiles(first.id())).isInstanceOf(CorruptAssetException.class);

        StoredAsset again = new StoredAsset(first.id(), "again.glb", "gltf", 4, Instant.parse("2026-11-23T10:00:00Z"),
                first.files());
        assertThat(store.save(again, files, Refs.of(again))).isSameAs(again);
        assertThat(store.corruptIds()).isEmpty();
        assertThat(store.readFiles(first.id()).orElseThrow()).containsExactly(file("a.glb", "glTF"));
        assertThat(new DirectoryAssetStore(dir).find(first.id())).contains(again);
        assertThat(leftovers(dir)).isEmpty();
    }

    @Test
    void concurrentSavesOfTheSameContentKeepOneCopy() throws Exception {
        List<SourceFile> files = List.of(file("a.glb", "glTF".repeat(10_000)));
        DirectoryAssetStore store = new DirectoryAssetStore(dir);
        int n = 8;
        CountDownLatch start = new CountDownLatch(1);
        List<StoredAsset> metas = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            metas.add(new StoredAsset(ContentId.of(files), "a" + i + ".glb", "gltf", 40_000,
                    Instant.parse("2026-11-22T10:00:00Z").plusSeconds(i), List.of(new StoredAsset.StoredFile("a.glb", 40_000))));
        }
        ExecutorService threads = Executors.newFixedThreadPool(n);
        try {
            List<Future<StoredAsset>> saved = new ArrayList<>();
            for (StoredAsset m : metas) {
                saved.add(threads.submit(() -> {
                    start.await();
                    return store.save(m, files, Refs.of(m));
                }));
            }
            start.countDown();
            List<StoredAsset> results = new ArrayList<>();
            for (Future<StoredAsset> f : saved) {
                results.add(f.get(30, TimeUnit.SECONDS));
            }
            StoredAsset winner = results.getFirst();
            assertThat(results).allSatisfy(r -> assertThat(r).isSameAs(winner));
            assertThat(metas).containsOnlyOnce(winner);
        } finally {
            threads.shutdownNow();
        }
        assertThat(store.list()).hasSize(1);
        assertThat(entries(dir)).containsExactly(ContentId.of(files));
    }

    @Test
    void anotherProcessStoringTheSameContentFirstIsARaceNotAFailure() {
        // two stores on one directory (two instances sharing a volume): the second's rename meets the first's
        // directory, which Linux reports as ENOTEMPTY, a plain FileSystemException
        List<SourceFile> files = List.of(file("a.glb", "glTF"));
        StoredAsset first = meta(files);
        AssetStore one = new DirectoryAssetStore(dir);
        AssetStore two = new DirectoryAssetStore(dir);
        one.save(first, files, Refs.of(first));
        StoredAsset second = new StoredAsset(first.id(), "other.glb", "gltf", 4, Instant.now(), first.files());
        assertThat(two.save(second, files, Refs.of(second))).isEqualTo(first);
        assertThat(entries(dir)).containsExactly(first.id());
    }

    /** Staged files are invisible until committed; discarded or left by a crash, they disappear. */
    @Test
    void stagedFilesAreInvisibleUntilCommitted() {
        DirectoryAssetStore store = new DirectoryAssetStore(dir);
        List<SourceFile> files = List.of(file("a.glb", "glTF"));
        StoredAsset meta = meta(files);
        AssetStore.Staged discarded = store.stage(meta.id(), files);
        assertThat(store.find(meta.id())).isEmpty();
        assertThat(store.list()).isEmpty();
        assertThat(entries(dir)).singleElement().asString().startsWith(".incoming-");
        store.discard(discarded);
        assertThat(entries(dir)).isEmpty();

        AssetStore.Staged wrongId = store.stage("0".repeat(64), files);
        assertThatThrownBy(() -> store.commit(wrongId, meta, Refs.of(meta))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("files staged for " + "0".repeat(64) + " cannot be stored as " + meta.id());
        assertThat(entries(dir)).isEmpty();

        store.stage(meta.id(), files); // never committed: as after a crash
        assertThat(store.commit(store.stage(meta.id(), files), meta, Refs.of(meta))).isEqualTo(meta);
        // a second commit of the same content keeps the first and removes its own staged files
        assertThat(store.commit(store.stage(meta.id(), files), meta, Refs.of(meta))).isSameAs(store.find(meta.id()).orElseThrow());
        assertThat(entries(dir)).hasSize(2).contains(meta.id());
        assertThat(new DirectoryAssetStore(dir).list()).containsExactly(meta);
        assertThat(entries(dir)).containsExactly(meta.id());
    }

    @Test
    void assetsStoredBeforeTenantsAreAdoptedByTheDefaultTenantAndOnesWithNoReferenceLeftAreDeleted() throws IOException {
        List<SourceFile> files = List.of(file("a.gltf", "{\"legacy\":true}"));
        StoredAsset meta = meta(files);
        List<SourceFile> orphanFiles = List.of(file("a.gltf", "{\"orphan\":true}"));
        StoredAsset orphan = meta(orphanFiles);
        DirectoryAssetStore store = new DirectoryAssetStore(dir);
        store.save(meta, files, Refs.of("acme", meta));
        store.save(orphan, orphanFiles, Refs.of("acme", orphan));
        // as an older version wrote it: no refs directory at all
        deleteTree(dir.resolve(meta.id()).resolve("refs"));
        // as a crash between removing the last reference and the asset leaves it: an empty refs directory
        Files.delete(dir.resolve(orphan.id()).resolve("refs").resolve(Reference.tenantKey("acme") + ".json"));
        DirectoryAssetStore reopened = new DirectoryAssetStore(dir);
        assertThat(reopened.references(Reference.DEFAULT_TENANT)).singleElement().satisfies(r -> {
            assertThat(r.id()).isEqualTo(meta.id());
            assertThat(r.name()).isEqualTo(meta.name());
            assertThat(r.createdAt()).isEqualTo(meta.createdAt());
        });
        assertThat(reopened.find(orphan.id())).isEmpty();
        assertThat(dir.resolve(orphan.id())).doesNotExist();
        assertThat(new DirectoryAssetStore(dir).references(Reference.DEFAULT_TENANT)).hasSize(1);
    }

    private static void deleteTree(Path p) throws IOException {
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path x : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(x);
            }
        }
    }
}
