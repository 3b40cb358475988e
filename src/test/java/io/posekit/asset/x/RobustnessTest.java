package io.posekit.asset.x;

import static io.posekit.asset.x.XTestSupport.assertInvalid;
import static io.posekit.asset.x.XTestSupport.failure;
import static io.posekit.asset.x.XTestSupport.importBytes;
import static io.posekit.asset.x.XTestSupport.importText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.ModelBuilder;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Truncated, corrupted and lying files: every failure must be a precise ImportException (422 invalid, 413 too
 * large), never another exception (which AssetImporters could only report as an internal error), and memory stays
 * bounded whatever a count claims.
 */
class RobustnessTest {

    /** Imports (and builds) and reports whether it failed with a proper ImportException; fails the test otherwise. */
    private static boolean importsOrFailsCleanly(byte[] bytes, String context) {
        try {
            SourceFile main = new SourceFile("a.x", bytes);
            ImportScene s = new XImporter().read(main, new SourceFiles(List.of(main)), ImportLimits.DEFAULT);
            ModelBuilder.build(AssetFormat.X, s);
            return false;
        } catch (ImportException e) {
            assertThat(e.getMessage()).as(context).doesNotStartWith("internal error").isNotBlank();
            return true;
        } catch (Throwable t) {
            fail(context + ": " + t, t);
            return true;
        }
    }

    private static List<byte[]> fixtures() {
        return XTestSupport.everyContainer(w -> XTestSupport.twoJoints(w, true));
    }

    @Test
    void everyTruncationFailsCleanly() {
        List<byte[]> files = fixtures();
        for (int f = 0; f < files.size(); f++) {
            byte[] file = files.get(f);
            int failures = 0;
            for (int length = 0; length < file.length; length++) {
                if (importsOrFailsCleanly(Arrays.copyOf(file, length), XTestSupport.CONTAINERS.get(f) + " cut at " + length)) {
                    failures++;
                }
            }
            // a text document cut between top-level objects is still a (smaller) document; nothing else is
            assertThat(failures).as(XTestSupport.CONTAINERS.get(f)).isGreaterThan(file.length * 9 / 10);
        }
    }

    @Test
    void corruptedBytesNeverLeakAnotherException() {
        List<byte[]> files = fixtures();
        for (int f = 0; f < files.size(); f++) {
            byte[] file = files.get(f);
            for (int i = 0; i < file.length; i++) {
                for (int value : new int[] {0x00, 0xFF, 0x7F, '{', '}', ';', '9', '-', 0x06, 0x07}) {
                    byte[] copy = file.clone();
                    copy[i] = (byte) value;
                    importsOrFailsCleanly(copy, XTestSupport.CONTAINERS.get(f) + " byte " + i + " = " + value);
                }
            }
        }
    }

    @Test
    void countsLargerThanTheDataAreInvalidBeforeAnythingIsAllocated() {
        assertInvalid(() -> importText("Mesh body { 1000000000; 0.0;0.0;0.0;; 1; 3;0,0,0;; }"),
                "Mesh 'body' vertices: the count 1000000000 (line 2) is more than the 30 bytes left in the data can hold");
        assertInvalid(() -> importText("Mesh body { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 4000000000; 3;0,1,2;; }"),
                "Mesh 'body' faces: the count 4000000000 (line 2) is more than the 13 bytes left in the data can hold");
        assertInvalid(() -> importText("Mesh body { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 900000;0,1,2;; }"),
                "Mesh 'body': face 0 claims 900000 indices (line 2), more than the 10 bytes left in the data can hold");
        assertInvalid(() -> importText("Frame F { } AnimationSet { Animation { { F } AnimationKey { 0; 99999999; 0;4;1.0,0.0,0.0,0.0;;; } } }"),
                "AnimationKey 0 of Animation #0 of AnimationSet #0 keys: the count 99999999 (line 2) is more than the 30"
                        + " bytes left in the data can hold");
        // binary: a list whose count runs past the end of the data
        XWriter w = XWriter.binary(32);
        w.open("Frame", "F").open("FrameTransformMatrix").token(0x07);
        byte[] lying = XWriter.concat(w.file(), new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F, 0, 0, 0, 0});
        assertInvalid(() -> importBytes(lying), "Frame 'F' FrameTransformMatrix: a list of 268435455 values at byte 64 needs 1073741820 bytes but 4 are left");
    }

    @Test
    void theExampleMessagesNameWhatAndWhere() {
        StringBuilder positions = new StringBuilder();
        for (int i = 0; i < 800; i++) {
            positions.append(i == 0 ? "" : ",").append("0.0;0.0;0.0;");
        }
        StringBuilder faces = new StringBuilder();
        for (int f = 0; f < 13; f++) {
            faces.append(f == 0 ? "" : ",").append(f == 12 ? "3;0,1,913;" : "3;0,1,2;");
        }
        ImportException e = failure(() -> importText("Mesh body {\n800;\n" + positions + ";\n13;\n" + faces + ";\n}"));
        assertThat(e.getMessage()).isEqualTo("Mesh 'body': face 12 refers to vertex 913 of 800 (line 6)");
        assertInvalid(() -> importText("Frame F {\n FrameTransformMatrix { 1.0, 2.0, oops; }\n}"),
                "Frame 'F' FrameTransformMatrix: expected a number at line 3, found 'oops'");
        assertInvalid(() -> importText("Frame F {\n Mesh m { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;\n"),
                "Mesh 'm' (opened at line 3) is not closed: the data ends at line 4");
        assertInvalid(() -> importText("Frame F { 3; }"),
                "Frame 'F': unexpected value '3' at line 2 where a data object or '}' should be");
        assertInvalid(() -> importText("}"), "expected a template or data object at line 2, found '}'");
        assertInvalid(() -> importText("Frame F Frame G { }"), "expected '{' after Frame 'F' at line 2, found 'Frame'");
        assertInvalid(() -> importText("Frame F { Mesh { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;"
                + " SkinWeights { Bone; 1; 0; 1.0; } } }"),
                "Mesh #0 SkinWeights bone name: expected a quoted string at line 2, found 'Bone'");
        assertInvalid(() -> importText("Frame F { FrameTransformMatrix { 1.0,1e999,0.0; } }"),
                "Frame 'F' FrameTransformMatrix: '1e999' at line 2 is beyond the float range");
        assertInvalid(() -> importText("KeyValuePair { \"unterminated; }"),
                "a string: the string opened at line 2 is not closed");
    }

    @Test
    void theCRuntimeNaNSpellingsAreReadAsZeroWithAWarning() {
        ImportScene s = importText("Frame F { FrameTransformMatrix { 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,"
                + "-1.#IND00,1.#QNAN0,2.0,1.0;; } }");
        assertThat(s.nodes().getFirst().translation()).containsExactly(0, 0, -2);
        assertThat(s.warnings()).containsExactly("2 values written as 1.#IND00 or 1.#QNAN0 (a C runtime's NaN) were read as 0");
        assertInvalid(() -> importText("Frame F { FrameTransformMatrix { 1.#INF00; } }"),
                "Frame 'F' FrameTransformMatrix: expected a number at line 2, found '1.#INF00'");
        XWriter w = XWriter.binary(32);
        w.open("Frame", "F").open("FrameTransformMatrix").floats(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, Double.NaN, 0, 0, 1)
                .close().close();
        assertInvalid(() -> importBytes(w.file()),
                "Frame 'F' FrameTransformMatrix: the float NaN at byte 118 is not a finite float32");
    }

    @Test
    void binaryDataOfTheWrongTypeIsInvalid() {
        XWriter w = XWriter.binary(32);
        w.open("Frame", "F").open("FrameTransformMatrix").ints(1, 2, 3).close().close();
        assertInvalid(() -> importBytes(w.file()),
                "Frame 'F' FrameTransformMatrix: expected a float at byte 64, found an integer list");
        XWriter bad = XWriter.binary(32);
        bad.open("Frame", "F").token(0x0999).close();
        assertInvalid(() -> importBytes(bad.file()), "0x0999 at byte 36 is not a DirectX .x binary token");
    }

    @Test
    void moreThan64InfluencesOnAVertexAreTooLarge() {
        StringBuilder doc = new StringBuilder("Frame R { }\nMesh m { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;\n");
        for (int b = 0; b < 65; b++) {
            doc.append("SkinWeights { \"R\"; 1; 1; 0.1; 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;; }\n");
        }
        ImportException e = failure(() -> importText(doc + "}"));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo("Mesh 'm': vertex 1 has 65 joint influences; the limit is 64"
                + " (posekit.limits.influences-per-vertex)");
    }

    @Test
    void negativeCountsAndStrayValuesAreInvalid() {
        assertInvalid(() -> importText("Mesh body { -3; 0.0;0.0;0.0;; }"),
                "Mesh 'body' vertices: the count -3 (line 2) is negative");
        XWriter w = XWriter.binary(32);
        w.open("Frame", "F").ints(1, 2).close();
        assertInvalid(() -> importBytes(w.file()),
                "Frame 'F': found an integer list at byte 36 where a data object or '}' should be");
    }

    @Test
    void nestingIsBounded() {
        String deep = "Frame F { " + "Unknown { ".repeat(300) + "}".repeat(300) + " }";
        assertInvalid(() -> importText(deep), "data objects nest deeper than 256 levels at line 2");
        String frames = "Frame F { ".repeat(300) + "}".repeat(300);
        assertInvalid(() -> importText(frames), "data objects nest deeper than 256 levels at line 2");
    }

    @Test
    void theNodeLimitAndTheDecodeBudgetAreTooLarge() {
        ImportLimits fewNodes = new ImportLimits(1L << 30, 2, 10, 1L << 30, 200);
        ImportException nodes = failure(() -> importBytes(XTestSupport.textFile("Frame A { } Frame B { } Frame C { }"), fewNodes));
        assertThat(nodes.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(nodes.getMessage()).isEqualTo("the file has more than 2 frames; the limit is 2 nodes (posekit.limits.nodes)");

        StringBuilder positions = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            positions.append(i == 0 ? "" : ",").append("0.0;0.0;0.0;");
        }
        ImportLimits smallBudget = new ImportLimits(10_000, 1000, 10, 1L << 30, 200);
        ImportException budget = failure(() -> importBytes(XTestSupport.textFile("Mesh m { 3000; " + positions
                + "; 1; 3;0,1,2;; }"), smallBudget));
        assertThat(budget.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(budget.getMessage()).isEqualTo("Mesh 'm' vertex positions needs 36000 bytes, which takes the import past"
                + " its limit of 10000 decoded bytes (posekit.limits.decoded-bytes)");
    }
}
