package io.posekit.asset.gltf.meshopt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.asset.gltf.GltfImporter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A GLB whose every buffer view is meshopt-compressed, with a fallback buffer without data (built in code by
 * {@link MeshoptGlb}): it imports to exactly the scene of the uncompressed file, under either extension name; a
 * corrupt stream is a 422 naming the buffer view and the extension.
 */
class MeshoptGlbImportTest {

    private static ImportScene read(byte[] glb) {
        SourceFile f = new SourceFile("m.glb", glb);
        return new GltfImporter().read(f, new SourceFiles(List.of(f)), ImportLimits.DEFAULT);
    }

    @Test
    void aCompressedFileImportsAsTheUncompressedOne() {
        byte[] plain = GltfBuilder.skinnedTwoBoneStrip().toGlb();
        ImportScene expected = read(plain);
        for (String extension : List.of("EXT_meshopt_compression", "KHR_meshopt_compression")) {
            ImportScene scene = read(MeshoptGlb.compress(plain, extension));
            assertThat(scene.warnings()).isEmpty();
            assertThat(scene.meshes().getFirst().primitives().getFirst().positions())
                    .containsExactly(expected.meshes().getFirst().primitives().getFirst().positions());
            assertThat(scene.meshes().getFirst().primitives().getFirst().indices())
                    .isEqualTo(expected.meshes().getFirst().primitives().getFirst().indices());
            assertThat(scene.meshes().getFirst().primitives().getFirst().weights())
                    .containsExactly(expected.meshes().getFirst().primitives().getFirst().weights());
            assertThat(scene.skins().getFirst().inverseBindMatrices())
                    .containsExactly(expected.skins().getFirst().inverseBindMatrices());
            assertThat(scene.clips().getFirst().tracks()).hasSameSizeAs(expected.clips().getFirst().tracks());
            for (int t = 0; t < expected.clips().getFirst().tracks().size(); t++) {
                assertThat(scene.clips().getFirst().tracks().get(t).values())
                        .containsExactly(expected.clips().getFirst().tracks().get(t).values());
            }
        }
    }

    @Test
    void aCorruptStreamIsA422NamingTheView() {
        byte[] glb = MeshoptGlb.compress(GltfBuilder.skinnedTwoBoneStrip().toGlb(), "EXT_meshopt_compression");
        // the first compressed stream starts the BIN chunk: break its header byte
        int jsonLength = (glb[12] & 0xFF) | (glb[13] & 0xFF) << 8 | (glb[14] & 0xFF) << 16 | (glb[15] & 0xFF) << 24;
        glb[28 + jsonLength] = 0x42;
        ImportException e = catchThrowableOfType(ImportException.class, () -> read(glb));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
        assertThat(e).hasMessageStartingWith("bufferView 0 EXT_meshopt_compression: meshopt stream is malformed:");
    }

    @Test
    void anUncompressedViewOnAFallbackBufferIsA422() {
        byte[] glb = MeshoptGlb.compress(GltfBuilder.skinnedTwoBoneStrip().toGlb(), "KHR_meshopt_compression");
        String text = new String(glb, java.nio.charset.StandardCharsets.ISO_8859_1);
        // drop view 0's extension by renaming it to an unknown one (same length keeps the GLB valid)
        byte[] broken = text.replaceFirst("\"KHR_meshopt_compression\":\\{\"buffer\"", "\"KHR_meshopt_compressioX\":{\"buffer\"")
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        ImportException e = catchThrowableOfType(ImportException.class, () -> read(broken));
        assertThat(e).hasMessage("bufferView 0 refers to buffer 1, a meshopt fallback buffer without data, but is not "
                + "compressed");
    }
}
