package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.GltfTestSupport.importGlb;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportScene;
import io.posekit.export.PosedFixtures;
import io.posekit.skinning.Material;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@code KHR_texture_basisu} image that is not a KTX2 file posekit transcodes falls back to the texture's core image,
 * else the base colour factor, with a warning (Ktx2TextureImportTest has the transcoded case).
 */
class TextureFallbackTest {

    @Test
    void anUntranscodableBasisuImageFallsBackToTheCoreImageWithAWarning() {
        GltfBuilder b = PosedFixtures.texturedStrip();
        ((ObjectNode) b.json().get("textures").get(0)).putObject("extensions").putObject("KHR_texture_basisu")
                .put("source", 0);
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.warnings()).containsExactly("texture 0 KHR_texture_basisu: image 0 is not a KTX2 file (no KTX"
                + " 2.0 identifier); its fallback image is used");
        Material m = scene.meshes().getFirst().primitives().getFirst().material();
        assertThat(m.baseColorTexture().bytes()).isEqualTo(PosedFixtures.png());
    }

    @Test
    void anUntranscodableBasisuImageWithoutFallbackLeavesTheBaseColourFactor() {
        GltfBuilder b = PosedFixtures.texturedStrip();
        ObjectNode texture = (ObjectNode) b.json().get("textures").get(0);
        texture.remove("source");
        texture.putObject("extensions").putObject("KHR_texture_basisu").put("source", 0);
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.warnings()).containsExactly("texture 0 KHR_texture_basisu: image 0 is not a KTX2 file (no KTX"
                + " 2.0 identifier); the base colour factor alone is used");
        Material m = scene.meshes().getFirst().primitives().getFirst().material();
        assertThat(m.baseColorTexture()).isNull();
        assertThat(m.baseColorFactor()).containsExactly(PosedFixtures.SKIN_BASE_COLOR);
    }
}
