package io.posekit.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.render.WebpFixtures;
import io.posekit.skinning.Material;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The material extensions in, and through an export out again: {@code KHR_texture_transform} (with its
 * {@code texCoord} override), {@code KHR_materials_unlit}, {@code KHR_materials_emissive_strength},
 * {@code KHR_materials_pbrSpecularGlossiness}'s diffuse as the base colour, and a WebP image ({@code EXT_texture_webp},
 * preferred to the PNG fallback); the exported GLB declares what it uses, requires {@code EXT_texture_webp} for its
 * WebP image, and imports to the same materials.
 */
class MaterialExtensionsRoundTripTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** {@link PosedFixtures#texturedStrip()} with every extension set on its two materials. */
    private static GltfBuilder withExtensions(boolean webp) {
        GltfBuilder b = PosedFixtures.texturedStrip();
        ObjectNode skin = (ObjectNode) b.json().get("materials").get(0);
        ObjectNode info = (ObjectNode) skin.get("pbrMetallicRoughness").get("baseColorTexture");
        ObjectNode tt = info.putObject("extensions").putObject("KHR_texture_transform");
        tt.putArray("offset").add(0.5).add(0.25);
        tt.put("rotation", 0.5);
        tt.putArray("scale").add(2.0).add(0.5);
        tt.put("texCoord", 0);
        ObjectNode ext = skin.putObject("extensions");
        ext.putObject("KHR_materials_unlit");
        ext.putObject("KHR_materials_emissive_strength").put("emissiveStrength", 4.0);
        skin.putArray("emissiveFactor").add(0.5).add(0.25).add(0.0);
        ObjectNode edge = (ObjectNode) b.json().get("materials").get(1);
        edge.remove("pbrMetallicRoughness");
        ObjectNode sg = edge.putObject("extensions").putObject("KHR_materials_pbrSpecularGlossiness");
        sg.putArray("diffuseFactor").add(0.2).add(0.4).add(0.6).add(1.0);
        sg.put("glossinessFactor", 0.75);
        if (webp) {
            int view = b.addBufferView(WebpFixtures.solid(2, 2, 0xFF20A040));
            ObjectNode image = ((ArrayNode) b.json().get("images")).addObject();
            image.put("bufferView", view);
            image.put("mimeType", "image/webp");
            ((ObjectNode) b.json().get("textures").get(0)).putObject("extensions").putObject("EXT_texture_webp")
                    .put("source", 1);
        }
        return b;
    }

    private static Model importGlb(byte[] glb) {
        return AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile("m.glb", glb))).model();
    }

    @Test
    void theExtensionsAreReadAndWrittenThrough() {
        Model model = importGlb(withExtensions(true).toGlb());
        assertThat(model.warnings()).isEmpty();
        Material skin = model.meshes().getFirst().primitives().get(0).material();
        assertThat(skin.baseColorTransform()).isEqualTo(new Material.TextureTransform(0.5f, 0.25f, 0.5f, 2, 0.5f));
        assertThat(skin.unlit()).isTrue();
        assertThat(skin.emissiveStrength()).isEqualTo(4);
        assertThat(skin.emissive()).containsExactly(2, 1, 0);
        assertThat(skin.baseColorTexture().mimeType()).isEqualTo(Material.Texture.WEBP);
        assertThat(skin.baseColorTexture().bytes()).isEqualTo(WebpFixtures.solid(2, 2, 0xFF20A040));
        Material edge = model.meshes().getFirst().primitives().get(1).material();
        assertThat(edge.baseColorFactor()).containsExactly(0.2f, 0.4f, 0.6f, 1);
        assertThat(edge.metallicFactor()).isZero();
        assertThat(edge.roughnessFactor()).isEqualTo(0.25f);
        // the transform: u' = cos·2·u + sin·0.5·v + 0.5, v' = −sin·2·u + cos·0.5·v + 0.25
        float[] uv = skin.baseColorTransform().apply(new float[] {1, 0});
        assertThat(uv[0]).isEqualTo((float) (2 * Math.cos(0.5f) + 0.5f));
        assertThat(uv[1]).isEqualTo((float) (-2 * Math.sin(0.5f) + 0.25f));

        byte[] exported = AnimatedGltf.of(model, AnimatedGltf.Options.DEFAULT).glb();
        JsonNode json = glbJson(exported);
        assertThat(strings(json.get("extensionsUsed"))).containsExactly("EXT_texture_webp", "KHR_texture_transform",
                "KHR_materials_unlit", "KHR_materials_emissive_strength");
        assertThat(strings(json.get("extensionsRequired"))).containsExactly("EXT_texture_webp");
        Model again = importGlb(exported);
        assertThat(again.warnings()).isEmpty();
        assertThat(again.meshes().getFirst().primitives().get(0).material()).isEqualTo(skin);
        Material edgeAgain = again.meshes().getFirst().primitives().get(1).material();
        assertThat(edgeAgain.baseColorFactor()).containsExactly(edge.baseColorFactor());
        assertThat(edgeAgain.roughnessFactor()).isEqualTo(edge.roughnessFactor());
    }

    @Test
    void withoutTheWebpImageThePngIsUsedAndNothingIsRequired() {
        Model model = importGlb(withExtensions(false).toGlb());
        assertThat(model.meshes().getFirst().primitives().get(0).material().baseColorTexture().mimeType())
                .isEqualTo(Material.Texture.PNG);
        JsonNode json = glbJson(AnimatedGltf.of(model, AnimatedGltf.Options.DEFAULT).glb());
        assertThat(json.has("extensionsRequired")).isFalse();
    }

    private static JsonNode glbJson(byte[] glb) {
        int length = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN).getInt(12);
        return JSON.readTree(new String(glb, 20, length, StandardCharsets.UTF_8));
    }

    private static List<String> strings(JsonNode array) {
        return array == null ? List.of() : array.valueStream().map(JsonNode::asString).toList();
    }
}
