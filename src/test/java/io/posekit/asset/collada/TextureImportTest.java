package io.posekit.asset.collada;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.asset.TextureImagesTest;
import io.posekit.skinning.Material;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * COLLADA textures and the rest of a material as three.js's ColladaLoader reads them: {@code <library_images>},
 * the effect's {@code newparam} surface/sampler2D chain (and COLLADA 1.5's {@code instance_image}), the set
 * {@code <bind_vertex_input>} binds the texture's {@code texcoord} to, embedded hex images, transparency and
 * double-sidedness.
 */
class TextureImportTest {

    private static final String MESH = DaeBuilder.floats("m-positions", "XYZ", 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0)
            + DaeBuilder.floats("m-uv0", "ST", 0, 0, 1, 0, 1, 1, 0, 1)
            + DaeBuilder.floats("m-uv1", "ST", 0, 0, 0.5, 0, 0.5, 0.5, 0, 0.5)
            + "<vertices id=\"m-vertices\"><input semantic=\"POSITION\" source=\"#m-positions\"/></vertices>"
            + "<polylist count=\"1\" material=\"sym\">"
            + "<input semantic=\"VERTEX\" source=\"#m-vertices\" offset=\"0\"/>"
            + "<input semantic=\"TEXCOORD\" source=\"#m-uv0\" offset=\"1\" set=\"0\"/>"
            + "<input semantic=\"TEXCOORD\" source=\"#m-uv1\" offset=\"1\" set=\"1\"/>"
            + "<vcount>4</vcount><p>0 0 1 1 2 2 3 3</p></polylist>";

    /** A document whose material 'Skin' (effect {@code effect}) is bound to the quad, with {@code images}. */
    private static String dae(String images, String effect, String bindVertexInput) {
        String xml = new DaeBuilder().geometry("m", "Quad", MESH)
                .node("<node id=\"n\" name=\"n\"><instance_geometry url=\"#m\"><bind_material><technique_common>"
                        + "<instance_material symbol=\"sym\" target=\"#skin-material\">" + bindVertexInput
                        + "</instance_material></technique_common></bind_material></instance_geometry></node>")
                .toXml();
        return xml.replace("</asset>\n", "</asset>\n<library_images>" + images + "</library_images>"
                + "<library_effects><effect id=\"skin-fx\">" + effect + "</effect></library_effects>"
                + "<library_materials><material id=\"skin-material\" name=\"Skin\"><instance_effect url=\"#skin-fx\"/>"
                + "</material></library_materials>\n");
    }

    /** profile_COMMON with a sampler2D 'tex-sampler' → surface 'tex-surface' → image 'tex', and {@code shading}. */
    private static String common141(String shading) {
        return "<profile_COMMON>"
                + "<newparam sid=\"tex-surface\"><surface type=\"2D\"><init_from>tex</init_from></surface></newparam>"
                + "<newparam sid=\"tex-sampler\"><sampler2D><source>tex-surface</source></sampler2D></newparam>"
                + "<technique sid=\"common\">" + shading + "</technique></profile_COMMON>";
    }

    private static final String TEXTURED = "<lambert><diffuse><texture texture=\"tex-sampler\" texcoord=\"UVMap\"/>"
            + "</diffuse></lambert>";

    private static ImportScene importWith(String xml, SourceFile... others) {
        SourceFile main = new SourceFile("models/quad.dae", xml.getBytes(StandardCharsets.UTF_8));
        List<SourceFile> files = new ArrayList<>(List.of(main));
        files.addAll(List.of(others));
        return new ColladaImporter().read(main, new SourceFiles(files), ImportLimits.DEFAULT);
    }

    private static Material material(ImportScene s) {
        return s.meshes().getFirst().primitives().getFirst().material();
    }

    @Test
    void theSamplerSurfaceImageChainFindsTheUploadedFileAndBindVertexInputPicksTheSet() {
        byte[] png = TextureImagesTest.png(1, 1, 0xFF00FF00);
        String xml = dae("<image id=\"tex\"><init_from>textures/skin%20a.png</init_from></image>", common141(TEXTURED),
                "<bind_vertex_input semantic=\"UVMap\" input_semantic=\"TEXCOORD\" input_set=\"1\"/>");
        ImportScene s = importWith(xml, new SourceFile("models/textures/skin a.png", png));
        Material m = material(s);
        assertThat(m.baseColorTexture().bytes()).isEqualTo(png);
        // TEXCOORD set 1 is the primitive's second set
        assertThat(m.baseColorTexCoord()).isEqualTo(1);
        // a textured diffuse has no colour: white (as three.js)
        assertThat(m.baseColorFactor()).containsExactly(1, 1, 1, 1);
        assertThat(s.warnings()).isEmpty();
        // without a binding the texture samples TEXCOORD_0; a multipart upload (base names only) finds it by name
        ImportScene unbound = importWith(dae("<image id=\"tex\"><init_from>C:\\art\\skin a.png</init_from></image>",
                common141(TEXTURED), ""), new SourceFile("skin a.png", png));
        assertThat(material(unbound).baseColorTexCoord()).isZero();
        assertThat(material(unbound).baseColorTexture().bytes()).isEqualTo(png);
    }

    @Test
    void embeddedHexImagesAndCollada15InstanceImagesAreRead() {
        int[] texels = {0xFF0000FF, 0xFFFF0000, 0xFF00FF00, 0xFFFFFFFF, 0xFF000000, 0xFF111111, 0xFF222222, 0xFF333333};
        String hex = HexFormat.of().formatHex(TextureImagesTest.tga(4, 2, texels));
        String effect15 = "<profile_COMMON><newparam sid=\"s\"><sampler2D><instance_image url=\"#tex\"/></sampler2D>"
                + "</newparam><technique sid=\"common\"><phong><diffuse><texture texture=\"s\" texcoord=\"UV\"/>"
                + "</diffuse></phong></technique></profile_COMMON>";
        ImportScene s = importWith(dae("<image id=\"tex\"><init_from><hex format=\"TGA\">" + hex + "</hex></init_from>"
                + "</image>", effect15, ""));
        Material.Texture t = material(s).baseColorTexture();
        assertThat(t.mimeType()).isEqualTo(Material.Texture.PNG);
        assertThat(TextureImagesTest.pixels(t.bytes())).containsExactly(texels);
    }

    @Test
    void aMissingImageIsAWarningAndTheColourStays() {
        ImportScene s = importWith(dae("<image id=\"tex\"><init_from>gone.png</init_from></image>", common141(TEXTURED),
                ""));
        assertThat(material(s).baseColorTexture()).isNull();
        assertThat(material(s).name()).isEqualTo("Skin");
        assertThat(s.warnings()).containsExactly("image 'tex': its image 'gone.png' is not among the uploaded files;"
                + " the material's colour is used");
    }

    @Test
    void transparencyAndDoubleSidednessAsThreeJsReadsThem() {
        String[][] cases = {
            // <transparent opaque>, colour, <transparency>: expected opacity
            {"A_ONE", "1 1 1 0.25", "1", "0.25"},
            {"RGB_ZERO", "0.75 0 0 1", "1", "0.25"},
            {"A_ZERO", "0 0 0 0.5", "0.5", "0.75"},
            {"RGB_ONE", "0.5 0.5 0.5 1", "0.5", "0.25"},
            {"A_ONE", "1 1 1 1", "1", "1"},
        };
        for (String[] c : cases) {
            String shading = "<phong><diffuse><color>1 1 1 1</color></diffuse><transparent opaque=\"" + c[0]
                    + "\"><color>" + c[1] + "</color></transparent><transparency><float>" + c[2]
                    + "</float></transparency></phong>";
            Material m = material(importWith(dae("", common141(shading), "")));
            float opacity = Float.parseFloat(c[3]);
            assertThat(m.baseColorFactor()[3]).as(c[0]).isEqualTo(opacity);
            assertThat(m.alphaMode()).as(c[0]).isEqualTo(opacity < 1 ? Material.AlphaMode.BLEND
                    : Material.AlphaMode.OPAQUE);
            assertThat(m.doubleSided()).isFalse();
        }
        String twoSided = "<lambert><diffuse><color>0.5 0.5 0.5 1</color></diffuse></lambert>"
                + "<extra><technique profile=\"GOOGLEEARTH\"><double_sided>1</double_sided></technique></extra>";
        Material m = material(importWith(dae("", common141(twoSided), "")));
        assertThat(m.doubleSided()).isTrue();
        assertThat(m.baseColorFactor()).containsExactly(0.21404114f, 0.21404114f, 0.21404114f, 1);
    }
}
