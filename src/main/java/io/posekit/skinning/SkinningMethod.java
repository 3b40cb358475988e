package io.posekit.skinning;

import java.util.Optional;

/** How a skinned vertex follows its joints. */
public enum SkinningMethod {

    /** Linear blend skinning: the weighted sum of the skinning matrices ({@link SkinningJob}). The default. */
    LINEAR("linear"),

    /**
     * Dual-quaternion skinning ({@link DualQuaternionSkinningJob}): rigid parts blended as dual quaternions, uniform
     * scale blended linearly; keeps volume where linear blending collapses (twists). Joints with non-uniform scale,
     * shear or mirroring cannot be represented ({@link NonRigidJointException}).
     */
    DUAL_QUATERNION("dq");

    private final String wireName;

    SkinningMethod(String wireName) {
        this.wireName = wireName;
    }

    /** The wire name: {@code linear} or {@code dq}. */
    public String wireName() {
        return wireName;
    }

    /** The method whose wire name is exactly {@code s}, or empty. */
    public static Optional<SkinningMethod> byWireName(String s) {
        for (SkinningMethod m : values()) {
            if (m.wireName.equals(s)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
