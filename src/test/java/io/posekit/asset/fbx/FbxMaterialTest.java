package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxSceneFixture.leaf;
import static io.posekit.asset.fbx.FbxSceneFixture.p;
import static io.posekit.asset.fbx.FbxSceneFixture.props;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.ModelBuilder;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.asset.TextureImagesTest;
import io.posekit.skinning.Material;
import io.posekit.skinning.Primitive;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * FBX materials: colours (sRGB in the file, linear in the material), transparency, the diffuse texture from an
 * embedded {@code Video/Content} or an uploaded file, the UV set it names, and one primitive per material of the
 * polygons' {@code LayerElementMaterial}.
 */
class FbxMaterialTest {

    /** Control points of a unit square in z = 0 (0..3) and a fifth point (4). */
    private static final double[] SQUARE = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 2, 0, 0};
    /** A quad (0 1 2 3) and a triangle (1 4 2). */
    private static final int[] QUAD_AND_TRIANGLE = {0, 1, 2, ~3, 1, 4, ~2};
    /** sRGB 0.5 in linear light. */
    private static final float HALF_LINEAR = 0.21404114f;

    private static FbxNode materialLayer(String mapping, int... materials) {
        return new FbxNode("LayerElementMaterial", List.of(0), List.of(leaf("Version", 101),
                leaf("MappingInformationType", mapping), leaf("ReferenceInformationType", "IndexToDirect"),
                leaf("Materials", (Object) materials)));
    }

    private static FbxNode uv(String name, double[] uvs) {
        return new FbxNode("LayerElementUV", List.of(0), List.of(leaf("Version", 101), leaf("Name", name),
                leaf("MappingInformationType", "ByControlPoint"), leaf("ReferenceInformationType", "Direct"),
                leaf("UV", (Object) uvs)));
    }

    /** Model 1 'body' with geometry 10 (the quad and the triangle) and the given layers. */
    private static FbxSceneFixture body(FbxNode... layers) {
        return new FbxSceneFixture()
                .geometry(10, "body", SQUARE, QUAD_AND_TRIANGLE, layers)
                .model(1, "body", "Mesh").oo(1, 0).oo(10, 1);
    }

    @Test
    void polygonsPickTheirMaterialAndEachMaterialIsOnePrimitiveOfTheVerticesItUses() {
        ImportScene s = body(materialLayer("ByPolygon", 1, 0))
                .object("Material", 30, "skin", "", props(p("DiffuseColor", 0.5, 0.5, 0.5),
                        p("EmissiveColor", 1.0, 0.0, 0.5), p("EmissiveFactor", 0.5)))
                .object("Material", 31, "cloth", "", props(p("Diffuse", 1.0, 0.0, 0.0), p("DiffuseColor", 0.0, 1.0, 0.0),
                        p("TransparencyFactor", 0.25)))
                .oo(30, 1).oo(31, 1)
                .importScene();
        List<Primitive> parts = s.meshes().getFirst().primitives();
        assertThat(parts).hasSize(2);
        // material 0 ('skin') holds the triangle 1 4 2, material 1 ('cloth') the quad: each only its own vertices
        Primitive skin = parts.get(0);
        assertThat(skin.positions()).containsExactly(1, 0, 0, 2, 0, 0, 1, 1, 0);
        assertThat(skin.indices()).containsExactly(0, 1, 2);
        assertThat(skin.material().name()).isEqualTo("skin");
        assertThat(skin.material().baseColorFactor()).containsExactly(new float[] {HALF_LINEAR, HALF_LINEAR,
                HALF_LINEAR, 1}, within(1e-7f));
        // emissive: linear colour × EmissiveFactor
        assertThat(skin.material().emissiveFactor()).containsExactly(new float[] {0.5f, 0, HALF_LINEAR * 0.5f},
                within(1e-7f));
        assertThat(skin.material().alphaMode()).isEqualTo(Material.AlphaMode.OPAQUE);
        assertThat(skin.material().metallicFactor()).isZero();
        assertThat(skin.material().roughnessFactor()).isOne();
        Primitive cloth = parts.get(1);
        assertThat(cloth.positions()).containsExactly(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0);
        assertThat(cloth.indices()).containsExactly(0, 1, 2, 0, 2, 3);
        // 'DiffuseColor' before the SDK's precomputed 'Diffuse' (ufbx's order; three.js takes 'Diffuse'); opacity
        // 1 − TransparencyFactor blends
        assertThat(cloth.material().baseColorFactor()).containsExactly(0, 1, 0, 0.75f);
        assertThat(cloth.material().alphaMode()).isEqualTo(Material.AlphaMode.BLEND);
        assertThat(ModelBuilder.build(AssetFormat.FBX, s).meshes().getFirst().primitives()).hasSize(2);
    }

    @Test
    void everyMappingModeOfTheMaterialLayerIsRead() {
        String[] modes = {"AllSame", "ByPolygonVertex", "ByControlPoint", "NoMappingInformation"};
        // AllSame: material 1 everywhere; by corner / control point: each polygon's first corner decides
        int[][] data = {{1}, {1, 1, 1, 1, 0, 0, 0}, {0, 1, 0, 0, 0}, {1}};
        int[][] expectedTriangles = {{0, 3}, {1, 2}, {2, 1}, {3, 0}};
        for (int m = 0; m < modes.length; m++) {
            ImportScene s = body(materialLayer(modes[m], data[m]))
                    .object("Material", 30, "a", "", props()).object("Material", 31, "b", "", props())
                    .oo(30, 1).oo(31, 1).importScene();
            int a = 0;
            int b = 0;
            for (Primitive part : s.meshes().getFirst().primitives()) {
                if (part.material().name().equals("a")) {
                    a += part.indexCount() / 3;
                } else {
                    b += part.indexCount() / 3;
                }
            }
            assertThat(new int[] {a, b}).as(modes[m]).containsExactly(expectedTriangles[m]);
        }
    }

    @Test
    void aSingleMaterialKeepsThePrimitiveWholeAndAnIndexBeyondTheMaterialsGetsNone() {
        ImportScene whole = body().object("Material", 30, "only", "", props()).oo(30, 1).importScene();
        Primitive p = whole.meshes().getFirst().primitives().getFirst();
        assertThat(whole.meshes().getFirst().primitives()).hasSize(1);
        assertThat(p.vertexCount()).isEqualTo(5);
        assertThat(p.material().name()).isEqualTo("only");
        // default white, opaque, not metallic
        assertThat(p.material().baseColorFactor()).containsExactly(1, 1, 1, 1);

        ImportScene beyond = body(materialLayer("ByPolygon", 0, 3)).object("Material", 30, "only", "", props())
                .oo(30, 1).importScene();
        assertThat(beyond.meshes().getFirst().primitives()).extracting(Primitive::material)
                .extracting(m -> m == null ? null : m.name()).containsExactly("only", null);
        assertThat(beyond.warnings()).contains("Model 'body': 1 triangle(s) name a material index beyond its 1"
                + " material(s); they get none");
    }

    private static FbxSceneFixture textured(FbxNode... videoChildren) {
        return body(uv("map1", new double[] {0, 0, 1, 0, 1, 1, 0, 1, 1, 0}),
                uv("detail", new double[] {0, 0, 0.5, 0, 0.5, 0.5, 0, 0.5, 0.5, 0}))
                .object("Material", 30, "skin", "", props(p("DiffuseColor", 1.0, 1.0, 1.0))).oo(30, 1)
                .object("Texture", 40, "skinTex", "", leaf("FileName", "C:\\art\\skin.tga"),
                        leaf("RelativeFilename", "textures\\skin.tga"), props(p("UVSet", "detail")))
                .op(40, 30, "DiffuseColor")
                .object("Video", 41, "skinVideo", "Clip", videoChildren).oo(41, 40);
    }

    @Test
    void anEmbeddedPngIsTheBaseColourTextureSampledWithTheUvSetItNames() {
        byte[] png = TextureImagesTest.png(2, 1, 0xFFFF0000, 0x8000FF00);
        ImportScene s = textured(leaf("RelativeFilename", "skin.png"), leaf("Content", (Object) png)).importScene();
        Material m = s.meshes().getFirst().primitives().getFirst().material();
        assertThat(m.baseColorTexture().mimeType()).isEqualTo(Material.Texture.PNG);
        assertThat(m.baseColorTexture().bytes()).isEqualTo(png);
        // UVSet 'detail' is the second UV layer
        assertThat(m.baseColorTexCoord()).isEqualTo(1);
        assertThat(s.meshes().getFirst().primitives().getFirst().texcoordSets()).hasSize(2);
    }

    @Test
    void anEmbeddedTgaBecomesAPngOfTheSamePixels() {
        int[] texels = {0xFFFF0000, 0x8000FF00, 0xFF0000FF, 0, 0xFFFFFFFF, 0x80808080, 0xFF102030, 0x40302010};
        byte[] tga = TextureImagesTest.tga(4, 2, texels);
        ImportScene s = textured(leaf("RelativeFilename", "skin.tga"), leaf("Content", (Object) tga)).importScene();
        Material.Texture t = s.meshes().getFirst().primitives().getFirst().material().baseColorTexture();
        assertThat(t.mimeType()).isEqualTo(Material.Texture.PNG);
        assertThat(TextureImagesTest.pixels(t.bytes())).containsExactly(texels);
    }

    @Test
    void asciiFilesEmbedTheImageAsBase64Text() {
        byte[] png = TextureImagesTest.png(1, 1, 0xFF0000FF);
        String b64 = Base64.getEncoder().encodeToString(png);
        // the ASCII reader gives the base64 text as one or more strings
        ImportScene s = textured(leaf("RelativeFilename", "skin.png"),
                leaf("Content", b64.substring(0, 10), b64.substring(10))).importScene();
        assertThat(s.meshes().getFirst().primitives().getFirst().material().baseColorTexture().bytes()).isEqualTo(png);
    }

    /**
     * An ASCII FBX of assimp's test models splits its embedded image's base64 text into two strings, each padded on
     * its own ({@code …==}, {@code …=}): joined they are not base64; each string is decoded by itself and the bytes
     * concatenated, as assimp and ufbx do.
     */
    @Test
    void asciiContentSplitIntoSeparatelyPaddedStringsIsDecodedPerString() {
        byte[] png = TextureImagesTest.png(1, 1, 0xFF0000FF);
        String first = Base64.getEncoder().encodeToString(java.util.Arrays.copyOfRange(png, 0, 10));
        String second = Base64.getEncoder().encodeToString(java.util.Arrays.copyOfRange(png, 10, png.length));
        assertThat(first).endsWith("=="); // 10 bytes: padded in the middle of the content
        ImportScene s = textured(leaf("RelativeFilename", "skin.png"), leaf("Content", first, second)).importScene();
        assertThat(s.meshes().getFirst().primitives().getFirst().material().baseColorTexture().bytes()).isEqualTo(png);
        assertThat(s.warnings()).noneMatch(w -> w.contains("Content"));
    }

    @Test
    void aTextureWithoutContentIsTheUploadedFileItNames() {
        byte[] png = TextureImagesTest.png(1, 1, 0xFF00FF00);
        FbxSceneFixture f = textured(leaf("RelativeFilename", "textures\\skin.png"));
        SourceFile main = new SourceFile("model/body.fbx", new byte[0]);
        // by its relative path from the FBX's folder
        ImportScene relative = import_(f, main, new SourceFile("model/textures/skin.png", png));
        assertThat(relative.meshes().getFirst().primitives().getFirst().material().baseColorTexture().bytes())
                .isEqualTo(png);
        // a multipart upload has base names only: found by the base name of the path
        ImportScene byBase = import_(f, main, new SourceFile("skin.png", png));
        assertThat(byBase.meshes().getFirst().primitives().getFirst().material().baseColorTexture().bytes())
                .isEqualTo(png);
        // absent: a warning, and the material keeps its colour
        ImportScene missing = import_(f, main);
        Material m = missing.meshes().getFirst().primitives().getFirst().material();
        assertThat(m.baseColorTexture()).isNull();
        assertThat(m.baseColorFactor()).containsExactly(1, 1, 1, 1);
        assertThat(missing.warnings()).contains("Video 'skinVideo': its image 'textures\\skin.png' is not among the"
                + " uploaded files; the material's colour is used");
    }

    @Test
    void anUndecodableImageIsAWarningAndTheColourStays() {
        ImportScene s = textured(leaf("RelativeFilename", "skin.png"),
                leaf("Content", (Object) "not an image".getBytes(StandardCharsets.US_ASCII))).importScene();
        assertThat(s.meshes().getFirst().primitives().getFirst().material().baseColorTexture()).isNull();
        // not an image by its content; by its name a PNG, whose reader then fails
        assertThat(s.warnings()).contains("Video 'skinVideo' ('skin.png') cannot be decoded (IIOException: I/O error"
                + " reading PNG header!); the material's colour is used");
    }

    private static ImportScene import_(FbxSceneFixture f, SourceFile main, SourceFile... others) {
        List<SourceFile> files = new java.util.ArrayList<>(List.of(main));
        files.addAll(List.of(others));
        return FbxImporter.interpret(f.root(), 7400, main, new SourceFiles(files), ImportLimits.DEFAULT,
                ImportLimits.DEFAULT.newBudget());
    }

    @Test
    void layerElementWithoutMaterialsOnTheModelGivesOnePrimitiveWithoutMaterial() {
        ImportScene s = body(materialLayer("ByPolygon", 0, 1)).importScene();
        assertThat(s.meshes().getFirst().primitives()).hasSize(1);
        assertThat(s.meshes().getFirst().primitives().getFirst().material()).isNull();
    }
}
