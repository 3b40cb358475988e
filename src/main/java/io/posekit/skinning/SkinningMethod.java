package io.posekit.skinning;

import java.util.Optional;

/** How a skinned vertex follows its joints. */
public enum SkinningMethod {

    /** Linear blend skinning: the weighted sum of the skinning matrices ({@link SkinningJob}). */
    LINEAR("linear"),

    /**
     * Dual-quaternion skinning ({@link DualQuaternionSkinningJob}): rigid parts blended as dual quaternions, uniform
     * scale blended linearly; keeps volume where linear blending collapses (twists). Joints with non-uniform scale,
     * shear or mirroring cannot be represented ({@link NonRigidJointException}).
     */
    DUAL_QUATERNION("dq"),

    /**
     * As the source file asks, per primitive ({@link Primitive#dualQuaternionWeights()}): linear blend skinning where
     * the primitive has no dual-quaternion weights (every format but FBX skins of {@code SkinningType}
     * {@code DualQuaternion} or {@code Blend}, which Maya writes); where every weight is 1, dual-quaternion skinning
     * as Maya shows it, with a scale per mesh axis blended linearly ({@link AxisScaleDualQuaternionSkinning}: joints
     * with non-uniform scale are skinned, not refused); otherwise, per vertex, {@code (1 − w)·linear + w·dq}
     * ({@link BlendedSkinning}, Maya's weight-blended skinning). The default of posed meshes.
     */
    AUTHORED("authored");

    private final String wireName;

    SkinningMethod(String wireName) {
        this.wireName = wireName;
    }

    /** The wire name: {@code linear}, {@code dq} or {@code authored}. */
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
