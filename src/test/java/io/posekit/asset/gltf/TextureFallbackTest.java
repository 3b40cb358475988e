package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.GltfTestSupport.importGlb;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportScene;
import io.posekit.export.PosedFixtures;
import io.posekit.skinning.Material;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** KTX2/Basis textures ({@code KHR_texture_basisu}) are never decoded: the fallback image, else the base colour factor. */
class TextureFallbackTest {

    @Test
    void aBasisuTextureFallsBackToItsCoreImageWithAWarning() {
        GltfBuilder b = PosedFixtures.texturedStrip();
        ((ObjectNode) b.json().get("textures").get(0)).putObject("extensions").putObject("KHR_texture_basisu")
                .put("source", 0);
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.warnings()).containsExactly("texture 0 is a KTX2/Basis image (KHR_texture_basisu), which posekit "
                + "does not decode; its fallback image is used");
        Material m = scene.meshes().getFirst().primitives().getFirst().material();
        assertThat(m.baseColorTexture().bytes()).isEqualTo(PosedFixtures.png());
    }

    @Test
    void aBasisuTextureWithoutFallbackLeavesTheBaseColourFactor() {
        GltfBuilder b = PosedFixtures.texturedStrip();
        ObjectNode texture = (ObjectNode) b.json().get("textures").get(0);
        texture.remove("source");
        texture.putObject("extensions").putObject("KHR_texture_basisu").put("source", 0);
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.warnings()).containsExactly("texture 0 is a KTX2/Basis image (KHR_texture_basisu), which posekit "
                + "does not decode; the base colour factor alone is used");
        Material m = scene.meshes().getFirst().primitives().getFirst().material();
        assertThat(m.baseColorTexture()).isNull();
        assertThat(m.baseColorFactor()).containsExactly(PosedFixtures.SKIN_BASE_COLOR);
    }
}
