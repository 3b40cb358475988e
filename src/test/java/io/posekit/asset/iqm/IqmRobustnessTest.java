package io.posekit.asset.iqm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.ModelBuilder;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Lying, truncated and corrupted IQM files: every failure is an {@link ImportException} with a precise message
 * and the right kind, raised before anything sized by the lie is allocated; nothing else ever escapes.
 */
class IqmRobustnessTest {

    private static ImportScene read(byte[] bytes, ImportLimits limits) {
        SourceFile main = new SourceFile("rig.iqm", bytes);
        return new IqmImporter().read(main, new SourceFiles(List.of(main)), limits);
    }

    private static ImportException failure(ThrowingCallable call) {
        ImportException e = catchThrowableOfType(ImportException.class, call);
        assertThat(e).as("expected an ImportException").isNotNull();
        return e;
    }

    private static ImportException failure(byte[] bytes) {
        return failure(() -> read(bytes, ImportLimits.DEFAULT));
    }

    private static void assertInvalid(byte[] bytes, String message) {
        ImportException e = failure(bytes);
        assertThat(e.getMessage()).isEqualTo(message);
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
    }

    private static byte[] withU32(byte[] bytes, int position, long value) {
        byte[] copy = bytes.clone();
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putInt(position, (int) value);
        return copy;
    }

    private static long u32(byte[] bytes, int position) {
        return Integer.toUnsignedLong(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(position));
    }

    /** Imports and builds the model; reports whether it failed cleanly, fails the test on any other throwable. */
    private static boolean importsOrFailsCleanly(byte[] bytes, String context) {
        try {
            ModelBuilder.build(AssetFormat.IQM, read(bytes, ImportLimits.DEFAULT));
            return false;
        } catch (ImportException e) {
            assertThat(e.getMessage()).as(context).isNotBlank();
            return true;
        } catch (Throwable t) {
            fail(context + ": " + t, t);
            return true;
        }
    }

    @Test
    void everyTruncationFailsCleanly() {
        byte[] iqm = IqmBuilder.twoJointTriangle().build();
        for (int length = 0; length < iqm.length; length++) {
            assertThat(importsOrFailsCleanly(Arrays.copyOf(iqm, length), "cut at " + length)).as("cut at %d", length).isTrue();
        }
    }

    @Test
    void everyCorruptedByteFailsCleanlyOrImports() {
        byte[] iqm = IqmBuilder.twoJointTriangle().build();
        int failures = 0;
        for (int i = 0; i < iqm.length; i++) {
            for (int value : new int[] {0x00, 0xFF, 0x7F, 0x80}) {
                byte[] copy = iqm.clone();
                copy[i] = (byte) value;
                if (importsOrFailsCleanly(copy, "byte " + i + " = " + value)) {
                    failures++;
                }
            }
        }
        assertThat(failures).isGreaterThan(100);
    }

    @Test
    void aTruncatedFileIsCaughtByItsFilesize() {
        byte[] iqm = IqmBuilder.twoJointTriangle().build();
        assertInvalid(Arrays.copyOf(iqm, iqm.length - 4), "header: filesize " + iqm.length
                + " does not match the file's actual size of " + (iqm.length - 4) + " bytes (truncated or padded)");
        assertInvalid(Arrays.copyOf(iqm, iqm.length + 4), "header: filesize " + iqm.length
                + " does not match the file's actual size of " + (iqm.length + 4) + " bytes (truncated or padded)");
        assertInvalid(Arrays.copyOf(iqm, 100), "IQM header truncated: the file has 100 bytes, the header needs 124");
    }

    @Test
    void notIqmAndOtherVersions() {
        assertInvalid("glTF".getBytes(), "not an IQM file: it does not start with the magic \"INTERQUAKEMODEL\\0\"");
        ImportException v1 = failure(withU32(IqmBuilder.twoJointTriangle().build(), IqmBuilder.field(0), 1));
        assertThat(v1.kind()).isEqualTo(ImportException.Kind.UNSUPPORTED);
        assertThat(v1.getMessage()).isEqualTo("IQM version 1 is not supported; only version 2 is");
    }

    @Test
    void sectionsBeyondTheFileAreRejectedBeforeReading() {
        byte[] iqm = IqmBuilder.twoJointTriangle().build();
        int size = iqm.length;
        assertInvalid(withU32(iqm, IqmBuilder.field(14), size - 50), "header: joints (num_joints 2 × 48 bytes at ofs_joints "
                + (size - 50) + ") end at byte " + (size + 46) + ", beyond the end of the " + size + "-byte file");
        assertInvalid(withU32(iqm, IqmBuilder.field(14), 8),
                "header: joints (num_joints 2) at ofs_joints 8 overlap the 124-byte header");
        // a count as large as the field allows: rejected by arithmetic, nothing allocated
        assertInvalid(withU32(iqm, IqmBuilder.field(13), 0xFFFFFFFFL), "header: joints (num_joints 4294967295 × 48 bytes"
                + " at ofs_joints " + u32(iqm, IqmBuilder.field(14)) + ") end at byte "
                + (u32(iqm, IqmBuilder.field(14)) + 48 * 0xFFFFFFFFL) + ", beyond the end of the " + size + "-byte file");
        assertThat(failure(withU32(iqm, IqmBuilder.field(19), 0xFFFFFFFFL)).getMessage())
                .startsWith("header: frames (num_frames × num_framechannels 12884901885 × 2 bytes at ofs_frames ");
    }

    @Test
    void overflowingCountsAreInvalid() {
        byte[] iqm = IqmBuilder.twoJointTriangle().build();
        byte[] lying = withU32(iqm, IqmBuilder.field(8), 0xFFFFFFFFL); // num_vertexes
        int arrays = (int) u32(iqm, IqmBuilder.field(9));
        lying = withU32(lying, arrays + 12, 0xFFFFFFFFL); // vertex array 0 size
        assertInvalid(lying, "vertex array 0 (POSITION): num_vertexes 4294967295 × size 4294967295 overflows");
        byte[] frames = withU32(withU32(iqm, IqmBuilder.field(19), 0xFFFFFFFFL), IqmBuilder.field(20), 0xFFFFFFFFL);
        assertInvalid(frames, "frames: num_frames × num_framechannels overflows");
    }

    @Test
    void vertexDataBeyondTheFile() {
        IqmBuilder b = IqmBuilder.twoJointTriangle();
        byte[] iqm = b.build();
        int arrays = b.offsetOf("vertexarrays");
        assertThat(failure(withU32(iqm, arrays + 16, iqm.length - 8)).getMessage())
                .isEqualTo("header: vertex array 0 (POSITION) data (num_vertexes × size 9 × 4 bytes at offset "
                        + (iqm.length - 8) + ") end at byte " + (iqm.length + 28) + ", beyond the end of the "
                        + iqm.length + "-byte file");
        assertInvalid(withU32(iqm, arrays + 8, 9), "vertex array 0 (POSITION): format 9 is not an IQM component format (0–8)");
    }

    @Test
    void namesMustBeNulTerminatedInsideTheTextBlock() {
        IqmBuilder b = IqmBuilder.twoJointTriangle();
        byte[] iqm = b.build();
        assertInvalid(withU32(iqm, b.offsetOf("joints"), 10_000), "joint 0 name: text offset 10000 is beyond the "
                + u32(iqm, IqmBuilder.field(3)) + "-byte text block");
        byte[] unterminated = iqm.clone();
        int textEnd = b.offsetOf("text") + (int) u32(iqm, IqmBuilder.field(3));
        unterminated[textEnd - 1] = 'x'; // the last string ("bend") loses its NUL
        assertThat(failure(unterminated).getMessage()).endsWith(" is not NUL-terminated within the "
                + u32(iqm, IqmBuilder.field(3)) + "-byte text block");
    }

    @Test
    void referencesAreChecked() {
        IqmBuilder b = IqmBuilder.twoJointTriangle();
        byte[] iqm = b.build();
        assertInvalid(withU32(iqm, b.offsetOf("joints") + 48 + 4, 1),
                "joint 1 ('knee'): parent 1 is not an earlier joint (a joint must follow its parent)");
        assertInvalid(withU32(iqm, b.offsetOf("triangles") + 4, 7),
                "mesh 0 ('body'): triangle 0 vertex 1 is 7, outside the mesh's vertexes 0 … 2");
        assertInvalid(withU32(iqm, b.offsetOf("meshes") + 12, 4),
                "mesh 0 ('body'): vertexes 0 + 4 exceed the file's num_vertexes 3");
        assertInvalid(withU32(iqm, b.offsetOf("poses") + 88, -1), "pose 1: parent -1 differs from joint 1's parent 0");
        assertInvalid(withU32(iqm, b.offsetOf("anims") + 8, 4), "anim 0 ('bend'): frames 0 + 4 exceed the file's num_frames 3");
        assertInvalid(withU32(iqm, b.offsetOf("anims") + 12, Float.floatToIntBits(0)),
                "anim 0 ('bend'): framerate 0.0 is not a positive number");
        assertInvalid(withU32(iqm, b.offsetOf("joints") + 20, Float.floatToIntBits(Float.NaN)),
                "joint 0 ('hip') rotate component 0 is not finite (NaN)");
        // blend index 7 with a non-zero weight
        byte[] badIndex = iqm.clone();
        badIndex[b.offsetOf("array2")] = 7;
        assertInvalid(badIndex, "mesh 0 ('body'): vertex array 2 (BLENDINDEXES, UBYTE × 4) vertex 0 influence 0 names"
                + " joint 7, but there are 2 joints");
        // the masks select more channels than a frame has
        assertInvalid(withU32(iqm, b.offsetOf("poses") + 4, 0x3FF),
                "poses: the channel masks select 12 channels per frame but the header's num_framechannels is 3");
    }

    @Test
    void animationOnlyFilesAreUnsupported() {
        byte[] iqm = new IqmBuilder()
                .pose(-1, 1, new float[10], new float[10]).anim("a", 0, 1, 10, 0).frameChannels(1).frames(0).build();
        ImportException e = failure(iqm);
        assertThat(e.kind()).isEqualTo(ImportException.Kind.UNSUPPORTED);
        assertThat(e.getMessage()).isEqualTo("animation-only IQM files (poses but no joints) are not supported;"
                + " upload the model together with its skeleton");
    }

    @Test
    void limitsAre413() {
        byte[] iqm = IqmBuilder.twoJointTriangle().build();
        ImportException budget = failure(() -> read(iqm, new ImportLimits(100, 100, 10, 1 << 20, 100)));
        assertThat(budget.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(budget.getMessage()).contains("takes the import past its limit of 100 decoded bytes");
        ImportException nodes = failure(() -> read(iqm, new ImportLimits(1 << 20, 2, 10, 1 << 20, 100)));
        assertThat(nodes.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(nodes.getMessage()).isEqualTo("header: num_joints 2 (plus the root node) exceeds the limit of 2 nodes"
                + " (posekit.limits.nodes)");
    }
}
