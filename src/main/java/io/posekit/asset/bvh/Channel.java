package io.posekit.asset.bvh;

/**
 * A BVH motion channel: a translation along, or a rotation in degrees about, one axis of the joint's parent
 * frame. Names are matched case-insensitively ({@code Xrotation}, {@code XROTATION}).
 */
enum Channel {
    XPOSITION("Xposition", 0, false),
    YPOSITION("Yposition", 1, false),
    ZPOSITION("Zposition", 2, false),
    XROTATION("Xrotation", 0, true),
    YROTATION("Yrotation", 1, true),
    ZROTATION("Zrotation", 2, true);

    /** The six names as files spell them, for messages. */
    static final String NAMES = "Xposition, Yposition, Zposition, Xrotation, Yrotation, Zrotation";

    private final String fileName;
    private final int axis;
    private final boolean rotation;

    Channel(String fileName, int axis, boolean rotation) {
        this.fileName = fileName;
        this.axis = axis;
        this.rotation = rotation;
    }

    /** The channel called {@code name}, or {@code null}. */
    static Channel byName(String name) {
        for (Channel c : values()) {
            if (c.fileName.equalsIgnoreCase(name)) {
                return c;
            }
        }
        return null;
    }

    /** The conventional spelling, e.g. {@code Zrotation}. */
    String fileName() {
        return fileName;
    }

    /** 0 for X, 1 for Y, 2 for Z. */
    int axis() {
        return axis;
    }

    /** Whether this is a rotation channel (else a position channel). */
    boolean isRotation() {
        return rotation;
    }
}
