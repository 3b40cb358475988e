package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.GltfTestSupport.importFiles;
import static io.posekit.asset.gltf.GltfTestSupport.importGlb;
import static io.posekit.asset.gltf.GltfTestSupport.importGltf;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.export.PosedFixtures;
import io.posekit.skinning.Material;
import io.posekit.skinning.Primitive;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** {@code TEXCOORD_0}, {@code COLOR_0} and materials (factors and the base colour image) of glTF primitives. */
class MaterialImportTest {

    @Test
    void carriesTexcoordsFactorsAndAnEmbeddedTexture() {
        ImportScene scene = importGlb(PosedFixtures.texturedStrip().toGlb());
        assertThat(scene.warnings()).isEmpty();
        Primitive strip = scene.meshes().getFirst().primitives().get(0);
        assertThat(strip.texcoords()).containsExactly(PosedFixtures.STRIP_UV);
        Material skin = strip.material();
        assertThat(skin.name()).isEqualTo("Skin");
        assertThat(skin.baseColorFactor()).containsExactly(PosedFixtures.SKIN_BASE_COLOR);
        assertThat(skin.metallicFactor()).isZero();
        assertThat(skin.roughnessFactor()).isEqualTo(0.5f);
        assertThat(skin.doubleSided()).isTrue();
        assertThat(skin.alphaMode()).isEqualTo(Material.AlphaMode.OPAQUE);
        assertThat(skin.baseColorTexture().mimeType()).isEqualTo("image/png");
        assertThat(skin.baseColorTexture().bytes()).isEqualTo(PosedFixtures.png());
        Primitive edge = scene.meshes().getFirst().primitives().get(1);
        assertThat(edge.texcoords()).isNull();
        assertThat(edge.material().name()).isEqualTo("Edge");
        assertThat(edge.material().baseColorFactor()).containsExactly(1, 0, 0, 0.5f);
        assertThat(edge.material().alphaMode()).isEqualTo(Material.AlphaMode.BLEND);
        assertThat(edge.material().metallicFactor()).isEqualTo(1);
        assertThat(edge.material().baseColorTexture()).isNull();
        // primitives without material or texcoords have none
        Primitive plain = importGlb(GltfBuilder.skinnedTwoBoneStrip().toGlb()).meshes().getFirst().primitives().getFirst();
        assertThat(plain.texcoords()).isNull();
        assertThat(plain.material()).isNull();
    }

    @Test
    void readsImagesFromDataUrisAndUploadedFiles() {
        GltfBuilder b = PosedFixtures.texturedStrip();
        ObjectNode image = (ObjectNode) b.json().get("images").get(0);
        image.remove("bufferView");
        image.remove("mimeType");
        image.put("uri", PosedFixtures.pngDataUri());
        Primitive p = importGlb(b.toGlb()).meshes().getFirst().primitives().getFirst();
        assertThat(p.material().baseColorTexture().bytes()).isEqualTo(PosedFixtures.png());

        image.put("uri", "textures/skin%20color.png");
        ImportScene scene = importGltf(b.toGltfJson(), new SourceFile("textures/skin color.png", PosedFixtures.png()));
        assertThat(scene.meshes().getFirst().primitives().getFirst().material().baseColorTexture().bytes())
                .isEqualTo(PosedFixtures.png());
    }

    @Test
    void materialsThatCannotBeUsedAreWarningsNotFailures() {
        GltfBuilder b = PosedFixtures.texturedStrip();
        ObjectNode image = (ObjectNode) b.json().get("images").get(0);
        image.remove("bufferView");
        image.put("uri", "data:image/png;base64,AAAA");
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.warnings()).containsExactly("image 0 is not a PNG, JPEG or WebP image; the texture is not carried");
        assertThat(scene.meshes().getFirst().primitives().getFirst().material().baseColorTexture()).isNull();
        assertThat(scene.meshes().getFirst().primitives().getFirst().material().name()).isEqualTo("Skin");

        b = PosedFixtures.texturedStrip();
        ((ObjectNode) b.json().get("materials").get(1)).put("alphaMode", "GLASS");
        ((ObjectNode) b.json().get("materials").get(0).get("pbrMetallicRoughness").get("baseColorTexture")).put("texCoord", 1);
        b.set("meshes", 0, "primitives", b.json().get("meshes").get(0).get("primitives"));
        ((ObjectNode) b.json().get("meshes").get(0).get("primitives").get(0)).put("material", 0);
        scene = importGlb(b.toGlb());
        assertThat(scene.warnings()).containsExactly(
                "material 1: alphaMode 'GLASS' is not one of OPAQUE, MASK, BLEND; the material is not used");
        assertThat(scene.meshes().getFirst().primitives().get(1).material()).isNull();
        // a texture sampled with TEXCOORD_1 is carried with its set number (the export drops it where that set is missing)
        Material textured = scene.meshes().getFirst().primitives().get(0).material();
        assertThat(textured.baseColorTexture()).isNotNull();
        assertThat(textured.baseColorTexCoord()).isEqualTo(1);

        b = PosedFixtures.texturedStrip();
        ((ObjectNode) b.json().get("materials").get(0).get("pbrMetallicRoughness").get("baseColorTexture")).put("texCoord", -1);
        scene = importGlb(b.toGlb());
        assertThat(scene.warnings()).containsExactly("material 0 pbrMetallicRoughness baseColorTexture: texCoord -1 is"
                + " negative; the texture is not carried");

        b = PosedFixtures.texturedStrip();
        ((ObjectNode) b.json().get("meshes").get(0).get("primitives").get(1)).put("material", 7);
        ((ObjectNode) b.json().get("materials").get(0).get("pbrMetallicRoughness")).put("roughnessFactor", 1.5);
        scene = importFiles(new SourceFile("a.glb", b.toGlb()));
        assertThat(scene.warnings()).containsExactly(
                "material 0 pbrMetallicRoughness: roughnessFactor 1.5 is outside 0..1; the material is not used",
                "mesh 0 primitive 1: material 7 does not exist (there are 2); no material is used");
    }

    @Test
    void aSharedTextureIsWeighedOnceInTheModelFootprint() {
        GltfBuilder b = PosedFixtures.texturedStrip();
        byte[] big = new byte[1 << 20];
        System.arraycopy(PosedFixtures.png(), 0, big, 0, 8); // a PNG signature is all the importer looks at
        int view = b.addBufferView(big);
        ((ObjectNode) b.json().get("images").get(0)).put("bufferView", view);
        ((ObjectNode) b.json().get("meshes").get(0).get("primitives").get(1)).put("material", 0);
        io.posekit.asset.Model model = io.posekit.asset.AssetImporters.all(io.posekit.asset.ImportLimits.DEFAULT)
                .importUpload(java.util.List.of(new SourceFile("a.glb", b.toGlb()))).model();
        java.util.List<Primitive> prims = model.meshes().getFirst().primitives();
        assertThat(prims.get(0).material()).isSameAs(prims.get(1).material());
        assertThat(prims.get(0).material().baseColorTexture().bytes()).hasSize(1 << 20);
        assertThat(model.footprintBytes()).isBetween(1L << 20, (1L << 20) + (1L << 18));
    }

    @Test
    void nonFiniteTexcoordsAreDroppedWithAWarning() {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        int uv = b.addFloatAccessor(new float[] {0, 0, 1, 0, 0, Float.NaN, 1, 1, 0, 2, 1, 2}, "VEC2");
        ((ObjectNode) b.json().get("meshes").get(0).get("primitives").get(0).get("attributes")).put("TEXCOORD_0", uv);
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.warnings()).containsExactly(
                "mesh 0 primitive 0: TEXCOORD_0 of vertex 2 is not finite; the texture coordinates are not carried");
        assertThat(scene.meshes().getFirst().primitives().getFirst().texcoords()).isNull();
    }

    @Test
    void carriesEveryTexcoordSetUpToTheFirstThatIsMissingOrNotFinite() {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        ObjectNode attributes = (ObjectNode) b.json().get("meshes").get(0).get("primitives").get(0).get("attributes");
        attributes.put("TEXCOORD_0", b.addFloatAccessor(new float[] {0, 0, 1, 0, 0, 1, 1, 1, 0, 2, 1, 2}, "VEC2"));
        attributes.put("TEXCOORD_1", b.addFloatAccessor(new float[] {0.5f, 0.5f, 0.25f, 0, 0, 0.75f, 1, 1, 2, 2, 3, 3},
                "VEC2"));
        // TEXCOORD_3 without a TEXCOORD_2 cannot keep its number: not carried
        attributes.put("TEXCOORD_3", b.addFloatAccessor(new float[12], "VEC2"));
        ImportScene scene = importGlb(b.toGlb());
        Primitive p = scene.meshes().getFirst().primitives().getFirst();
        assertThat(p.texcoordSets()).hasSize(2);
        assertThat(p.texcoordSets().get(0)).containsExactly(0, 0, 1, 0, 0, 1, 1, 1, 0, 2, 1, 2);
        assertThat(p.texcoordSets().get(1)).containsExactly(0.5f, 0.5f, 0.25f, 0, 0, 0.75f, 1, 1, 2, 2, 3, 3);
        assertThat(scene.warnings()).isEmpty();

        attributes.put("TEXCOORD_1", b.addFloatAccessor(new float[] {0, 0, 0, 0, 0, 0, 0, Float.POSITIVE_INFINITY, 0, 0,
                0, 0}, "VEC2"));
        scene = importGlb(b.toGlb());
        assertThat(scene.meshes().getFirst().primitives().getFirst().texcoordSets()).hasSize(1);
        assertThat(scene.warnings()).containsExactly("mesh 0 primitive 0: TEXCOORD_1 of vertex 3 is not finite; the"
                + " texture coordinates of it and later sets are not carried");
    }

    @Test
    void carriesColorsAsRgbaWhateverTheyAreStoredAs() {
        // 6 vertices: RGB as normalized unsigned bytes, alpha becomes 1
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        int rgb = b.addIntAccessor(new int[] {255, 0, 0, 0, 255, 0, 0, 0, 255, 51, 102, 153, 0, 0, 0, 255, 255, 255},
                GltfBuilder.UNSIGNED_BYTE, "VEC3", true);
        ((ObjectNode) b.json().get("meshes").get(0).get("primitives").get(0).get("attributes")).put("COLOR_0", rgb);
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.warnings()).isEmpty();
        assertThat(scene.meshes().getFirst().primitives().getFirst().colors()).containsExactly(
                1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0.2f, 0.4f, 0.6f, 1, 0, 0, 0, 1, 1, 1, 1, 1);

        // RGBA floats as stored
        b = GltfBuilder.skinnedTwoBoneStrip();
        float[] rgba = new float[24];
        for (int i = 0; i < rgba.length; i++) {
            rgba[i] = i / 23f;
        }
        int colors = b.addFloatAccessor(rgba, "VEC4");
        ((ObjectNode) b.json().get("meshes").get(0).get("primitives").get(0).get("attributes")).put("COLOR_0", colors);
        assertThat(importGlb(b.toGlb()).meshes().getFirst().primitives().getFirst().colors()).containsExactly(rgba);
    }

    @Test
    void nonFiniteColorsAreDroppedWithAWarning() {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        float[] rgb = new float[18];
        rgb[13] = Float.POSITIVE_INFINITY;
        int colors = b.addFloatAccessor(rgb, "VEC3");
        ((ObjectNode) b.json().get("meshes").get(0).get("primitives").get(0).get("attributes")).put("COLOR_0", colors);
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.warnings()).containsExactly(
                "mesh 0 primitive 0: COLOR_0 of vertex 4 is not finite; the colours are not carried");
        assertThat(scene.meshes().getFirst().primitives().getFirst().colors()).isNull();
    }
}
