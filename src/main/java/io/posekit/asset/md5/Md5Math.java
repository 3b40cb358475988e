package io.posekit.asset.md5;

/**
 * Quaternion arithmetic in double for MD5 joints; quaternions are {@code double[4]} {@code [x, y, z, w]}.
 *
 * <p>MD5 stores only a unit quaternion's x, y and z. Its w is derived as {@code w = −√(1 − x² − y² − z²)} (0 when
 * the radicand is negative): the negative root is the convention of Doom 3's tools and of assimp, and the
 * conformance data confirms it (SimpleCube's {@code root} joint, stored as {@code (−0.5002, 0.4998, −0.4998)},
 * is {@code ±(0.500195, −0.499805, 0.499805, 0.500195)} in the oracle, i.e. w = −0.500195 before the sign
 * flip, not +0.500195, which would be a different rotation). The result is applied to column vectors
 * ({@code v' = q v q*}), like glTF quaternions.
 */
final class Md5Math {

    private Md5Math() {
    }

    /** The unit quaternion of an MD5 orientation {@code (x, y, z)}, w derived (negative root) and normalised. */
    static double[] orientation(double x, double y, double z) {
        double t = 1 - x * x - y * y - z * z;
        double w = t > 0 ? -Math.sqrt(t) : 0;
        return normalize(new double[] {x, y, z, w});
    }

    /** {@code q} scaled to unit length (the identity for a zero quaternion). */
    static double[] normalize(double[] q) {
        double len = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (!(len > 0)) {
            return new double[] {0, 0, 0, 1};
        }
        return new double[] {q[0] / len, q[1] / len, q[2] / len, q[3] / len};
    }

    /** The inverse rotation of the unit quaternion {@code q}. */
    static double[] conjugate(double[] q) {
        return new double[] {-q[0], -q[1], -q[2], q[3]};
    }

    /** The product {@code a · b} (b applied first). */
    static double[] multiply(double[] a, double[] b) {
        return new double[] {
            a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
            a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
            a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
            a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    }

    /** {@code v} rotated by the unit quaternion {@code q}. */
    static double[] rotate(double[] q, double vx, double vy, double vz) {
        double qx = q[0], qy = q[1], qz = q[2], qw = q[3];
        // t = 2 · (q.xyz × v); v' = v + w·t + q.xyz × t
        double tx = 2 * (qy * vz - qz * vy);
        double ty = 2 * (qz * vx - qx * vz);
        double tz = 2 * (qx * vy - qy * vx);
        return new double[] {
            vx + qw * tx + (qy * tz - qz * ty),
            vy + qw * ty + (qz * tx - qx * tz),
            vz + qw * tz + (qx * ty - qy * tx)};
    }

    /** Stores {@code v} as floats. */
    static float[] toFloats(double[] v) {
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (float) v[i];
        }
        return out;
    }

    /**
     * Writes the inverse of the rigid transform {@code T(p) · R(q)} (column-major) at {@code out[o..o+15]}:
     * rotation {@code R(q)ᵀ}, translation {@code −R(q)ᵀ·p}.
     */
    static void inverseRigid(double[] q, double[] p, float[] out, int o) {
        double[] c = conjugate(q);
        double x = c[0], y = c[1], z = c[2], w = c[3];
        double[] m = {
            1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
            2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
            2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)};
        double[] t = rotate(c, p[0], p[1], p[2]);
        for (int col = 0; col < 3; col++) {
            for (int row = 0; row < 3; row++) {
                out[o + 4 * col + row] = (float) m[3 * col + row];
            }
            out[o + 4 * col + 3] = 0;
        }
        out[o + 12] = (float) -t[0];
        out[o + 13] = (float) -t[1];
        out[o + 14] = (float) -t[2];
        out[o + 15] = 1;
    }
}
