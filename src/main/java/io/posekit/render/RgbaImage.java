package io.posekit.render;

/**
 * A picture as 8-bit RGBA: row-major from the top row, 4 bytes per pixel (red, green, blue, alpha), sRGB colour with
 * straight (not premultiplied) alpha.
 *
 * @param width pixels, ≥ 1
 * @param height pixels, ≥ 1
 * @param rgba {@code 4 · width · height} bytes (shared storage, owned by whoever made the picture)
 */
public record RgbaImage(int width, int height, byte[] rgba) {

    /** @throws IllegalArgumentException when the sizes and the array disagree */
    public RgbaImage {
        if (width < 1 || height < 1 || rgba.length != 4L * width * height) {
            throw new IllegalArgumentException("an RGBA image of " + width + "×" + height + " needs "
                    + 4L * width * height + " bytes, not " + rgba.length);
        }
    }

    /** A fully transparent picture. */
    public static RgbaImage blank(int width, int height) {
        return new RgbaImage(width, height, new byte[4 * width * height]);
    }

    /** The pixel at ({@code x}, {@code y}) as {@code 0xAARRGGBB}. */
    public int argb(int x, int y) {
        int i = 4 * (y * width + x);
        return (rgba[i + 3] & 0xFF) << 24 | (rgba[i] & 0xFF) << 16 | (rgba[i + 1] & 0xFF) << 8 | rgba[i + 2] & 0xFF;
    }

    /** Copies {@code tile} into this picture with its top-left corner at ({@code x}, {@code y}); it must fit. */
    public void paste(RgbaImage tile, int x, int y) {
        for (int row = 0; row < tile.height; row++) {
            System.arraycopy(tile.rgba, 4 * row * tile.width, rgba, 4 * ((y + row) * width + x), 4 * tile.width);
        }
    }
}
