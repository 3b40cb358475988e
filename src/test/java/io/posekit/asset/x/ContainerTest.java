package io.posekit.asset.x;

import static io.posekit.asset.x.XTestSupport.assertInvalid;
import static io.posekit.asset.x.XTestSupport.failure;
import static io.posekit.asset.x.XTestSupport.importBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.clip.Track;
import io.posekit.skinning.Primitive;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;

/** The containers: text, binary with 32- and 64-bit floats, MSZIP-compressed text and binary; the header. */
class ContainerTest {

    @Test
    void everyContainerGivesTheSameScene() {
        List<byte[]> files = XTestSupport.everyContainer(w -> XTestSupport.twoJoints(w, true));
        ImportScene reference = importBytes(files.getFirst());
        for (int i = 1; i < files.size(); i++) {
            String container = XTestSupport.CONTAINERS.get(i);
            ImportScene s = importBytes(files.get(i));
            assertSameScene(container, reference, s);
        }
    }

    static void assertSameScene(String container, ImportScene expected, ImportScene actual) {
        assertThat(actual.nodes()).as(container).hasSameSizeAs(expected.nodes());
        for (int n = 0; n < expected.nodes().size(); n++) {
            ImportScene.Node e = expected.nodes().get(n);
            ImportScene.Node a = actual.nodes().get(n);
            assertThat(a.name()).as(container).isEqualTo(e.name());
            assertThat(a.parent()).as(container).isEqualTo(e.parent());
            assertThat(a.translation()).as(container).containsExactly(e.translation());
            assertThat(a.rotation()).as(container).containsExactly(e.rotation());
            assertThat(a.scale()).as(container).containsExactly(e.scale());
        }
        assertThat(actual.skins()).as(container).hasSameSizeAs(expected.skins());
        for (int s = 0; s < expected.skins().size(); s++) {
            assertThat(actual.skins().get(s).joints()).as(container).containsExactly(expected.skins().get(s).joints());
            assertThat(actual.skins().get(s).inverseBindMatrices()).as(container)
                    .containsExactly(expected.skins().get(s).inverseBindMatrices());
        }
        assertThat(actual.meshes()).as(container).hasSameSizeAs(expected.meshes());
        for (int m = 0; m < expected.meshes().size(); m++) {
            Primitive e = expected.meshes().get(m).primitives().getFirst();
            Primitive a = actual.meshes().get(m).primitives().getFirst();
            assertThat(a.positions()).as(container).containsExactly(e.positions());
            assertThat(a.normals()).as(container).containsExactly(e.normals());
            assertThat(a.indices()).as(container).containsExactly(e.indices());
            assertThat(a.joints()).as(container).containsExactly(e.joints());
            assertThat(a.weights()).as(container).containsExactly(e.weights());
            assertThat(a.attributes()).as(container).isEqualTo(e.attributes());
        }
        assertThat(actual.clips()).as(container).hasSameSizeAs(expected.clips());
        for (int c = 0; c < expected.clips().size(); c++) {
            List<Track> et = expected.clips().get(c).tracks();
            List<Track> at = actual.clips().get(c).tracks();
            assertThat(at).as(container).hasSameSizeAs(et);
            for (int t = 0; t < et.size(); t++) {
                assertThat(at.get(t).node()).as(container).isEqualTo(et.get(t).node());
                assertThat(at.get(t).property()).as(container).isEqualTo(et.get(t).property());
                assertThat(at.get(t).times()).as(container).containsExactly(et.get(t).times());
                assertThat(at.get(t).values()).as(container).containsExactly(et.get(t).values());
            }
        }
        assertThat(actual.warnings()).as(container).isEqualTo(expected.warnings());
    }

    @Test
    void binaryFloatsOf64BitsAreReadInDoublePrecisionThenRounded() {
        XWriter w = XWriter.binary(64);
        w.open("Frame", "F").open("FrameTransformMatrix")
                .floats(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.1, 1.0 / 3, 1e-30, 1).close().close();
        ImportScene s = importBytes(w.file());
        assertThat(s.nodes().getFirst().translation()).containsExactly((float) 0.1, (float) (1.0 / 3), -(float) 1e-30);
    }

    /** Binary data lists spanning several template members, the way exporters merge them, read the same. */
    @Test
    void binaryListsMaySpanSeveralMembers() {
        XWriter w = XWriter.binary(32);
        w.open("Frame", "F");
        w.open("Mesh", "m");
        // vertex count and, as one list, nothing else; then all positions; then faces count and indices as one list
        w.ints(3).floats(0, 0, 0, 1, 0, 0, 0, 1, 0).ints(1, 3, 0, 1, 2);
        w.close().close();
        ImportScene s = importBytes(w.file());
        assertThat(s.meshes().getFirst().primitives().getFirst().indices()).containsExactly(0, 2, 1);
    }

    @Test
    void binaryTemplatesAndUnknownObjectsAreSkippedByTheirTokens() {
        XWriter w = XWriter.binary(32);
        // template Header { <guid> WORD major; array DWORD flags[3]; }
        w.token(0x1F);
        w.open("Header");
        w.token(0x05);
        for (int i = 0; i < 8; i++) {
            w.token(0x1234);
        }
        w.token(0x28).ints().token(0x14).token(0x34).token(0x29).token(0x0E).token(0x03).token(3).token(0).token(0x0F)
                .token(0x14);
        w.close();
        w.open("KeyValuePair").string("key").string("va}lue").close();
        w.open("Frame", "F").open("Unknown").floats(1, 2, 3).ints(4, 5).string("x").ref("F").close().close();
        ImportScene s = importBytes(w.file());
        assertThat(s.nodes()).extracting(ImportScene.Node::name).containsExactly("F");
    }

    /**
     * MSZIP blocks each refer back into the previous block's output (the dictionary): with 40-byte blocks of a
     * repetitive document, a block cannot be inflated without the previous one, and the whole decodes right.
     */
    @Test
    void mszipBlocksUseThePreviousBlockAsTheirDictionary() throws DataFormatException {
        XWriter w = XWriter.text();
        for (int i = 0; i < 20; i++) {
            w.open("Frame", "Bone" + i).open("FrameTransformMatrix")
                    .floats(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, i, 0, 0, 1).sep(";").close().close();
        }
        byte[] zipped = w.compressed(40);
        ImportScene s = importBytes(zipped);
        assertThat(s.nodes()).hasSize(20);
        assertThat(s.nodes().get(19).translation()).containsExactly(19, 0, 0);
        assertThat(importBytes(w.file()).nodes()).hasSize(20);
        // some later block needs its dictionary: inflated alone it fails or comes out different
        byte[] body = w.body();
        int blocks = (body.length + 39) / 40;
        boolean needsDictionary = false;
        int at = 20;
        for (int b = 0; b < blocks; b++) {
            int size = XWriterAccess.u16(zipped, at);
            int packed = XWriterAccess.u16(zipped, at + 2);
            if (b > 0) {
                Inflater alone = new Inflater(true);
                alone.setInput(zipped, at + 6, packed - 2);
                byte[] out = new byte[size];
                try {
                    int n = alone.inflate(out);
                    needsDictionary |= n != size || !Arrays.equals(out, Arrays.copyOfRange(body, 40 * b, 40 * b + size));
                } catch (DataFormatException e) {
                    needsDictionary = true;
                } finally {
                    alone.end();
                }
            }
            at += 4 + packed;
        }
        assertThat(needsDictionary).as("a block that refers to the previous one").isTrue();
    }

    /** Tiny helpers to read the MSZIP layout back in tests. */
    private static final class XWriterAccess {
        static int u16(byte[] b, int at) {
            return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
        }
    }

    private static byte[] header(String h) {
        return h.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void theHeaderIsCheckedPrecisely() {
        assertInvalid(() -> importBytes(header("xof 0303txt")),
                "asset.x has 11 bytes, too few for the 16-byte DirectX .x header ('xof 0303txt 0032')");
        assertInvalid(() -> importBytes(header("glTF0303txt 0032 Frame F { }")),
                "asset.x does not start with the DirectX .x magic 'xof ' (it starts with 'glTF')");
        assertInvalid(() -> importBytes(header("xof 03a3txt 0032")),
                "asset.x: the DirectX .x version '03a3' (bytes 4–7 of the header) is not four digits such as 0303");
        assertInvalid(() -> importBytes(header("xof 0303zip 0032")),
                "asset.x: the DirectX .x format 'zip ' (bytes 8–11 of the header) is not 'txt ', 'bin ', 'tzip' or 'bzip'");
        assertInvalid(() -> importBytes(header("xof 0303txt 0016")),
                "asset.x: the DirectX .x float size '0016' (bytes 12–15 of the header) is not '0032' or '0064'");
        ImportException version = failure(() -> importBytes(header("xof 0201txt 0032\nFrame F { }")));
        assertThat(version.kind()).isEqualTo(ImportException.Kind.UNSUPPORTED);
        assertThat(version.getMessage()).isEqualTo("asset.x: DirectX .x version 0201 is not supported (0302 and 0303 are)");
        ImportException utf16 = failure(() -> importBytes(new byte[] {(byte) 0xFF, (byte) 0xFE, 'x', 0, 'o', 0}));
        assertThat(utf16.kind()).isEqualTo(ImportException.Kind.UNSUPPORTED);
    }

    @Test
    void versionsBefore0303AndAByteOrderMarkAreAccepted() {
        assertThat(importBytes(header("xof 0302txt 0064\nFrame F { }")).nodes()).hasSize(1);
        byte[] bom = XWriter.concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, header("xof 0303txt 0032\nFrame F { }"));
        assertThat(importBytes(bom).nodes()).hasSize(1);
    }

    @Test
    void aFileWithNothingToImportIsInvalid() {
        assertInvalid(() -> importBytes(header("xof 0303txt 0032\ntemplate T { <00000000-0000-0000-0000-000000000000> }")),
                "asset.x holds no Frame and no Mesh with triangles: there is nothing to import");
    }

    // ---- MSZIP sizes that lie --------------------------------------------------------------------------------

    private static byte[] zippedFixture() {
        XWriter w = XWriter.text();
        XTestSupport.twoJoints(w, true);
        return w.compressed(256);
    }

    private static void writeU32(byte[] b, int at, long v) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }

    private static void writeU16(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
    }

    @Test
    void mszipSizesThatLieAreInvalid() {
        byte[] z = zippedFixture();
        assertThat(importBytes(z).nodes()).hasSize(2);
        long total = (z[16] & 0xFFL) | (z[17] & 0xFFL) << 8 | (z[18] & 0xFFL) << 16 | (z[19] & 0xFFL) << 24;

        byte[] more = z.clone();
        writeU32(more, 16, total + 100);
        assertThatThrownBy(() -> importBytes(more)).isInstanceOf(ImportException.class)
                .hasMessageMatching("asset\\.x \\(MSZIP-compressed\\): its \\d+ blocks decompress to \\d+ bytes but the header"
                        + " declares \\d+");

        byte[] less = z.clone();
        writeU32(less, 16, total - 100);
        assertThatThrownBy(() -> importBytes(less)).isInstanceOf(ImportException.class)
                .hasMessageMatching("asset\\.x \\(MSZIP-compressed\\) block \\d+ at byte \\d+ adds \\d+ bytes to the \\d+"
                        + " already decompressed, more than the \\d+ the header declares");

        byte[] tooSmall = z.clone();
        writeU32(tooSmall, 16, 10);
        assertInvalid(() -> importBytes(tooSmall), "asset.x (MSZIP-compressed): the header says the decompressed file has"
                + " 10 bytes, fewer than its own 16-byte header");

        byte[] blockSize = z.clone();
        writeU16(blockSize, 20, 200);
        assertThatThrownBy(() -> importBytes(blockSize)).isInstanceOf(ImportException.class)
                .hasMessage("asset.x (MSZIP-compressed) block 0 at byte 20 decompresses to more than the 200 bytes it declares");

        byte[] packed = z.clone();
        writeU16(packed, 22, 60000);
        assertThatThrownBy(() -> importBytes(packed)).isInstanceOf(ImportException.class)
                .hasMessageStartingWith("asset.x (MSZIP-compressed) block 0 at byte 20: compressed size 60000 runs past the"
                        + " end of the file");

        byte[] signature = z.clone();
        signature[24] = 'Z';
        assertInvalid(() -> importBytes(signature),
                "asset.x (MSZIP-compressed) block 0 at byte 20 lacks the MSZIP signature 'CK' (found 'ZK')");

        byte[] cut = Arrays.copyOf(z, 18);
        assertInvalid(() -> importBytes(cut), "asset.x (MSZIP-compressed): the decompressed size field after the header is"
                + " missing (the file ends at byte 18)");

        byte[] garbage = z.clone();
        Arrays.fill(garbage, 26, 40, (byte) 0xFF);
        ImportException e = failure(() -> importBytes(garbage));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
        assertThat(e.getMessage()).startsWith("asset.x (MSZIP-compressed) block 0 at byte 20");
    }

    @Test
    void aShortDeflateStreamIsInvalid() {
        byte[] body = "\nFrame F { }\n".getBytes(StandardCharsets.US_ASCII);
        byte[] z = XWriter.mszip(header("xof 0303tzip0032"), body, 1000);
        byte[] cut = Arrays.copyOf(z, z.length - 3);
        writeU16(cut, 22, (z.length - 3) - 24);
        ImportException e = failure(() -> importBytes(cut));
        assertThat(e.getMessage()).startsWith("asset.x (MSZIP-compressed) block 0 at byte 20");
    }

    /** A tiny file declaring gigabytes: refused before anything is allocated or inflated. */
    @Test
    void aZipBombIsTooLarge() {
        byte[] body = new byte[1 << 20];
        Arrays.fill(body, (byte) ' ');
        byte[] z = XWriter.mszip(header("xof 0303tzip0032"), body, 32768);
        assertThat(z.length).isLessThan(5000);
        ImportException e = failure(() -> importBytes(z));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).matches("asset\\.x \\(MSZIP-compressed\\) declares 1048576 decompressed bytes from \\d+"
                + " compressed bytes, a ratio above the limit of 200 \\(posekit.limits.zip-ratio; a zip bomb\\?\\)");

        byte[] huge = z.clone();
        writeU32(huge, 16, 0xFFFF_FFF0L);
        ImportException tooMuch = failure(() -> importBytes(huge));
        assertThat(tooMuch.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(tooMuch.getMessage()).isEqualTo("asset.x (MSZIP-compressed) declares 4294967264 decompressed bytes; the"
                + " limit is 1073741824 (posekit.upload.max-bytes)");

        ImportLimits budget = new ImportLimits(100_000, 1000, 10, 1L << 30, 1_000_000);
        ImportException charged = failure(() -> XTestSupport.importBytes(z, budget));
        assertThat(charged.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(charged.getMessage()).isEqualTo("asset.x (MSZIP-compressed) decompressed data needs 1048576 bytes, which"
                + " takes the import past its limit of 100000 decoded bytes (posekit.limits.decoded-bytes)");
    }
}
