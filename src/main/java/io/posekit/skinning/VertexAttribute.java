package io.posekit.skinning;

import java.util.Locale;
import java.util.Optional;

/** A vertex attribute that posing can produce. */
public enum VertexAttribute {
    POSITION, NORMAL, TANGENT;

    /** The wire name: {@code position}, {@code normal}, {@code tangent}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<VertexAttribute> byWireName(String name) {
        for (VertexAttribute a : values()) {
            if (a.wireName().equals(name)) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }
}
