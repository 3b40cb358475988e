package io.posekit.asset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.skinning.Material;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * {@link TextureImages}: PNG and JPEG kept as they are, TGA and BMP (ImageIO plugins) turned into PNG of the same
 * pixels, anything else a warning; sizes checked before decoding and charged to the budget. The helpers make small
 * images for other tests.
 */
public class TextureImagesTest {

    /** A PNG of {@code w × h} texels (row-major from the top, {@code 0xAARRGGBB}). */
    public static byte[] png(int w, int h, int... argb) {
        BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        image.setRGB(0, 0, w, h, argb, 0, w);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * An uncompressed 32-bit true-colour TGA (type 2, origin top-left) of {@code w × h} texels, written byte by byte
     * from the TGA specification (18-byte header, BGRA texels).
     */
    public static byte[] tga(int w, int h, int... argb) {
        byte[] out = new byte[18 + 4 * w * h];
        out[2] = 2; // uncompressed true colour
        out[12] = (byte) w;
        out[13] = (byte) (w >> 8);
        out[14] = (byte) h;
        out[15] = (byte) (h >> 8);
        out[16] = 32; // bits per pixel
        out[17] = 0x28; // 8 alpha bits, origin top-left
        for (int i = 0; i < w * h; i++) {
            out[18 + 4 * i] = (byte) argb[i];
            out[19 + 4 * i] = (byte) (argb[i] >> 8);
            out[20 + 4 * i] = (byte) (argb[i] >> 16);
            out[21 + 4 * i] = (byte) (argb[i] >>> 24);
        }
        return out;
    }

    /** The texels of an encoded image, row-major, {@code 0xAARRGGBB}. */
    public static int[] pixels(byte[] encoded) {
        try {
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(encoded));
            return image.getRGB(0, 0, image.getWidth(), image.getHeight(), null, 0, image.getWidth());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Material.Texture convert(byte[] bytes, String name, ImportWarnings warnings) {
        return TextureImages.texture(bytes, name, "image", ImportLimits.DEFAULT.newBudget(), warnings);
    }

    @Test
    void pngAndJpegAreKeptByteForByte() throws IOException {
        byte[] png = png(1, 1, 0xFF102030);
        ImportWarnings w = new ImportWarnings();
        Material.Texture t = convert(png, null, w);
        assertThat(t.mimeType()).isEqualTo(Material.Texture.PNG);
        assertThat(t.bytes()).isSameAs(png);
        BufferedImage rgb = new BufferedImage(2, 2, BufferedImage.TYPE_INT_RGB);
        ByteArrayOutputStream jpeg = new ByteArrayOutputStream();
        ImageIO.write(rgb, "jpeg", jpeg);
        assertThat(convert(jpeg.toByteArray(), "a.jpg", w).mimeType()).isEqualTo(Material.Texture.JPEG);
        assertThat(w.list()).isEmpty();
    }

    @Test
    void tgaAndBmpBecomePngOfTheSamePixels() throws IOException {
        ImportWarnings w = new ImportWarnings();
        // (TwelveMonkeys reads a TGA's optional 26-byte footer: a file must be at least 44 bytes)
        int[] texels = {0xFFFF0000, 0x8000FF00, 0x000000FF, 0xFFFFFFFF, 0xFF123456, 0x40FEDCBA, 0, 0x01020304};
        Material.Texture fromTga = convert(tga(4, 2, texels), "skin.tga", w);
        assertThat(w.list()).isEmpty();
        assertThat(fromTga.mimeType()).isEqualTo(Material.Texture.PNG);
        assertThat(pixels(fromTga.bytes())).containsExactly(texels);
        // without a name too (the plugin recognises the header)
        assertThat(pixels(convert(tga(4, 2, texels), null, w).bytes())).containsExactly(texels);

        BufferedImage rgb = new BufferedImage(2, 1, BufferedImage.TYPE_INT_RGB);
        rgb.setRGB(0, 0, 2, 1, new int[] {0xFF0000FF, 0xFF00FF00}, 0, 2);
        ByteArrayOutputStream bmp = new ByteArrayOutputStream();
        assertThat(ImageIO.write(rgb, "bmp", bmp)).isTrue();
        Material.Texture fromBmp = convert(bmp.toByteArray(), "skin.bmp", w);
        assertThat(fromBmp.mimeType()).isEqualTo(Material.Texture.PNG);
        assertThat(pixels(fromBmp.bytes())).containsExactly(0xFF0000FF, 0xFF00FF00);
        assertThat(w.list()).isEmpty();
    }

    @Test
    void unreadableOrHugeImagesAreWarningsNotFailures() {
        ImportWarnings w = new ImportWarnings();
        assertThat(convert(new byte[] {1, 2, 3}, "x.dds", w)).isNull();
        assertThat(w.list()).containsExactly("image is not an image format posekit reads (PNG, JPEG, TGA, BMP, PSD,"
                + " WebP, GIF); the material's colour is used");
        // a TGA header claiming 65535 × 65535 texels: refused from the header, nothing decoded
        byte[] huge = tga(4, 2, new int[8]);
        huge[12] = huge[13] = huge[14] = huge[15] = (byte) 0xFF;
        ImportWarnings w2 = new ImportWarnings();
        assertThat(convert(huge, "huge.tga", w2)).isNull();
        assertThat(w2.list()).containsExactly("image is 65535×65535 pixels, outside 1..8192 either way; the material's"
                + " colour is used");
        // a truncated TGA: a warning
        byte[] truncated = java.util.Arrays.copyOf(tga(4, 4, new int[16]), 30);
        ImportWarnings w3 = new ImportWarnings();
        assertThat(convert(truncated, "cut.tga", w3)).isNull();
        assertThat(w3.list()).singleElement().asString().startsWith("image cannot be decoded (");
    }

    @Test
    void decodedPixelsAreChargedToTheBudget() {
        DecodeBudget small = new DecodeBudget(1000);
        // 64 × 64 texels: 3 × 4 bytes each are charged before decoding
        assertThatThrownBy(() -> TextureImages.texture(tga(64, 64, new int[64 * 64]), "a.tga", "image", small,
                new ImportWarnings()))
                .isInstanceOf(ImportException.class).hasMessageContaining("image decoded pixels needs 49152 bytes");
    }
}
