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
 * An upload's spool: files written piece by piece read back byte for byte, hashed as written, readable through their
 * channel after a store moved them, removed on close; a crash's old spools removed at start-up, young ones kept.
 */
class UploadSpoolTest {

    @TempDir
    Path dir;

    @Test
    void filesWrittenInPiecesReadBackWithTheirHashAndAreRemovedOnClose() throws Exception {
        byte[] content = new byte[3 * 1024 * 1024 + 17];
        new SplittableRandom(3).nextBytes(content);
        UploadSpool spool = new UploadSpool(dir);
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
        spool.close();
        assertThat(spool.directory()).doesNotExist();
        assertThat(moved).exists(); // what the store took is the store's
        assertThatThrownBy(() -> spool.create("late.glb")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aCrashsOldSpoolsAreRemovedAndYoungOnesKept() throws Exception {
        Path old = Files.createDirectories(dir.resolve(UploadSpool.PREFIX + "old"));
        Files.write(old.resolve("0"), new byte[10]);
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
        Path young = Files.createDirectories(dir.resolve(UploadSpool.PREFIX + "young"));
        Files.write(young.resolve("0"), new byte[10]);
        Path other = Files.createDirectories(dir.resolve("not-a-spool"));
        Files.setLastModifiedTime(other, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
        UploadSpool.removeLeftovers(dir, Duration.ofHours(1));
        assertThat(old).doesNotExist();
        assertThat(young.resolve("0")).exists();
        assertThat(other).exists();
    }
}
