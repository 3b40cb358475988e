package io.posekit.asset.collada;

import static io.posekit.asset.collada.ColladaTestSupport.importDae;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportScene;
import io.posekit.skinning.Material;
import io.posekit.skinning.Primitive;
import org.junit.jupiter.api.Test;

/** Texture coordinates (every TEXCOORD set by ascending set, v = 1 − t) and materials (name, diffuse, emission) of COLLADA meshes; textures in {@link TextureImportTest}. */
class SurfaceImportTest {

    private static final String LIBRARIES = """
            <library_effects>
              <effect id="Red-fx"><profile_COMMON><technique sid="common"><phong>
                <emission><color>0.1 0.2 0.3 1</color></emission>
                <diffuse><color sid="diffuse">1 0.5 0 0.75</color></diffuse>
              </phong></technique></profile_COMMON></effect>
              <effect id="Tex-fx"><profile_COMMON><technique sid="common"><lambert>
                <diffuse><texture texture="img-sampler" texcoord="UVMap"/></diffuse>
              </lambert></technique></profile_COMMON></effect>
            </library_effects>
            <library_materials>
              <material id="Red-material" name="Red"><instance_effect url="#Red-fx"/></material>
              <material id="Tex-material"><instance_effect url="#Tex-fx"/></material>
            </library_materials>
            """;

    private static String mesh(String material, int set) {
        return DaeBuilder.floats("m-positions", "XYZ", 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0)
                + DaeBuilder.floats("m-uv0", "ST", 0, 0, 1, 0, 1, 1, 0, 0.25)
                + DaeBuilder.floats("m-uv1", "ST", 9, 9, 9, 9, 9, 9, 9, 9)
                + "<vertices id=\"m-vertices\"><input semantic=\"POSITION\" source=\"#m-positions\"/></vertices>"
                + "<polylist count=\"1\"" + (material == null ? "" : " material=\"" + material + "\"") + ">"
                + "<input semantic=\"VERTEX\" source=\"#m-vertices\" offset=\"0\"/>"
                + "<input semantic=\"TEXCOORD\" source=\"#m-uv1\" offset=\"1\" set=\"" + (set + 1) + "\"/>"
                + "<input semantic=\"TEXCOORD\" source=\"#m-uv0\" offset=\"1\" set=\"" + set + "\"/>"
                + "<vcount>4</vcount><p>0 0 1 1 2 2 3 3</p></polylist>";
    }

    private static ImportScene importWith(String material, String binding) {
        DaeBuilder b = new DaeBuilder().geometry("m", "Quad", mesh(material, 0))
                .node("<node id=\"n\" name=\"n\"><instance_geometry url=\"#m\">" + binding + "</instance_geometry></node>");
        return importDae(b.toXml().replace("</asset>\n", "</asset>\n" + LIBRARIES));
    }

    @Test
    void carriesTheLowestTexcoordSetFlippedToGltfsConvention() {
        ImportScene scene = importWith(null, "");
        Primitive p = scene.meshes().getFirst().primitives().getFirst();
        // polylist corners 0..3 → vertices 0..3; (s, t) → (s, 1 − t)
        assertThat(p.texcoords()).containsExactly(0, 1, 1, 1, 1, 0, 0, 0.75f);
        // the next set (listed first in the element) is TEXCOORD_1, flipped alike
        assertThat(p.texcoordSets()).hasSize(2);
        assertThat(p.texcoordSets().get(1)).containsExactly(9, -8, 9, -8, 9, -8, 9, -8);
        assertThat(p.material()).isNull();
        assertThat(scene.warnings()).isEmpty();
    }

    @Test
    void bindsTheMaterialSymbolThroughInstanceMaterial() {
        ImportScene scene = importWith("sym",
                "<bind_material><technique_common><instance_material symbol=\"sym\" target=\"#Red-material\"/>"
                        + "</technique_common></bind_material>");
        Material m = scene.meshes().getFirst().primitives().getFirst().material();
        assertThat(m.name()).isEqualTo("Red");
        // sRGB in the file, linear in the material (as three.js); the diffuse colour's alpha is not opacity
        assertThat(m.baseColorFactor()).containsExactly(1, 0.21404114f, 0, 1);
        assertThat(m.emissiveFactor()).containsExactly(new float[] {0.010022826f, 0.033104762f, 0.07323897f},
                org.assertj.core.api.Assertions.within(1e-8f));
        assertThat(m.metallicFactor()).isZero();
        assertThat(m.roughnessFactor()).isEqualTo(1);
        assertThat(m.baseColorTexture()).isNull();
        assertThat(scene.warnings()).isEmpty();
    }

    @Test
    void aSymbolThatIsAMaterialIdAndATexturedDiffuseGiveAWhiteMaterial() {
        ImportScene scene = importWith("Tex-material", "");
        Material m = scene.meshes().getFirst().primitives().getFirst().material();
        assertThat(m.name()).isEqualTo("Tex-material");
        assertThat(m.baseColorFactor()).containsExactly(1, 1, 1, 1);
        assertThat(scene.warnings()).containsExactly("material 'Tex-material': its diffuse texture 'img-sampler' names"
                + " no <image>; the colour is used");

        ImportScene unbound = importWith("nothing", "");
        assertThat(unbound.meshes().getFirst().primitives().getFirst().material()).isNull();
        assertThat(unbound.warnings()).containsExactly(
                "geometry 'm' polylist 0: material 'nothing' is bound to no <material>; no material is used");
    }
}
