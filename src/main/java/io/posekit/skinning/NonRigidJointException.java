package io.posekit.skinning;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * A skin joint whose skinning matrix dual-quaternion skinning cannot represent: its upper-left 3×3 is not a
 * rotation times a uniform, non-negative scale (see {@link SkinningDualQuaternionsJob} for the exact test and
 * tolerances). Thrown by {@link SkinningDualQuaternionsJob#run()} for the first such joint; it is a property of
 * the rig's pose at the sampled time, not a programming error, so a service reports it as a client error
 * (suggesting linear blend skinning, which represents any affine matrix).
 *
 * <p>Carries the joint and the measurements so a caller can name the joint (index → joint node → name) and say
 * what is wrong: {@link #reason()}, the measured axis scales {@link #scaleX()}, {@link #scaleY()},
 * {@link #scaleZ()} (lengths of the matrix's first three columns; {@code scaleX} negated when the determinant
 * is negative, the convention of {@link io.posekit.math.Matrices#decompose}) and {@link #shear()}.
 */
public final class NonRigidJointException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why the joint's skinning matrix is not representable. Checked in this order; the first that applies. */
    public enum Reason {
        /** A NaN or infinite element in the upper 3×4 of the matrix. */
        NOT_FINITE,
        /** The three axis scales differ by more than the relative tolerance (including some but not all zero). */
        NON_UNIFORM_SCALE,
        /** Two axes are not perpendicular within the tolerance ({@link #shear()} is the largest |cos|). */
        SHEAR,
        /** A negative determinant: the joint mirrors the mesh, which no rotation can do. */
        MIRROR
    }

    private final int joint;
    private final Reason reason;
    private final double scaleX;
    private final double scaleY;
    private final double scaleZ;
    private final double shear;

    /**
     * @param joint index of the joint in the skin's joint list (= index of its skinning matrix)
     * @param reason what is wrong
     * @param scaleX length of column 0, negated when the determinant is negative
     * @param scaleY length of column 1
     * @param scaleZ length of column 2
     * @param shear the largest |cosine of the angle| between two of the three columns (0 = perpendicular)
     */
    public NonRigidJointException(int joint, Reason reason, double scaleX, double scaleY, double scaleZ,
            double shear) {
        super(message(joint, reason, scaleX, scaleY, scaleZ, shear));
        this.joint = joint;
        this.reason = reason;
        this.scaleX = scaleX;
        this.scaleY = scaleY;
        this.scaleZ = scaleZ;
        this.shear = shear;
    }

    /** Index of the joint in the skin's joint list (the index of its skinning matrix). */
    public int joint() {
        return joint;
    }

    public Reason reason() {
        return reason;
    }

    /** Length of the skinning matrix's column 0 (the joint's scale along mesh x), negated when it mirrors. */
    public double scaleX() {
        return scaleX;
    }

    /** Length of the skinning matrix's column 1. */
    public double scaleY() {
        return scaleY;
    }

    /** Length of the skinning matrix's column 2. */
    public double scaleZ() {
        return scaleZ;
    }

    /**
     * The largest absolute cosine of the angle between two of the matrix's first three columns: 0 for
     * perpendicular axes; 0 when a column has length 0 or a value is not finite.
     */
    public double shear() {
        return shear;
    }

    /** The measured scales formatted as {@code (1, 2, 1)} (at most 5 significant digits), for messages. */
    public String formattedScales() {
        return "(" + format(scaleX) + ", " + format(scaleY) + ", " + format(scaleZ) + ")";
    }

    private static String message(int joint, Reason reason, double sx, double sy, double sz, double shear) {
        String scales = "(" + format(sx) + ", " + format(sy) + ", " + format(sz) + ")";
        String what = switch (reason) {
            case NOT_FINITE -> "a skinning matrix with non-finite values";
            case NON_UNIFORM_SCALE -> "non-uniform scale " + scales;
            case SHEAR -> "shear (axes at |cos| " + format(shear) + " from perpendicular, scales " + scales + ")";
            case MIRROR -> "a mirroring (negative) scale " + scales;
        };
        return "joint " + joint + " has " + what + "; dual-quaternion skinning cannot represent it";
    }

    /** At most 5 significant digits, without trailing zeros: 1, 2, 0.5, 1.0009, 0.010472, NaN. */
    private static String format(double v) {
        if (!Double.isFinite(v)) {
            return Double.toString(v);
        }
        // enough digits to show a spread just over the 1e-3 tolerance (1.0011), few enough to read
        return new BigDecimal(v).round(new MathContext(5)).stripTrailingZeros().toPlainString();
    }
}
