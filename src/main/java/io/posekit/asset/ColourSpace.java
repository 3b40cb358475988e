package io.posekit.asset;

/**
 * The space a model file's material colour values are written in, which depends on the tool that wrote the file
 * (FBX and COLLADA do not say): {@link #LINEAR} values are light intensities as a renderer adds them (Blender writes
 * its colour pickers' values so), {@link #SRGB} values are display-encoded (the IEC 61966-2-1 curve; what three.js's
 * loaders assume for every FBX and COLLADA file). A {@link io.posekit.skinning.Material} holds linear values.
 */
public enum ColourSpace {

    LINEAR, SRGB;

    /** One channel in linear light, clamped to 0..1 first. */
    public float toLinear(double value) {
        return this == SRGB ? SrgbColors.toLinear(value) : (float) Math.clamp(value, 0.0, 1.0);
    }

    /** {@code rgb} (at least 3 channels in this space) as 3 linear channels, each clamped to 0..1. */
    public float[] toLinear(double[] rgb) {
        return new float[] {toLinear(rgb[0]), toLinear(rgb[1]), toLinear(rgb[2])};
    }
}
