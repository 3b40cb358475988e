package io.posekit.rig;

/**
 * A skin: the joints that deform a mesh and their inverse bind matrices.
 *
 * <p>Joint {@code k} is rig node {@code jointNodes()[k]}; vertex influences of a skinned primitive refer to
 * joints by {@code k}. Inverse bind matrix {@code k} (column-major, 16 floats at {@code 16*k}) maps a
 * mesh-space (bind-shape) vertex into the joint's space at bind time, so the skinning matrix of joint
 * {@code k} is {@code model(jointNodes[k]) · inverseBind[k]}. Formats with a bind shape matrix fold it into
 * the inverse binds at import ({@code inverseBind · bindShape}).
 *
 * <p>Immutable; the arrays returned are shared storage that callers must not modify.
 */
public final class Skin {

    private final String name;
    private final int[] jointNodes;
    private final float[] inverseBindMatrices;

    /**
     * @param name the skin's name, or {@code null}
     * @param jointNodes rig node index of each joint
     * @param inverseBindMatrices 16 floats per joint, column-major
     * @throws IllegalArgumentException if the matrix count differs from the joint count
     */
    public Skin(String name, int[] jointNodes, float[] inverseBindMatrices) {
        if (inverseBindMatrices.length != 16 * jointNodes.length) {
            throw new IllegalArgumentException(
                    "skin has " + jointNodes.length + " joints but " + inverseBindMatrices.length / 16.0 + " matrices");
        }
        this.name = name;
        this.jointNodes = jointNodes.clone();
        this.inverseBindMatrices = inverseBindMatrices.clone();
    }

    /** The skin's name, or {@code null}. */
    public String name() {
        return name;
    }

    /** Number of joints. */
    public int jointCount() {
        return jointNodes.length;
    }

    /** Rig node index of joint {@code k}. */
    public int jointNode(int k) {
        return jointNodes[k];
    }

    /** Rig node index of each joint (shared storage: do not modify). */
    public int[] jointNodes() {
        return jointNodes;
    }

    /** Inverse bind matrices, 16 floats per joint, column-major (shared storage: do not modify). */
    public float[] inverseBindMatrices() {
        return inverseBindMatrices;
    }

    /** Approximate heap footprint in bytes, for cache weighing. */
    public long footprintBytes() {
        return 48 + 4L * jointNodes.length + 4L * inverseBindMatrices.length + (name == null ? 0 : 40 + name.length());
    }
}
