package io.posekit.asset.fbx;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.clip.Curve;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.math.Matrices;
import java.util.ArrayList;
import java.util.List;

/**
 * The FBX transform chain of one Model, as the FBX SDK defines it (column vectors, angles in degrees):
 *
 * <pre>
 * local = T · Roff · Rp · Rpre · R · Rpost⁻¹ · Rp⁻¹ · Soff · Sp · S · Sp⁻¹
 * </pre>
 *
 * with {@code T} = {@code Lcl Translation}, {@code Roff}/{@code Rp} = {@code RotationOffset}/{@code RotationPivot},
 * {@code Rpre}/{@code Rpost} = {@code PreRotation}/{@code PostRotation} (always in XYZ order), {@code R} =
 * {@code Lcl Rotation} in the node's {@code RotationOrder}, {@code Soff}/{@code Sp} =
 * {@code ScalingOffset}/{@code ScalingPivot} and {@code S} = {@code Lcl Scaling}. An Euler order names the axes in
 * the order they are applied: {@code eEulerXYZ} (0) is {@code R = Rz · Ry · Rx}, {@code eEulerXZY} (1)
 * {@code Ry · Rz · Rx}, {@code eEulerYZX} (2) {@code Rx · Rz · Ry}, {@code eEulerYXZ} (3) {@code Rz · Rx · Ry},
 * {@code eEulerZXY} (4) {@code Ry · Rx · Rz}, {@code eEulerZYX} (5) {@code Rx · Ry · Rz}; {@code eSphericXYZ} (6) is
 * read as XYZ with a warning. When {@code RotationActive} is 0 the SDK ignores the pre- and post-rotation and the
 * rotation order (XYZ applies); a file that does not say is active. So it does when {@code RotationSpaceForLimitOnly}
 * is 1 (the rotation space then serves the rotation limits alone), active or not.
 *
 * <p>The chain is resolved as one local matrix — no helper nodes are inserted — and, for animation, as the equivalent
 * element stack of a {@link NodeTransformTrack} (constant parts folded into {@code Matrix} elements, the animated
 * translation, per-axis rotations and scale as curve-driven elements), so both evaluate the same product.
 *
 * <p>{@code GeometricTranslation/Rotation/Scaling} form a separate matrix {@code G = T · R(XYZ) · S} that applies to
 * the node's geometry only (not to its children); see {@link #geometric}.
 */
final class FbxTransform {

    /** Euler axes per {@code RotationOrder}, in the order they are applied (0 = X, 1 = Y, 2 = Z). */
    private static final int[][] AXES = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
    private static final String[] ORDER_NAMES = {"XYZ", "XZY", "YZX", "YXZ", "ZXY", "ZYX", "SphericXYZ"};
    static final double[] ZERO = {0, 0, 0};
    static final double[] ONE = {1, 1, 1};

    /** {@code InheritType} 0: the parent's scale is applied after the child's rotation (the FBX default). */
    static final int INHERIT_RRSS = 0;
    /** {@code InheritType} 1: the parent's scale before the child's rotation — the plain matrix product. */
    static final int INHERIT_RSRS = 1;
    /** {@code InheritType} 2: the parent's local scale is not inherited. */
    static final int INHERIT_RRS = 2;

    private FbxTransform() {
    }

    /**
     * The transform properties of a Model.
     *
     * @param translation {@code Lcl Translation}
     * @param rotation {@code Lcl Rotation}, degrees
     * @param scaling {@code Lcl Scaling}
     * @param rotationOffset {@code RotationOffset}
     * @param rotationPivot {@code RotationPivot}
     * @param preRotation {@code PreRotation}, degrees (zero when rotation is not active)
     * @param postRotation {@code PostRotation}, degrees (zero when rotation is not active)
     * @param rotationOrder 0–5 ({@code eEulerXYZ} … {@code eEulerZYX})
     * @param scalingOffset {@code ScalingOffset}
     * @param scalingPivot {@code ScalingPivot}
     * @param inheritType 0 RrSs, 1 RSrs, 2 Rrs
     * @param geometricTranslation {@code GeometricTranslation}
     * @param geometricRotation {@code GeometricRotation}, degrees
     * @param geometricScaling {@code GeometricScaling}
     */
    record Data(double[] translation, double[] rotation, double[] scaling, double[] rotationOffset, double[] rotationPivot,
            double[] preRotation, double[] postRotation, int rotationOrder, double[] scalingOffset, double[] scalingPivot,
            int inheritType, double[] geometricTranslation, double[] geometricRotation, double[] geometricScaling) {
    }

    /**
     * Reads the transform properties of a Model (its own, else its template's, else the FBX defaults).
     *
     * @param where how messages name the Model
     */
    static Data read(FbxProperties p, String where, ImportWarnings warnings) {
        double[] pre = p.vector("PreRotation", ZERO);
        double[] post = p.vector("PostRotation", ZERO);
        long order = p.integer("RotationOrder", 0);
        if (order == 6) {
            warnings.add(where + ": RotationOrder eSphericXYZ is not supported; XYZ is used");
            order = 0;
        } else if (order < 0 || order > 6) {
            warnings.add(where + ": RotationOrder " + order + " is not an FBX Euler order (0–6); XYZ is used");
            order = 0;
        }
        boolean inactive = p.integer("RotationActive", 1) == 0;
        // the rotation space kept for the rotation limits alone: the FBX SDK evaluates the node as if it were inactive
        // (its own OBJ exports of ufbx's casegen_rotation_space show it, for every rotation order)
        boolean limitOnly = p.integer("RotationSpaceForLimitOnly", 0) != 0;
        if (inactive || limitOnly) {
            if (!isZero(pre) || !isZero(post) || order != 0) {
                warnings.add(where + ": " + (inactive ? "RotationActive is 0" : "RotationSpaceForLimitOnly is 1")
                        + ", so its PreRotation, PostRotation and RotationOrder " + ORDER_NAMES[(int) order]
                        + " are not applied (FBX SDK semantics)");
            }
            pre = ZERO.clone();
            post = ZERO.clone();
            order = 0;
        }
        long inherit = p.integer("InheritType", INHERIT_RRSS);
        if (inherit < 0 || inherit > 2) {
            warnings.add(where + ": InheritType " + inherit + " is not 0, 1 or 2; 0 (RrSs) is used");
            inherit = INHERIT_RRSS;
        }
        return new Data(p.vector("Lcl Translation", ZERO), p.vector("Lcl Rotation", ZERO), p.vector("Lcl Scaling", ONE),
                p.vector("RotationOffset", ZERO), p.vector("RotationPivot", ZERO), pre, post, (int) order,
                p.vector("ScalingOffset", ZERO), p.vector("ScalingPivot", ZERO), (int) inherit,
                p.vector("GeometricTranslation", ZERO), p.vector("GeometricRotation", ZERO),
                p.vector("GeometricScaling", ONE));
    }

    /** The name of a rotation order, e.g. {@code ZXY}. */
    static String orderName(int order) {
        return ORDER_NAMES[order];
    }

    /**
     * The rotation of Euler angles {@code degrees} (x, y, z) in {@code order}, column-major.
     */
    static double[] euler(double[] degrees, int order) {
        double[] out = identity();
        for (int a : AXES[order]) {
            double[] axis = new double[16];
            rotation(a, degrees[a], axis);
            // each axis applied later multiplies from the left
            out = times(axis, out);
        }
        return out;
    }

    /** The local matrix of {@code d} with its own translation, rotation and scaling. */
    static double[] local(Data d) {
        return local(d, d.translation(), d.rotation(), d.scaling());
    }

    /** The local matrix of {@code d} with translation {@code t}, rotation {@code r} (degrees) and scaling {@code s}. */
    static double[] local(Data d, double[] t, double[] r, double[] s) {
        double[] m = translation(t);
        m = times(m, rotationBlock(d));
        m = times(m, rotationMatrix(r, d.rotationOrder()));
        m = times(m, pivotBlock(d));
        m = times(m, scale(s));
        return times(m, translation(negate(d.scalingPivot())));
    }

    /** {@code Roff · Rp · Rpre}. */
    static double[] rotationBlock(Data d) {
        double[] m = translation(add(d.rotationOffset(), d.rotationPivot()));
        return times(m, euler(d.preRotation(), 0));
    }

    /** {@code Rpost⁻¹ · Rp⁻¹ · Soff · Sp}. */
    static double[] pivotBlock(Data d) {
        double[] postInverse = transpose3(euler(d.postRotation(), 0));
        double[] m = times(postInverse, translation(negate(d.rotationPivot())));
        return times(m, translation(add(d.scalingOffset(), d.scalingPivot())));
    }

    /** {@code R} of Euler angles {@code degrees} in {@code order} (the same as {@link #euler}). */
    static double[] rotationMatrix(double[] degrees, int order) {
        return euler(degrees, order);
    }

    /**
     * The chain as a {@link NodeTransformTrack} element stack, each animated parameter driven by its curve: a
     * {@code Translate} of {@code t}, a constant {@code Matrix} for {@code Roff · Rp · Rpre} (when not the identity),
     * one {@code Rotate} per Euler axis in composition order (an axis whose angle is a constant 0 is left out), a
     * constant {@code Matrix} for {@code Rpost⁻¹ · Rp⁻¹ · Soff · Sp}, a {@code Scale} of {@code s}, a translation
     * matrix for {@code Sp⁻¹}, and a uniform {@code Scale} by {@code compensation} when it is not 1 (see
     * {@link FbxHierarchy} on {@code InheritType} 2).
     *
     * @param where how messages name the node
     * @param t three curves of the translation
     * @param r three curves of the Euler angles (x, y, z), degrees
     * @param s three curves of the scaling
     */
    static List<NodeTransformTrack.Element> elements(Data d, Curve[] t, Curve[] r, Curve[] s, double compensation,
            String where) {
        List<NodeTransformTrack.Element> out = new ArrayList<>(9);
        out.add(new NodeTransformTrack.Translate(t[0], t[1], t[2]));
        addMatrix(out, rotationBlock(d), where);
        int[] axes = AXES[d.rotationOrder()];
        for (int i = 2; i >= 0; i--) {
            int a = axes[i];
            Curve angle = r[a];
            if (angle.keyCount() == 1 && angle.values()[0] == 0) {
                continue;
            }
            out.add(new NodeTransformTrack.Rotate(a == 0 ? 1 : 0, a == 1 ? 1 : 0, a == 2 ? 1 : 0, angle));
        }
        addMatrix(out, pivotBlock(d), where);
        out.add(new NodeTransformTrack.Scale(s[0], s[1], s[2]));
        addMatrix(out, translation(negate(d.scalingPivot())), where);
        if (compensation != 1) {
            Curve c = constant(compensation, where);
            out.add(new NodeTransformTrack.Scale(c, c, c));
        }
        return out;
    }

    private static void addMatrix(List<NodeTransformTrack.Element> out, double[] m, String where) {
        if (isIdentity(m)) {
            return;
        }
        List<Curve> curves = new ArrayList<>(16);
        for (double v : m) {
            curves.add(constant(v, where));
        }
        out.add(new NodeTransformTrack.Matrix(curves));
    }

    /** A constant curve of {@code v}, which must be a finite float (422 naming {@code where} otherwise). */
    static Curve constant(double v, String where) {
        float f = (float) v;
        if (!Float.isFinite(f)) {
            throw ImportException.invalid(where + ": a transform value (" + v + ") is beyond the float range");
        }
        return Curve.constant(f);
    }

    /**
     * The geometric transform {@code T(GeometricTranslation) · R(GeometricRotation, XYZ) · S(GeometricScaling)}, or
     * {@code null} when it is the identity.
     */
    static double[] geometric(Data d) {
        if (isZero(d.geometricTranslation()) && isZero(d.geometricRotation())
                && d.geometricScaling()[0] == 1 && d.geometricScaling()[1] == 1 && d.geometricScaling()[2] == 1) {
            return null;
        }
        double[] m = translation(d.geometricTranslation());
        m = times(m, euler(d.geometricRotation(), 0));
        return times(m, scale(d.geometricScaling()));
    }

    /** The rotation by {@code degrees} about axis {@code a} (0 X, 1 Y, 2 Z), written into {@code m}. */
    static void rotation(int a, double degrees, double[] m) {
        Matrices.axisAngle(a == 0 ? 1 : 0, a == 1 ? 1 : 0, a == 2 ? 1 : 0, Math.toRadians(degrees), m);
    }

    static double[] identity() {
        double[] m = new double[16];
        m[0] = m[5] = m[10] = m[15] = 1;
        return m;
    }

    static double[] translation(double[] v) {
        double[] m = identity();
        m[12] = v[0];
        m[13] = v[1];
        m[14] = v[2];
        return m;
    }

    static double[] scale(double[] v) {
        double[] m = identity();
        m[0] = v[0];
        m[5] = v[1];
        m[10] = v[2];
        return m;
    }

    /** {@code a · b}, a new array. */
    static double[] times(double[] a, double[] b) {
        double[] out = new double[16];
        Matrices.multiply(a, 0, b, 0, out, 0);
        return out;
    }

    /** The transpose of the upper-left 3×3 (the inverse of a rotation), as an affine matrix. */
    static double[] transpose3(double[] m) {
        double[] out = identity();
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                out[4 * c + r] = m[4 * r + c];
            }
        }
        return out;
    }

    /**
     * The inverse of an affine matrix, or {@code null} when it is singular.
     */
    static double[] invertAffine(double[] m) {
        double a = m[0], b = m[4], c = m[8];
        double d = m[1], e = m[5], f = m[9];
        double g = m[2], h = m[6], i = m[10];
        double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
        if (det == 0 || !Double.isFinite(det)) {
            return null;
        }
        double k = 1 / det;
        double[] out = new double[16];
        out[0] = (e * i - f * h) * k;
        out[4] = -(b * i - c * h) * k;
        out[8] = (b * f - c * e) * k;
        out[1] = -(d * i - f * g) * k;
        out[5] = (a * i - c * g) * k;
        out[9] = -(a * f - c * d) * k;
        out[2] = (d * h - e * g) * k;
        out[6] = -(a * h - b * g) * k;
        out[10] = (a * e - b * d) * k;
        for (int r = 0; r < 3; r++) {
            out[12 + r] = -(out[r] * m[12] + out[4 + r] * m[13] + out[8 + r] * m[14]);
        }
        out[15] = 1;
        return out;
    }

    /** Whether {@code m} is exactly the identity. */
    static boolean isIdentity(double[] m) {
        for (int i = 0; i < 16; i++) {
            if (m[i] != (i % 5 == 0 ? 1 : 0)) {
                return false;
            }
        }
        return true;
    }

    static boolean isZero(double[] v) {
        return v[0] == 0 && v[1] == 0 && v[2] == 0;
    }

    static double[] add(double[] a, double[] b) {
        return new double[] {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
    }

    static double[] negate(double[] v) {
        return new double[] {-v[0], -v[1], -v[2]};
    }

    /** The lengths of the three basis columns of {@code m} (its scale, when it has no shear). */
    static double[] columnLengths(double[] m) {
        double[] out = new double[3];
        for (int c = 0; c < 3; c++) {
            out[c] = Math.sqrt(m[4 * c] * m[4 * c] + m[4 * c + 1] * m[4 * c + 1] + m[4 * c + 2] * m[4 * c + 2]);
        }
        return out;
    }

    /** Fails (422) when a matrix built from a file's values is not finite. */
    static void requireFinite(double[] m, String what) {
        for (double v : m) {
            if (!Double.isFinite(v)) {
                throw ImportException.invalid(what + " is not finite");
            }
        }
    }
}
