package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.SourceFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AssetStoreTest {

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
        AssetStore store = new AssetStore(dir);
        assertThat(store.save(meta, files)).isEqualTo(meta);

        AssetStore reopened = new AssetStore(dir);
        assertThat(reopened.find(meta.id())).contains(meta);
        assertThat(reopened.list()).containsExactly(meta);
        List<SourceFile> read = reopened.readFiles(meta.id()).orElseThrow();
        assertThat(read).containsExactly(file("a.gltf", "{}"), file("b.bin", "xyz"));

        assertThat(reopened.delete(meta.id())).isTrue();
        assertThat(reopened.delete(meta.id())).isFalse();
        assertThat(new AssetStore(dir).list()).isEmpty();
        assertThat(dir.resolve(meta.id())).doesNotExist();
    }

    @Test
    void savingTheSameContentTwiceKeepsTheFirst() {
        List<SourceFile> files = List.of(file("a.glb", "glTF"));
        StoredAsset first = meta(files);
        AssetStore store = new AssetStore(dir);
        store.save(first, files);
        StoredAsset second = new StoredAsset(first.id(), "renamed.glb", "gltf", 4, Instant.now(), first.files());
        assertThat(store.save(second, files)).isEqualTo(first);
        assertThat(new AssetStore(dir).find(first.id())).contains(first);
    }

    @Test
    void removesIncompleteWritesAndIgnoresForeignEntriesOnStart() throws IOException {
        Files.createDirectories(dir.resolve(".incoming-123/files"));
        Files.writeString(dir.resolve(".incoming-123/files/0"), "partial");
        Files.createDirectories(dir.resolve("not-an-id"));
        String bogusId = "0".repeat(64);
        Files.createDirectories(dir.resolve(bogusId));
        Files.writeString(dir.resolve(bogusId).resolve("manifest.json"), "{broken");
        AssetStore store = new AssetStore(dir);
        assertThat(store.list()).isEmpty();
        assertThat(dir.resolve(".incoming-123")).doesNotExist();
        assertThat(dir.resolve("not-an-id")).exists();
    }
}
