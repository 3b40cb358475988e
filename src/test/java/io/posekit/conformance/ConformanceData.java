package io.posekit.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Access to {@code ../shared/conformance}: the third-party assets and the oracle's expected outputs (see its
 * README). The directory comes from the {@code posekit.conformance.dir} system property (set by the build),
 * falling back to {@code ../shared/conformance}; tests are skipped when it is absent.
 */
final class ConformanceData {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> SIBLING_EXTENSIONS = Set.of(".bin", ".png", ".jpg", ".jpeg", ".webp", ".ktx2", ".md5anim");

    private ConformanceData() {
    }

    static Path root() {
        return Path.of(System.getProperty("posekit.conformance.dir", "../shared/conformance")).toAbsolutePath().normalize();
    }

    static boolean available() {
        return Files.isDirectory(root().resolve("expected")) && Files.isDirectory(root().resolve("assets"));
    }

    /** Expected files whose name starts with {@code prefix} (e.g. {@code gltf-}), sorted. */
    static List<Path> expectedFiles(String prefix) {
        try (Stream<Path> files = Files.list(root().resolve("expected"))) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix))
                    .filter(p -> p.getFileName().toString().endsWith(".json"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode read(Path file) {
        try {
            return JSON.readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The files to upload for an expected file: the asset plus the binary siblings next to it. */
    static Map<String, byte[]> uploadFiles(JsonNode expected) {
        return uploadFiles(root(), expected);
    }

    /** {@link #uploadFiles(JsonNode)} for an expected file whose {@code asset} path is relative to {@code root}. */
    static Map<String, byte[]> uploadFiles(Path root, JsonNode expected) {
        Path main = root.resolve(expected.get("asset").asString());
        Map<String, byte[]> files = new LinkedHashMap<>();
        try {
            files.put(main.getFileName().toString(), Files.readAllBytes(main));
            try (Stream<Path> siblings = Files.list(main.getParent())) {
                for (Path p : siblings.sorted().toList()) {
                    String name = p.getFileName().toString();
                    int dot = name.lastIndexOf('.');
                    if (!p.equals(main) && dot > 0 && SIBLING_EXTENSIONS.contains(name.substring(dot).toLowerCase(Locale.ROOT))) {
                        files.put(name, Files.readAllBytes(p));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }
}
