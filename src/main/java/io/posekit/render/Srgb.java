package io.posekit.render;

/**
 * The sRGB transfer function as tables: 8-bit sRGB → linear float (exact per code), and linear 0..1 → 8-bit sRGB
 * through {@value #STEPS} + 1 evenly spaced linear steps (finer than one 8-bit code everywhere above linear 0.0004,
 * i.e. sRGB code 2).
 */
final class Srgb {

    static final int STEPS = 8192;
    /** Linear value of each 8-bit sRGB code. */
    static final float[] TO_LINEAR = new float[256];
    private static final byte[] TO_SRGB = new byte[STEPS + 1];

    static {
        for (int i = 0; i < 256; i++) {
            double c = i / 255.0;
            TO_LINEAR[i] = (float) (c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4));
        }
        for (int i = 0; i <= STEPS; i++) {
            double l = (double) i / STEPS;
            double c = l <= 0.0031308 ? l * 12.92 : 1.055 * Math.pow(l, 1 / 2.4) - 0.055;
            TO_SRGB[i] = (byte) Math.round(c * 255);
        }
    }

    private Srgb() {
    }

    /** The 8-bit sRGB code (0..255) of linear {@code l}, clamped to 0..1 (NaN gives 0). */
    static int encode(float l) {
        int i = (int) (l * STEPS + 0.5f); // NaN casts to 0
        return TO_SRGB[i < 0 ? 0 : i > STEPS ? STEPS : i] & 0xFF;
    }
}
