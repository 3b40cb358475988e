package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpareDirectoriesTest {

    @TempDir
    Path root;

    private static Object inode(Path p) throws IOException {
        return Files.getAttribute(p, "unix:ino");
    }

    private static List<String> names(Path dir) {
        String[] names = dir.toFile().list();
        return names == null ? List.of() : List.of(names);
    }

    private Path filled(String name) throws IOException {
        Path dir = root.resolve(name);
        Files.createDirectories(dir.resolve("files/nested"));
        Files.createDirectories(dir.resolve("refs"));
        Files.writeString(dir.resolve("files/0"), "data");
        Files.writeString(dir.resolve("files/nested/1"), "more");
        Files.writeString(dir.resolve("refs/t.json"), "{}");
        Files.writeString(dir.resolve("manifest.json"), "{}");
        return dir;
    }

    @Test
    void withoutSparesADirectoryIsMadeWithItsEmptySubdirectories() throws IOException {
        SpareDirectories spares = new SpareDirectories(root, List.of("files", "refs"), 4);
        Path dir = root.resolve(".incoming-1");
        spares.make(dir);
        assertThat(names(dir)).containsExactlyInAnyOrder("files", "refs");
        assertThat(names(dir.resolve("files"))).isEmpty();
        assertThat(names(dir.resolve("refs"))).isEmpty();
    }

    @Test
    void aRecycledDirectoryIsEmptiedAndMadeAgainUnderTheNextName() throws IOException {
        SpareDirectories spares = new SpareDirectories(root, List.of("files", "refs"), 4);
        Path deleted = filled(".deleted-1");
        Object ino = inode(deleted);
        Object filesIno = inode(deleted.resolve("files"));

        spares.recycle(deleted);
        assertThat(spares.size()).isEqualTo(1);
        assertThat(names(root)).singleElement().asString().startsWith(SpareDirectories.PREFIX);
        Path spare = root.resolve(names(root).getFirst());
        assertThat(names(spare)).containsExactlyInAnyOrder("files", "refs");
        assertThat(names(spare.resolve("files"))).isEmpty();
        assertThat(names(spare.resolve("refs"))).isEmpty();

        Path next = root.resolve(".incoming-2");
        spares.make(next);
        assertThat(inode(next)).isEqualTo(ino);
        assertThat(inode(next.resolve("files"))).isEqualTo(filesIno);
        assertThat(names(root)).containsExactly(".incoming-2");
        assertThat(spares.size()).isZero();
    }

    @Test
    void atMostCapacitySparesAreKeptTheRestRemoved() throws IOException {
        SpareDirectories spares = new SpareDirectories(root, List.of("files", "refs"), 2);
        for (int i = 0; i < 3; i++) {
            spares.recycle(filled(".deleted-" + i));
        }
        assertThat(spares.size()).isEqualTo(2);
        assertThat(names(root)).hasSize(2).allSatisfy(n -> assertThat(n).startsWith(SpareDirectories.PREFIX));
    }

    @Test
    void noneAreKeptAtCapacityZeroNorADirectoryWithoutItsSubdirectories() throws IOException {
        SpareDirectories none = new SpareDirectories(root, List.of("files", "refs"), 0);
        none.recycle(filled(".deleted-1"));
        assertThat(names(root)).isEmpty();

        SpareDirectories spares = new SpareDirectories(root, List.of("files", "refs"), 4);
        Path partial = root.resolve(".deleted-2");
        Files.createDirectories(partial.resolve("files"));
        Files.writeString(partial.resolve("files/0"), "data");
        spares.recycle(partial);
        assertThat(names(root)).isEmpty();
        assertThat(spares.size()).isZero();
    }

    @Test
    void aSpareRemovedMeanwhileIsReplacedByANewDirectory() throws IOException {
        SpareDirectories spares = new SpareDirectories(root, List.of("files", "refs"), 4);
        spares.recycle(filled(".deleted-1"));
        DurableFiles.deleteTree(root.resolve(names(root).getFirst()));

        Path next = root.resolve(".incoming-2");
        spares.make(next);
        assertThat(names(next)).containsExactlyInAnyOrder("files", "refs");
        assertThat(spares.size()).isZero();
    }
}
