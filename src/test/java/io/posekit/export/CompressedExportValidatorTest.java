package io.posekit.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.sampling.Pose;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Khronos glTF-Validator on the compressed exports ({@code compress=quantize}, {@code meshopt} and {@code draco}): 0
 * errors and
 * 0 warnings for the posed and animated exports of the multi-mesh fixture, and of BrainStem, Fox and CesiumMan (when
 * the conformance data is there). Runs the validator installed by {@code tools/gltf-validate} ({@code npm ci} there)
 * with the host's Node.js; skipped when either is missing (GltfValidatorIT runs it in a container). The validator
 * does not decode {@code EXT_meshopt_compression} (an info, UNSUPPORTED_EXTENSION): for meshopt files it checks the
 * JSON and the uncompressed layout; the data is checked by CompressedExportTest. It checks
 * {@code KHR_draco_mesh_compression}'s JSON (the extension object, its buffer view, accessors without views) but does
 * not decode the streams: DracoExportTest and tools/draco-export (three.js) do.
 */
class CompressedExportValidatorTest {

    private static final Path VALIDATOR = Path.of("tools/gltf-validate/node_modules/gltf-validator").toAbsolutePath();
    private static final Path SCRIPT = Path.of("src/test/docker/gltf-validator/validate.js").toAbsolutePath();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void compressedExportsHaveNoErrorsAndNoWarnings() throws Exception {
        assumeTrue(Files.isDirectory(VALIDATOR), "no gltf-validator at " + VALIDATOR + " (npm ci in tools/gltf-validate)");
        assumeTrue(NodeJs.available(), "no node on the PATH");
        Map<String, byte[]> files = new LinkedHashMap<>();
        Model multi = ConformanceAssets.importModel(List.of(new SourceFile("multi.glb", PosedFixtures.multiMesh().toGlb())));
        add(files, "multiMesh", multi);
        if (ConformanceAssets.available()) {
            for (ConformanceAssets.Asset a : ConformanceAssets.all()) {
                if (List.of("gltf-BrainStem", "gltf-Fox", "gltf-CesiumMan").contains(a.id())) {
                    add(files, a.id(), ConformanceAssets.importModel(a.files()));
                }
            }
        }
        Path dir = Files.createTempDirectory("posekit-compressed-");
        List<String> command = new ArrayList<>(List.of("node", SCRIPT.toString()));
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
            Path f = dir.resolve(e.getKey());
            Files.write(f, e.getValue());
            command.add(f.toString());
        }
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("NODE_PATH", VALIDATOR.getParent().toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        int reports = 0;
        for (String line : out.strip().split("\n")) {
            JsonNode r = JSON.readTree(line);
            reports++;
            String name = Path.of(r.get("file").asString()).getFileName().toString();
            System.out.printf("gltf-validator %s: %s errors, %s warnings, %s infos, %s hints%n", name, r.get("errors"),
                    r.get("warnings"), r.get("infos"), r.get("hints"));
            assertThat(r.get("errors").asInt()).as("errors of %s: %s", name, r.get("messages")).isZero();
            assertThat(r.get("warnings").asInt()).as("warnings of %s: %s", name, r.get("messages")).isZero();
        }
        assertThat(reports).isEqualTo(files.size());
        for (String name : files.keySet()) {
            Files.deleteIfExists(dir.resolve(name));
        }
        Files.deleteIfExists(dir);
    }

    private static void add(Map<String, byte[]> files, String id, Model model) {
        for (Compression c : new Compression[] {Compression.QUANTIZE, Compression.MESHOPT, Compression.DRACO}) {
            files.put(id + "-animated-" + c.wireName() + ".glb", AnimatedGltf.of(model,
                    new AnimatedGltf.Options(null, null, AnimatedGltf.Options.DEFAULT_TOLERANCE, c)).glb());
            if (!model.meshes().isEmpty()) {
                float[] matrices = Pose.evaluate(model.rig(), model.clips().isEmpty() ? null : model.clips().getFirst(), 0.5)
                        .modelMatrices();
                files.put(id + "-posed-" + c.wireName() + ".glb", GlbWriter.write(PosedMeshes.all(model, matrices), null, c));
            }
        }
    }
}
