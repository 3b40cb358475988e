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
 * <p>A skin may be <em>carried</em> by its mesh's node, as Maya skins are: Maya shows a skinned mesh whose node moved
 * after binding moved by that node's motion since the bind, on top of the skinning. Its skinning matrices are then
 * {@code model(carrier) · carrierBind⁻¹ · model(jointNodes[k]) · inverseBind[k]} ({@link #carrier()},
 * {@link #carrierBindInverse()}); without a carrier, as glTF specifies, the mesh's node plays no part.
 *
 * <p>Immutable; the arrays returned are shared storage that callers must not modify.
 */
public final class Skin {

    private final String name;
    private final int[] jointNodes;
    private final float[] inverseBindMatrices;
    private final int carrier;
    private final float[] carrierBindInverse;

    /**
     * A skin not carried by its mesh's node.
     *
     * @param name the skin's name, or {@code null}
     * @param jointNodes rig node index of each joint
     * @param inverseBindMatrices 16 floats per joint, column-major
     * @throws IllegalArgumentException if the matrix count differs from the joint count
     */
    public Skin(String name, int[] jointNodes, float[] inverseBindMatrices) {
        this(name, jointNodes, inverseBindMatrices, -1, null);
    }

    /**
     * A skin, carried by rig node {@code carrier} when it is not -1.
     *
     * @param carrier the rig node whose motion since the bind moves the skinned mesh, or -1
     * @param carrierBindInverse the inverse of that node's model matrix at the bind, 16 floats column-major; ignored
     *     (may be {@code null}) without a carrier
     * @throws IllegalArgumentException also for a carrier below -1, or one without a 16-float bind inverse
     */
    public Skin(String name, int[] jointNodes, float[] inverseBindMatrices, int carrier, float[] carrierBindInverse) {
        if (carrier < -1 || carrier >= 0 && (carrierBindInverse == null || carrierBindInverse.length != 16)) {
            throw new IllegalArgumentException("a carried skin needs a carrier node ≥ 0 and its 16-float bind inverse");
        }
        this.carrier = carrier;
        this.carrierBindInverse = carrier < 0 ? null : carrierBindInverse.clone();
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

    /** The rig node that carries the skin (see the class comment), or -1. */
    public int carrier() {
        return carrier;
    }

    /**
     * The inverse of the carrier's model matrix at the bind, 16 floats column-major, or {@code null} without a carrier
     * (shared storage: do not modify).
     */
    public float[] carrierBindInverse() {
        return carrierBindInverse;
    }

    /** Approximate heap footprint in bytes, for cache weighing. */
    public long footprintBytes() {
        return 56 + (carrier < 0 ? 0 : 80) + 4L * jointNodes.length + 4L * inverseBindMatrices.length + (name == null ? 0 : 40 + name.length());
    }
}
