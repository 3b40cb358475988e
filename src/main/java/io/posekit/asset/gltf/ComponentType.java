package io.posekit.asset.gltf;

/**
 * The glTF accessor component types: their GL enum codes, sizes in bytes and the names used in messages.
 * Values are little-endian; integer types are two's complement (signed) or unsigned as named.
 */
enum ComponentType {
    BYTE(5120, 1, "byte"),
    UNSIGNED_BYTE(5121, 1, "unsigned byte"),
    SHORT(5122, 2, "short"),
    UNSIGNED_SHORT(5123, 2, "unsigned short"),
    UNSIGNED_INT(5125, 4, "unsigned int"),
    FLOAT(5126, 4, "float");

    final int code;
    final int size;
    final String label;

    ComponentType(int code, int size, String label) {
        this.code = code;
        this.size = size;
        this.label = label;
    }

    /** The type with GL code {@code code}, or {@code null} when it is not a glTF component type. */
    static ComponentType of(int code) {
        for (ComponentType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        return null;
    }

    /** Whether this is an integer type. */
    boolean isInteger() {
        return this != FLOAT;
    }
}
