package io.posekit.asset.collada;

import io.posekit.math.Matrices;
import java.util.List;

/**
 * The matrices of COLLADA transform elements, column-major in doubles (element row r, column c at {@code 4c + r}),
 * and their composition {@code local = E0 · E1 · … · En} in document order.
 *
 * <ul>
 *   <li>{@code <translate> x y z}, {@code <scale> x y z}: as named.</li>
 *   <li>{@code <rotate> x y z angle}: right-handed rotation by {@code angle} degrees about the axis (normalised;
 *       a zero axis gives the identity).</li>
 *   <li>{@code <matrix>}: 16 values written row-major (COLLADA's order), transposed to column-major.</li>
 *   <li>{@code <lookat> eye interest up}: places an object at {@code eye} looking at {@code interest}, COLLADA's
 *       camera convention (looking down its −Z axis, +Y up): columns {@code x = normalize(up × z)},
 *       {@code y = z × x}, {@code z = normalize(eye − interest)}, translation {@code eye}.</li>
 *   <li>{@code <skew> angle a b} (RenderMan's skew): shears along the unit translation axis {@code b} so that
 *       the rotation axis {@code a} turns by {@code angle} degrees towards {@code b}:
 *       {@code M = I + α · b ⊗ a⊥} with {@code a⊥} the unit part of {@code a} perpendicular to {@code b}; for
 *       perpendicular axes {@code α = tan(angle)}.</li>
 * </ul>
 *
 * A degenerate {@code <lookat>} (eye at the interest point, up along the view) keeps only its translation and a
 * degenerate {@code <skew>} (zero or parallel axes, a shear to 90°) is the identity: {@link #matrix} reports
 * them by returning {@code false}.
 */
final class TransformMath {

    /** Relative reconstruction error above which a decomposed matrix is reported as not representable. */
    static final double SHEAR_TOLERANCE = 1e-4;

    private TransformMath() {
    }

    /**
     * Writes the matrix of an element with parameters {@code p[0..]} into {@code out[0..15]}.
     *
     * @return {@code false} for a degenerate lookat or skew (see the class comment)
     */
    static boolean matrix(TransformElement.Kind kind, double[] p, double[] out) {
        identity(out);
        switch (kind) {
            case TRANSLATE -> {
                out[12] = p[0];
                out[13] = p[1];
                out[14] = p[2];
            }
            case SCALE -> {
                out[0] = p[0];
                out[5] = p[1];
                out[10] = p[2];
            }
            case ROTATE -> Matrices.axisAngle(p[0], p[1], p[2], Math.toRadians(p[3]), out);
            case MATRIX -> {
                for (int r = 0; r < 4; r++) {
                    for (int c = 0; c < 4; c++) {
                        out[4 * c + r] = p[4 * r + c];
                    }
                }
            }
            case LOOKAT -> {
                return lookat(p, out);
            }
            case SKEW -> {
                return skew(p, out);
            }
        }
        return true;
    }

    private static boolean lookat(double[] p, double[] m) {
        m[12] = p[0];
        m[13] = p[1];
        m[14] = p[2];
        double[] z = normalize(p[0] - p[3], p[1] - p[4], p[2] - p[5]);
        if (z == null) {
            return false;
        }
        double[] x = normalize(p[7] * z[2] - p[8] * z[1], p[8] * z[0] - p[6] * z[2], p[6] * z[1] - p[7] * z[0]);
        if (x == null) {
            return false;
        }
        double yx = z[1] * x[2] - z[2] * x[1];
        double yy = z[2] * x[0] - z[0] * x[2];
        double yz = z[0] * x[1] - z[1] * x[0];
        m[0] = x[0];
        m[1] = x[1];
        m[2] = x[2];
        m[4] = yx;
        m[5] = yy;
        m[6] = yz;
        m[8] = z[0];
        m[9] = z[1];
        m[10] = z[2];
        return true;
    }

    private static boolean skew(double[] p, double[] m) {
        double[] a = normalize(p[1], p[2], p[3]);
        double[] b = normalize(p[4], p[5], p[6]);
        if (a == null || b == null) {
            return false;
        }
        double an2 = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        double[] perp = normalize(a[0] - an2 * b[0], a[1] - an2 * b[1], a[2] - an2 * b[2]);
        if (perp == null || Math.abs(an2) > 1 - 1e-12) {
            return false;
        }
        double an1 = a[0] * perp[0] + a[1] * perp[1] + a[2] * perp[2];
        double angle = Math.toRadians(p[0]);
        double rx = an1 * Math.cos(angle) - an2 * Math.sin(angle);
        double ry = an1 * Math.sin(angle) + an2 * Math.cos(angle);
        if (rx <= 1e-12) {
            return false;
        }
        double alpha = ry / rx - an2 / an1;
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                m[4 * c + r] += alpha * b[r] * perp[c];
            }
        }
        return true;
    }

    private static double[] normalize(double x, double y, double z) {
        double len = Math.sqrt(x * x + y * y + z * z);
        if (!(len > 1e-12) || !Double.isFinite(len)) {
            return null;
        }
        return new double[] {x / len, y / len, z / len};
    }

    /**
     * The product of the elements' matrices in order, into {@code out}.
     *
     * @return the index of the first degenerate lookat/skew element, or -1
     */
    static int compose(List<TransformElement> elements, double[] out) {
        identity(out);
        double[] e = new double[16];
        int degenerate = -1;
        for (int i = 0; i < elements.size(); i++) {
            TransformElement el = elements.get(i);
            if (!matrix(el.kind(), el.values(), e) && degenerate < 0) {
                degenerate = i;
            }
            Matrices.multiply(out, 0, e, 0, out, 0);
        }
        return degenerate;
    }

    /**
     * Decomposes {@code m} into {@code t}, {@code r}, {@code s} ({@link Matrices#decompose}).
     *
     * @return the largest absolute difference between {@code m} and the recomposed TRS, relative to
     *     {@code max(1, max|m|)}: above {@link #SHEAR_TOLERANCE} the matrix has shear or projection
     */
    static double decompose(double[] m, float[] t, float[] r, float[] s) {
        Matrices.decompose(m, 0, t, 0, r, 0, s, 0);
        double[] back = new double[16];
        Matrices.composeTrs(t, 0, r, 0, s, 0, back, 0);
        double err = 0;
        double largest = 1;
        for (int i = 0; i < 16; i++) {
            err = Math.max(err, Math.abs(back[i] - m[i]));
            largest = Math.max(largest, Math.abs(m[i]));
        }
        return err / largest;
    }

    static void identity(double[] m) {
        for (int i = 0; i < 16; i++) {
            m[i] = (i % 5 == 0) ? 1 : 0;
        }
    }
}
