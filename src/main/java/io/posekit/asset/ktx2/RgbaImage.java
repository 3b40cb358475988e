package io.posekit.asset.ktx2;

import java.util.Objects;

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
}
