package io.posekit.asset.gltf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every meshopt-compressed buffer view of the files gltfpack ({@code -cc}) and gltf-transform ({@code optimize},
 * {@code meshopt}) make of the conformance glTF assets (animated, skinned, morphing; vertex, index and animation
 * data), decoded by {@link BufferResolver} and by the reference decoder (npm {@code meshoptimizer}, dumped by
 * {@code tools/gltf-pipeline/expected.mjs}): byte for byte equal. Skipped where {@code tools/gltf-pipeline/run.sh} was
 * not run.
 */
class MeshoptPipelineViewsTest {

    @Test
    void everyCompressedViewDecodesAsTheReferenceDecodesIt() throws IOException {
        Path dir = Path.of(System.getProperty("posekit.gltf-pipeline.dir", "target/gltf-pipeline")).toAbsolutePath();
        Path views = dir.resolve("meshopt-views");
        assumeTrue(Files.isDirectory(views), views + " is absent (run tools/gltf-pipeline/run.sh)");
        List<Path> dumps;
        try (Stream<Path> s = Files.list(views)) {
            dumps = s.sorted().toList();
        }
        assertThat(dumps).as("files with meshopt views").hasSizeGreaterThanOrEqualTo(30);
        JsonMapper json = JsonMapper.builder().build();
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (Path dump : dumps) {
            JsonNode d = json.readTree(Files.readAllBytes(dump));
            Path file = dir.resolve("conformance").resolve(d.get("path").asString());
            BufferResolver resolver = resolve(Files.readAllBytes(file), file.getFileName().toString());
            for (JsonNode v : d.get("views")) {
                byte[] expected = Base64.getDecoder().decode(v.get("decoded").asString());
                ByteBuffer ours = resolver.view(v.get("view").asInt(), "bufferView", "test").data();
                byte[] actual = new byte[ours.capacity()];
                ours.get(0, actual);
                checked++;
                String where = d.get("path").asString() + " bufferView " + v.get("view") + " (" + v.get("mode") + " "
                        + v.get("filter") + ")";
                if (!Arrays.equals(expected, actual)) {
                    failures.add(where + " differs from the reference decoder");
                }
            }
        }
        assertThat(failures).isEmpty();
        assertThat(checked).as("compressed views checked").isGreaterThan(300);
    }

    private static BufferResolver resolve(byte[] bytes, String name) {
        DecodeBudget budget = new DecodeBudget(1L << 30);
        GlbContainer glb = GlbContainer.parse(bytes);
        GltfDocument doc = GltfDocument.parse(bytes, glb.jsonOffset(), glb.jsonLength(), "GLB JSON chunk", budget);
        SourceFile main = new SourceFile(name, bytes);
        return new BufferResolver(doc, main, new SourceFiles(List.of(main)), glb.bin(), true, budget,
                new ImportWarnings());
    }
}
