package io.posekit.render;

import static io.posekit.render.RenderScenes.colour;
import static io.posekit.render.RenderScenes.facingLight;
import static io.posekit.render.RenderScenes.linear;
import static io.posekit.render.RenderScenes.quad;
import static io.posekit.render.RenderScenes.srgb;
import static io.posekit.render.RenderScenes.straightOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.skinning.Material;
import java.io.ByteArrayOutputStream;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** Known answers of {@link Rasteriser} on generated scenes (see {@link RenderScenes}). */
class RasteriserTest {

    private final Rasteriser rasteriser = new Rasteriser();

    @Test
    void aCubeFacingTheCameraCoversExactlyItsFrontFace() {
        // camera 3 from the origin, 90° field of view: the front face (z = 1, 2 away) spans half the picture, pixels
        // 16..47 both ways; every other face is turned away and culled
        RgbaImage image = rasteriser.render(List.of(RenderScenes.cube(1, colour(0.5f, 0.25f, 0.125f))), straightOn(3),
                64, 64, 0);
        int expected = 0xFF << 24 | srgb(0.5 * facingLight()) << 16 | srgb(0.25 * facingLight()) << 8
                | srgb(0.125 * facingLight());
        for (int y = 0; y < 64; y++) {
            for (int x = 0; x < 64; x++) {
                boolean inside = x >= 16 && x < 48 && y >= 16 && y < 48;
                assertThat(image.argb(x, y)).as("pixel %d,%d", x, y).isEqualTo(inside ? expected : 0);
            }
        }
    }

    @Test
    void aCubeSeenFromAboveAtThreeQuartersShowsThreeFacesWithTheirOwnLight() {
        Camera camera = Camera.framing(new float[] {-1, -1, -1}, new float[] {1, 1, 1}, new View(45, 35.26438968), 40,
                1, 0.9);
        RgbaImage image = rasteriser.render(List.of(RenderScenes.cube(1, colour(0.5f, 0.5f, 0.5f))), camera, 128, 128,
                0xFF000000);
        // the corner (1, 1, 1) is at the picture's centre; top face above it, front face below left, right face below right
        int top = image.argb(64, 40);
        int front = image.argb(50, 80);
        int right = image.argb(78, 80);
        assertThat(image.argb(0, 0)).isEqualTo(0xFF000000);
        assertThat(top).isNotEqualTo(front).isNotEqualTo(right).isNotEqualTo(0xFF000000);
        assertThat(front).isNotEqualTo(right).isNotEqualTo(0xFF000000);
        assertThat(right).isNotEqualTo(0xFF000000);
    }

    @Test
    void aTexturedQuadShowsItsTexels() {
        // 16×16 texels in 4×4 blocks of one colour each, mapped one texel per pixel: the middle 2×2 pixels of a block
        // have all their samples inside the block, so bilinear filtering gives the block's colour exactly
        int[] texels = new int[256];
        int[] blocks = new int[16];
        for (int b = 0; b < 16; b++) {
            blocks[b] = 0xFF000000 | (16 * b) << 16 | (255 - 12 * b) << 8 | (b * 37 % 200);
        }
        for (int y = 0; y < 16; y++) {
            for (int x = 0; x < 16; x++) {
                texels[16 * y + x] = blocks[4 * (y / 4) + x / 4];
            }
        }
        Material material = new Material("t", new float[] {1, 1, 1, 1}, 0, 1, new float[3],
                Material.AlphaMode.OPAQUE, 0.5f, false, new Material.Texture(Material.Texture.PNG, png(16, 16, texels)), 0);
        RgbaImage image = rasteriser.render(List.of(quad(-1, -1, 1, 1, 0, material, false)), straightOn(1), 16, 16, 0);
        double light = facingLight();
        for (int by = 0; by < 4; by++) {
            for (int bx = 0; bx < 4; bx++) {
                int t = blocks[4 * by + bx];
                int expected = 0xFF000000 | srgb(linear(t >> 16 & 0xFF) * light) << 16
                        | srgb(linear(t >> 8 & 0xFF) * light) << 8 | srgb(linear(t & 0xFF) * light);
                for (int y = 4 * by + 1; y <= 4 * by + 2; y++) {
                    for (int x = 4 * bx + 1; x <= 4 * bx + 2; x++) {
                        assertThat(image.argb(x, y)).as("pixel %d,%d of block %d,%d", x, y, bx, by).isEqualTo(expected);
                    }
                }
            }
        }
    }

    @Test
    void backFacesAreCulledUnlessTheMaterialIsDoubleSidedWhenTheyAreLitFromBehind() {
        Surface back = quad(-1, -1, 1, 1, 0, colour(0.5f, 0.5f, 0.5f), true);
        RgbaImage culled = rasteriser.render(List.of(back), straightOn(1), 8, 8, 0);
        assertThat(culled.rgba()).containsOnly(0);

        Surface twoSided = quad(-1, -1, 1, 1, 0, Material.of("d", new float[] {0.5f, 0.5f, 0.5f, 1}, true), true);
        RgbaImage drawn = rasteriser.render(List.of(twoSided), straightOn(1), 8, 8, 0);
        // the normals (+Z, towards the camera) are turned over on the back: only the ambient term lights it
        int ambient = srgb(0.5 * 0.30);
        for (int y = 0; y < 8; y++) {
            for (int x = 0; x < 8; x++) {
                assertThat(drawn.argb(x, y)).isEqualTo(0xFF000000 | ambient << 16 | ambient << 8 | ambient);
            }
        }
    }

    @Test
    void theNearestSurfaceWinsWhateverTheOrder() {
        Surface near = quad(-1, -1, 0, 1, 0.5f, colour(1, 0, 0), false);
        Surface far = quad(-1, -1, 1, 1, 0, colour(0, 0, 1), false);
        for (List<Surface> order : List.of(List.of(near, far), List.of(far, near))) {
            RgbaImage image = rasteriser.render(order, straightOn(2), 32, 32, 0);
            // the near quad (z = 0.5, 1.5 from the eye) spans x from −1 → pixel 16 − 16/1.5 = 5.33 to 0 → pixel 16
            assertThat(image.argb(10, 16) >> 16 & 0xFF).as("near, red").isGreaterThan(200);
            assertThat(image.argb(10, 16) & 0xFF).isZero();
            assertThat(image.argb(20, 16) & 0xFF).as("far, blue").isGreaterThan(200);
            assertThat(image.argb(20, 16) >> 16 & 0xFF).isZero();
        }
    }

    @Test
    void trianglesSharingAnEdgeLeaveNoGapAndPartlyCoveredPixelsHavePartialAlpha() {
        // a quad whose diagonal crosses pixels at every angle; its edges at x = ±0.7 cut pixels
        RgbaImage image = rasteriser.render(List.of(quad(-0.7f, -1, 0.7f, 1, 0, colour(1, 1, 1), false)),
                straightOn(1), 20, 20, 0);
        for (int y = 0; y < 20; y++) {
            for (int x = 4; x < 16; x++) {
                assertThat(image.argb(x, y) >>> 24).as("alpha at %d,%d", x, y).isEqualTo(255);
            }
            // x = −0.7 is pixel 3.0: the samples of pixel 2 at 2/16..14/16 are left of it
            assertThat(image.argb(2, y) >>> 24).isZero();
            assertThat(image.argb(17, y) >>> 24).isZero();
        }
        RgbaImage shifted = rasteriser.render(List.of(quad(-0.675f, -1, 0.7f, 1, 0, colour(1, 1, 1), false)),
                straightOn(1), 20, 20, 0);
        // x = −0.675 is pixel 3.25: of pixel 3's samples (x 2, 6, 10, 14 sixteenths) those at 6, 10 and 14 are inside
        assertThat(shifted.argb(3, 5) >>> 24).isEqualTo((3 * 255 + 2) / 4);
    }

    @Test
    void aSolidBackgroundFillsEmptyPixelsAndBlendsEdges() {
        RgbaImage image = rasteriser.render(List.of(quad(-0.675f, -1, 0.7f, 1, 0, colour(0, 0, 0), false)),
                straightOn(1), 20, 20, 0xFFFFFFFF);
        assertThat(image.argb(0, 0)).isEqualTo(0xFFFFFFFF);
        // one of four samples white: linear 0.25
        assertThat(image.argb(3, 5)).isEqualTo(0xFF000000 | srgb(0.25) * 0x010101);
    }

    @Test
    void sizesBeyondTheLimitsAreRefused() {
        assertThatThrownBy(() -> rasteriser.render(List.of(), straightOn(1), 2049, 10, 0))
                .hasMessage("width 2049 is not within 1..2048");
        assertThatThrownBy(() -> rasteriser.render(List.of(), straightOn(1), 10, 0, 0))
                .hasMessage("height 0 is not within 1..2048");
    }

    @Test
    void largePicturesAreDrawnInBandsWithTheSameResult() {
        // 1024 wide: bands of 256 rows; the same cube at 1024×1024 and the bands' seams at rows 256, 512, 768
        RgbaImage image = rasteriser.render(List.of(RenderScenes.cube(1, colour(0.5f, 0.5f, 0.5f))), straightOn(3),
                1024, 1024, 0);
        for (int y = 0; y < 1024; y += 1) {
            boolean inside = y >= 256 && y < 768;
            assertThat(image.argb(512, y) >>> 24).as("row %d", y).isEqualTo(inside ? 255 : 0);
            assertThat(image.argb(255, y) >>> 24).isZero();
            assertThat(image.argb(256, y) >>> 24).isEqualTo(inside ? 255 : 0);
        }
    }

    static byte[] png(int w, int h, int[] argb) {
        java.awt.image.BufferedImage image = new java.awt.image.BufferedImage(w, h,
                java.awt.image.BufferedImage.TYPE_INT_ARGB);
        image.setRGB(0, 0, w, h, argb, 0, w);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
