package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.GltfTestSupport.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Hostile Draco streams against the decoder's bounds by construction (Google's decoder as WebAssembly, {@link
 * DracoDecoder}): streams the former decoder, the Java port {@code org.jmonkeyengine:drako}, looped on for ever are
 * refused at once; a decode that needs more memory than its cap stops at the cap, as a 413, inside the decoder's own
 * memory; a decode past its deadline stops, and its thread ends.
 */
class DracoHostileStreamTest {


    /**
     * The Draco stream of an {@code n} × {@code n} grid of vertices (positions only, z varying), encoded with
     * edgebreaker by drako's encoder ({@link DracoGlb}).
     */
    static byte[] grid(int n) {
        float[] pos = new float[3 * n * n];
        for (int v = 0; v < n * n; v++) {
            pos[3 * v] = v % n;
            pos[3 * v + 1] = v / n;
            pos[3 * v + 2] = (v * 7919 % 1000) / 1000f;
        }
        int[] idx = new int[6 * (n - 1) * (n - 1)];
        for (int y = 0, i = 0; y + 1 < n; y++) {
            for (int x = 0; x + 1 < n; x++) {
                int a = y * n + x;
                for (int c : new int[] {a, a + 1, a + n + 1, a, a + n + 1, a + n}) {
                    idx[i++] = c;
                }
            }
        }
        GltfBuilder b = new GltfBuilder();
        int mesh = b.mesh("Grid").primitive(GltfBuilder.attributes("POSITION", b.addFloatAccessor(pos, "VEC3")),
                b.addIntAccessor(idx, GltfBuilder.UNSIGNED_INT, "SCALAR"), GltfBuilder.TRIANGLES).index();
        b.addScene("Scene", b.node("Grid").mesh(mesh).index());
        byte[] glb = DracoGlb.compress(b.toGlb(), DracoGlb.Options.EDGEBREAKER);
        return DracoGlb.lastStream(glb);
    }

    /** {@code stream} with the byte at each {@code edits[2i]} set to {@code edits[2i + 1]}. */
    private static byte[] edited(byte[] stream, int... edits) {
        byte[] m = stream.clone();
        for (int i = 0; i < edits.length; i += 2) {
            m[edits[i]] = (byte) edits[i + 1];
        }
        return m;
    }

    private static ImportLimits limits(long decodedBytes, Duration parseTime) {
        ImportLimits d = ImportLimits.DEFAULT;
        return new ImportLimits(decodedBytes, d.maxNodes(), d.maxJointsPerSkin(), d.maxVertices(),
                d.maxInfluencesPerVertex(), d.maxKeysPerTrack(), d.maxClips(), d.maxXmlDepth(), d.maxXmlElements(),
                d.maxZipEntries(), d.maxZipBytes(), d.maxZipRatio(), parseTime);
    }

    private static ImportException decodeFailure(byte[] stream, DecodeBudget budget) {
        DracoStreamHeader header = DracoStreamHeader.read(stream, 0, stream.length, "grid");
        return failure(() -> DracoDecoder.decode(stream, 0, stream.length, header, Set.of(0), budget, "grid"));
    }

    @Test
    void theStreamsTheJavaPortLoopedOnAreRefusedAtOnceWithinASmallMemory() {
        byte[] grid = grid(20);
        assertThat(grid).hasSize(5027);
        // two of 4,000 mutants of four random bytes each (seed 41): drako's edgebreaker decoder never returned on
        // them (its split-symbol vertex merge lacks Google's guard against a corner-table cycle)
        int[][] looped = {{4841, 173, 1831, 185, 150, 142, 230, 56}, {647, 175, 149, 71, 1132, 97, 188, 64}};
        java.util.List<String> messages = new java.util.ArrayList<>();
        for (int[] edits : looped) {
            byte[] stream = edited(grid, edits);
            long began = System.nanoTime();
            // 32 MiB for the whole import: the decoder's 16.9 MiB cap fits, once
            ImportException e = decodeFailure(stream, limits(32L << 20, Duration.ofSeconds(10)).newBudget());
            long took = System.nanoTime() - began;
            assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
            assertThat(e.importerBug()).isFalse();
            messages.add(e.getMessage());
            assertThat(took).as("refused within 2 s, not at the deadline").isLessThan(2_000_000_000L);
        }
        // Google's decoder finds the cycle and says so at once
        assertThat(messages).containsExactly(
                "grid: the Draco data is corrupt (Google's decoder: Failed to decode geometry data.)",
                "grid: the Draco data is corrupt (Google's decoder: Failed to decode geometry data.)");
    }

    @Test
    void aDecodeNeedingMoreThanItsMemoryCapIsA413AtTheCap() {
        // a 700 × 700 grid: 977,202 triangles, whose decoder takes 62 MiB; given 24 MiB it stops at them
        byte[] stream = grid(700);
        DracoStreamHeader header = DracoStreamHeader.read(stream, 0, stream.length, "grid");
        ImportException e = failure(() -> DracoDecoder.decode(stream, 0, stream.length, header, Set.of(0),
                new DecodeBudget(1L << 30), "grid", 24L << 20));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e).hasMessage("grid: the Draco data needs more than the 25165824 bytes of memory its decoder is "
                + "given (16 MiB, 512 a declared triangle and twice the stream's length)");
    }

    @Test
    void theCapIsCheckedAgainstTheImportsBudgetBeforeDecoding() {
        byte[] stream = grid(20);
        // 16 MiB + 722 triangles × 512 + 2 × 5,027 bytes, in whole pages: 17,170,432 bytes; 16 MiB are left
        ImportException e = decodeFailure(stream, limits(16L << 20, Duration.ofSeconds(10)).newBudget());
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e).hasMessage("grid Draco decoding needs 17170432 bytes, which takes the import past its limit of "
                + "16777216 decoded bytes (posekit.limits.decoded-bytes)");
    }

    @Test
    void aSoundStreamDecodesWithinItsCapAndTheMemoryIsGivenBack() {
        byte[] stream = grid(20);
        DecodeBudget budget = limits(32L << 20, Duration.ofSeconds(10)).newBudget();
        DracoStreamHeader header = DracoStreamHeader.read(stream, 0, stream.length, "grid");
        for (int i = 0; i < 3; i++) {
            DracoDecoder.Mesh mesh = DracoDecoder.decode(stream, 0, stream.length, header, Set.of(0), budget, "grid");
            assertThat(mesh.points()).isEqualTo(400);
            assertThat(mesh.indices()).hasSize(3 * 722);
            assertThat(mesh.attributes().get(0).values()).hasSize(400 * 12);
        }
        // the decoder's memory was never charged: three decodes of a 16.4 MiB cap fit in 32 MiB
        assertThat(budget.used()).isZero();
    }
}
