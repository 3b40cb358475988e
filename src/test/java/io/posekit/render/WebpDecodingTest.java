package io.posekit.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.skinning.Material;
import org.junit.jupiter.api.Test;

/** WebP textures ({@code EXT_texture_webp}) decode through ImageIO (the TwelveMonkeys WebP plugin). */
class WebpDecodingTest {

    @Test
    void aLosslessWebpDecodesToItsColour() {
        byte[] webp = WebpFixtures.solid(5, 3, 0xFFC83214);
        assertThat(Material.Texture.sniff(webp)).isEqualTo(Material.Texture.WEBP);
        TextureImage image = TextureImage.of(new Material.Texture(Material.Texture.WEBP, webp));
        assertThat(image).isNotNull();
        assertThat(image.width()).isEqualTo(5);
        assertThat(image.height()).isEqualTo(3);
        for (int y = 0; y < 3; y++) {
            for (int x = 0; x < 5; x++) {
                assertThat(image.texel(x, y)).isEqualTo(0xFFC83214);
            }
        }
    }
}
