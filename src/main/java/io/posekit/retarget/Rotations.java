package io.posekit.retarget;

import io.posekit.math.Quaternions;

/**
 * Double-precision rotation arithmetic for retargeting: unit quaternions {@code [x, y, z, w]} and 3-vectors stored in
 * flat {@code double[]} arrays at offsets. Retargeting composes a dozen rotations per joint and key (rest poses,
 * alignments, parents), so it works in double and rounds to float once, when it writes a track. Every method reads
 * all its inputs before writing, so outputs may alias inputs; none allocates but {@link #triad} (used once per joint
 * and request, not per key).
 */
final class Rotations {

    /** Vectors shorter than this (scene units) have no direction. */
    static final double EPSILON = 1e-9;

    private Rotations() {
    }

    static void identity(double[] out, int o) {
        out[o] = 0;
        out[o + 1] = 0;
        out[o + 2] = 0;
        out[o + 3] = 1;
    }

    static void copy(double[] q, int qo, double[] out, int o) {
        System.arraycopy(q, qo, out, o, 4);
    }

    /** {@code out = a · b} (apply b, then a). */
    static void multiply(double[] a, int ao, double[] b, int bo, double[] out, int o) {
        product(a[ao], a[ao + 1], a[ao + 2], a[ao + 3], b[bo], b[bo + 1], b[bo + 2], b[bo + 3], out, o);
    }

    /** {@code out = a⁻¹ · b} for unit {@code a} (the conjugate is the inverse). */
    static void multiplyConjugateLeft(double[] a, int ao, double[] b, int bo, double[] out, int o) {
        product(-a[ao], -a[ao + 1], -a[ao + 2], a[ao + 3], b[bo], b[bo + 1], b[bo + 2], b[bo + 3], out, o);
    }

    /** {@code out = a · b⁻¹} for unit {@code b}. */
    static void multiplyConjugateRight(double[] a, int ao, double[] b, int bo, double[] out, int o) {
        product(a[ao], a[ao + 1], a[ao + 2], a[ao + 3], -b[bo], -b[bo + 1], -b[bo + 2], b[bo + 3], out, o);
    }

    /** The Hamilton product of {@code (ax, ay, az, aw)} and {@code (bx, by, bz, bw)}, written at {@code out[o..o+3]}. */
    private static void product(double ax, double ay, double az, double aw, double bx, double by, double bz, double bw,
            double[] out, int o) {
        out[o] = aw * bx + ax * bw + ay * bz - az * by;
        out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
        out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
        out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
    }

    /** Scales the quaternion to unit length in place (a zero or non-finite one becomes the identity). */
    static void normalize(double[] q, int o) {
        double len = Math.sqrt(q[o] * q[o] + q[o + 1] * q[o + 1] + q[o + 2] * q[o + 2] + q[o + 3] * q[o + 3]);
        if (len == 0 || !Double.isFinite(len)) {
            identity(q, o);
            return;
        }
        q[o] /= len;
        q[o + 1] /= len;
        q[o + 2] /= len;
        q[o + 3] /= len;
    }

    /** Rotates the vector {@code v[vo..vo+2]} by the unit quaternion {@code q}: {@code out = q v q⁻¹}. */
    static void rotate(double[] q, int qo, double[] v, int vo, double[] out, int o) {
        double qx = q[qo], qy = q[qo + 1], qz = q[qo + 2], qw = q[qo + 3];
        double vx = v[vo], vy = v[vo + 1], vz = v[vo + 2];
        // t = 2 (q.xyz × v); v' = v + w t + q.xyz × t
        double tx = 2 * (qy * vz - qz * vy);
        double ty = 2 * (qz * vx - qx * vz);
        double tz = 2 * (qx * vy - qy * vx);
        out[o] = vx + qw * tx + (qy * tz - qz * ty);
        out[o + 1] = vy + qw * ty + (qz * tx - qx * tz);
        out[o + 2] = vz + qw * tz + (qx * ty - qy * tx);
    }

    /** Rotates by the inverse of the unit quaternion {@code q}. */
    static void rotateInverse(double[] q, int qo, double[] v, int vo, double[] out, int o) {
        double qx = -q[qo], qy = -q[qo + 1], qz = -q[qo + 2], qw = q[qo + 3];
        double vx = v[vo], vy = v[vo + 1], vz = v[vo + 2];
        double tx = 2 * (qy * vz - qz * vy);
        double ty = 2 * (qz * vx - qx * vz);
        double tz = 2 * (qx * vy - qy * vx);
        out[o] = vx + qw * tx + (qy * tz - qz * ty);
        out[o + 1] = vy + qw * ty + (qz * tx - qx * tz);
        out[o + 2] = vz + qw * tz + (qx * ty - qy * tx);
    }

    /** The length of the vector at {@code v[o..o+2]}. */
    static double length(double[] v, int o) {
        return Math.sqrt(v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2]);
    }

    /**
     * The shortest-arc rotation taking the direction of {@code from} to the direction of {@code to} (neither need be
     * unit, both non-zero): {@code q = normalize(|a||b| + a·b, a × b)}. Opposite directions have no unique shortest
     * arc: the half turn about an axis perpendicular to {@code from} is used (the one nearest the x axis, then y).
     */
    static void arc(double[] from, int fo, double[] to, int tof, double[] out, int o) {
        double ax = from[fo], ay = from[fo + 1], az = from[fo + 2];
        double bx = to[tof], by = to[tof + 1], bz = to[tof + 2];
        double la = Math.sqrt(ax * ax + ay * ay + az * az);
        double lb = Math.sqrt(bx * bx + by * by + bz * bz);
        double w = la * lb + (ax * bx + ay * by + az * bz);
        if (w <= 1e-12 * la * lb) {
            // anti-parallel: a half turn about any axis perpendicular to a
            double px = 0, py = -az, pz = ay; // a × x
            if (py * py + pz * pz < 1e-12 * la * la) {
                px = az;
                py = 0;
                pz = -ax; // a × y
            }
            out[o] = px;
            out[o + 1] = py;
            out[o + 2] = pz;
            out[o + 3] = 0;
        } else {
            out[o] = ay * bz - az * by;
            out[o + 1] = az * bx - ax * bz;
            out[o + 2] = ax * by - ay * bx;
            out[o + 3] = w;
        }
        normalize(out, o);
    }

    /**
     * The rotation taking the frame of two directions {@code (u1, v1)} onto {@code (u2, v2)} (TRIAD): {@code u1} goes
     * exactly onto {@code u2}, and the plane of {@code u1, v1} onto that of {@code u2, v2} (the twist about u).
     *
     * @return false (nothing written) when {@code u} and {@code v} are parallel on either side
     */
    static boolean triad(double[] u1, double[] v1, double[] u2, double[] v2, double[] out, int o) {
        double[] f1 = frame(u1, v1);
        double[] f2 = frame(u2, v2);
        if (f1 == null || f2 == null) {
            return false;
        }
        // R = F2 · F1ᵀ, frames as columns e1, e2, e3 (f[3c + r] = row r of column c)
        double[] r = new double[9];
        for (int row = 0; row < 3; row++) {
            for (int col = 0; col < 3; col++) {
                double s = 0;
                for (int k = 0; k < 3; k++) {
                    s += f2[3 * k + row] * f1[3 * k + col];
                }
                r[3 * row + col] = s;
            }
        }
        double[] q = new double[4];
        Quaternions.fromRotationMatrix(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], q);
        System.arraycopy(q, 0, out, o, 4);
        normalize(out, o);
        return true;
    }

    /** Orthonormal columns {@code e1 = û, e2 = (u × v)^, e3 = e1 × e2}, or null when u ∥ v. */
    private static double[] frame(double[] u, double[] v) {
        double lu = length(u, 0);
        double cx = u[1] * v[2] - u[2] * v[1];
        double cy = u[2] * v[0] - u[0] * v[2];
        double cz = u[0] * v[1] - u[1] * v[0];
        double lc = Math.sqrt(cx * cx + cy * cy + cz * cz);
        if (lu < EPSILON || lc < 1e-6 * lu * length(v, 0)) {
            return null;
        }
        double e1x = u[0] / lu, e1y = u[1] / lu, e1z = u[2] / lu;
        double e2x = cx / lc, e2y = cy / lc, e2z = cz / lc;
        return new double[] {e1x, e1y, e1z, e2x, e2y, e2z,
            e1y * e2z - e1z * e2y, e1z * e2x - e1x * e2z, e1x * e2y - e1y * e2x};
    }

    /** Shortest-path slerp between unit quaternions {@code a} and {@code b}, in double. */
    static void slerp(double[] a, int ao, double[] b, int bo, double t, double[] out, int o) {
        double ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
        double bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
        double cos = ax * bx + ay * by + az * bz + aw * bw;
        if (cos < 0) {
            cos = -cos;
            bx = -bx;
            by = -by;
            bz = -bz;
            bw = -bw;
        }
        double wa;
        double wb;
        if (cos > 0.9999995) {
            wa = 1 - t;
            wb = t;
        } else {
            double theta = Math.acos(Math.min(1, cos));
            double sin = Math.sin(theta);
            wa = Math.sin((1 - t) * theta) / sin;
            wb = Math.sin(t * theta) / sin;
        }
        out[o] = wa * ax + wb * bx;
        out[o + 1] = wa * ay + wb * by;
        out[o + 2] = wa * az + wb * bz;
        out[o + 3] = wa * aw + wb * bw;
        normalize(out, o);
    }
}
