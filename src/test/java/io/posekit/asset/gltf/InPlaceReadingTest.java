package io.posekit.asset.gltf;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.store.GeneratedAssets;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GLB or {@code .bin} on disk is read in place (mapped), not whole: the import is the same as from memory, and what
 * it holds whole ({@link GltfImporter#heldBytes}) is the JSON, whatever the binary payload's size.
 */
class InPlaceReadingTest {

    @TempDir
    Path dir;

    /** A small skinned mesh followed by 3 MB nothing points at (as an unread extension's data). */
    private static GltfBuilder withPayload() {
        GltfBuilder b = GeneratedAssets.skinnedMeshBuilder(30, 5);
        b.addBufferView(new byte[3 << 20]);
        return b;
    }

    @Test
    void aMappedGlbImportsAsFromMemoryAndHoldsOnlyItsJson() throws IOException {
        byte[] glb = withPayload().toGlb();
        SourceFile mapped = SourceFile.map("asset.glb", Files.write(dir.resolve("asset.glb"), glb));
        ImportScene fromDisk = GltfTestSupport.importFiles(mapped);
        ImportScene fromMemory = GltfTestSupport.importGlb(glb);
        assertThat(fromDisk.meshes()).hasSize(1);
        assertThat(fromDisk.meshes().getFirst().primitives().getFirst().positions())
                .isEqualTo(fromMemory.meshes().getFirst().primitives().getFirst().positions());
        assertThat(fromDisk.clips().getFirst().name()).isEqualTo(fromMemory.clips().getFirst().name());

        int jsonChunk = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN).getInt(12);
        assertThat(jsonChunk).isLessThan(20_000);
        assertThat(GltfTestSupport.IMPORTER.heldBytes(mapped, List.of(mapped))).isEqualTo(jsonChunk);
        // the same bytes in memory are held already: all of them count
        SourceFile inMemory = new SourceFile("asset.glb", glb);
        assertThat(GltfTestSupport.IMPORTER.heldBytes(inMemory, List.of(inMemory))).isEqualTo(glb.length);
    }

    @Test
    void anExternalBinIsMappedTheGltfAndImagesAreHeld() throws IOException {
        GltfBuilder.ExternalGltf external = withPayload().toGltfWithExternalBin("data.bin");
        byte[] json = external.json().getBytes(StandardCharsets.UTF_8);
        SourceFile gltf = SourceFile.map("asset.gltf", Files.write(dir.resolve("asset.gltf"), json));
        SourceFile bin = SourceFile.map("data.bin", Files.write(dir.resolve("data.bin"), external.bin()));
        SourceFile png = SourceFile.map("skin.png", Files.write(dir.resolve("skin.png"), new byte[1000]));
        assertThat(GltfTestSupport.importFiles(gltf, bin).meshes().getFirst().primitives().getFirst().positions())
                .hasSize(3 * 30);
        assertThat(GltfTestSupport.IMPORTER.heldBytes(gltf, List.of(gltf, bin, png))).isEqualTo(json.length + 1000);
    }

    @Test
    void theUploadsHeldBytesAreTheImportersOrAllOfAZip() throws IOException {
        AssetImporters importers = AssetImporters.all(ImportLimits.DEFAULT);
        byte[] glb = withPayload().toGlb();
        SourceFile mapped = SourceFile.map("asset.glb", Files.write(dir.resolve("asset.glb"), glb));
        int jsonChunk = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN).getInt(12);
        assertThat(importers.heldBytes(List.of(mapped))).isEqualTo(jsonChunk);
        SourceFile zip = SourceFile.map("asset.zip", Files.write(dir.resolve("asset.zip"), glb));
        assertThat(importers.heldBytes(List.of(zip))).isEqualTo(glb.length);
        SourceFile fbx = SourceFile.map("a.fbx", Files.write(dir.resolve("a.fbx"), glb));
        assertThat(importers.heldBytes(List.of(fbx))).isEqualTo(glb.length);
        // told from a name alone, before the body comes
        assertThat(importers.heldAtLeast("asset.glb", 1 << 30)).isZero();
        assertThat(importers.heldAtLeast("model.FBX", 5_000_000)).isEqualTo(5_000_000);
        assertThat(importers.heldAtLeast("asset.zae", 7)).isEqualTo(7);
        assertThat(importers.heldAtLeast("notes.txt", 9)).isZero();
    }
}
