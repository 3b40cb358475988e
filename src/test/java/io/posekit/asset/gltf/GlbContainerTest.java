package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.GltfTestSupport.assertInvalid;
import static io.posekit.asset.gltf.GltfTestSupport.failure;
import static io.posekit.asset.gltf.GltfTestSupport.importFiles;
import static io.posekit.asset.gltf.GltfTestSupport.importGlb;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The GLB container: header, chunk walking and every way a GLB can lie about its lengths. */
class GlbContainerTest {

    private static final byte[] GLB = GltfBuilder.skinnedTwoBoneStrip().toGlb();

    private static int jsonChunkLength() {
        return le32(GLB, 12);
    }

    private static int le32(byte[] b, int o) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(o);
    }

    private static byte[] withInt(byte[] b, int offset, int value) {
        byte[] copy = b.clone();
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putInt(offset, value);
        return copy;
    }

    @Test
    void validGlbImports() {
        ImportScene scene = importGlb(GLB);
        assertThat(scene.nodes()).extracting(ImportScene.Node::name).containsExactly("Strip", "Root", "Tip");
        assertThat(scene.meshes().getFirst().primitives().getFirst().vertexCount()).isEqualTo(6);
        assertThat(scene.warnings()).isEmpty();
    }

    @Test
    void containerSplitsIntoJsonAndBin() {
        GlbContainer c = GlbContainer.parse(GLB);
        assertThat(c.jsonOffset()).isEqualTo(20);
        assertThat(c.jsonLength()).isEqualTo(jsonChunkLength());
        int binLength = le32(GLB, 20 + jsonChunkLength());
        assertThat(c.bin().capacity()).isEqualTo(binLength);
        assertThat(c.bin().order()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
        assertThat(c.bin().getFloat(0)).isEqualTo(-0.5f); // first POSITION component
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, 11, 12, 19})
    void filesShorterThan20BytesAreTruncated(int length) {
        assertInvalid(() -> importGlb(Arrays.copyOf(GLB, length)), "GLB file is truncated: " + length
                + " bytes, but a GLB needs at least 20 (a 12-byte header and an 8-byte chunk header)");
    }

    @Test
    void cutAnywhereIsTruncated() {
        for (int length : new int[] {20, 21, 100, 20 + jsonChunkLength() / 2, 20 + jsonChunkLength() + 4,
                GLB.length - 1}) {
            assertInvalid(() -> importGlb(Arrays.copyOf(GLB, length)),
                    "GLB file is truncated: its header declares " + GLB.length + " bytes but the file has " + length);
        }
    }

    @Test
    void headerLengthThatLiesIsRejected() {
        assertInvalid(() -> importGlb(withInt(GLB, 8, GLB.length - 4)),
                "GLB header declares a length of " + (GLB.length - 4) + " bytes but the file has " + GLB.length);
        assertInvalid(() -> importGlb(withInt(GLB, 8, -1)),
                "GLB file is truncated: its header declares 4294967295 bytes but the file has " + GLB.length);
    }

    @Test
    void chunkLengthThatLiesIsRejected() {
        int json = jsonChunkLength();
        assertInvalid(() -> importGlb(withInt(GLB, 12, 50000)),
                "GLB chunk 0 (JSON) declares 50000 bytes but only " + (GLB.length - 20) + " remain");
        int binHeader = 20 + json;
        assertInvalid(() -> importGlb(withInt(GLB, binHeader, 50000)),
                "GLB chunk 1 (BIN) declares 50000 bytes but only " + (GLB.length - binHeader - 8) + " remain");
        assertInvalid(() -> importGlb(withInt(GLB, binHeader, -8)),
                "GLB chunk 1 (BIN) declares 4294967288 bytes but only " + (GLB.length - binHeader - 8) + " remain");
    }

    @Test
    void shortChunkLengthLeavesAGarbledChunkHeader() {
        // the JSON chunk claims 4 bytes less, so the BIN chunk header is read 4 bytes early
        ImportException e = failure(() -> importGlb(withInt(GLB, 12, jsonChunkLength() - 4)));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
        assertThat(e.getMessage()).startsWith("GLB ");
    }

    @Test
    void trailingBytesShorterThanAChunkHeaderAreRejected() {
        byte[] longer = Arrays.copyOf(GLB, GLB.length + 4);
        ByteBuffer.wrap(longer).order(ByteOrder.LITTLE_ENDIAN).putInt(8, longer.length);
        assertInvalid(() -> importGlb(longer), "GLB chunk 2 is truncated: its 8-byte header has only 4 bytes");
    }

    @Test
    void onlyVersion2IsRead() {
        assertInvalid(() -> importGlb(withInt(GLB, 4, 1)), "GLB version 1 is not supported; only version 2 (glTF 2.0) is");
    }

    @Test
    void wrongMagicInAGlbNamedFile() {
        byte[] bad = GLB.clone();
        bad[0] = 'x';
        assertInvalid(() -> importGlb(bad), "not a GLB file: magic is 0x46546C78, not 0x46546C67 ('glTF')");
    }

    @Test
    void firstChunkMustBeJson() {
        byte[] swapped = withInt(GLB, 16, GlbContainer.CHUNK_BIN);
        assertInvalid(() -> importGlb(swapped), "GLB chunk 0 must be JSON (0x4E4F534A) but is BIN");
        assertInvalid(() -> importGlb(withInt(GLB, 16, 0x12345678)),
                "GLB chunk 0 must be JSON (0x4E4F534A) but is type 0x12345678");
    }

    @Test
    void unknownChunksAreSkipped() {
        byte[] extra = new byte[GLB.length + 16];
        System.arraycopy(GLB, 0, extra, 0, GLB.length);
        ByteBuffer b = ByteBuffer.wrap(extra).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(8, extra.length);
        b.putInt(GLB.length, 8).putInt(GLB.length + 4, 0x5A5A5A5A);
        assertThat(importGlb(extra).nodes()).hasSize(3);
    }

    @Test
    void secondJsonChunkOrLateBinChunkIsRejected() {
        byte[] extra = new byte[GLB.length + 8];
        System.arraycopy(GLB, 0, extra, 0, GLB.length);
        ByteBuffer b = ByteBuffer.wrap(extra).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(8, extra.length);
        b.putInt(GLB.length, 0).putInt(GLB.length + 4, GlbContainer.CHUNK_JSON);
        assertInvalid(() -> importGlb(extra), "GLB chunk 2 is a second JSON chunk");
        b.putInt(GLB.length + 4, GlbContainer.CHUNK_BIN);
        assertInvalid(() -> importGlb(extra), "GLB chunk 2 is a BIN chunk; only chunk 1 may be BIN");
    }

    @Test
    void glbMagicWinsOverTheFileName() {
        assertThat(importFiles(new SourceFile("model.gltf", GLB)).nodes()).hasSize(3);
    }

    @Test
    void binChunkIsOnlyForBufferZeroOfAGlb() {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        byte[] noBin = GltfBuilder.glb(jsonOf(b.toGlb()), null);
        assertInvalid(() -> importGlb(noBin), "buffer 0 refers to the GLB BIN chunk, but the file has none");
        String json = new String(jsonOf(b.toGlb()), StandardCharsets.UTF_8);
        assertInvalid(() -> GltfTestSupport.importGltf(json),
                "buffer 0 has no uri; only buffer 0 of a GLB file may refer to the GLB BIN chunk");
    }

    @Test
    void malformedJsonChunkReportsTheLocation() {
        byte[] glb = GltfBuilder.glb("{\"asset\": {\"version\": \"2.0\"},\n  \"nodes\": [}".getBytes(StandardCharsets.UTF_8),
                null);
        ImportException e = failure(() -> importGlb(glb));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
        assertThat(e.getMessage()).startsWith("GLB JSON chunk is malformed at line 2, column 13: Unexpected close marker '}'");
    }

    @Test
    void jsonChunkPaddedWithNulsIsTolerated() {
        byte[] json = "{\"asset\":{\"version\":\"2.0\"}}\0\0\0\0".getBytes(StandardCharsets.UTF_8);
        assertThat(importGlb(GltfBuilder.glb(json, null)).nodes()).isEmpty();
    }

    /** The JSON chunk's bytes (padding included) of a GLB. */
    static byte[] jsonOf(byte[] glb) {
        int length = le32(glb, 12);
        return Arrays.copyOfRange(glb, 20, 20 + length);
    }
}
