package io.posekit.asset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

class ZipUnpackerTest {

    static byte[] zip(Map<String, byte[]> entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey()));
                zip.write(e.getValue());
                zip.closeEntry();
            }
        }
        return out.toByteArray();
    }

    private static Map<String, byte[]> entries(String... namesAndContents) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        for (int i = 0; i < namesAndContents.length; i += 2) {
            m.put(namesAndContents[i], namesAndContents[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return m;
    }

    @Test
    void unpacksFilesWithNormalisedRelativeNamesSkippingDirectories() throws IOException {
        byte[] bytes = zip(entries("model/", "", "model/fox.gltf", "{}", "model/./bin/fox.bin", "BIN", "__MACOSX/x", "junk"));
        List<SourceFile> files = ZipUnpacker.unpack(new SourceFile("fox.zip", bytes), ImportLimits.DEFAULT);
        assertThat(files).extracting(SourceFile::name).containsExactly("model/fox.gltf", "model/bin/fox.bin");
        assertThat(new String(files.get(1).bytes(), StandardCharsets.UTF_8)).isEqualTo("BIN");
    }

    @Test
    void unpacksAnArchiveOnDiskAsFromMemoryReadingItInPieces(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws IOException {
        // a comment as long as a zip allows: the end record is found at the far end of the tail read from the file
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.setComment("c".repeat(0xFFFF));
            for (Map.Entry<String, byte[]> e : entries("fox.gltf", "{}", "bin/fox.bin", "B".repeat(300_000)).entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey()));
                zip.write(e.getValue());
                zip.closeEntry();
            }
        }
        byte[] bytes = out.toByteArray();
        java.nio.file.Path file = java.nio.file.Files.write(dir.resolve("fox.zip"), bytes);
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file)) {
            SourceFile onDisk = SourceFile.onDisk("fox.zip", channel, bytes.length, null, file);
            SourceFile inMemory = new SourceFile("fox.zip", bytes);
            assertThat(onDisk.read(bytes.length - 5, 5)).isEqualTo(java.util.Arrays.copyOfRange(bytes,
                    bytes.length - 5, bytes.length));
            assertThat(ZipUnpacker.listNames(onDisk, ImportLimits.DEFAULT)).contains(List.of("fox.gltf", "bin/fox.bin"));
            List<SourceFile> fromDisk = ZipUnpacker.unpack(onDisk, ImportLimits.DEFAULT);
            assertThat(fromDisk).isEqualTo(ZipUnpacker.unpack(inMemory, ImportLimits.DEFAULT));
            assertThat(fromDisk.get(1).size()).isEqualTo(300_000);
            assertThatThrownBy(() -> onDisk.read(bytes.length - 4, 5)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void listsTheNamesTheUnpackGivesFromTheCentralDirectoryAlone() throws IOException {
        byte[] bytes = zip(entries("model/", "", "model/fox.gltf", "{}", "model/./bin/fox.bin", "BIN", "__MACOSX/x", "junk",
                "model/.DS_Store", "junk"));
        SourceFile fox = new SourceFile("fox.zip", bytes);
        assertThat(ZipUnpacker.listNames(fox, ImportLimits.DEFAULT)).contains(List.of("model/fox.gltf",
                "model/bin/fox.bin"));
        assertThat(ZipUnpacker.listNames(fox, ImportLimits.DEFAULT).orElseThrow()).isEqualTo(
                ZipUnpacker.unpack(fox, ImportLimits.DEFAULT).stream().map(SourceFile::name).toList());
        // nothing is inflated: an entry whose deflated data is garbage is still listed (the unpack then fails)
        byte[] damaged = bytes.clone();
        int data = indexOf(damaged, "model/fox.gltf".getBytes(StandardCharsets.UTF_8)) + "model/fox.gltf".length();
        damaged[data] ^= (byte) 0xFF;
        damaged[data + 1] ^= (byte) 0xFF;
        SourceFile broken = new SourceFile("fox.zip", damaged);
        assertThat(ZipUnpacker.listNames(broken, ImportLimits.DEFAULT)).contains(List.of("model/fox.gltf",
                "model/bin/fox.bin"));
        assertThatThrownBy(() -> ZipUnpacker.unpack(broken, ImportLimits.DEFAULT)).isInstanceOf(ImportException.class);
    }

    @Test
    void listsNothingForWhatTheUnpackWouldRefuse() throws IOException {
        ImportLimits limits = ImportLimits.DEFAULT;
        assertThat(ZipUnpacker.listNames(new SourceFile("a.zip", zip(entries("a/../../etc/passwd", "x"))), limits))
                .isEmpty();
        assertThat(ZipUnpacker.listNames(new SourceFile("a.zip", zip(entries("inner.zip", "PK"))), limits)).isEmpty();
        assertThat(ZipUnpacker.listNames(new SourceFile("a.zip", zip(entries("a/x.gltf", "1", "a/./x.gltf", "2"))),
                limits)).isEmpty(); // the same file twice
        assertThat(ZipUnpacker.listNames(new SourceFile("a.zip", zip(entries("dir/", ""))), limits)).isEmpty();
        byte[] cut = zip(entries("x.gltf", "{}"));
        assertThat(ZipUnpacker.listNames(new SourceFile("a.zip", java.util.Arrays.copyOf(cut, cut.length - 10)),
                limits)).isEmpty(); // no end of central directory record
        assertThat(ZipUnpacker.listNames(new SourceFile("a.zip", "not a zip".getBytes(StandardCharsets.UTF_8)),
                limits)).isEmpty();
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }

    @Test
    void rejectsEntriesClimbingOutOfTheArchive() throws IOException {
        byte[] bytes = zip(entries("a/../../etc/passwd", "x"));
        assertThatThrownBy(() -> ZipUnpacker.unpack(new SourceFile("evil.zip", bytes), ImportLimits.DEFAULT))
                .isInstanceOf(ImportException.class)
                .hasMessage("evil.zip: entry 'a/../../etc/passwd' points outside the archive");
    }

    @Test
    void rejectsAbsolutePathsAndNestedArchives() throws IOException {
        assertThatThrownBy(() -> ZipUnpacker.unpack(new SourceFile("a.zip", zip(entries("/etc/passwd", "x"))),
                ImportLimits.DEFAULT)).hasMessage("a.zip: entry '/etc/passwd' has an absolute path");
        assertThatThrownBy(() -> ZipUnpacker.unpack(new SourceFile("a.zip", zip(entries("inner.zip", "PK"))),
                ImportLimits.DEFAULT)).hasMessage("a.zip: nested archive 'inner.zip' is not allowed");
    }

    @Test
    void stopsAZipBombAtTheRatioCap() throws IOException {
        Map<String, byte[]> m = new LinkedHashMap<>();
        m.put("zeros.bin", new byte[8 << 20]); // 8 MiB of zeros deflates about 1000:1
        byte[] bytes = zip(m);
        assertThat(bytes.length).isLessThan(100_000);
        assertThatThrownBy(() -> ZipUnpacker.unpack(new SourceFile("bomb.zip", bytes), ImportLimits.DEFAULT))
                .isInstanceOf(ImportException.class)
                .satisfies(e -> assertThat(((ImportException) e).kind()).isEqualTo(ImportException.Kind.TOO_LARGE))
                .hasMessageContaining("expands more than 200×");
    }

    @Test
    void stopsAtTheTotalSizeCap() throws IOException {
        Map<String, byte[]> m = new LinkedHashMap<>();
        m.put("a.bin", new byte[3000]);
        m.put("b.bin", new byte[3000]);
        ImportLimits limits = new ImportLimits(1 << 20, 100, 10, 5000, 1000);
        assertThatThrownBy(() -> ZipUnpacker.unpack(new SourceFile("big.zip", zip(m)), limits))
                .hasMessage("big.zip expands to more than 5000 bytes (posekit.upload.max-bytes)");
    }

    @Test
    void stopsAtTheEntryCountCap() throws IOException {
        ImportLimits limits = new ImportLimits(1 << 20, 100, 2, 1 << 20, 1000);
        assertThatThrownBy(() -> ZipUnpacker.unpack(new SourceFile("many.zip", zip(entries("a", "1", "b", "2", "c", "3"))),
                limits)).hasMessage("many.zip holds more than 2 entries (posekit.limits.zip-entries)");
    }

    @Test
    void rejectsGarbageAndEmptyArchives() throws IOException {
        assertThatThrownBy(() -> ZipUnpacker.unpack(new SourceFile("x.zip", "hello".getBytes(StandardCharsets.UTF_8)),
                ImportLimits.DEFAULT)).hasMessage("x.zip is not a zip archive (no PK signature)");
        assertThatThrownBy(() -> ZipUnpacker.unpack(new SourceFile("e.zip", zip(Map.of())), ImportLimits.DEFAULT))
                .hasMessage("e.zip holds no files");
        byte[] truncated = java.util.Arrays.copyOf(zip(entries("a.gltf", "{\"asset\":{}}".repeat(50))), 40);
        assertThatThrownBy(() -> ZipUnpacker.unpack(new SourceFile("t.zip", truncated), ImportLimits.DEFAULT))
                .isInstanceOf(ImportException.class)
                .hasMessageStartingWith("t.zip");
    }
}
