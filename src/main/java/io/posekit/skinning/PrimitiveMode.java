package io.posekit.skinning;

/** How a primitive's vertices (or indices) form geometry; glTF numbering ({@code ordinal()} = glTF mode). */
public enum PrimitiveMode {
    POINTS, LINES, LINE_LOOP, LINE_STRIP, TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN;

    /** The wire name: lower case, e.g. {@code triangles}. */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The mode with glTF number {@code mode}, or {@code null} when out of range. */
    public static PrimitiveMode ofGltf(int mode) {
        return mode >= 0 && mode < values().length ? values()[mode] : null;
    }
}
