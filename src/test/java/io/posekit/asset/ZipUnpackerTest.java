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
