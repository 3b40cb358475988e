package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.GltfTestSupport.importGlb;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportScene;
import io.posekit.asset.ktx2.Ktx2Fixtures;
import io.posekit.export.PosedFixtures;
import io.posekit.skinning.Material;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@code KHR_texture_basisu} texture's KTX2 image is transcoded and carried as PNG, preferred to the core image as a
 * viewer that decodes KTX2 prefers it (Ktx2GoldenTest checks the transcoding itself against Binomial's transcoder).
 */
public class Ktx2TextureImportTest {

    /** 8×4 pixels: a red block beside a half-transparent blue one. */
    static final byte[] KTX2 = Ktx2Fixtures.uastcSolid(8, 4, 0xFFFF0000, 0x800000FF);

    /** The textured strip with the KTX2 image as image 1 and texture 0's {@code KHR_texture_basisu} source. */
    public static GltfBuilder strip(boolean fallback) {
        GltfBuilder b = PosedFixtures.texturedStrip();
        int view = b.addBufferView(KTX2);
        ObjectNode image = ((tools.jackson.databind.node.ArrayNode) b.json().get("images")).addObject();
        image.put("bufferView", view);
        image.put("mimeType", "image/ktx2");
        ObjectNode texture = (ObjectNode) b.json().get("textures").get(0);
        texture.putObject("extensions").putObject("KHR_texture_basisu").put("source", 1);
        if (!fallback) {
            texture.remove("source");
        }
        b.json().putArray("extensionsUsed").add("KHR_texture_basisu");
        return b;
    }

    @Test
    void theKtx2ImageIsTranscodedToPng() throws IOException {
        for (boolean fallback : new boolean[] {true, false}) {
            ImportScene scene = importGlb(strip(fallback).toGlb());
            assertThat(scene.warnings()).isEmpty();
            Material.Texture texture = scene.meshes().getFirst().primitives().getFirst().material().baseColorTexture();
            assertThat(texture.mimeType()).isEqualTo(Material.Texture.PNG);
            BufferedImage png = ImageIO.read(new ByteArrayInputStream(texture.bytes()));
            assertThat(png.getWidth()).isEqualTo(8);
            assertThat(png.getHeight()).isEqualTo(4);
            for (int y = 0; y < 4; y++) {
                for (int x = 0; x < 8; x++) {
                    assertThat(png.getRGB(x, y)).isEqualTo(x < 4 ? 0xFFFF0000 : 0x800000FF);
                }
            }
        }
    }

    @Test
    void aBrokenKtx2ImageFallsBackWithAWarning() {
        GltfBuilder b = strip(true);
        byte[] glb = b.toGlb();
        // the KTX2 image's first block: the reserved mode
        int at = indexOf(glb, KTX2) + KTX2.length - 32;
        glb[at] = 0x45;
        ImportScene scene = importGlb(glb);
        assertThat(scene.warnings()).containsExactly("texture 0 KHR_texture_basisu: image 1: UASTC level 0: UASTC block"
                + " (0, 0) uses the reserved mode; its fallback image is used");
        assertThat(scene.meshes().getFirst().primitives().getFirst().material().baseColorTexture().bytes())
                .isEqualTo(PosedFixtures.png());
    }

    static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }
}
