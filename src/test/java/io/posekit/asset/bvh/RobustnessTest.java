package io.posekit.asset.bvh;

import static io.posekit.asset.bvh.BvhTestSupport.failure;
import static io.posekit.asset.bvh.BvhTestSupport.importBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.ModelBuilder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Systematic damage to a small valid file: every outcome is either a model that builds or a precise
 * ImportException, never another exception (NumberFormat, IndexOutOfBounds, Arithmetic, …) that AssetImporters
 * could only report as an internal error. Counts and limits are enforced before anything is allocated.
 */
class RobustnessTest {

    /** Two roots, positions, rotations, end sites; the last value of the file is {@code -7.25}. */
    private static final String DOCUMENT = """
            HIERARCHY
            ROOT Hips
            {
            \tOFFSET 1 2 3
            \tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
            \tJOINT Chest
            \t{
            \t\tOFFSET 0 10 0
            \t\tCHANNELS 3 Zrotation Xrotation Yrotation
            \t\tEnd Site
            \t\t{
            \t\t\tOFFSET 0 5 0
            \t\t}
            \t}
            }
            ROOT Prop
            {
            \tOFFSET 4 0 0
            \tCHANNELS 1 Yrotation
            }
            MOTION
            Frames: 2
            Frame Time: 0.0333333
            0.5 1 1.5 10 20 30 -40 50.5 60 1e1
            0 0 0 0 0 0 0 0 0 -7.25
            """;

    /** Imports; true when it failed with a proper ImportException (the test fails on anything else). */
    private static boolean importsOrFailsCleanly(byte[] bytes, String context) {
        try {
            ImportScene scene = importBytes(bytes, ImportLimits.DEFAULT);
            ModelBuilder.build(AssetFormat.BVH, scene);
            return false;
        } catch (ImportException e) {
            assertThat(e.getMessage()).as(context).doesNotStartWith("internal error").isNotBlank();
            return true;
        } catch (Throwable t) {
            fail(context + ": " + t, t);
            return true;
        }
    }

    private static byte[] bytes() {
        return DOCUMENT.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void theDocumentItselfImports() {
        assertThat(importsOrFailsCleanly(bytes(), "intact")).isFalse();
    }

    /**
     * Every cut fails, except those inside the very last value or after it: {@code -7.25} cut to {@code -7.2} or
     * {@code -7} is still a complete, valid file (a file need not end with a line break).
     */
    @Test
    void everyTruncationFailsCleanly() {
        byte[] all = bytes();
        int lastValue = DOCUMENT.lastIndexOf("-7.25");
        for (int length = 0; length < all.length; length++) {
            boolean failed = importsOrFailsCleanly(Arrays.copyOf(all, length), "cut at " + length);
            if (length <= lastValue + 1) {
                assertThat(failed).as("cut at %d", length).isTrue();
            }
        }
    }

    @Test
    void corruptedBytesNeverLeakAnotherException() {
        byte[] all = bytes();
        int failures = 0;
        int cases = 0;
        for (int i = 0; i < all.length; i++) {
            for (int value : new int[] {0x00, 0xFF, 0x7F, 0x80, ' ', '\t', '\n', '\r', '{', '}', '9', '-', '.', 'e', 'X'}) {
                byte[] copy = all.clone();
                copy[i] = (byte) value;
                cases++;
                if (importsOrFailsCleanly(copy, "byte " + i + " = " + value)) {
                    failures++;
                }
            }
        }
        // most corruptions are noticed (digits replaced by digits, spaces by tabs … are harmless)
        assertThat(failures).isGreaterThan(cases / 2);
    }

    @Test
    void droppedAndRepeatedLinesFailCleanly() {
        String[] lines = DOCUMENT.split("\n");
        for (int skip = 0; skip < lines.length; skip++) {
            List<String> dropped = new ArrayList<>(Arrays.asList(lines));
            dropped.remove(skip);
            assertThat(importsOrFailsCleanly((String.join("\n", dropped) + "\n").getBytes(StandardCharsets.US_ASCII),
                    "line " + (skip + 1) + " dropped")).as("line %d dropped", skip + 1).isTrue();
            List<String> repeated = new ArrayList<>(Arrays.asList(lines));
            repeated.add(skip, lines[skip]);
            importsOrFailsCleanly((String.join("\n", repeated) + "\n").getBytes(StandardCharsets.US_ASCII),
                    "line " + (skip + 1) + " repeated");
        }
    }

    @Test
    void aLyingFrameCountFailsBeforeAnythingIsAllocated() {
        // 2 billion frames of 10 channels would be 2e9 × 13 floats; the count is checked against the lines first
        ImportException e = failure(() -> importBytes(DOCUMENT.replace("Frames: 2", "Frames: 2000000000")
                .getBytes(StandardCharsets.US_ASCII), new ImportLimits(1 << 20, 100, 1, 1, 1)));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
        assertThat(e.getMessage()).isEqualTo("line 22: Frames: 2000000000, but only 2 frame lines follow (the file ends at line 25)");
    }

    @Test
    void keysBeyondTheDecodeBudgetAre413() {
        // 2 frames × (1 time + 3 + 4 + 4 + 4 floats) × 4 bytes = 128 bytes
        ImportLimits limits = new ImportLimits(127, 100, 1, 1, 1);
        ImportException e = failure(() -> importBytes(bytes(), limits));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo("MOTION: 2 frames of 4 tracks needs 128 bytes, which takes the import past"
                + " its limit of 127 decoded bytes (posekit.limits.decoded-bytes)");
        assertThat(importBytes(bytes(), new ImportLimits(128, 100, 1, 1, 1)).clips()).hasSize(1);
    }

    @Test
    void nodesBeyondTheLimitAre413WhileParsing() {
        ImportLimits limits = new ImportLimits(1 << 20, 3, 1, 1, 1);
        ImportException e = failure(() -> importBytes(bytes(), limits));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo("line 16: the HIERARCHY has more than 3 joints and end sites; the limit is 3 (posekit.limits.nodes)");
    }

    @Test
    void deepNestingNeedsNoStack() {
        int depth = 50_000;
        StringBuilder b = new StringBuilder("HIERARCHY\nROOT j0\n{\nOFFSET 0 1 0\nCHANNELS 1 Xrotation\n");
        for (int i = 1; i < depth; i++) {
            b.append("JOINT j").append(i).append(" {\nOFFSET 0 1 0\nCHANNELS 1 Xrotation\n");
        }
        b.append("}\n".repeat(depth)).append("MOTION\nFrames: 1\nFrame Time: 1\n").append("1 ".repeat(depth)).append('\n');
        ImportScene scene = importBytes(b.toString().getBytes(StandardCharsets.US_ASCII), ImportLimits.DEFAULT);
        assertThat(scene.nodes()).hasSize(depth);
        assertThat(scene.nodes().getLast().parent()).isEqualTo(depth - 2);
        assertThat(scene.clips().getFirst().tracks()).hasSize(depth);
    }
}
