package io.posekit.export;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The conformance assets ({@code posekit.conformance.dir}, default {@code ../shared/conformance}) as the export tests
 * use them: every asset directory's upload (the model file and the binary files beside it) and the sample times the
 * oracle's {@code expected/INDEX.json} lists for it.
 */
final class ConformanceAssets {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<String> MODEL_EXTENSIONS = List.of(".glb", ".gltf", ".dae", ".fbx", ".x", ".iqm", ".md5mesh",
            ".bvh");
    private static final List<String> SIBLING_EXTENSIONS = List.of(".bin", ".png", ".jpg", ".jpeg", ".md5anim");

    /**
     * One asset.
     *
     * @param id e.g. {@code gltf-Fox}
     * @param files the upload
     * @param samples sample instants {@code (t, mode)} of every expected file of the asset, {@code mode} clamp or
     *     repeat (static samples left out)
     */
    record Asset(String id, List<SourceFile> files, List<Sample> samples) {
    }

    /** A sample instant: time in seconds and loop mode wire name. */
    record Sample(double time, String mode) {
    }

    private ConformanceAssets() {
    }

    static Path root() {
        return Path.of(System.getProperty("posekit.conformance.dir", "../shared/conformance")).toAbsolutePath().normalize();
    }

    static boolean available() {
        return Files.isDirectory(root().resolve("assets")) && Files.isRegularFile(root().resolve("expected/INDEX.json"));
    }

    /** Every asset with an upload, by id, sorted. */
    static List<Asset> all() {
        Path assets = root().resolve("assets");
        Map<String, List<Sample>> samples = new LinkedHashMap<>();
        try {
            JsonNode index = JSON.readTree(Files.readAllBytes(root().resolve("expected/INDEX.json")));
            for (JsonNode f : index.get("files")) {
                List<Sample> list = samples.computeIfAbsent(f.get("asset").asString(), k -> new ArrayList<>());
                for (JsonNode s : f.get("samples")) {
                    Sample sample = new Sample(s.get(0).asDouble(), s.get(1).asString());
                    if (!sample.mode().equals("static") && !list.contains(sample)) {
                        list.add(sample);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Asset> out = new ArrayList<>();
        try (Stream<Path> dirs = Files.walk(assets, 2)) {
            for (Path dir : dirs.filter(d -> assets.relativize(d).getNameCount() == 2 && Files.isDirectory(d)).sorted().toList()) {
                List<SourceFile> files = upload(dir);
                if (!files.isEmpty()) {
                    String id = assets.relativize(dir).toString().replace('/', '-');
                    out.add(new Asset(id, files, samples.getOrDefault(id, List.of())));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    static Model importModel(List<SourceFile> files) {
        return AssetImporters.all(ImportLimits.DEFAULT).importUpload(files).model();
    }

    /** The asset's model file and the binary files beside it (as the conformance tests upload them). */
    private static List<SourceFile> upload(Path dir) {
        List<SourceFile> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.sorted().toList()) {
                String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
                if (MODEL_EXTENSIONS.stream().anyMatch(name::endsWith)) {
                    out.addFirst(new SourceFile(p.getFileName().toString(), Files.readAllBytes(p)));
                } else if (SIBLING_EXTENSIONS.stream().anyMatch(name::endsWith)) {
                    out.add(new SourceFile(p.getFileName().toString(), Files.readAllBytes(p)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.isEmpty() || AssetFormat.byFileName(out.getFirst().name()).isEmpty() ? List.of() : out;
    }
}
