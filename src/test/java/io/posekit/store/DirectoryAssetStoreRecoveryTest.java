package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.SourceFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recovery of uploads a crash left staged ({@link DirectoryAssetStore#recover}). A commit renames the staged copy into
 * place without syncing the store directory, so a power loss can undo an acknowledged rename; no test can cut the
 * power, so these tests stand for it by renaming the asset directory back to the incoming name the commit renamed,
 * which is what such a crash leaves on the disk (its contents were synced before the rename). The check that the
 * files import is a stub of the repository's decision here; {@code AssetRepositoryTest} runs the real importers.
 */
class DirectoryAssetStoreRecoveryTest {

    @TempDir
    Path dir;

    private static SourceFile file(String name, String content) {
        return new SourceFile(name, content.getBytes(StandardCharsets.UTF_8));
    }

    private static StoredAsset meta(List<SourceFile> files) {
        return new StoredAsset(ContentId.of(files), "a.gltf", "gltf", files.stream().mapToLong(SourceFile::size).sum(),
                Instant.parse("2026-11-27T10:00:00Z"),
                ContentId.canonicalOrder(files).stream().map(f -> new StoredAsset.StoredFile(f.name(), f.size())).toList());
    }

    /** Saves an asset for {@code tenant} and undoes its rename, as a power loss before the rename reached the disk. */
    private Path savedButRenameLost(List<SourceFile> files, String tenant) throws IOException {
        StoredAsset meta = meta(files);
        new DirectoryAssetStore(dir, synced -> { }).save(meta, files, Refs.of(tenant, meta));
        Path incoming = dir.resolve(".incoming-" + UUID.randomUUID());
        Files.move(dir.resolve(meta.id()), incoming);
        return incoming;
    }

    private List<String> entries() throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString().replaceAll("^\\.incoming-.*", ".incoming-*"))
                    .sorted().toList();
        }
    }

    private String describeSync(Path synced) throws IOException {
        return (dir.toAbsolutePath().normalize().equals(synced) ? "<root>" : synced.toString()) + " holding " + entries();
    }

    @Test
    void anUploadWhoseRenameDidNotReachTheDiskIsPublishedAgainWithItsReference() throws IOException {
        List<SourceFile> files = List.of(file("b.bin", "xyz"), file("a.gltf", "{}"));
        StoredAsset meta = meta(files);
        savedButRenameLost(files, "acme");

        List<String> syncs = Collections.synchronizedList(new ArrayList<>());
        DirectoryAssetStore store = new DirectoryAssetStore(dir, synced -> syncs.add(describeSync(synced)));
        // kept for recovery, not yet an asset
        assertThat(entries()).containsExactly(".incoming-*");
        assertThat(store.find(meta.id())).isEmpty();

        List<List<SourceFile>> asked = new ArrayList<>();
        assertThat(store.recover((m, f) -> {
            assertThat(m).isEqualTo(meta);
            asked.add(f);
            return true;
        })).containsExactly(meta);
        // the check saw the files as uploaded, in canonical order; one sync of the store directory publishes it
        assertThat(asked).containsExactly(List.of(file("a.gltf", "{}"), file("b.bin", "xyz")));
        assertThat(syncs).containsExactly("<root> holding [" + meta.id() + "]");
        assertThat(store.find(meta.id())).contains(meta);
        assertThat(store.reference("acme", meta.id())).contains(Refs.of("acme", meta));
        assertThat(store.references("acme")).containsExactly(Refs.of("acme", meta));
        assertThat(store.readFiles(meta.id())).contains(List.of(file("a.gltf", "{}"), file("b.bin", "xyz")));
        assertThat(entries()).containsExactly(meta.id());

        // recovery is done once: a second call has nothing left to publish
        assertThat(store.recover((m, f) -> true)).isEmpty();
        DirectoryAssetStore reopened = new DirectoryAssetStore(dir);
        assertThat(reopened.find(meta.id())).contains(meta);
        assertThat(reopened.references("acme")).containsExactly(Refs.of("acme", meta));
    }

    @Test
    void leftoversThatFailACheckAreRemovedAndNothingIsStored() throws IOException {
        List<SourceFile> flipped = List.of(file("flipped.glb", "flipped"));
        List<SourceFile> noManifest = List.of(file("nomanifest.glb", "no manifest"));
        List<SourceFile> noReference = List.of(file("noref.glb", "no reference"));
        List<SourceFile> fileMissing = List.of(file("missing.gltf", "{}"), file("missing.bin", "bin"));
        List<SourceFile> doesNotImport = List.of(file("bad.glb", "does not import"));
        DirectoryAssetStoreTest.flipAByte(savedButRenameLost(flipped, "acme").resolve("files/0"), 2);
        Files.delete(savedButRenameLost(noManifest, "acme").resolve("manifest.json"));
        Files.delete(savedButRenameLost(noReference, "acme").resolve("refs").resolve(Reference.tenantKey("acme") + ".json"));
        Files.delete(savedButRenameLost(fileMissing, "acme").resolve("files/1"));
        savedButRenameLost(doesNotImport, "acme");

        List<String> syncs = Collections.synchronizedList(new ArrayList<>());
        DirectoryAssetStore store = new DirectoryAssetStore(dir, synced -> syncs.add(describeSync(synced)));
        // without a whole manifest and reference an incoming copy was never acknowledged: removed at once
        assertThat(entries()).containsExactly(".incoming-*", ".incoming-*", ".incoming-*");

        List<String> asked = new ArrayList<>();
        assertThat(store.recover((m, f) -> {
            asked.add(m.id());
            return false;
        })).isEmpty();
        // only the copy whose files read back as its id was worth an import
        assertThat(asked).containsExactly(ContentId.of(doesNotImport));
        assertThat(syncs).isEmpty();
        assertThat(entries()).isEmpty();
        assertThat(store.list()).isEmpty();
        assertThat(store.references("acme")).isEmpty();
    }

    @Test
    void anIncomingCopyOfAnAssetInPlaceIsRemovedAndTheOneInPlaceKept() throws IOException {
        // a second upload of stored content found the first and discarded its staged copy, but the removal did not
        // reach the disk; its tenant's reference went to the copy in place
        List<SourceFile> files = List.of(file("a.glb", "glTF"));
        StoredAsset meta = meta(files);
        DirectoryAssetStore store = new DirectoryAssetStore(dir);
        store.save(meta, files, Refs.of("acme", meta));
        StoredAsset other = new StoredAsset(meta.id(), "b.glb", "gltf", 4, Instant.parse("2026-11-27T11:00:00Z"),
                meta.files());
        store.stage(other, files, Refs.of("umbrella", other));

        DirectoryAssetStore reopened = new DirectoryAssetStore(dir);
        List<String> asked = new ArrayList<>();
        assertThat(reopened.recover((m, f) -> asked.add(m.id()))).isEmpty();
        assertThat(asked).isEmpty();
        assertThat(entries()).containsExactly(meta.id());
        assertThat(reopened.find(meta.id())).contains(meta);
        assertThat(reopened.references("acme")).containsExactly(Refs.of("acme", meta));
        assertThat(reopened.references("umbrella")).isEmpty();
    }

    @Test
    void aCheckThatCannotDecideKeepsTheIncomingCopyForTheNextStart() throws IOException {
        List<SourceFile> files = List.of(file("a.glb", "glTF"));
        StoredAsset meta = meta(files);
        savedButRenameLost(files, "acme");

        DirectoryAssetStore store = new DirectoryAssetStore(dir);
        assertThat(store.recover((m, f) -> {
            throw new IllegalStateException("no parsing thread");
        })).isEmpty();
        assertThat(entries()).containsExactly(".incoming-*");
        assertThat(store.find(meta.id())).isEmpty();

        DirectoryAssetStore restarted = new DirectoryAssetStore(dir);
        assertThat(restarted.recover((m, f) -> true)).containsExactly(meta);
        assertThat(restarted.references("acme")).containsExactly(Refs.of("acme", meta));
    }

    @Test
    void aSharedStoreRecoversOnlyIncomingCopiesOlderThanAnotherReplicasWriteCanBe() throws IOException {
        List<SourceFile> oldFiles = List.of(file("old.glb", "old"));
        List<SourceFile> youngFiles = List.of(file("young.glb", "young"));
        Path old = savedButRenameLost(oldFiles, "acme");
        Path young = savedButRenameLost(youngFiles, "acme");
        Instant now = Instant.now();
        Files.setLastModifiedTime(old, FileTime.from(now.minus(DirectoryAssetStore.SHARED_STALE_AFTER).minusSeconds(60)));
        Files.setLastModifiedTime(young, FileTime.from(now));

        DirectoryAssetStore shared = new DirectoryAssetStore(dir, true, Duration.ofSeconds(10));
        assertThat(shared.recover((m, f) -> true)).containsExactly(meta(oldFiles));
        // the young one may be another replica's upload being parsed: untouched
        assertThat(young).isDirectory();
        assertThat(entries()).containsExactly(".incoming-*", meta(oldFiles).id());
        assertThat(shared.find(meta(youngFiles).id())).isEmpty();
    }
}
