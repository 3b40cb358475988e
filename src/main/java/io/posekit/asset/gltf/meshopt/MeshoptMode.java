package io.posekit.asset.gltf.meshopt;

/**
 * The bitstream of a meshopt-compressed buffer view ({@code EXT_meshopt_compression} / {@code KHR_meshopt_compression}
 * {@code mode}): which codec wrote it.
 */
public enum MeshoptMode {
    /** Mode 0: byte-wise deltas of consecutive elements of any stride (vertex attributes, animation keys). */
    ATTRIBUTES,
    /** Mode 1: triangle-list indices coded against recently seen edges and vertices. */
    TRIANGLES,
    /** Mode 2: any index sequence as LEB128 deltas against two baselines. */
    INDICES;

    /** The mode named {@code name} in glTF JSON, or {@code null} when the name is none of the three. */
    public static MeshoptMode of(String name) {
        for (MeshoptMode m : values()) {
            if (m.name().equals(name)) {
                return m;
            }
        }
        return null;
    }
}
