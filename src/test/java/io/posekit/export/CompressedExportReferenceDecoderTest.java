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
 * The reference meshopt decoder (npm {@code meshoptimizer}, the one three.js uses) on posekit's meshopt exports:
 * every compressed view of the animated and posed exports of a fixture and of BrainStem, Fox and CesiumMan (when the
 * conformance data is there) decodes to the quantized export's view bit for bit (triangle lists up to each
 * triangle's rotation), by {@code src/test/node/meshopt-compare.mjs}. The package is the one
 * {@code tools/gltf-pipeline} installs (system property {@code posekit.meshoptimizer.dir}, default
 * {@code tools/gltf-pipeline/node_modules/meshoptimizer}); skipped without it or without Node.js.
 */
class CompressedExportReferenceDecoderTest {

    private static final Path SCRIPT = Path.of("src/test/node/meshopt-compare.mjs").toAbsolutePath();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static Path meshoptimizer() {
        return Path.of(System.getProperty("posekit.meshoptimizer.dir", "tools/gltf-pipeline/node_modules/meshoptimizer"))
                .toAbsolutePath();
    }

    @Test
    void theReferenceDecoderReadsEveryCompressedViewBitForBit() throws Exception {
        assumeTrue(Files.isRegularFile(meshoptimizer().resolve("index.js")), "no npm meshoptimizer at " + meshoptimizer());
        assumeTrue(NodeJs.available(), "no node on the PATH");
        Map<String, Model> models = new LinkedHashMap<>();
        models.put("multiMesh", ConformanceAssets.importModel(List.of(new SourceFile("multi.glb",
                PosedFixtures.multiMesh().toGlb()))));
        if (ConformanceAssets.available()) {
            for (ConformanceAssets.Asset a : ConformanceAssets.all()) {
                if (List.of("gltf-BrainStem", "gltf-Fox", "gltf-CesiumMan").contains(a.id())) {
                    models.put(a.id(), ConformanceAssets.importModel(a.files()));
                }
            }
        }
        Path dir = Files.createTempDirectory("posekit-meshopt-");
        List<String> command = new ArrayList<>(List.of("node", SCRIPT.toString(), meshoptimizer().toString()));
        List<Path> written = new ArrayList<>();
        for (Map.Entry<String, Model> e : models.entrySet()) {
            Model model = e.getValue();
            float[] matrices = Pose.evaluate(model.rig(), model.clips().isEmpty() ? null : model.clips().getFirst(), 0.5)
                    .modelMatrices();
            for (String kind : new String[] {"animated", "posed"}) {
                for (Compression c : new Compression[] {Compression.MESHOPT, Compression.QUANTIZE}) {
                    byte[] glb = kind.equals("animated")
                            ? AnimatedGltf.of(model, new AnimatedGltf.Options(null, null,
                                    AnimatedGltf.Options.DEFAULT_TOLERANCE, c)).glb()
                            : GlbWriter.write(PosedMeshes.all(model, matrices), null, c);
                    Path f = dir.resolve(e.getKey() + "-" + kind + "-" + c.wireName() + ".glb");
                    Files.write(f, glb);
                    written.add(f);
                    command.add(f.toString());
                }
            }
        }
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        int files = 0;
        int views = 0;
        for (String line : out.strip().split("\n")) {
            JsonNode r = JSON.readTree(line);
            files++;
            views += r.get("views").asInt();
            assertThat(r.get("mismatches")).as("views of %s the reference decoder reads otherwise", r.get("file")).isEmpty();
        }
        System.out.printf("npm meshoptimizer decoded %d compressed views of %d meshopt files: 0 mismatches%n", views, files);
        assertThat(files).isEqualTo(models.size() * 2);
        assertThat(views).isPositive();
        for (Path f : written) {
            Files.deleteIfExists(f);
        }
        Files.deleteIfExists(dir);
    }
}
