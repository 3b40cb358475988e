package io.posekit.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.skinning.Material;
import io.posekit.skinning.PosedPrimitive;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Known answers for {@link GlbWriter}: the GLB it writes is read back byte by byte ({@link GlbFile} checks the
 * container, chunk and alignment rules) and every value is compared with what went in; then the GLB is imported
 * again and its geometry and materials equal the input.
 */
class GlbWriterTest {

    static final float[] QUAD = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0.5f};
    static final float[] QUAD_UV = {0, 1, 1, 1, 0, 0, 1, 0};
    static final int[] QUAD_INDICES = {0, 1, 2, 2, 1, 3};

    static byte[] png() {
        BufferedImage image = new BufferedImage(2, 2, BufferedImage.TYPE_INT_ARGB);
        image.setRGB(0, 0, 0xFFFF0000);
        image.setRGB(1, 1, 0xFF00FF00);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    static final Material RED = new Material("Red", new float[] {1, 0.25f, 0.1f, 0.75f}, 0.2f, 0.6f,
            new float[] {0.5f, 0, 0}, Material.AlphaMode.MASK, 0.3f, true, new Material.Texture("image/png", png()), 0);
    static final Material BLUE = Material.of("Blue", new float[] {0, 0, 1, 1}, false);

    private static Primitive prim(PrimitiveMode mode, float[] positions, float[] normals, int[] indices, float[] uv,
            Material material) {
        return new Primitive(mode, List.of("POSITION"), positions, normals, null, indices, 0, new int[0], new float[0],
                uv, material);
    }

    private static PosedPrimitive posed(Primitive p) {
        return new PosedPrimitive(p.vertexCount(), p.positions(), p.normals(), null);
    }

    private static GlbWriter.PosedMesh mesh(String name, Primitive... prims) {
        return new GlbWriter.PosedMesh(name, List.of(prims), java.util.Arrays.stream(prims).map(GlbWriterTest::posed).toList());
    }

    @Test
    void writesEveryTexcoordSetUpToTheFirstThatIsNotFinite() {
        float[] uv1 = {0.5f, 0.5f, 0.25f, 0.25f, 1, 0, 0, 1};
        float[] uv2 = {0, 0, 0, Float.NaN, 0, 0, 0, 0};
        float[] uv3 = {1, 1, 1, 1, 1, 1, 1, 1};
        Primitive quad = prim(PrimitiveMode.TRIANGLES, QUAD, null, QUAD_INDICES, QUAD_UV, RED)
                .withFurtherTexcoords(List.of(uv1, uv2, uv3));
        GlbFile f = GlbFile.parse(GlbWriter.write(List.of(mesh("Body", quad)), null));
        JsonNode attributes = f.primitive(0, 0).get("attributes");
        // TEXCOORD_2 has a NaN: it and TEXCOORD_3 after it are left out, the numbering stays dense
        assertThat(attributes.propertyNames()).containsExactly("POSITION", "TEXCOORD_0", "TEXCOORD_1");
        assertThat(f.floats(attributes.get("TEXCOORD_0").asInt())).containsExactly(QUAD_UV);
        assertThat(f.floats(attributes.get("TEXCOORD_1").asInt())).containsExactly(uv1);
        assertThat(f.accessor(attributes.get("TEXCOORD_1").asInt()).get("type").asString()).isEqualTo("VEC2");
    }

    @Test
    void aTextureOnAFurtherSetKeepsItsTexCoordAndIsDroppedWhereTheSetIsMissing() {
        Material onSet1 = new Material("Decal", new float[] {1, 1, 1, 1}, 0, 1, new float[3], Material.AlphaMode.OPAQUE,
                0.5f, false, new Material.Texture("image/png", png()), 1);
        Primitive two = prim(PrimitiveMode.TRIANGLES, QUAD, null, QUAD_INDICES, QUAD_UV, onSet1)
                .withFurtherTexcoords(List.of(new float[] {0, 0, 1, 0, 0, 1, 1, 1}));
        Primitive one = prim(PrimitiveMode.TRIANGLES, QUAD, null, QUAD_INDICES, QUAD_UV, onSet1);
        GlbFile f = GlbFile.parse(GlbWriter.write(List.of(mesh("Two", two), mesh("One", one)), null));
        JsonNode materials = f.json().get("materials");
        assertThat(materials.size()).isEqualTo(2);
        assertThat(materials.get(f.primitive(0, 0).get("material").asInt()).get("pbrMetallicRoughness").toString())
                .isEqualTo("{\"metallicFactor\":0,\"baseColorTexture\":{\"index\":0,\"texCoord\":1}}");
        assertThat(materials.get(f.primitive(1, 0).get("material").asInt()).get("pbrMetallicRoughness").toString())
                .isEqualTo("{\"metallicFactor\":0}");
    }

    @Test
    void writesAStaticSceneWithOneNodeAndMeshPerInstance() {
        float[] normals = {0, 0, 2, 0, 0, 1, 0, 0, 1, 0, 0, 1}; // the first is not unit length
        Primitive quad = prim(PrimitiveMode.TRIANGLES, QUAD, normals, QUAD_INDICES, QUAD_UV, RED);
        Primitive lines = prim(PrimitiveMode.LINES, new float[] {0, 0, 0, 0, 2, 0}, null, null, null, RED);
        Primitive points = prim(PrimitiveMode.POINTS, new float[] {-1, -2, -3}, new float[] {0, 0, 0}, null, null, BLUE);
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("clip", "Walk \"fast\"");
        extras.put("time", 0.5);
        byte[] glb = GlbWriter.write(List.of(mesh("Body", quad, lines), mesh(null, points)), extras);
        GlbFile f = GlbFile.parse(glb);
        JsonNode json = f.json();

        assertThat(json.get("asset").get("version").asString()).isEqualTo("2.0");
        assertThat(json.get("asset").get("generator").asString()).isEqualTo("posekit");
        assertThat(json.get("asset").get("extras").toString()).isEqualTo("{\"clip\":\"Walk \\\"fast\\\"\",\"time\":0.5}");
        assertThat(json.get("scene").asInt()).isZero();
        assertThat(json.get("scenes").toString()).isEqualTo("[{\"nodes\":[0,1]}]");
        assertThat(json.get("nodes").toString()).isEqualTo("[{\"name\":\"Body\",\"mesh\":0},{\"mesh\":1}]");
        assertThat(json.has("skins")).isFalse();
        assertThat(json.has("animations")).isFalse();
        assertThat(json.get("meshes").get(0).get("name").asString()).isEqualTo("Body");

        // quad: positions with exact min/max, unit normals, UVs, the indices as unsigned shorts, the material
        JsonNode q = f.primitive(0, 0);
        assertThat(q.has("mode")).isFalse();
        JsonNode position = f.accessor(q.get("attributes").get("POSITION").asInt());
        assertThat(position.get("type").asString()).isEqualTo("VEC3");
        assertThat(position.get("count").asInt()).isEqualTo(4);
        assertThat(position.get("min").toString()).isEqualTo("[0,0,0]");
        assertThat(position.get("max").toString()).isEqualTo("[1.0,1.0,0.5]");
        assertThat(f.floats(q.get("attributes").get("POSITION").asInt())).containsExactly(QUAD);
        assertThat(f.floats(q.get("attributes").get("NORMAL").asInt())).containsExactly(0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1);
        assertThat(f.floats(q.get("attributes").get("TEXCOORD_0").asInt())).containsExactly(QUAD_UV);
        JsonNode indices = f.accessor(q.get("indices").asInt());
        assertThat(indices.get("componentType").asInt()).isEqualTo(5123);
        assertThat(f.ints(q.get("indices").asInt())).containsExactly(QUAD_INDICES);
        assertThat(json.get("bufferViews").get(indices.get("bufferView").asInt()).get("target").asInt()).isEqualTo(34963);
        assertThat(json.get("bufferViews").get(position.get("bufferView").asInt()).get("target").asInt()).isEqualTo(34962);

        // lines: non-indexed, mode kept, no UVs, so the material is written again without its texture
        JsonNode l = f.primitive(0, 1);
        assertThat(l.get("mode").asInt()).isEqualTo(1);
        assertThat(l.has("indices")).isFalse();
        assertThat(l.get("attributes").has("NORMAL")).isFalse();
        assertThat(l.get("attributes").has("TEXCOORD_0")).isFalse();
        // points: a zero normal cannot be normalised, so the primitive has none
        JsonNode p = f.primitive(1, 0);
        assertThat(p.get("mode").asInt()).isZero();
        assertThat(p.get("attributes").has("NORMAL")).isFalse();
        assertThat(f.accessor(p.get("attributes").get("POSITION").asInt()).get("min").toString()).isEqualTo("[-1.0,-2.0,-3.0]");

        JsonNode materials = json.get("materials");
        assertThat(materials.size()).isEqualTo(3);
        assertThat(q.get("material").asInt()).isZero();
        assertThat(l.get("material").asInt()).isEqualTo(1);
        assertThat(p.get("material").asInt()).isEqualTo(2);
        JsonNode red = materials.get(0);
        assertThat(red.get("name").asString()).isEqualTo("Red");
        assertThat(red.get("pbrMetallicRoughness").get("baseColorFactor").toString()).isEqualTo("[1.0,0.25,0.1,0.75]");
        assertThat(red.get("pbrMetallicRoughness").get("metallicFactor").floatValue()).isEqualTo(0.2f);
        assertThat(red.get("pbrMetallicRoughness").get("roughnessFactor").floatValue()).isEqualTo(0.6f);
        assertThat(red.get("pbrMetallicRoughness").get("baseColorTexture").get("index").asInt()).isZero();
        assertThat(red.get("emissiveFactor").toString()).isEqualTo("[0.5,0,0]");
        assertThat(red.get("alphaMode").asString()).isEqualTo("MASK");
        assertThat(red.get("alphaCutoff").floatValue()).isEqualTo(0.3f);
        assertThat(red.get("doubleSided").asBoolean()).isTrue();
        assertThat(materials.get(1).get("pbrMetallicRoughness").has("baseColorTexture")).isFalse();
        assertThat(materials.get(2).toString())
                .isEqualTo("{\"name\":\"Blue\",\"pbrMetallicRoughness\":{\"baseColorFactor\":[0,0,1.0,1.0]}}");
        assertThat(json.get("textures").toString()).isEqualTo("[{\"source\":0}]");
        JsonNode image = json.get("images").get(0);
        assertThat(image.get("mimeType").asString()).isEqualTo("image/png");
        assertThat(f.viewBytes(image.get("bufferView").asInt())).isEqualTo(RED.baseColorTexture().bytes());
        assertThat(json.get("bufferViews").get(image.get("bufferView").asInt()).has("target")).isFalse();

        // deterministic
        assertThat(GlbWriter.write(List.of(mesh("Body", quad, lines), mesh(null, points)), extras)).isEqualTo(glb);
    }

    @Test
    void minAndMaxAreTheExactFloat32Values() {
        float[] positions = {0.1f, -0.3f, 1e-7f, 123456.79f, 2.5e-3f, -1e30f};
        byte[] glb = GlbWriter.write(List.of(mesh("m", prim(PrimitiveMode.POINTS, positions, null, null, null, null))), null);
        GlbFile f = GlbFile.parse(glb);
        JsonNode a = f.accessor(0);
        for (int c = 0; c < 3; c++) {
            float min = Math.min(positions[c], positions[3 + c]);
            float max = Math.max(positions[c], positions[3 + c]);
            assertThat(a.get("min").get(c).doubleValue()).isEqualTo((double) min);
            assertThat(a.get("max").get(c).doubleValue()).isEqualTo((double) max);
        }
        assertThat(f.json().has("materials")).isFalse();
        assertThat(f.primitive(0, 0).has("material")).isFalse();
    }

    @Test
    void largeIndicesUseUnsignedIntAndEmptyPrimitivesAreLeftOut() {
        int n = 70_000;
        float[] positions = new float[3 * n];
        for (int i = 0; i < n; i++) {
            positions[3 * i] = i;
        }
        int[] indices = {0, 65535, 69_999};
        Primitive big = prim(PrimitiveMode.TRIANGLES, positions, null, indices, null, null);
        Primitive noIndices = prim(PrimitiveMode.TRIANGLES, new float[] {0, 0, 0}, null, new int[0], null, null);
        Primitive noVertices = prim(PrimitiveMode.TRIANGLES, new float[0], null, null, null, null);
        byte[] glb = GlbWriter.write(List.of(mesh("empty", noIndices, noVertices), mesh("big", big, noIndices)), null);
        GlbFile f = GlbFile.parse(glb);
        assertThat(f.json().get("nodes").toString()).isEqualTo("[{\"name\":\"big\",\"mesh\":0}]");
        assertThat(f.json().get("meshes").get(0).get("primitives").size()).isEqualTo(1);
        JsonNode prim = f.primitive(0, 0);
        assertThat(f.accessor(prim.get("indices").asInt()).get("componentType").asInt()).isEqualTo(5125);
        assertThat(f.ints(prim.get("indices").asInt())).containsExactly(indices);
        // an index of 65534 at most still fits unsigned short (65535 is the restart value)
        int[] small = {0, 65534, 1};
        byte[] glb2 = GlbWriter.write(List.of(mesh("s", prim(PrimitiveMode.TRIANGLES, positions, null, small, null, null))), null);
        GlbFile f2 = GlbFile.parse(glb2);
        assertThat(f2.accessor(f2.primitive(0, 0).get("indices").asInt()).get("componentType").asInt()).isEqualTo(5123);
        assertThat(f2.ints(f2.primitive(0, 0).get("indices").asInt())).containsExactly(small);
    }

    @Test
    void anEmptySceneIsStillAValidGlb() {
        GlbFile f = GlbFile.parse(GlbWriter.write(List.of(), null));
        assertThat(f.json().get("scenes").toString()).isEqualTo("[{\"nodes\":[]}]");
    }

    @Test
    void rejectsPosedGeometryThatCannotBeWritten() {
        Primitive p = prim(PrimitiveMode.POINTS, new float[] {0, 0, 0}, null, null, null, null);
        assertThatThrownBy(() -> GlbWriter.write(List.of(new GlbWriter.PosedMesh("m", List.of(p),
                List.of(new PosedPrimitive(1, new float[] {Float.NaN, 0, 0}, null, null)))), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("mesh 0 primitive 0: posed vertex 0 is not finite");
        assertThatThrownBy(() -> GlbWriter.write(List.of(new GlbWriter.PosedMesh("m", List.of(p),
                List.of(new PosedPrimitive(1, null, null, null)))), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("mesh 0 primitive 0: the posed primitive has no positions");
    }

    @Test
    void importingTheGlbGivesBackTheGeometryAndMaterials() {
        Primitive quad = prim(PrimitiveMode.TRIANGLES, QUAD, new float[] {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1},
                QUAD_INDICES, QUAD_UV, RED);
        Primitive strip = prim(PrimitiveMode.TRIANGLE_STRIP, new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, null, null, null, BLUE);
        byte[] glb = GlbWriter.write(List.of(mesh("Body", quad, strip)), null);
        Model model = AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile("posed.glb", glb))).model();
        assertThat(model.warnings()).isEmpty();
        assertThat(model.meshes()).hasSize(1);
        assertThat(model.meshes().getFirst().name()).isEqualTo("Body");
        Primitive q = model.meshes().getFirst().primitives().get(0);
        assertThat(q.positions()).containsExactly(QUAD);
        assertThat(q.indices()).containsExactly(QUAD_INDICES);
        assertThat(q.texcoords()).containsExactly(QUAD_UV);
        assertThat(q.material()).isEqualTo(RED);
        Primitive s = model.meshes().getFirst().primitives().get(1);
        assertThat(s.mode()).isEqualTo(PrimitiveMode.TRIANGLE_STRIP);
        assertThat(s.indices()).isNull();
        assertThat(s.material()).isEqualTo(BLUE);
    }
}
