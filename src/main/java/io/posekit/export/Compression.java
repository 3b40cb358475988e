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
 *   <li>{@link #DRACO}: every triangle-list primitive without morph targets compressed with
 *       {@code KHR_draco_mesh_compression} (used and required, no uncompressed fallback) by Google's Draco encoder
 *       ({@link DracoCompression}), as glTF Transform's {@code draco()} does with its defaults: edgebreaker, encode
 *       and decode speed 5, float attributes quantized with 14 bits for positions (in the primitive's bounding cube),
 *       10 for normals, 8 for colours, 12 for texture coordinates and the other float attributes (tangents,
 *       weights); integer attributes (joints, normalized weights) exact. The decoded mesh has the same triangles
 *       with the same corner values (within those steps) over merged, reordered vertices; degenerate triangles are
 *       dropped. Errors: a position component by at most half a step, {@code e / (2 · 16383)} ({@code e} the
 *       largest extent of the primitive's bounding box); a texture coordinate or a float generic component by
 *       {@code e / (2 · 4095)} of its own box; a normal component by {@code √18 / 1022} (4.2e-3: half a step of the
 *       octahedral grid, {@code 1 / 1022} in each of its two coordinates, mapped to the sphere).</li>
 * </ul>
 */
public enum Compression {
    NONE,
    QUANTIZE,
    MESHOPT,
    DRACO;

    /** The value of the {@code compress} query parameter: {@code none}, {@code quantize}, {@code meshopt} or {@code draco}. */
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

    /**
     * Whether vertex attributes are written quantized with {@code KHR_mesh_quantization} ({@link #QUANTIZE} and
     * {@link #MESHOPT}; {@link #DRACO} quantizes inside its streams).
     */
    public boolean quantizes() {
        return this == QUANTIZE || this == MESHOPT;
    }
}
