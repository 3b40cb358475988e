package io.posekit.asset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The three homes of a file's content — an array, a channel, a mapping — read the same through every accessor. */
class SourceFileTest {

    @TempDir
    Path dir;

    private static byte[] content() {
        byte[] bytes = new byte[3 << 20]; // past the 1 MB read chunk
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31 + (i >>> 13));
        }
        return bytes;
    }

    @Test
    void arrayChannelAndMappingReadAlike() throws IOException {
        byte[] bytes = content();
        Path path = Files.write(dir.resolve("a.glb"), bytes);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            List<SourceFile> files = List.of(new SourceFile("a.glb", bytes),
                    SourceFile.onDisk("a.glb", channel, bytes.length, null, path), SourceFile.map("a.glb", path));
            for (SourceFile f : files) {
                assertThat(f.size()).isEqualTo(bytes.length);
                assertThat(f.bytes()).isEqualTo(bytes);
                assertThat(f.read(1_500_000, 7)).isEqualTo(Arrays.copyOfRange(bytes, 1_500_000, 1_500_007));
                ByteBuffer buffer = f.buffer();
                assertThat(buffer.capacity()).isEqualTo(bytes.length);
                assertThat(buffer.get(2_999_999)).isEqualTo(bytes[2_999_999]);
                try (InputStream in = f.open()) {
                    assertThat(in.read()).isEqualTo(bytes[0] & 0xff);
                    assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(bytes, 1, bytes.length));
                    assertThat(in.read()).isEqualTo(-1);
                }
                assertThatThrownBy(() -> f.read(bytes.length - 3, 4)).isInstanceOf(IndexOutOfBoundsException.class);
            }
            assertThat(files.get(0).isOnDisk()).isFalse();
            assertThat(files.get(1).isOnDisk()).isTrue();
            assertThat(files.get(2).isOnDisk()).isTrue();
            assertThat(files.get(2).channel()).isNull();
        }
    }

    @Test
    void aMappingOutlivesItsFile() throws IOException {
        byte[] bytes = content();
        Path path = Files.write(dir.resolve("b.bin"), bytes);
        SourceFile mapped = SourceFile.map("b.bin", path);
        Files.delete(path); // as a deleted asset's files, while a parse still reads them
        assertThat(mapped.read(bytes.length - 5, 5)).isEqualTo(Arrays.copyOfRange(bytes, bytes.length - 5,
                bytes.length));
        assertThatThrownBy(() -> SourceFile.map("gone.bin", path)).isInstanceOf(IOException.class);
    }

    @Test
    void anEmptyFileMapsToAnEmptyBuffer() throws IOException {
        SourceFile empty = SourceFile.map("e.glb", Files.write(dir.resolve("e.glb"), new byte[0]));
        assertThat(empty.size()).isZero();
        assertThat(empty.buffer().capacity()).isZero();
        assertThat(empty.bytes()).isEmpty();
    }
}
