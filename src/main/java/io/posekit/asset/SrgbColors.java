package io.posekit.asset;

/**
 * Colours that model files state in sRGB (FBX and COLLADA material colours from tools other than Blender, see
 * {@link ColourSpace}) turned into the linear values a {@link io.posekit.skinning.Material} holds.
 */
public final class SrgbColors {

    private SrgbColors() {
    }

    /** The linear value of one sRGB channel (the IEC 61966-2-1 curve; values outside 0..1 are clamped first). */
    public static float toLinear(double srgb) {
        double c = Math.clamp(srgb, 0.0, 1.0);
        return (float) (c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4));
    }

    /** {@code rgb} (3 sRGB channels) as linear RGB, clamped to 0..1. */
    public static float[] toLinear(double[] rgb) {
        return new float[] {toLinear(rgb[0]), toLinear(rgb[1]), toLinear(rgb[2])};
    }
}
