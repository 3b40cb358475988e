package io.posekit.math;

import org.joml.Matrix4d;

/**
 * Static operations on 4×4 matrices stored column-major in flat arrays: element (row r, column c) of the
 * matrix starting at offset {@code o} is at {@code o + 4*c + r}; the translation is at {@code o+12..o+14}.
 * This is the layout of glTF, OpenGL and three.js. Arithmetic is done in double precision whatever the
 * storage type, so chains of products (deep hierarchies) lose at most one float rounding per step.
 *
 * <p>All methods are allocation-free unless documented otherwise; the output may alias an input only where
 * a method says so.
 */
public final class Matrices {

    private Matrices() {
    }

    /** Writes the identity matrix at {@code out[o..o+15]}. */
    public static void identity(float[] out, int o) {
        for (int i = 0; i < 16; i++) {
            out[o + i] = (i % 5 == 0) ? 1f : 0f;
        }
    }

    /**
     * Composes {@code T · R · S} (translation, unit quaternion {@code [x,y,z,w]}, scale) into a column-major
     * matrix. The quaternion is used as given; callers keep it normalised.
     */
    public static void composeTrs(float[] t, int ti, float[] r, int ri, float[] s, int si, double[] out, int o) {
        double x = r[ri], y = r[ri + 1], z = r[ri + 2], w = r[ri + 3];
        double sx = s[si], sy = s[si + 1], sz = s[si + 2];
        double x2 = x + x, y2 = y + y, z2 = z + z;
        double xx = x * x2, xy = x * y2, xz = x * z2;
        double yy = y * y2, yz = y * z2, zz = z * z2;
        double wx = w * x2, wy = w * y2, wz = w * z2;
        out[o] = (1 - (yy + zz)) * sx;
        out[o + 1] = (xy + wz) * sx;
        out[o + 2] = (xz - wy) * sx;
        out[o + 3] = 0;
        out[o + 4] = (xy - wz) * sy;
        out[o + 5] = (1 - (xx + zz)) * sy;
        out[o + 6] = (yz + wx) * sy;
        out[o + 7] = 0;
        out[o + 8] = (xz + wy) * sz;
        out[o + 9] = (yz - wx) * sz;
        out[o + 10] = (1 - (xx + yy)) * sz;
        out[o + 11] = 0;
        out[o + 12] = t[ti];
        out[o + 13] = t[ti + 1];
        out[o + 14] = t[ti + 2];
        out[o + 15] = 1;
    }

    /**
     * {@code out = a · b} for affine matrices (bottom rows {@code 0,0,0,1}), computed in double and stored
     * as float. {@code out} may not alias {@code a} or {@code b}.
     */
    public static void multiplyAffine(float[] a, int ao, double[] b, int bo, float[] out, int o) {
        for (int c = 0; c < 4; c++) {
            double b0 = b[bo + 4 * c], b1 = b[bo + 4 * c + 1], b2 = b[bo + 4 * c + 2], b3 = b[bo + 4 * c + 3];
            out[o + 4 * c] = (float) (a[ao] * b0 + a[ao + 4] * b1 + a[ao + 8] * b2 + a[ao + 12] * b3);
            out[o + 4 * c + 1] = (float) (a[ao + 1] * b0 + a[ao + 5] * b1 + a[ao + 9] * b2 + a[ao + 13] * b3);
            out[o + 4 * c + 2] = (float) (a[ao + 2] * b0 + a[ao + 6] * b1 + a[ao + 10] * b2 + a[ao + 14] * b3);
            out[o + 4 * c + 3] = c == 3 ? 1f : 0f;
        }
    }

    /**
     * {@code out = a · b} for affine matrices (bottom rows {@code 0,0,0,1}) entirely in double, so a chain
     * of products (a deep hierarchy) accumulates no float rounding. {@code out} may alias {@code a} (it is read
     * completely before anything is written, so {@code a = a · b} and a parent and a child matrix in one
     * buffer both work) but must not overlap {@code b}.
     */
    public static void multiplyAffine(double[] a, int ao, double[] b, int bo, double[] out, int o) {
        double a0 = a[ao], a1 = a[ao + 1], a2 = a[ao + 2];
        double a4 = a[ao + 4], a5 = a[ao + 5], a6 = a[ao + 6];
        double a8 = a[ao + 8], a9 = a[ao + 9], a10 = a[ao + 10];
        double a12 = a[ao + 12], a13 = a[ao + 13], a14 = a[ao + 14];
        for (int c = 0; c < 4; c++) {
            int bc = bo + 4 * c;
            double b0 = b[bc], b1 = b[bc + 1], b2 = b[bc + 2];
            // the bottom row of an affine matrix is (0,0,0,1): only the translation column has b3 = 1
            double b3 = c == 3 ? 1 : 0;
            int oc = o + 4 * c;
            out[oc] = a0 * b0 + a4 * b1 + a8 * b2 + a12 * b3;
            out[oc + 1] = a1 * b0 + a5 * b1 + a9 * b2 + a13 * b3;
            out[oc + 2] = a2 * b0 + a6 * b1 + a10 * b2 + a14 * b3;
            out[oc + 3] = b3;
        }
    }

    /** {@code out = a · b} for general 4×4 matrices, in double, stored as float. No aliasing. */
    public static void multiply(float[] a, int ao, float[] b, int bo, float[] out, int o) {
        for (int c = 0; c < 4; c++) {
            double b0 = b[bo + 4 * c], b1 = b[bo + 4 * c + 1], b2 = b[bo + 4 * c + 2], b3 = b[bo + 4 * c + 3];
            for (int r = 0; r < 4; r++) {
                out[o + 4 * c + r] = (float) (a[ao + r] * b0 + a[ao + 4 + r] * b1 + a[ao + 8 + r] * b2
                        + a[ao + 12 + r] * b3);
            }
        }
    }

    /**
     * Writes the 3×3 normal matrix (inverse transpose of the upper-left 3×3 of {@code m}), column-major, at
     * {@code out[o..o+8]}. A singular matrix (a joint scaled to zero) yields the zero matrix, so vertices
     * bound only to it get a zero normal rather than NaN. A matrix so nearly singular that its inverse transpose
     * would overflow a float (a joint scaled to 1e-40) yields that matrix scaled down to a largest element of ±1:
     * the direction of the normals it transforms is kept, and nothing becomes infinite (or NaN further on).
     */
    public static void normalMatrix(float[] m, int mo, float[] out, int o) {
        double a = m[mo], b = m[mo + 4], c = m[mo + 8];
        double d = m[mo + 1], e = m[mo + 5], f = m[mo + 9];
        double g = m[mo + 2], h = m[mo + 6], i = m[mo + 10];
        // cofactors of the row-major [[a b c][d e f][g h i]]; inverse transpose = cofactor matrix / det
        double ca = e * i - f * h, cb = -(d * i - f * g), cc = d * h - e * g;
        double cd = -(b * i - c * h), ce = a * i - c * g, cf = -(a * h - b * g);
        double cg = b * f - c * e, ch = -(a * f - c * d), ci = a * e - b * d;
        double det = a * ca + b * cb + c * cc;
        double largest = Math.max(Math.max(Math.max(Math.abs(ca), Math.abs(cb)), Math.max(Math.abs(cc), Math.abs(cd))),
                Math.max(Math.max(Math.abs(ce), Math.abs(cf)), Math.max(Math.max(Math.abs(cg), Math.abs(ch)), Math.abs(ci))));
        double k;
        if (det == 0 || !Double.isFinite(det) || !Double.isFinite(largest)) {
            k = 0;
        } else if (largest > Float.MAX_VALUE * Math.abs(det)) {
            // the entries largest / |det| would overflow a float: keep the direction, at a largest entry of ±1
            k = Math.signum(det) / largest;
        } else {
            k = 1 / det;
        }
        // (M^-1)^T = cofactor(M) / det; store column-major: element (r,c) at 3c+r
        out[o] = (float) (ca * k);
        out[o + 1] = (float) (cd * k);
        out[o + 2] = (float) (cg * k);
        out[o + 3] = (float) (cb * k);
        out[o + 4] = (float) (ce * k);
        out[o + 5] = (float) (ch * k);
        out[o + 6] = (float) (cc * k);
        out[o + 7] = (float) (cf * k);
        out[o + 8] = (float) (ci * k);
    }

    /**
     * Inverts a general 4×4 matrix in double precision (JOML). Returns false, leaving {@code out} untouched,
     * when the matrix is singular or not finite.
     */
    public static boolean invert(float[] m, int mo, float[] out, int o) {
        Matrix4d d = new Matrix4d().set(toDouble(m, mo));
        double det = d.determinant();
        if (det == 0 || !Double.isFinite(det)) {
            return false;
        }
        d.invert();
        for (int c = 0; c < 4; c++) {
            for (int r = 0; r < 4; r++) {
                out[o + 4 * c + r] = (float) d.get(c, r);
            }
        }
        return true;
    }

    /**
     * Decomposes an affine matrix into translation, rotation {@code [x,y,z,w]} and scale such that
     * {@code composeTrs(t, r, s) == m} whenever {@code m} has no shear. A negative determinant (a mirror) is
     * represented by a negative x scale, as three.js does. Zero scale axes give the identity rotation for
     * the degenerate part.
     *
     * @return the largest absolute difference between {@code m} and the recomposed matrix, so a caller can
     *     warn about shear that TRS cannot represent
     */
    public static double decompose(float[] m, int mo, float[] t, int ti, float[] r, int ri, float[] s, int si) {
        double[] dm = toDouble(m, mo);
        decompose(dm, 0, t, ti, r, ri, s, si);
        double[] back = new double[16];
        composeTrs(t, ti, r, ri, s, si, back, 0);
        double err = 0;
        for (int i = 0; i < 16; i++) {
            err = Math.max(err, Math.abs(back[i] - dm[i]));
        }
        return err;
    }

    /**
     * Allocation-free {@link #decompose(float[], int, float[], int, float[], int, float[], int)} of a matrix
     * held in doubles (column-major at {@code m[o..o+15]}), without the reconstruction check.
     */
    public static void decompose(double[] m, int o, float[] t, int ti, float[] r, int ri, float[] s, int si) {
        double sx = Math.sqrt(m[o] * m[o] + m[o + 1] * m[o + 1] + m[o + 2] * m[o + 2]);
        double sy = Math.sqrt(m[o + 4] * m[o + 4] + m[o + 5] * m[o + 5] + m[o + 6] * m[o + 6]);
        double sz = Math.sqrt(m[o + 8] * m[o + 8] + m[o + 9] * m[o + 9] + m[o + 10] * m[o + 10]);
        double det = m[o] * (m[o + 5] * m[o + 10] - m[o + 9] * m[o + 6])
                - m[o + 4] * (m[o + 1] * m[o + 10] - m[o + 9] * m[o + 2])
                + m[o + 8] * (m[o + 1] * m[o + 6] - m[o + 5] * m[o + 2]);
        if (det < 0) {
            sx = -sx;
        }
        t[ti] = (float) m[o + 12];
        t[ti + 1] = (float) m[o + 13];
        t[ti + 2] = (float) m[o + 14];
        s[si] = (float) sx;
        s[si + 1] = (float) sy;
        s[si + 2] = (float) sz;
        if (sx == 0 || sy == 0 || sz == 0 || !Double.isFinite(sx * sy * sz)) {
            r[ri] = 0;
            r[ri + 1] = 0;
            r[ri + 2] = 0;
            r[ri + 3] = 1;
            return;
        }
        // rotation matrix (row i, column j) = column j of m divided by its scale
        double r00 = m[o] / sx, r10 = m[o + 1] / sx, r20 = m[o + 2] / sx;
        double r01 = m[o + 4] / sy, r11 = m[o + 5] / sy, r21 = m[o + 6] / sy;
        double r02 = m[o + 8] / sz, r12 = m[o + 9] / sz, r22 = m[o + 10] / sz;
        double[] q = new double[4];
        Quaternions.fromRotationMatrix(r00, r01, r02, r10, r11, r12, r20, r21, r22, q);
        r[ri] = (float) q[0];
        r[ri + 1] = (float) q[1];
        r[ri + 2] = (float) q[2];
        r[ri + 3] = (float) q[3];
    }

    /**
     * Writes the rotation by {@code angle} radians about the axis (ax, ay, az) — normalised here; a zero axis gives
     * the identity — as a column-major 4×4 matrix at {@code m[0..15]}.
     */
    public static void axisAngle(double ax, double ay, double az, double angle, double[] m) {
        for (int i = 0; i < 16; i++) {
            m[i] = (i % 5 == 0) ? 1 : 0;
        }
        double len = Math.sqrt(ax * ax + ay * ay + az * az);
        if (len == 0) {
            return;
        }
        double x = ax / len, y = ay / len, z = az / len;
        double c = Math.cos(angle), s = Math.sin(angle), k = 1 - c;
        m[0] = c + x * x * k;
        m[1] = y * x * k + z * s;
        m[2] = z * x * k - y * s;
        m[4] = x * y * k - z * s;
        m[5] = c + y * y * k;
        m[6] = z * y * k + x * s;
        m[8] = x * z * k + y * s;
        m[9] = y * z * k - x * s;
        m[10] = c + z * z * k;
    }

    /** {@code out = a · b} for general 4×4 matrices in double. {@code out} may alias {@code a} but not {@code b}. */
    public static void multiply(double[] a, int ao, double[] b, int bo, double[] out, int o) {
        double a0 = a[ao], a1 = a[ao + 1], a2 = a[ao + 2], a3 = a[ao + 3];
        double a4 = a[ao + 4], a5 = a[ao + 5], a6 = a[ao + 6], a7 = a[ao + 7];
        double a8 = a[ao + 8], a9 = a[ao + 9], a10 = a[ao + 10], a11 = a[ao + 11];
        double a12 = a[ao + 12], a13 = a[ao + 13], a14 = a[ao + 14], a15 = a[ao + 15];
        for (int c = 0; c < 4; c++) {
            double b0 = b[bo + 4 * c], b1 = b[bo + 4 * c + 1], b2 = b[bo + 4 * c + 2], b3 = b[bo + 4 * c + 3];
            out[o + 4 * c] = a0 * b0 + a4 * b1 + a8 * b2 + a12 * b3;
            out[o + 4 * c + 1] = a1 * b0 + a5 * b1 + a9 * b2 + a13 * b3;
            out[o + 4 * c + 2] = a2 * b0 + a6 * b1 + a10 * b2 + a14 * b3;
            out[o + 4 * c + 3] = a3 * b0 + a7 * b1 + a11 * b2 + a15 * b3;
        }
    }

    private static double[] toDouble(float[] m, int mo) {
        double[] d = new double[16];
        for (int i = 0; i < 16; i++) {
            d[i] = m[mo + i];
        }
        return d;
    }
}
