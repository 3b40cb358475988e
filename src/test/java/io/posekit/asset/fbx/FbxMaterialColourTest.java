package io.posekit.asset.fbx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.asset.TextureImagesTest;
import io.posekit.skinning.Material;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * FBX material colours as ufbx models them and as the writing tool shows them, each rule on a tiny ASCII FBX written
 * here: a texture connected to {@code DiffuseColor} replaces its value; {@code DiffuseFactor} and
 * {@code EmissiveFactor} multiply; Blender's files ({@code Creator} "Blender (stable FBX IO) …", or FBX 6.1's
 * "Blender version …") hold linear colours, the FBX SDK's and unnamed ones sRGB.
 */
class FbxMaterialColourTest {

    static final String BLENDER = "Blender (stable FBX IO) - 3.4.1 - 4.37.1";
    static final String MAYA = "FBX SDK/FBX Plugins version 2020.3";

    /** sRGB 0.5, 0.25 and 0.8 in linear light (IEC 61966-2-1), as floats. */
    static final float L50 = 0.21404114f;
    static final float L25 = 0.050876088f;
    static final float L80 = 0.60382736f;

    /**
     * A quad whose material 'paint' has the properties {@code materialProperties} (Properties70 lines), written by
     * {@code creator} (no Creator line when {@code null}), with a texture 'tex.png' on {@code textureSlot} when that is
     * not {@code null}.
     */
    static String fbx(String creator, String textureSlot, String... materialProperties) {
        StringBuilder s = new StringBuilder("; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n"
                + "\tFBXVersion: 7400\n");
        if (creator != null) {
            s.append("\tCreator: \"").append(creator).append("\"\n}\nCreator: \"").append(creator).append("\"\n");
        } else {
            s.append("}\n");
        }
        s.append("""
                Objects:  {
                	Geometry: 10, "Geometry::quad", "Mesh" {
                		Vertices: *12 {
                			a: 0,0,0,1,0,0,1,1,0,0,1,0
                		}
                		PolygonVertexIndex: *4 {
                			a: 0,1,2,-4
                		}
                	}
                	Model: 1, "Model::quad", "Mesh" {
                		Version: 232
                	}
                	Material: 30, "Material::paint", "" {
                		Version: 102
                		ShadingModel: "phong"
                		Properties70:  {
                """);
        for (String p : materialProperties) {
            s.append("\t\t\tP: ").append(p).append('\n');
        }
        s.append("\t\t}\n\t}\n");
        if (textureSlot != null) {
            s.append("\tTexture: 40, \"Texture::tex\", \"\" {\n\t\tRelativeFilename: \"tex.png\"\n\t}\n");
        }
        s.append("}\nConnections:  {\n\tC: \"OO\",1,0\n\tC: \"OO\",10,1\n\tC: \"OO\",30,1\n");
        if (textureSlot != null) {
            s.append("\tC: \"OP\",40,30, \"").append(textureSlot).append("\"\n");
        }
        return s.append("}\n").toString();
    }

    static Material material(String text, SourceFile... others) {
        SourceFile f = new SourceFile("paint.fbx", text.getBytes(StandardCharsets.UTF_8));
        List<SourceFile> files = new ArrayList<>(List.of(f));
        files.addAll(List.of(others));
        ImportScene s = new FbxImporter().read(f, new SourceFiles(files), ImportLimits.DEFAULT);
        return s.meshes().getFirst().primitives().getFirst().material();
    }

    static final String GREY_80 = "\"DiffuseColor\", \"Color\", \"\", \"A\",0.8,0.8,0.8";
    static final String PAINT = "\"DiffuseColor\", \"Color\", \"\", \"A\",0.5,0.25,0.8";
    static final SourceFile TEX = new SourceFile("tex.png", TextureImagesTest.png(1, 1, 0xFF336699));

    @Test
    void aTextureOnDiffuseColorReplacesItsValue() {
        // Blender writes its Base Color socket's own (unused) value beside the texture: 0.8 grey by default
        Material m = material(fbx(BLENDER, "DiffuseColor", GREY_80), TEX);
        assertThat(m.baseColorTexture().bytes()).isEqualTo(TEX.bytes());
        assertThat(m.baseColorFactor()).containsExactly(1, 1, 1, 1);
        // the same from any exporter: the value is replaced, not read in another space
        assertThat(material(fbx(MAYA, "DiffuseColor", PAINT), TEX).baseColorFactor()).containsExactly(1, 1, 1, 1);
        // a texture on another property leaves DiffuseColor's value
        Material other = material(fbx(BLENDER, "SpecularColor", GREY_80), TEX);
        assertThat(other.baseColorTexture()).isNull();
        assertThat(other.baseColorFactor()).containsExactly(0.8f, 0.8f, 0.8f, 1);
    }

    @Test
    void aTextureThatCannotBeUsedLeavesTheValue() {
        // tex.png not uploaded: warned, and DiffuseColor is the colour
        Material m = material(fbx(BLENDER, "DiffuseColor", PAINT));
        assertThat(m.baseColorTexture()).isNull();
        assertThat(m.baseColorFactor()).containsExactly(0.5f, 0.25f, 0.8f, 1);
    }

    @Test
    void theDiffuseFactorMultipliesTheValueOrTheTexture() {
        String factor = "\"DiffuseFactor\", \"Number\", \"\", \"A\",0.8";
        assertThat(material(fbx(MAYA, null, PAINT, factor)).baseColorFactor())
                .containsExactly(new float[] {L50 * 0.8f, L25 * 0.8f, L80 * 0.8f, 1}, within(1e-7f));
        assertThat(material(fbx(BLENDER, null, PAINT, factor)).baseColorFactor())
                .containsExactly(new float[] {0.4f, 0.2f, 0.64f, 1}, within(1e-7f));
        // texture × factor (Maya's default Diffuse weight 0.8 darkens its file textures too)
        assertThat(material(fbx(MAYA, "DiffuseColor", PAINT, factor), TEX).baseColorFactor())
                .containsExactly(new float[] {0.8f, 0.8f, 0.8f, 1}, within(1e-7f));
        // a factor alone scales the default white; products stay within 0..1
        assertThat(material(fbx(MAYA, null, factor)).baseColorFactor())
                .containsExactly(new float[] {0.8f, 0.8f, 0.8f, 1}, within(1e-7f));
        assertThat(material(fbx(BLENDER, null, PAINT, "\"DiffuseFactor\", \"Number\", \"\", \"A\",2")).baseColorFactor())
                .containsExactly(new float[] {1, 0.5f, 1, 1}, within(1e-7f));
        assertThat(material(fbx(BLENDER, null, PAINT, "\"DiffuseFactor\", \"Number\", \"\", \"A\",-1")).baseColorFactor())
                .containsExactly(0, 0, 0, 1);
    }

    @Test
    void theSdksPrecomputedProductIsNotMultipliedAgain() {
        // Maya writes Diffuse = DiffuseColor × DiffuseFactor beside the two: the colour and the factor are read
        String factor = "\"DiffuseFactor\", \"Number\", \"\", \"A\",0.8";
        String product = "\"Diffuse\", \"Vector3D\", \"Vector\", \"\",0.4,0.2,0.64";
        assertThat(material(fbx(MAYA, null, PAINT, factor, product)).baseColorFactor())
                .containsExactly(new float[] {L50 * 0.8f, L25 * 0.8f, L80 * 0.8f, 1}, within(1e-7f));
        // a material with the product alone gets it as it is (sRGB 0.4, 0.2, 0.64 in linear light)
        assertThat(material(fbx(MAYA, null, product)).baseColorFactor())
                .containsExactly(new float[] {0.13286832f, 0.033104766f, 0.36724648f, 1}, within(1e-7f));
        // emissive alike: EmissiveColor × EmissiveFactor, not Emissive
        Material m = material(fbx(BLENDER, null, "\"EmissiveColor\", \"Color\", \"\", \"A\",0.2,0.4,0.6",
                "\"EmissiveFactor\", \"Number\", \"\", \"A\",0.5", "\"Emissive\", \"Vector3D\", \"Vector\", \"\",0.9,0.9,0.9"));
        assertThat(m.emissiveFactor()).containsExactly(new float[] {0.1f, 0.2f, 0.3f}, within(1e-7f));
    }

    @Test
    void blenderWritesLinearColoursOtherExportersSrgb() {
        String emission = "\"EmissiveColor\", \"Color\", \"\", \"A\",0.2,0.4,0.6";
        String strength = "\"EmissiveFactor\", \"Number\", \"\", \"A\",0.5";
        Material blender = material(fbx(BLENDER, null, PAINT, emission, strength));
        assertThat(blender.baseColorFactor()).containsExactly(0.5f, 0.25f, 0.8f, 1);
        assertThat(blender.emissiveFactor()).containsExactly(new float[] {0.1f, 0.2f, 0.3f}, within(1e-7f));
        // Blender's FBX 6.1 exporter names itself in the top-level Creator
        assertThat(material(fbx("Blender version 2.79 (sub 0)", null, PAINT)).baseColorFactor())
                .containsExactly(0.5f, 0.25f, 0.8f, 1);
        for (String other : new String[] {MAYA, "FBX SDK/FBX Plugins build 20070228", "MotionBuilder", null}) {
            Material m = material(fbx(other, null, PAINT, emission, strength));
            assertThat(m.baseColorFactor()).as(other).containsExactly(new float[] {L50, L25, L80, 1}, within(1e-7f));
            assertThat(m.emissiveFactor()).as(other).containsExactly(new float[] {0.033104766f * 0.5f,
                0.13286832f * 0.5f, 0.31854677f * 0.5f}, within(1e-7f));
        }
    }

    @Test
    void blendersCreatorIsReadFromAnFbx61Document() {
        String fbx61 = """
                ; FBX 6.1.0 project file
                FBXHeaderExtension:  {
                	FBXHeaderVersion: 1003
                	FBXVersion: 6100
                	Creator: "FBX SDK/FBX Plugins build 20070228"
                }
                CreationTime: "2019-01-01 00:00:00:000"
                Creator: "Blender version 2.79 (sub 0)"
                Objects:  {
                	Model: "Model::quad", "Mesh" {
                		Version: 232
                		Vertices: 0,0,0,1,0,0,1,1,0,0,1,0
                		PolygonVertexIndex: 0,1,2,-4
                	}
                	Material: "Material::paint", "" {
                		Version: 102
                		ShadingModel: "phong"
                		Properties60:  {
                			Property: "DiffuseColor", "Color", "A",0.5,0.25,0.8
                		}
                	}
                }
                Connections:  {
                	Connect: "OO", "Model::quad", "Model::Scene"
                	Connect: "OO", "Material::paint", "Model::quad"
                }
                """;
        assertThat(material(fbx61).baseColorFactor()).containsExactly(0.5f, 0.25f, 0.8f, 1);
        assertThat(material(fbx61.replace("Creator: \"Blender version 2.79 (sub 0)\"\n", "")).baseColorFactor())
                .containsExactly(new float[] {L50, L25, L80, 1}, within(1e-7f));
    }
}
