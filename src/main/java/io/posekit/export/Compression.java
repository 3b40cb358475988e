package io.posekit.export;

import java.util.Locale;

/**
 * How a glTF export stores its vertex data, for web frontends that load the file over the network.
 *
 * <ul>
 *   <li>{@link #NONE}: float32 attributes, as the asset has them.</li>
 *   <li>{@link #QUANTIZE}: {@code KHR_mesh_quantization} (used and required): positions as int16 normalized (stride
 *       8), normals as int8 normalized (stride 4), tangents as int8 normalized, texture coordinates that lie in
 *       [0, 1] as uint16 normalized (others stay float32). The positions' dequantization (a uniform scale and an
 *       offset, {@link PositionQuantization}) is folded into the node transform of a rigid mesh and into the inverse
 *       bind matrices of a skinned one (skinning ignores the node transform), as gltfpack does; morph target position
 *       displacements are divided by the same scale and stay float32. Errors: a position by at most half a step,
 *       {@code h / 65534} per component ({@code h} half the largest extent of the quantized box), plus float32
 *       rounding; a normal or tangent component by {@code 1 / 254} before re-normalisation; a texture coordinate by
 *       {@code 1 / 131070}.</li>
 *   <li>{@link #MESHOPT}: {@link #QUANTIZE}, then every buffer view that holds vertex attributes, indices, inverse
 *       bind matrices or animation keys compressed with {@code EXT_meshopt_compression} (used and required;
 *       lossless over the quantized data) where that makes it smaller, the uncompressed layout declared in a
 *       fallback buffer without data; views it would not shrink (images, tiny views) stay as they are.</li>
 * </ul>
 */
public enum Compression {
    NONE,
    QUANTIZE,
    MESHOPT;

    /** The value of the {@code compress} query parameter: {@code none}, {@code quantize} or {@code meshopt}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The compression named {@code name} ({@link #wireName()}), or {@code null} when there is none of that name. */
    public static Compression byWireName(String name) {
        for (Compression c : values()) {
            if (c.wireName().equals(name)) {
                return c;
            }
        }
        return null;
    }

    /** Whether vertex attributes are quantized ({@link #QUANTIZE} and {@link #MESHOPT}). */
    public boolean quantizes() {
        return this != NONE;
    }
}
