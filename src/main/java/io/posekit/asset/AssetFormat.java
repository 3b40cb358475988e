package io.posekit.asset;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The model file formats posekit knows, with their wire names (as reported in {@code format}) and file name
 * extensions. Whether a format can be imported yet is the business of {@link AssetImporters}.
 */
public enum AssetFormat {
    GLTF("gltf", List.of(".glb", ".gltf", ".vrm", ".vrma")),
    COLLADA("collada", List.of(".dae")),
    X("x", List.of(".x")),
    IQM("iqm", List.of(".iqm")),
    BVH("bvh", List.of(".bvh")),
    MD5("md5", List.of(".md5mesh", ".md5anim")),
    FBX("fbx", List.of(".fbx"));

    private final String wireName;
    private final List<String> extensions;

    AssetFormat(String wireName, List<String> extensions) {
        this.wireName = wireName;
        this.extensions = extensions;
    }

    /** The name used in the API, e.g. {@code gltf}. */
    public String wireName() {
        return wireName;
    }

    /** Lower-case file name extensions including the dot. */
    public List<String> extensions() {
        return extensions;
    }

    /** The format whose extension ends {@code fileName} (case-insensitive). */
    public static Optional<AssetFormat> byFileName(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        for (AssetFormat f : values()) {
            for (String ext : f.extensions) {
                if (lower.endsWith(ext)) {
                    return Optional.of(f);
                }
            }
        }
        return Optional.empty();
    }

    /** The format with this wire name. */
    public static Optional<AssetFormat> byWireName(String name) {
        for (AssetFormat f : values()) {
            if (f.wireName.equals(name)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}
