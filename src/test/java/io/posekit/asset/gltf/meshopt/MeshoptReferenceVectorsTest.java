package io.posekit.asset.gltf.meshopt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.DecodeBudget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link MeshoptDecoder} bit for bit against the reference decoder: {@code tools/gltf-pipeline/vectors.mjs} encodes
 * seeded data with npm {@code meshoptimizer}'s encoder in every mode, bitstream version, encoder level and filter, and
 * decodes it with npm {@code meshoptimizer}'s decoder (the one three.js uses); every one of those decodings must come
 * out of ours byte for byte. The vectors are made by {@code tools/gltf-pipeline/run.sh} (CI runs it before the tests);
 * the test is skipped where they were not made.
 */
class MeshoptReferenceVectorsTest {

    static Path pipelineDir() {
        return Path.of(System.getProperty("posekit.gltf-pipeline.dir", "target/gltf-pipeline")).toAbsolutePath();
    }

    @Test
    void decodesEveryReferenceVectorBitForBit() throws IOException {
        Path file = pipelineDir().resolve("meshopt-vectors.json");
        assumeTrue(Files.isRegularFile(file), file + " is absent (run tools/gltf-pipeline/run.sh)");
        JsonNode cases = JsonMapper.builder().build().readTree(Files.readAllBytes(file));
        assertThat(cases.size()).as("vector count").isGreaterThan(1500);
        List<String> failures = new ArrayList<>();
        int[] modes = new int[3];
        int[] filters = new int[5];
        for (JsonNode c : cases) {
            byte[] encoded = Base64.getDecoder().decode(c.get("encoded").asString());
            byte[] expected = Base64.getDecoder().decode(c.get("decoded").asString());
            MeshoptMode mode = MeshoptMode.of(c.get("mode").asString());
            MeshoptFilter filter = MeshoptFilter.of(c.get("filter").asString());
            modes[mode.ordinal()]++;
            filters[filter.ordinal()]++;
            try {
                byte[] ours = MeshoptDecoder.decode(encoded, 0, encoded.length, c.get("count").asInt(),
                        c.get("stride").asInt(), mode, filter, new DecodeBudget(1 << 26), c.get("name").asString());
                int at = firstDifference(expected, ours);
                if (at >= 0) {
                    failures.add(c.get("name").asString() + ": first difference at byte " + at + " (reference "
                            + (expected[at] & 0xFF) + ", ours " + (ours[at] & 0xFF) + ")");
                }
            } catch (RuntimeException e) {
                failures.add(c.get("name").asString() + ": " + e);
            }
        }
        assertThat(modes).as("vectors per mode").doesNotContain(0);
        assertThat(filters).as("vectors per filter").doesNotContain(0);
        assertThat(failures).as("vectors decoded differently from the reference").isEmpty();
    }

    private static int firstDifference(byte[] a, byte[] b) {
        if (a.length != b.length) {
            return Math.min(a.length, b.length);
        }
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                return i;
            }
        }
        return -1;
    }
}
