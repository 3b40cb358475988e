package io.posekit.ik;

import org.joml.Matrix4d;
import org.joml.Quaterniond;
import org.joml.Vector3d;

/**
 * Two-bone IK, ozz-animation's {@code IKTwoBoneJob} in double precision (set the fields, then {@link #run()}): the
 * rotations of a start and a mid joint (a hip and a knee, a shoulder and an elbow) that bring the end joint onto a
 * target, the chain bending in the plane of a pole vector.
 *
 * <p>Inputs are model-space matrices of the three joints (the end need not be the mid joint's child, only below it);
 * {@code target} and {@code pole} are in model space; {@code midAxis} is the mid joint's bend axis in its own space.
 * The outputs are rotations in each joint's own space, to post-multiply onto its local rotation
 * ({@code local = local · correction}, as ozz's samples do), which is exact for joints of uniform scale.
 *
 * <p>The method (docs/api.md, "IK"): in the start joint's space, the target is first softened (beyond
 * {@code soften × (l0 + l1)} its distance approaches the chain length as {@code da + ds·(1 − 3⁴/(α + 3)⁴)}); the mid
 * joint's interior angle for that distance comes from the law of cosines,
 * {@code cos C = (l0² + l1² − d²) / (2·l0·l1)}, and the mid joint turns about {@code midAxis} by the difference to
 * its present angle; the start joint then turns the resulting start→end vector onto the target (shortest arc), and
 * about the start→target axis so that the chain's plane (its normal, the bend axis) contains the pole vector; then
 * {@code twist} radians about that axis. {@code weight} blends both corrections with the identity (slerp; ozz uses
 * nlerp). A target out of reach (further than the chain, or nearer than |l0 − l1|) leaves the chain straight (or folded)
 * toward it; {@link #reached} says which.
 *
 * <p>Not thread-safe; reuse one instance per thread. {@code run()} allocates nothing.
 */
public final class TwoBoneIkJob {

    /** Model matrix of the start joint. */
    public final Matrix4d start = new Matrix4d();
    /** Model matrix of the mid joint. */
    public final Matrix4d mid = new Matrix4d();
    /** Model matrix of the end joint (the effector). */
    public final Matrix4d end = new Matrix4d();
    /** Where the end joint should be, model space. */
    public final Vector3d target = new Vector3d();
    /** The direction the chain should bend toward, model space (need not be unit). */
    public final Vector3d pole = new Vector3d(0, 1, 0);
    /** The mid joint's bend axis in the mid joint's space (need not be unit, must not be 0). */
    public final Vector3d midAxis = new Vector3d(0, 0, 1);
    /** From 0 to 1: the fraction of the chain's length beyond which the target is softened (1 = no softening). */
    public double soften = 1;
    /** 0 (no change) to 1 (the full correction). */
    public double weight = 1;
    /** Radians about the start→target axis, applied after the pole alignment. */
    public double twist;

    /** Output: the start joint's correction, in its own space. */
    public final Quaterniond startCorrection = new Quaterniond();
    /** Output: the mid joint's correction, in its own space. */
    public final Quaterniond midCorrection = new Quaterniond();
    /** Output: whether the (unsoftened) target is within reach of the softened chain. */
    public boolean reached;

    private final Matrix4d invStart = new Matrix4d();
    private final Matrix4d invMid = new Matrix4d();
    private final Vector3d startMidMs = new Vector3d();
    private final Vector3d midEndMs = new Vector3d();
    private final Vector3d startMidSs = new Vector3d();
    private final Vector3d startEndSs = new Vector3d();
    private final Vector3d startTargetSs = new Vector3d();
    private final Vector3d axisMs = new Vector3d();
    private final Vector3d a = new Vector3d();
    private final Vector3d b = new Vector3d();
    private final Vector3d c = new Vector3d();
    private final Vector3d poleSs = new Vector3d();
    private final Quaterniond q = new Quaterniond();
    private final Quaterniond q2 = new Quaterniond();

    /**
     * Computes {@link #startCorrection}, {@link #midCorrection} and {@link #reached}.
     *
     * @throws IllegalStateException when a joint matrix is singular or {@code midAxis} is zero
     */
    public void run() {
        if (weight <= 0) {
            startCorrection.identity();
            midCorrection.identity();
            reached = true;
            return;
        }
        if (!invertible(start, invStart) || !invertible(mid, invMid) || midAxis.lengthSquared() == 0) {
            throw new IllegalStateException("two-bone IK needs invertible joint matrices and a non-zero mid axis");
        }
        // positions in mid space (_ms) and start space (_ss), as ozz's IKConstantSetup
        invMid.transformPosition(start.m30(), start.m31(), start.m32(), startMidMs).negate();
        invMid.transformPosition(end.m30(), end.m31(), end.m32(), midEndMs);
        invStart.transformPosition(mid.m30(), mid.m31(), mid.m32(), startMidSs);
        invStart.transformPosition(end.m30(), end.m31(), end.m32(), startEndSs);
        double l0sq = startMidSs.lengthSquared();
        double l1sq = startEndSs.distanceSquared(startMidSs);
        double startEndSq = startEndSs.lengthSquared();
        midAxis.normalize(axisMs);

        double targetSq = soften();

        // mid joint: law of cosines for the corrected and the present interior angle
        double halfRlen = 0.5 / Math.sqrt(l0sq * l1sq);
        double corrected = Math.acos(clamp((l0sq + l1sq - targetSq) * halfRlen));
        double initial = Math.acos(clamp((l0sq + l1sq - startEndSq) * halfRlen));
        startMidMs.cross(axisMs, a); // the bent side reference
        if (a.dot(midEndMs) < 0) {
            initial = -initial;
        }
        midCorrection.fromAxisAngleRad(axisMs, corrected - initial);

        // start joint: the end onto the target, then the chain's plane onto the pole's
        midCorrection.transform(midEndMs, a);
        mid.transformDirection(a);
        invStart.transformDirection(a);
        startMidSs.add(a, b); // start→end after the mid correction, start space
        IkMath.fromVectors(b, startTargetSs, startCorrection);
        if (targetSq > 0) {
            invStart.transformDirection(pole, poleSs);
            startTargetSs.cross(poleSs, a); // the reference plane's normal
            mid.transformDirection(axisMs, b);
            invStart.transformDirection(b);
            startCorrection.transform(b); // the chain plane's normal after the first rotation
            double la = a.lengthSquared();
            double lb = b.lengthSquared();
            if (la > 0 && lb > 0) {
                double cos = a.dot(b) / Math.sqrt(la * lb);
                startTargetSs.normalize(c);
                boolean flip = b.dot(poleSs) < 0;
                if (flip) {
                    c.negate();
                }
                IkMath.fromAxisCosAngle(c, cos, q);
                if (flip) {
                    c.negate();
                }
                q.mul(startCorrection, startCorrection);
            }
            if (twist != 0) {
                startTargetSs.normalize(c);
                q2.fromAxisAngleRad(c, twist);
                q2.mul(startCorrection, startCorrection);
            }
        }
        startCorrection.normalize();
        midCorrection.normalize();
        IkMath.weight(startCorrection, weight);
        IkMath.weight(midCorrection, weight);
    }

    /**
     * Softens the target (ozz's {@code SoftenTarget}) into {@link #startTargetSs}, sets {@link #reached}, and returns
     * the squared start→target length used.
     */
    private double soften() {
        invStart.transformPosition(target, startTargetSs);
        double lt = startTargetSs.length();
        double l0 = startMidSs.length();
        double l1 = startEndSs.distance(startMidSs);
        double diff = Math.abs(l0 - l1);
        double chain = l0 + l1;
        double da = chain * Math.max(0, Math.min(1, soften));
        double ds = chain - da;
        reached = !(lt > da) && lt > diff;
        if (lt > da && lt > 0 && lt > diff && ds > 0) {
            double alpha = (lt - da) / ds;
            double op = alpha + 3;
            double ratio = 81 / (op * op * op * op);
            double len = da + ds - ds * ratio;
            startTargetSs.mul(len / lt);
            return len * len;
        }
        return lt * lt;
    }

    private static boolean invertible(Matrix4d m, Matrix4d inverse) {
        double det = m.determinant();
        if (det == 0 || !Double.isFinite(det)) {
            return false;
        }
        m.invert(inverse);
        return true;
    }

    private static double clamp(double cos) {
        return Math.max(-1, Math.min(1, cos));
    }
}
