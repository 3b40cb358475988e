package io.posekit.asset.ktx2;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import javax.imageio.ImageIO;

/**
 * A decoded image: {@code width × height} pixels, 4 bytes each (red, green, blue, alpha, 0..255, the texture's own
 * encoding: sRGB for a colour texture), rows top first.
 *
 * @param width pixels across, at least 1
 * @param height pixels down, at least 1
 * @param rgba the pixels (owned by this image; not to be modified)
 * @param hasAlpha whether the source carries alpha (else every alpha byte is 255)
 */
public record RgbaImage(int width, int height, byte[] rgba, boolean hasAlpha) {

    public RgbaImage {
        Objects.requireNonNull(rgba, "rgba");
        if (width < 1 || height < 1 || rgba.length != 4L * width * height) {
            throw new IllegalArgumentException("an RGBA image of " + width + "×" + height + " needs "
                    + 4L * width * height + " bytes, not " + rgba.length);
        }
    }

    /** The pixel at column {@code x}, row {@code y} as {@code 0xAARRGGBB}. */
    public int argb(int x, int y) {
        int p = (y * width + x) * 4;
        return (rgba[p + 3] & 0xFF) << 24 | (rgba[p] & 0xFF) << 16 | (rgba[p + 1] & 0xFF) << 8 | (rgba[p + 2] & 0xFF);
    }

    /** All pixels as {@code 0xAARRGGBB}, rows top first. */
    public int[] argb() {
        int[] out = new int[width * height];
        for (int i = 0; i < out.length; i++) {
            int p = i * 4;
            out[i] = (rgba[p + 3] & 0xFF) << 24 | (rgba[p] & 0xFF) << 16 | (rgba[p + 1] & 0xFF) << 8 | (rgba[p + 2] & 0xFF);
        }
        return out;
    }

    /**
     * The image as a PNG file (8-bit RGBA when it has alpha, else RGB), written by ImageIO's PNG writer: lossless,
     * so a PNG reader gets these pixels back. Allocates a {@code BufferedImage} of {@code width × height} ints and the
     * file: callers charge that to their budget first.
     */
    public byte[] png() {
        BufferedImage image = new BufferedImage(width, height,
                hasAlpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
        image.setRGB(0, 0, width, height, argb(), 0, width);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            if (!ImageIO.write(image, "png", out)) {
                throw new IllegalStateException("no PNG writer is installed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
