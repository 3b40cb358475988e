package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.api.PosekitClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The conformance glTF assets as web pipelines make them, through the real HTTP API: {@code tools/gltf-pipeline/run.sh}
 * (CI runs it before the tests) makes gltfpack (quantized, texture-transformed), gltfpack {@code -cc} (+ meshopt),
 * gltf-transform {@code optimize}, {@code meshopt}, {@code quantize}, {@code webp} and {@code draco} variants of every
 * asset, and the
 * oracle's expected outputs for each (three.js GLTFLoader with MeshoptDecoder and DRACOLoader on the same file, not the original: the
 * tools resample clips and fold dequantization into the inverse bind matrices). Every variant's upload, skinning
 * matrices, model-space pose and skinned positions and normals are checked as {@link GltfConformanceTest} checks the
 * originals, at the same float32 tolerances; the Draco variants too (three.js decodes them with Google's decoder, npm
 * {@code draco3dgltf}, posekit with the same decoder as WebAssembly on the JVM: {@code DracoDecoder}).
 * Skipped where the variants were not made.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"posekit.store.dir=target/test-stores/${random.uuid}",
                // values, not time: a fresh JVM's first Draco BrainStem took more than the default 10 s on two
                // loaded cores (Google's decoder as WebAssembly before the JIT compiles it; docs/performance.md)
                "posekit.limits.parse-time=120s"})
class PipelineConformanceTest {

    /** The variants run.sh makes (each of every glTF conformance asset). */
    private static final List<String> VARIANTS = List.of("gltfpack", "gltfpack-cc", "optimize", "meshopt", "quantize",
            "webp", "draco");

    /**
     * Whether the position tolerance has a floor of 1e-5 × the largest coordinate (the matrices' relative tolerance):
     * gltfpack's RecursiveSkeletons meshes are 3 units across and 100 from the origin, placed by a dequantizing node
     * transform after 10 resampled, quantized joints, and differ from three's by up to 5e-4 (65 float32 ulps at 101),
     * over the 1e-4 × 3 the mesh's size alone allows.
     */
    private static final boolean PLACEMENT_FLOOR = true;

    /**
     * quad_skin has 12 influences per vertex; three skins with the first 4 (see the README), which the tools'
     * requantized weights make visible (the originals' rest pose hides it): its vertices are not compared.
     */
    private static final String MORE_THAN_FOUR_INFLUENCES = "-quad_skin__";

    @LocalServerPort
    int port;

    static Path root() {
        return Path.of(System.getProperty("posekit.gltf-pipeline.dir", "target/gltf-pipeline")).toAbsolutePath()
                .resolve("conformance");
    }

    @TestFactory
    Stream<DynamicNode> variants() {
        Path expectedDir = root().resolve("expected");
        assumeTrue(Files.isDirectory(expectedDir), expectedDir + " is absent (run tools/gltf-pipeline/run.sh)");
        List<Path> files = list(expectedDir).stream()
                .filter(p -> p.getFileName().toString().endsWith(".json") && !p.getFileName().toString().equals("INDEX.json"))
                .toList();
        TreeSet<String> variantsSeen = new TreeSet<>();
        for (Path f : files) {
            String name = f.getFileName().toString();
            VARIANTS.stream().filter(v -> name.startsWith(v + "-")).max((a, b) -> a.length() - b.length())
                    .ifPresent(variantsSeen::add);
        }
        assertThat(files).as("expected files of the pipeline variants").hasSizeGreaterThanOrEqualTo(100);
        PosekitClient client = new PosekitClient(port);
        Stream<DynamicNode> oracle = files.stream().map(file -> DynamicContainer.dynamicContainer(
                file.getFileName().toString(), new GltfConformanceTest.AssetCase(client, ConformanceData.read(file),
                        root(), PLACEMENT_FLOOR, !file.getFileName().toString().contains(MORE_THAN_FOUR_INFLUENCES))
                        .tests()));
        return Stream.concat(Stream.of(DynamicTest.dynamicTest("every variant has expected files",
                () -> assertThat(variantsSeen).containsExactlyInAnyOrderElementsOf(VARIANTS))), oracle);
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
