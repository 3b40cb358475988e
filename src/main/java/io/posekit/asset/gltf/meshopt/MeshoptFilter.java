package io.posekit.asset.gltf.meshopt;

/**
 * The post-decode transform of a meshopt {@link MeshoptMode#ATTRIBUTES} buffer view (the extension's {@code filter}),
 * with the byte strides the specification allows for it.
 */
public enum MeshoptFilter {
    /** The decoded bytes are the data. */
    NONE,
    /** Unit vectors from octahedral coordinates: four int8 (stride 4) or int16 (stride 8) in, normalized ints out. */
    OCTAHEDRAL,
    /** Unit quaternions from three components and the largest one's index: four int16 in and out (stride 8). */
    QUATERNION,
    /** float32 from a signed 8-bit exponent and 24-bit mantissa per 4 bytes (any stride divisible by 4). */
    EXPONENTIAL,
    /** RGBA from YCoCg and a marked alpha: four uint8 (stride 4) or uint16 (stride 8) in, normalized ints out. */
    COLOR;

    /** The filter named {@code name} in glTF JSON, or {@code null} when the name is none of the five. */
    public static MeshoptFilter of(String name) {
        for (MeshoptFilter f : values()) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        return null;
    }

    /** Whether elements of {@code stride} bytes may carry this filter. */
    public boolean allowsStride(int stride) {
        return switch (this) {
            case NONE -> true;
            case OCTAHEDRAL, COLOR -> stride == 4 || stride == 8;
            case QUATERNION -> stride == 8;
            case EXPONENTIAL -> stride % 4 == 0;
        };
    }
}
