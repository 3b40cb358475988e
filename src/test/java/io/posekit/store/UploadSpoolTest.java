package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.asset.SourceFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upload's spool: files written piece by piece read back byte for byte, hashed as written (by the writer, or behind
 * it on an executor, whatever the interleaving), readable through their channel after a store moved them, removed on
 * close; a crash's old spools removed at start-up, young ones kept.
 */
class UploadSpoolTest {

    @TempDir
    Path dir;

    @Test
    void filesWrittenInPiecesReadBackWithTheirHashAndAreRemovedOnClose() throws Exception {
        byte[] content = new byte[3 * 1024 * 1024 + 17];
        new SplittableRandom(3).nextBytes(content);
        UploadSpool spool = new UploadSpool(dir, Runnable::run); // hashing tasks run on the writing thread
        UploadSpool.Writer writer = spool.create("model.glb");
        for (int at = 0; at < content.length; ) {
            int n = Math.min(content.length - at, 1 + at % 70_000);
            writer.write(ByteBuffer.wrap(content, at, n));
            at += n;
        }
        SourceFile file = writer.finish();
        assertThat(file.name()).isEqualTo("model.glb");
        assertThat(file.size()).isEqualTo(content.length);
        assertThat(file.sha256()).isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(content)));
        assertThat(file.bytes()).isEqualTo(content);
        assertThat(file.open().readAllBytes()).isEqualTo(content);
        // a store moves it into place: still readable through its channel
        Path moved = dir.resolve("moved");
        Files.move(file.path(), moved);
        assertThat(file.bytes()).isEqualTo(content);
        assertThat(ContentId.of(java.util.List.of(file, new SourceFile("a.bin", new byte[] {1}))))
                .isEqualTo(ContentId.of(java.util.List.of(new SourceFile("model.glb", content),
                        new SourceFile("a.bin", new byte[] {1}))));
        UploadSpool.Writer second = spool.create("second.bin");
        second.write(ByteBuffer.wrap(new byte[] {4, 2}));
        second.finish();
        assertThat(spool.files()).hasSize(2);
        // no directory of its own: the files are in the spool's parent
        assertThat(spool.files()).allSatisfy(p -> assertThat(p.getParent()).isEqualTo(dir));
        spool.close();
        assertThat(spool.files()).allSatisfy(p -> assertThat(p).doesNotExist());
        try (var left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("moved"); // the store's now
        }
        assertThatThrownBy(() -> spool.create("late.glb")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aCrashsOldSpoolsAreRemovedAndYoungOnesKept() throws Exception {
        Path old = Files.createDirectories(dir.resolve(UploadSpool.PREFIX + "old"));
        Files.write(old.resolve("0"), new byte[10]);
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
        Path young = Files.createDirectories(dir.resolve(UploadSpool.PREFIX + "young"));
        Files.write(young.resolve("0"), new byte[10]);
        // spooled files (no directory), old and young
        Path oldFile = Files.write(dir.resolve(UploadSpool.PREFIX + "old-0"), new byte[10]);
        Files.setLastModifiedTime(oldFile, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
        Path youngFile = Files.write(dir.resolve(UploadSpool.PREFIX + "young-0"), new byte[10]);
        Path other = Files.createDirectories(dir.resolve("not-a-spool"));
        Files.setLastModifiedTime(other, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
        UploadSpool.removeLeftovers(dir, Duration.ofHours(1));
        assertThat(old).doesNotExist();
        assertThat(oldFile).doesNotExist();
        assertThat(young.resolve("0")).exists();
        assertThat(youngFile).exists();
        assertThat(other).exists();
    }

    private static String sha256(byte[] content, int length) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(content, 0, length);
        return HexFormat.of().formatHex(sha.digest());
    }

    @Test
    void hashedBehindTheWriterWhateverWhenItsTasksRun() throws Exception {
        byte[] content = new byte[1024 * 1024 + 5];
        new SplittableRandom(7).nextBytes(content);
        String expected = sha256(content, content.length);
        // the tasks run when the test says: none before the end, after each piece, or every third piece
        for (int every : new int[] {0, 1, 3}) {
            java.util.ArrayDeque<Runnable> queued = new java.util.ArrayDeque<>();
            try (UploadSpool spool = new UploadSpool(dir, queued::add)) {
                UploadSpool.Writer writer = spool.create("m.glb");
                int pieces = 0;
                for (int at = 0; at < content.length; ) {
                    int n = Math.min(content.length - at, 1 + (at * 31) % 90_000);
                    writer.write(ByteBuffer.wrap(content, at, n));
                    at += n;
                    pieces++;
                    // one task at a time per file: another write does not queue a second while one is pending
                    assertThat(queued).hasSizeLessThanOrEqualTo(1);
                    if (every > 0 && pieces % every == 0) {
                        while (!queued.isEmpty()) {
                            queued.poll().run();
                        }
                    }
                }
                SourceFile file = writer.finish();
                // the last byte schedules the task that completes the digest, unless a task has caught up already
                assertThat(queued).hasSizeLessThanOrEqualTo(1);
                while (!queued.isEmpty()) {
                    queued.poll().run();
                }
                assertThat(file.sha256()).as("tasks every %d pieces", every).isEqualTo(expected);
                assertThat(ContentId.of(java.util.List.of(file))).isEqualTo(expected);
            }
        }
    }

    @Test
    void hashedBehindTheWriterByThreadsRacingIt() throws Exception {
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(3);
        try {
            SplittableRandom random = new SplittableRandom(11);
            for (int file = 0; file < 40; file++) {
                byte[] content = new byte[random.nextInt(1, 400_000)];
                random.nextBytes(content);
                try (UploadSpool spool = new UploadSpool(dir, threads)) {
                    UploadSpool.Writer writer = spool.create("f" + file + ".bin");
                    for (int at = 0; at < content.length; ) {
                        int n = Math.min(content.length - at, random.nextInt(1, 70_000));
                        writer.write(ByteBuffer.wrap(content, at, n));
                        at += n;
                    }
                    assertThat(writer.finish().sha256()).isEqualTo(sha256(content, content.length));
                }
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aSmallFileIsHashedByItsWriterWithoutATask() throws Exception {
        byte[] content = new byte[65_536];
        new SplittableRandom(5).nextBytes(content);
        java.util.ArrayDeque<Runnable> queued = new java.util.ArrayDeque<>();
        try (UploadSpool spool = new UploadSpool(dir, queued::add)) {
            UploadSpool.Writer writer = spool.create("small.glb");
            for (int at = 0; at < content.length; at += 4096) {
                writer.write(ByteBuffer.wrap(content, at, 4096));
            }
            SourceFile file = writer.finish();
            assertThat(queued).isEmpty();
            assertThat(file.sha256()).isEqualTo(sha256(content, content.length));
            // one byte more and the rest is a task's: the writer hashed the first 64 KiB, the task reads the byte back
            UploadSpool.Writer larger = spool.create("larger.glb");
            larger.write(ByteBuffer.wrap(content));
            larger.write(ByteBuffer.wrap(new byte[] {7}));
            assertThat(queued).hasSize(1);
            SourceFile big = larger.finish();
            queued.poll().run();
            byte[] all = java.util.Arrays.copyOf(content, content.length + 1);
            all[content.length] = 7;
            assertThat(big.sha256()).isEqualTo(sha256(all, all.length));
        }
    }

    @Test
    void aMissingDirectoryIsMadeWithTheFirstFile() throws Exception {
        Path parent = dir.resolve("not").resolve("yet");
        try (UploadSpool spool = new UploadSpool(parent, Runnable::run)) {
            UploadSpool.Writer writer = spool.create("m.glb");
            writer.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            assertThat(writer.finish().sha256()).isEqualTo(sha256(new byte[] {1, 2, 3}, 3));
            assertThat(spool.files()).singleElement().satisfies(p -> assertThat(p.getParent()).isEqualTo(parent));
        }
    }

    @Test
    void aHashThatCannotFinishIsAStoreFailure() throws Exception {
        // the spool closed under a pending hash (an upload refused midway): whoever still asks is told
        java.util.ArrayDeque<Runnable> queued = new java.util.ArrayDeque<>();
        UploadSpool spool = new UploadSpool(dir, queued::add);
        UploadSpool.Writer writer = spool.create("m.glb");
        writer.write(ByteBuffer.wrap(new byte[100_000]));
        SourceFile file = writer.finish();
        spool.close();
        while (!queued.isEmpty()) {
            queued.poll().run();
        }
        assertThatThrownBy(file::sha256).isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("cannot hash the upload");
        // no hashing threads left (the service stopping): the digest's caller hashes it all, no hang
        try (UploadSpool stopped = new UploadSpool(dir, task -> {
            throw new java.util.concurrent.RejectedExecutionException("stopped");
        })) {
            UploadSpool.Writer w = stopped.create("n.glb");
            byte[] past = new byte[100_000];
            new SplittableRandom(2).nextBytes(past);
            w.write(ByteBuffer.wrap(past));
            assertThat(w.finish().sha256()).isEqualTo(sha256(past, past.length));
        }
    }
}
