package io.posekit.ik;

import org.joml.Matrix4d;
import org.joml.Quaterniond;
import org.joml.Vector3d;

/**
 * Aim (look-at) IK, ozz-animation's {@code IKAimJob} in double precision (set the fields, then {@link #run()}): the
 * rotation of one joint (a head, an eye, a gun hand) that points its forward axis at a target, keeping its up axis
 * in the plane of a pole vector.
 *
 * <p>{@code joint} is the joint's model matrix; {@code forward}, {@code up} and {@code offset} are in the joint's own
 * space ({@code forward} unit); {@code target} and {@code pole} in model space. The output is a rotation in the
 * joint's space, to post-multiply onto its local rotation ({@code local = local · correction}).
 *
 * <p>The method (docs/api.md, "IK"): with an offset (an eye beside the head joint) the forward vector is replaced by
 * the one from the joint to the point where the line {@code offset + s·forward} meets the sphere through the target
 * around the joint, {@code offset + forward·(√(r² − |AC|²) − offset·forward)}, with {@code r} the joint→target
 * distance and {@code |AC|² = |offset|² − (offset·forward)²} (unreachable when {@code |AC|² > r²}: no correction);
 * the shortest arc turns it onto the joint→target vector; a rotation about that vector then brings the turned up axis
 * into the plane of the target direction and the pole; then {@code twist} radians about it. {@code weight} blends with
 * the identity (slerp; ozz uses nlerp).
 *
 * <p>Not thread-safe; reuse one instance per thread. {@code run()} allocates nothing.
 */
public final class AimIkJob {

    /** Model matrix of the aiming joint. */
    public final Matrix4d joint = new Matrix4d();
    /** The joint's aiming axis, its own space, unit. */
    public final Vector3d forward = new Vector3d(1, 0, 0);
    /** The joint's up axis, its own space. */
    public final Vector3d up = new Vector3d(0, 1, 0);
    /** The point that aims, relative to the joint, its own space. */
    public final Vector3d offset = new Vector3d();
    /** What to aim at, model space. */
    public final Vector3d target = new Vector3d();
    /** The up axis is kept in the plane of this model-space direction and the target direction. */
    public final Vector3d pole = new Vector3d(0, 1, 0);
    /** 0 (no change) to 1 (the full correction). */
    public double weight = 1;
    /** Radians about the joint→target axis, applied after the pole alignment. */
    public double twist;

    /** Output: the joint's correction, in its own space. */
    public final Quaterniond correction = new Quaterniond();
    /** Output: whether the target could be aimed at (false: too near for the offset; no correction). */
    public boolean reached;

    private final Matrix4d inv = new Matrix4d();
    private final Vector3d toTarget = new Vector3d();
    private final Vector3d aimed = new Vector3d();
    private final Vector3d upTurned = new Vector3d();
    private final Vector3d poleJs = new Vector3d();
    private final Vector3d ref = new Vector3d();
    private final Vector3d normal = new Vector3d();
    private final Vector3d axis = new Vector3d();
    private final Quaterniond plane = new Quaterniond();

    /**
     * Computes {@link #correction} and {@link #reached}.
     *
     * @throws IllegalStateException when the joint matrix is singular
     */
    public void run() {
        correction.identity();
        reached = true;
        if (weight <= 0) {
            return;
        }
        double det = joint.determinant();
        if (det == 0 || !Double.isFinite(det)) {
            throw new IllegalStateException("aim IK needs an invertible joint matrix");
        }
        joint.invert(inv);
        inv.transformPosition(target, toTarget);
        double r2 = toTarget.lengthSquared();
        // ozz's ComputeOffsettedForward
        double ao = forward.dot(offset);
        double ac2 = offset.lengthSquared() - ao * ao;
        if (ac2 > r2) {
            reached = false;
            return;
        }
        double ai = Math.sqrt(r2 - ac2);
        forward.mul(ai - ao, aimed).add(offset);
        if (r2 == 0) {
            return;
        }
        IkMath.fromVectors(aimed, toTarget, correction);
        correction.transform(up, upTurned);
        inv.transformDirection(pole, poleJs);
        poleJs.cross(toTarget, ref);
        upTurned.cross(toTarget, normal);
        double lr = ref.lengthSquared();
        double ln = normal.lengthSquared();
        toTarget.normalize(axis);
        if (lr > 0 && ln > 0) {
            double cos = normal.dot(ref) / Math.sqrt(lr * ln);
            boolean flip = ref.dot(upTurned) < 0;
            if (flip) {
                axis.negate();
            }
            IkMath.fromAxisCosAngle(axis, cos, plane);
            if (flip) {
                axis.negate();
            }
            plane.mul(correction, correction);
        }
        if (twist != 0) {
            plane.fromAxisAngleRad(axis, twist);
            plane.mul(correction, correction);
        }
        correction.normalize();
        IkMath.weight(correction, weight);
    }
}
