package io.posekit.motion;

import java.util.Optional;

/**
 * Which part of the root joint's motion is extracted, in model space (the scene root's, y up): its horizontal
 * translation (x and z), its vertical translation (y), its yaw (the rotation about y), or its whole rotation
 * ({@link #ROTATION} includes the yaw).
 */
public enum RootMotionComponent {
    HORIZONTAL("horizontal"), VERTICAL("vertical"), YAW("yaw"), ROTATION("rotation");

    private final String wire;

    RootMotionComponent(String wire) {
        this.wire = wire;
    }

    /** The name in requests and answers. */
    public String wireName() {
        return wire;
    }

    /** The component with this wire name. */
    public static Optional<RootMotionComponent> byWireName(String name) {
        for (RootMotionComponent c : values()) {
            if (c.wire.equals(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
