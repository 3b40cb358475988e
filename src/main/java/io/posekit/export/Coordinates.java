package io.posekit.export;

import java.util.Optional;

/**
 * Which coordinate system model-space results are given in: the file's own model space, or glTF's (metres, +Y up,
 * +Z front), converted by the model's {@link io.posekit.asset.ModelSpace}. The same choice for the glTF exports
 * (where {@link #GLTF} is the default) and for sampling (where {@link #FILE} is).
 */
public enum Coordinates {
    /** The file's own model space, as it declares it (FBX: its {@code GlobalSettings} axes and unit). */
    FILE("file"),
    /** glTF's: the file's model space converted to metres and Y-up ({@link io.posekit.asset.ModelSpace#toGltf()}). */
    GLTF("gltf");

    private final String wireName;

    Coordinates(String wireName) {
        this.wireName = wireName;
    }

    /** The name in the API: {@code file} or {@code gltf}. */
    public String wireName() {
        return wireName;
    }

    /** Whether values in a model's {@code space} change on the way to these coordinates: glTF's, and not already. */
    public boolean converts(io.posekit.asset.ModelSpace space) {
        return this == GLTF && !space.isGltf();
    }

    /** The value named {@code name} ({@code file}, {@code gltf}), if any. */
    public static Optional<Coordinates> byWireName(String name) {
        for (Coordinates c : values()) {
            if (c.wireName.equals(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
