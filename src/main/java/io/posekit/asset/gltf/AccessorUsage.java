package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.ComponentType.BYTE;
import static io.posekit.asset.gltf.ComponentType.FLOAT;
import static io.posekit.asset.gltf.ComponentType.SHORT;
import static io.posekit.asset.gltf.ComponentType.UNSIGNED_BYTE;
import static io.posekit.asset.gltf.ComponentType.UNSIGNED_INT;
import static io.posekit.asset.gltf.ComponentType.UNSIGNED_SHORT;

import io.posekit.asset.ImportException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What an accessor is used for, with the element types and component types the glTF 2.0 specification
 * ("Meshes" and "Animations" tables) allows for that use. Geometry attributes also accept the
 * {@code KHR_mesh_quantization} storage (byte, unsigned byte, short, unsigned short, normalized or not).
 * A float accessor is accepted whatever its {@code normalized} flag says (the flag is meaningless there).
 */
enum AccessorUsage {
    POSITION(EnumSet.of(AccessorType.VEC3), Components.QUANTIZED, Components.SMALL_INTS),
    NORMAL(EnumSet.of(AccessorType.VEC3), Components.QUANTIZED, Components.SMALL_INTS),
    TANGENT(EnumSet.of(AccessorType.VEC4), Components.QUANTIZED, Components.SMALL_INTS),
    TEXCOORD(EnumSet.of(AccessorType.VEC2), Components.QUANTIZED, Components.SMALL_INTS),
    COLOR(EnumSet.of(AccessorType.VEC3, AccessorType.VEC4), EnumSet.of(FLOAT), EnumSet.of(UNSIGNED_BYTE, UNSIGNED_SHORT)),
    JOINTS(EnumSet.of(AccessorType.VEC4), EnumSet.of(UNSIGNED_BYTE, UNSIGNED_SHORT), EnumSet.noneOf(ComponentType.class)),
    WEIGHTS(EnumSet.of(AccessorType.VEC4), EnumSet.of(FLOAT), EnumSet.of(UNSIGNED_BYTE, UNSIGNED_SHORT)),
    INDICES(EnumSet.of(AccessorType.SCALAR), EnumSet.of(UNSIGNED_BYTE, UNSIGNED_SHORT, UNSIGNED_INT),
            EnumSet.noneOf(ComponentType.class)),
    INVERSE_BIND_MATRICES(EnumSet.of(AccessorType.MAT4), EnumSet.of(FLOAT), EnumSet.noneOf(ComponentType.class)),
    KEY_TIMES(EnumSet.of(AccessorType.SCALAR), EnumSet.of(FLOAT), EnumSet.noneOf(ComponentType.class)),
    TRANSLATION_OUTPUT(EnumSet.of(AccessorType.VEC3), EnumSet.of(FLOAT), EnumSet.noneOf(ComponentType.class)),
    SCALE_OUTPUT(EnumSet.of(AccessorType.VEC3), EnumSet.of(FLOAT), EnumSet.noneOf(ComponentType.class)),
    ROTATION_OUTPUT(EnumSet.of(AccessorType.VEC4), EnumSet.of(FLOAT), Components.SMALL_INTS),
    WEIGHTS_OUTPUT(EnumSet.of(AccessorType.SCALAR), EnumSet.of(FLOAT), Components.SMALL_INTS);

    private final Set<AccessorType> types;
    private final Set<ComponentType> plain;
    private final Set<ComponentType> normalized;

    AccessorUsage(Set<AccessorType> types, Set<ComponentType> plain, Set<ComponentType> normalized) {
        this.types = types;
        this.plain = plain;
        this.normalized = normalized;
    }

    /** Constant sets shared by the constants above (enum constants cannot see static fields). */
    private static final class Components {
        static final Set<ComponentType> QUANTIZED = EnumSet.of(FLOAT, BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT);
        static final Set<ComponentType> SMALL_INTS = EnumSet.of(BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT);
    }

    /**
     * The usage of a mesh attribute by its semantic name ({@code POSITION}, {@code TEXCOORD_0}, …), or
     * {@code null} for custom ({@code _FOO}) and unknown attributes, which are not checked.
     */
    static AccessorUsage forAttribute(String name) {
        return switch (name) {
            case "POSITION" -> POSITION;
            case "NORMAL" -> NORMAL;
            case "TANGENT" -> TANGENT;
            default -> {
                if (name.startsWith("TEXCOORD_")) {
                    yield TEXCOORD;
                } else if (name.startsWith("COLOR_")) {
                    yield COLOR;
                } else if (name.startsWith("JOINTS_")) {
                    yield JOINTS;
                } else if (name.startsWith("WEIGHTS_")) {
                    yield WEIGHTS;
                }
                yield null;
            }
        };
    }

    /**
     * Checks that {@code a} may be used this way.
     *
     * @param label the role named in the message, e.g. {@code POSITION} or {@code input}
     * @throws ImportException (invalid), e.g. {@code mesh 0 primitive 0: POSITION accessor 3 must be VEC3, not VEC2}
     */
    void check(Accessor a, String label, String where) {
        if (!types.contains(a.type())) {
            List<String> names = new ArrayList<>();
            for (AccessorType t : types) {
                names.add(t.name());
            }
            throw ImportException.invalid(where + ": " + label + " " + a.describe() + " must be "
                    + String.join(" or ", names) + ", not " + a.type());
        }
        ComponentType ct = a.componentType();
        boolean ok = ct == FLOAT ? plain.contains(FLOAT) : (a.normalized() ? normalized : plain).contains(ct);
        if (!ok) {
            throw ImportException.invalid(where + ": " + label + " " + a.describe() + " cannot be "
                    + describe(ct, a.normalized()) + " (allowed: " + allowed() + ")");
        }
    }

    private String allowed() {
        List<String> out = new ArrayList<>();
        for (ComponentType t : plain) {
            out.add(t.label);
        }
        for (ComponentType t : normalized) {
            out.add(t.label + " normalized");
        }
        return String.join(", ", out);
    }

    private static String describe(ComponentType ct, boolean normalized) {
        return ct.label + (normalized && ct != FLOAT ? " normalized" : "");
    }
}
