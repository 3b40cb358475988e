package io.posekit.render;

import static io.posekit.render.RenderScenes.facingLight;
import static io.posekit.render.RenderScenes.linear;
import static io.posekit.render.RenderScenes.quad;
import static io.posekit.render.RenderScenes.srgb;
import static io.posekit.render.RenderScenes.straightOn;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.skinning.Material;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * The material extensions as the renderer draws them: {@code KHR_texture_transform} moves where the base colour
 * texture is sampled, {@code KHR_materials_unlit} draws the colour without light, and the emissive colour times
 * {@code KHR_materials_emissive_strength} is added to the lit colour (as a viewer does), on quads facing the camera.
 */
class MaterialRenderTest {

    private final Rasteriser rasteriser = new Rasteriser();
    // 16×16 texels in 4×4 blocks of one colour each, mapped one texel per pixel
    private final int[] blocks = new int[16];
    private final byte[] png;

    MaterialRenderTest() {
        BufferedImage image = new BufferedImage(16, 16, BufferedImage.TYPE_INT_ARGB);
        for (int b = 0; b < 16; b++) {
            blocks[b] = 0xFF000000 | (16 * b) << 16 | (255 - 12 * b) << 8 | (b * 37 % 200);
        }
        for (int y = 0; y < 16; y++) {
            for (int x = 0; x < 16; x++) {
                image.setRGB(x, y, blocks[4 * (y / 4) + x / 4]);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        png = out.toByteArray();
    }

    private Material textured(Material.TextureTransform transform) {
        return new Material("t", new float[] {1, 1, 1, 1}, 0, 1, new float[3], Material.AlphaMode.OPAQUE, 0.5f, false,
                new Material.Texture(Material.Texture.PNG, png), 0, transform, false, 1);
    }

    /** The block each pixel's middle shows, lit, must be {@code blockAt(bx, by)}. */
    private void assertBlocks(RgbaImage image, java.util.function.IntBinaryOperator blockAt) {
        double light = facingLight();
        for (int by = 0; by < 4; by++) {
            for (int bx = 0; bx < 4; bx++) {
                int t = blocks[blockAt.applyAsInt(bx, by)];
                int expected = 0xFF000000 | srgb(linear(t >> 16 & 0xFF) * light) << 16
                        | srgb(linear(t >> 8 & 0xFF) * light) << 8 | srgb(linear(t & 0xFF) * light);
                for (int y = 4 * by + 1; y <= 4 * by + 2; y++) {
                    for (int x = 4 * bx + 1; x <= 4 * bx + 2; x++) {
                        assertThat(image.argb(x, y)).as("pixel %d,%d", x, y).isEqualTo(expected);
                    }
                }
            }
        }
    }

    @Test
    void aTextureTransformOffsetShiftsTheTexture() {
        // offset (0.5, 0.25): the pixel over texel (x, y) shows texel (x + 8, y + 4), wrapped
        Material m = textured(new Material.TextureTransform(0.5f, 0.25f, 0, 1, 1));
        RgbaImage image = rasteriser.render(List.of(quad(-1, -1, 1, 1, 0, m, false)), straightOn(1), 16, 16, 0);
        assertBlocks(image, (bx, by) -> 4 * ((by + 1) % 4) + (bx + 2) % 4);
    }

    @Test
    void aTextureTransformRotationAndScaleTurnTheTexture() {
        // rotation π, scale (1, 1), offset (1, 1): u' = 1 − u, v' = 1 − v, the texture turned half a turn
        Material m = textured(new Material.TextureTransform(1, 1, (float) Math.PI, 1, 1));
        RgbaImage image = rasteriser.render(List.of(quad(-1, -1, 1, 1, 0, m, false)), straightOn(1), 16, 16, 0);
        assertBlocks(image, (bx, by) -> 4 * (3 - by) + 3 - bx);
        // and without the transform the same quad shows the texture as it is: the transform is what moved it
        RgbaImage plain = rasteriser.render(List.of(quad(-1, -1, 1, 1, 0, textured(null), false)), straightOn(1), 16, 16,
                0);
        assertBlocks(plain, (bx, by) -> 4 * by + bx);
    }

    @Test
    void unlitSurfacesShowTheirColourAndEmissionIsAdded() {
        Material unlit = new Material("u", new float[] {0.5f, 0.25f, 0.125f, 1}, 0, 1, new float[3],
                Material.AlphaMode.OPAQUE, 0.5f, false, null, 0, null, true, 1);
        RgbaImage image = rasteriser.render(List.of(quad(-1, -1, 1, 1, 0, unlit, false)), straightOn(1), 8, 8, 0);
        assertThat(image.argb(4, 4)).isEqualTo(0xFF000000 | srgb(0.5) << 16 | srgb(0.25) << 8 | srgb(0.125));

        Material glowing = new Material("e", new float[] {0.2f, 0.2f, 0.2f, 1}, 0, 1, new float[] {0.1f, 0.05f, 0},
                Material.AlphaMode.OPAQUE, 0.5f, false, null, 0, null, false, 2);
        image = rasteriser.render(List.of(quad(-1, -1, 1, 1, 0, glowing, false)), straightOn(1), 8, 8, 0);
        double lit = 0.2 * facingLight();
        assertThat(image.argb(4, 4)).isEqualTo(0xFF000000 | srgb(lit + 0.2) << 16 | srgb(lit + 0.1) << 8 | srgb(lit));
    }
}
