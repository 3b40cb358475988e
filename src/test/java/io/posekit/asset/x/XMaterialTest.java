package io.posekit.asset.x;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.asset.TextureImagesTest;
import io.posekit.skinning.Material;
import io.posekit.skinning.Primitive;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code MeshMaterialList} and {@code Material}: one primitive per material of the faces, colours sRGB → linear,
 * the {@code TextureFilename} image from the upload (TGA turned PNG), top-level materials by reference, in every
 * container.
 */
class XMaterialTest {

    private static final int[] TEXELS = {0xFFFF0000, 0xFF00FF00, 0xFF0000FF, 0xFFFFFFFF, 0, 0xFF808080, 0xFF102030,
        0x80302010};

    /**
     * A top-level Material 'Skin' (texture textures\skin.tga) and a mesh: quad 0 1 2 3 with material 1 (a reference
     * to Skin), triangle 1 4 2 with material 0 (an in-place 'Red', half transparent, glowing).
     */
    private static void document(XWriter w) {
        w.open("Material", "Skin").floats(1, 1, 1, 1).sep(";").floats(10).floats(0, 0, 0).sep(";")
                .floats(0, 0, 0).sep(";");
        w.open("TextureFilename").string("textures\\skin.tga").close();
        w.close();
        w.open("Mesh", "body");
        w.ints(5).floats(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 2, 0, 0);
        w.ints(2, 4, 0, 1, 2, 3, 3, 1, 4, 2);
        w.open("MeshTextureCoords").ints(5).floats(0, 0, 1, 0, 1, 1, 0, 1, 0.5, 0.5).close();
        w.open("MeshMaterialList").ints(2, 2, 1, 0);
        w.open("Material", "Red").floats(1, 0.5, 0, 0.5).sep(";").floats(20).floats(1, 1, 1).sep(";")
                .floats(0.5, 0, 0).sep(";").close();
        w.ref("Skin");
        w.close();
        w.close();
    }

    private static ImportScene importWith(byte[] file, SourceFile... others) {
        SourceFile main = new SourceFile("models/body.x", file);
        List<SourceFile> files = new java.util.ArrayList<>(List.of(main));
        files.addAll(List.of(others));
        return XTestSupport.IMPORTER.read(main, new SourceFiles(files), ImportLimits.DEFAULT);
    }

    @Test
    void eachMaterialOfTheFacesIsOnePrimitive() {
        SourceFile tga = new SourceFile("models/textures/skin.tga", TextureImagesTest.tga(4, 2, TEXELS));
        List<byte[]> files = XTestSupport.everyContainer(XMaterialTest::document);
        for (int c = 0; c < files.size(); c++) {
            ImportScene s = importWith(files.get(c), tga);
            List<Primitive> parts = s.meshes().getFirst().primitives();
            assertThat(parts).as(XTestSupport.CONTAINERS.get(c)).hasSize(2);
            Primitive red = parts.get(0);
            // the triangle (1 4 2), mirrored in z and wound the other way
            assertThat(red.indexCount()).isEqualTo(3);
            assertThat(red.vertexCount()).isEqualTo(3);
            Material r = red.material();
            assertThat(r.name()).isEqualTo("Red");
            assertThat(r.baseColorFactor()).containsExactly(new float[] {1, 0.21404114f, 0, 0.5f}, within(1e-7f));
            assertThat(r.alphaMode()).isEqualTo(Material.AlphaMode.BLEND);
            assertThat(r.emissiveFactor()).containsExactly(new float[] {0.21404114f, 0, 0}, within(1e-7f));
            assertThat(r.baseColorTexture()).isNull();
            Primitive skin = parts.get(1);
            assertThat(skin.indexCount()).isEqualTo(6);
            assertThat(skin.vertexCount()).isEqualTo(4);
            assertThat(skin.material().name()).isEqualTo("Skin");
            assertThat(skin.material().alphaMode()).isEqualTo(Material.AlphaMode.OPAQUE);
            assertThat(TextureImagesTest.pixels(skin.material().baseColorTexture().bytes())).containsExactly(TEXELS);
            assertThat(s.warnings()).isEmpty();
        }
    }

    @Test
    void theAnimatedGltfKeepsTheMaterialsAndTheTexture() throws java.io.IOException {
        SourceFile tga = new SourceFile("models/textures/skin.tga", TextureImagesTest.tga(4, 2, TEXELS));
        io.posekit.asset.Model model = io.posekit.asset.ModelBuilder.build(io.posekit.asset.AssetFormat.X,
                importWith(XTestSupport.everyContainer(XMaterialTest::document).getFirst(), tga));
        byte[] glb = io.posekit.export.AnimatedGltf.of(model, io.posekit.export.AnimatedGltf.Options.DEFAULT).glb();
        java.nio.file.Path out = java.nio.file.Path.of("target", "dressed-exports");
        java.nio.file.Files.createDirectories(out);
        java.nio.file.Files.write(out.resolve("x-materials.glb"), glb);
        List<Primitive> copy = io.posekit.asset.AssetImporters.all(ImportLimits.DEFAULT)
                .importUpload(List.of(new SourceFile("x.glb", glb))).model().meshes().getFirst().primitives();
        assertThat(copy).extracting(p -> p.material().name()).containsExactly("Red", "Skin");
        assertThat(copy.get(0).material().alphaMode()).isEqualTo(Material.AlphaMode.BLEND);
        assertThat(TextureImagesTest.pixels(copy.get(1).material().baseColorTexture().bytes())).containsExactly(TEXELS);
    }

    @Test
    void aMissingImageOrAnUnknownReferenceIsAWarning() {
        ImportScene s = importWith(XTestSupport.everyContainer(XMaterialTest::document).getFirst());
        assertThat(s.meshes().getFirst().primitives().get(1).material().baseColorTexture()).isNull();
        assertThat(s.warnings()).containsExactly("Material 'Skin': its image 'textures\\skin.tga' is not among the"
                + " uploaded files; the material's colour is used");
        XWriter w = XWriter.text();
        w.open("Mesh", "tri").ints(3).floats(0, 0, 0, 1, 0, 0, 0, 1, 0).ints(1, 3, 0, 1, 2);
        w.open("MeshMaterialList").ints(1, 1, 0).ref("Nowhere").close();
        w.close();
        ImportScene unknown = importWith(w.file());
        assertThat(unknown.meshes().getFirst().primitives().getFirst().material()).isNull();
        assertThat(unknown.warnings()).containsExactly("Mesh 'tri' MeshMaterialList: material 0 refers to 'Nowhere',"
                + " which is no Material of the file; its faces get none");
    }

    @Test
    void aFaceMaterialBeyondTheCountIsInvalid() {
        XWriter w = XWriter.text();
        w.open("Mesh", "tri").ints(3).floats(0, 0, 0, 1, 0, 0, 0, 1, 0).ints(1, 3, 0, 1, 2);
        w.open("MeshMaterialList").ints(1, 1, 3).close();
        w.close();
        XTestSupport.assertInvalid(() -> importWith(w.file()),
                "Mesh 'tri' MeshMaterialList: face 0 has material 3 of 1 (line 7)");
    }
}
