package io.posekit.math;

/**
 * Static operations on unit dual quaternions representing rigid transformations (a rotation followed by a
 * translation), stored as eight consecutive numbers in a flat array at an offset:
 * {@code [rx, ry, rz, rw, dx, dy, dz, dw]} — the real part {@code q0} (the rotation, a unit quaternion in the
 * {@code [x, y, z, w]} order of {@link Quaternions}) then the dual part {@code qε}.
 *
 * <p>For the rotation {@code q} and translation {@code t}, the dual quaternion is {@code q0 = q},
 * {@code qε = ½ (t, 0) q}, so it maps a point {@code p} to {@code R(q) p + t} (the matrix
 * {@code [R | t]}); the translation is recovered as the vector part of {@code 2 qε q0*}. A dual quaternion and
 * its negation represent the same transformation (antipodality).
 *
 * <p>Dual quaternions blend rigid transformations without the volume loss of blending matrices (Kavan, Collins,
 * Žára, O'Sullivan, "Geometric Skinning with Approximate Dual Quaternion Blending", ACM TOG 2008): a weighted
 * sum of dual quaternions made to lie in one hemisphere, normalised, is again a rigid transformation
 * ({@link #blend}). Scale is not representable; skinning handles it separately
 * ({@code io.posekit.skinning.SkinningDualQuaternionsJob}).
 *
 * <p>Arithmetic is done in double precision; float outputs are rounded once, at the store. Methods are
 * allocation-free, and each method reads all its inputs before writing, so outputs may alias inputs.
 */
public final class DualQuaternions {

    /** Numbers per dual quaternion in a flat array. */
    public static final int STRIDE = 8;

    private DualQuaternions() {
    }

    /** Writes the identity transformation {@code [0, 0, 0, 1, 0, 0, 0, 0]} at {@code out[o..o+7]}. */
    public static void identity(float[] out, int o) {
        Quaternions.identity(out, o);
        out[o + 4] = 0f;
        out[o + 5] = 0f;
        out[o + 6] = 0f;
        out[o + 7] = 0f;
    }

    /**
     * Writes the dual quaternion of "rotate by the unit quaternion {@code q = r[ri..ri+3]} ({@code [x,y,z,w]}),
     * then translate by {@code t[ti..ti+2]}" at {@code out[o..o+7]}. The rotation is used as given (callers keep
     * it normalised).
     */
    public static void fromRotationTranslation(float[] r, int ri, float[] t, int ti, float[] out, int o) {
        store(r[ri], r[ri + 1], r[ri + 2], r[ri + 3], t[ti], t[ti + 1], t[ti + 2], out, o);
    }

    /**
     * Writes the dual quaternion of the rigid transformation held in the column-major 4×4 matrix
     * {@code m[mo..mo+15]} at {@code out[o..o+7]}: rotation from the upper-left 3×3, translation from the last
     * column; the bottom row is ignored (as skinning ignores it).
     *
     * <p>The matrix is expected to be rigid (orthonormal 3×3 with determinant +1). To tolerate rounding and a
     * uniform scale, each of the three columns is normalised first and the quaternion is normalised after
     * extraction; nothing else is checked, so the result for a sheared, non-uniformly scaled or mirroring
     * matrix is some nearby rotation, not an error — validate with
     * {@code io.posekit.skinning.SkinningDualQuaternionsJob} where that matters. A matrix with a zero column
     * gives the identity rotation with its translation.
     *
     * <p>The sign is canonical: {@code rw ≥ 0}, and for a half turn ({@code rw = 0}) the first non-zero of
     * {@code rx, ry, rz} is positive, so equal matrices give bit-identical dual quaternions.
     */
    public static void fromRigidMatrix(float[] m, int mo, float[] out, int o) {
        fromRigidMatrix(m, mo, out, o, new double[4]);
    }

    /** {@link #fromRigidMatrix(float[], int, float[], int)} with caller-owned scratch ({@code ≥ 4} doubles), allocation-free. */
    public static void fromRigidMatrix(float[] m, int mo, float[] out, int o, double[] scratch) {
        double c0x = m[mo], c0y = m[mo + 1], c0z = m[mo + 2];
        double c1x = m[mo + 4], c1y = m[mo + 5], c1z = m[mo + 6];
        double c2x = m[mo + 8], c2y = m[mo + 9], c2z = m[mo + 10];
        double tx = m[mo + 12], ty = m[mo + 13], tz = m[mo + 14];
        double l0 = Math.sqrt(c0x * c0x + c0y * c0y + c0z * c0z);
        double l1 = Math.sqrt(c1x * c1x + c1y * c1y + c1z * c1z);
        double l2 = Math.sqrt(c2x * c2x + c2y * c2y + c2z * c2z);
        if (l0 == 0 || l1 == 0 || l2 == 0 || !Double.isFinite(l0 * l1 * l2)) {
            // no rotation can be read from a collapsed axis; keep the translation so the point still lands there
            store(0, 0, 0, 1, tx, ty, tz, out, o);
            return;
        }
        // rotation matrix element (row i, column j) = column j divided by its length
        double r00 = c0x / l0, r10 = c0y / l0, r20 = c0z / l0;
        double r01 = c1x / l1, r11 = c1y / l1, r21 = c1z / l1;
        double r02 = c2x / l2, r12 = c2y / l2, r22 = c2z / l2;
        Quaternions.fromRotationMatrix(r00, r01, r02, r10, r11, r12, r20, r21, r22, scratch);
        double x = scratch[0];
        double y = scratch[1];
        double z = scratch[2];
        double w = scratch[3];
        double inv = 1;
        // canonical hemisphere: q and −q are the same rotation, and Shepperd's branches differ in the sign they give
        if (w < 0 || (w == 0 && (x < 0 || (x == 0 && (y < 0 || (y == 0 && z < 0)))))) {
            inv = -inv;
        }
        store(x * inv, y * inv, z * inv, w * inv, tx, ty, tz, out, o);
    }

    /**
     * Writes the column-major 4×4 matrix {@code [R | t]} of the dual quaternion {@code dq[o..o+7]} at
     * {@code m[mo..mo+15]} (bottom row {@code 0, 0, 0, 1}). The dual quaternion is normalised first (so a
     * blended, unnormalised one gives its rigid transformation); a zero or non-finite real part gives the
     * identity matrix.
     */
    public static void toMatrix(float[] dq, int o, float[] m, int mo) {
        double x = dq[o], y = dq[o + 1], z = dq[o + 2], w = dq[o + 3];
        double dx = dq[o + 4], dy = dq[o + 5], dz = dq[o + 6], dw = dq[o + 7];
        double n2 = x * x + y * y + z * z + w * w;
        if (n2 == 0 || !Double.isFinite(n2)) {
            Matrices.identity(m, mo);
            return;
        }
        double inv = 1 / Math.sqrt(n2);
        x *= inv;
        y *= inv;
        z *= inv;
        w *= inv;
        dx *= inv;
        dy *= inv;
        dz *= inv;
        dw *= inv;
        m[mo] = (float) (1 - 2 * (y * y + z * z));
        m[mo + 1] = (float) (2 * (x * y + z * w));
        m[mo + 2] = (float) (2 * (x * z - y * w));
        m[mo + 3] = 0f;
        m[mo + 4] = (float) (2 * (x * y - z * w));
        m[mo + 5] = (float) (1 - 2 * (x * x + z * z));
        m[mo + 6] = (float) (2 * (y * z + x * w));
        m[mo + 7] = 0f;
        m[mo + 8] = (float) (2 * (x * z + y * w));
        m[mo + 9] = (float) (2 * (y * z - x * w));
        m[mo + 10] = (float) (1 - 2 * (x * x + y * y));
        m[mo + 11] = 0f;
        m[mo + 12] = (float) translationX(x, y, z, w, dx, dy, dz, dw);
        m[mo + 13] = (float) translationY(x, y, z, w, dx, dy, dz, dw);
        m[mo + 14] = (float) translationZ(x, y, z, w, dx, dy, dz, dw);
        m[mo + 15] = 1f;
    }

    /**
     * Normalises the dual quaternion {@code dq[o..o+7]} in place to a unit dual quaternion: the real part to
     * unit length, and the dual part made orthogonal to it ({@code qε ← qε/|q0| − q0' ⟨q0', qε/|q0|⟩}), which
     * changes neither the rotation nor the translation it stands for. A zero or non-finite real part gives the
     * identity.
     */
    public static void normalize(float[] dq, int o) {
        double x = dq[o], y = dq[o + 1], z = dq[o + 2], w = dq[o + 3];
        double n2 = x * x + y * y + z * z + w * w;
        if (n2 == 0 || !Double.isFinite(n2)) {
            identity(dq, o);
            return;
        }
        double inv = 1 / Math.sqrt(n2);
        x *= inv;
        y *= inv;
        z *= inv;
        w *= inv;
        double dx = dq[o + 4] * inv, dy = dq[o + 5] * inv, dz = dq[o + 6] * inv, dw = dq[o + 7] * inv;
        double d = x * dx + y * dy + z * dz + w * dw;
        dq[o] = (float) x;
        dq[o + 1] = (float) y;
        dq[o + 2] = (float) z;
        dq[o + 3] = (float) w;
        dq[o + 4] = (float) (dx - d * x);
        dq[o + 5] = (float) (dy - d * y);
        dq[o + 6] = (float) (dz - d * z);
        dq[o + 7] = (float) (dw - d * w);
    }

    /**
     * Transforms the point {@code p[po..po+2]} by the unit dual quaternion {@code dq[o..o+7]}
     * ({@code R p + t}), writing {@code out[oo..oo+2]}.
     */
    public static void transformPoint(float[] dq, int o, float[] p, int po, float[] out, int oo) {
        double x = dq[o], y = dq[o + 1], z = dq[o + 2], w = dq[o + 3];
        double dx = dq[o + 4], dy = dq[o + 5], dz = dq[o + 6], dw = dq[o + 7];
        double px = p[po], py = p[po + 1], pz = p[po + 2];
        out[oo] = (float) (rotateX(x, y, z, w, px, py, pz) + translationX(x, y, z, w, dx, dy, dz, dw));
        out[oo + 1] = (float) (rotateY(x, y, z, w, px, py, pz) + translationY(x, y, z, w, dx, dy, dz, dw));
        out[oo + 2] = (float) (rotateZ(x, y, z, w, px, py, pz) + translationZ(x, y, z, w, dx, dy, dz, dw));
    }

    /**
     * Transforms the direction {@code v[vo..vo+2]} by the unit dual quaternion {@code dq[o..o+7]}: rotation only
     * ({@code R v}; translation does not apply to directions), writing {@code out[oo..oo+2]}.
     */
    public static void transformVector(float[] dq, int o, float[] v, int vo, float[] out, int oo) {
        double x = dq[o], y = dq[o + 1], z = dq[o + 2], w = dq[o + 3];
        double vx = v[vo], vy = v[vo + 1], vz = v[vo + 2];
        out[oo] = (float) rotateX(x, y, z, w, vx, vy, vz);
        out[oo + 1] = (float) rotateY(x, y, z, w, vx, vy, vz);
        out[oo + 2] = (float) rotateZ(x, y, z, w, vx, vy, vz);
    }

    /**
     * Dual quaternion linear blending (DLB, Kavan et al. 2008): writes the unit dual quaternion
     * {@code normalize(Σ σ_i w_i dq[joints[i]])} over the slots {@code i = from .. from+count−1} at
     * {@code out[o..o+7]}, in double (the form {@link #transformPoint(double[], int, double, double, double,
     * double[], int)} takes).
     *
     * <ul>
     *   <li>Dual quaternion {@code j} is {@code dqs[8j..8j+7]}; slots of weight 0 are skipped (their joint is
     *       never read). Callers ensure every weighted joint has a dual quaternion.</li>
     *   <li>Antipodality: {@code σ_i = −1} when the real part of joint {@code i} has a negative dot product with
     *       that of the <em>pivot</em>, the slot of largest weight (the first one on ties), else {@code +1}. So
     *       every influence takes the shortest path relative to the dominant one, and {@code q} and {@code −q}
     *       (the same transformation) blend as one. A dot product of exactly 0 (rotations a half turn apart)
     *       keeps the stored sign.</li>
     *   <li>Normalisation divides both parts by the real part's norm and makes the dual part orthogonal to the
     *       real one, so the result is a proper unit dual quaternion. Only the weights' ratios matter: they
     *       need not sum to 1.</li>
     * </ul>
     *
     * @return false, leaving {@code out} untouched, when nothing is weighted or the blend is degenerate (real
     *     part zero, possible only with negative weights, or non-finite)
     */
    public static boolean blend(float[] dqs, int[] joints, float[] weights, int from, int count, double[] out,
            int o) {
        int pivot = -1;
        float best = 0;
        for (int i = from, end = from + count; i < end; i++) {
            float w = weights[i];
            if (w != 0 && (pivot < 0 || w > best)) {
                pivot = i;
                best = w;
            }
        }
        if (pivot < 0) {
            return false;
        }
        int po = STRIDE * joints[pivot];
        double px = dqs[po], py = dqs[po + 1], pz = dqs[po + 2], pw = dqs[po + 3];
        double x = 0, y = 0, z = 0, w = 0, dx = 0, dy = 0, dz = 0, dw = 0;
        for (int i = from, end = from + count; i < end; i++) {
            double wi = weights[i];
            if (wi == 0) {
                continue;
            }
            int jo = STRIDE * joints[i];
            double qx = dqs[jo], qy = dqs[jo + 1], qz = dqs[jo + 2], qw = dqs[jo + 3];
            if (qx * px + qy * py + qz * pz + qw * pw < 0) {
                wi = -wi;
            }
            x += wi * qx;
            y += wi * qy;
            z += wi * qz;
            w += wi * qw;
            dx += wi * dqs[jo + 4];
            dy += wi * dqs[jo + 5];
            dz += wi * dqs[jo + 6];
            dw += wi * dqs[jo + 7];
        }
        double n2 = x * x + y * y + z * z + w * w;
        if (n2 == 0 || !Double.isFinite(n2) || !Double.isFinite(dx + dy + dz + dw)) {
            return false;
        }
        double inv = 1 / Math.sqrt(n2);
        x *= inv;
        y *= inv;
        z *= inv;
        w *= inv;
        dx *= inv;
        dy *= inv;
        dz *= inv;
        dw *= inv;
        // the blend of unit dual quaternions is not exactly unit: remove the dual part's component along the
        // real part (it only affects the scalar part of 2 qε q0*, i.e. neither rotation nor translation)
        double d = x * dx + y * dy + z * dz + w * dw;
        out[o] = x;
        out[o + 1] = y;
        out[o + 2] = z;
        out[o + 3] = w;
        out[o + 4] = dx - d * x;
        out[o + 5] = dy - d * y;
        out[o + 6] = dz - d * z;
        out[o + 7] = dw - d * w;
        return true;
    }

    /**
     * Transforms the point {@code (px, py, pz)} by the unit dual quaternion {@code dq[o..o+7]} held in double
     * ({@code R p + t}), writing {@code out[oo..oo+2]}.
     */
    public static void transformPoint(double[] dq, int o, double px, double py, double pz, double[] out, int oo) {
        double x = dq[o], y = dq[o + 1], z = dq[o + 2], w = dq[o + 3];
        double dx = dq[o + 4], dy = dq[o + 5], dz = dq[o + 6], dw = dq[o + 7];
        double rx = rotateX(x, y, z, w, px, py, pz);
        double ry = rotateY(x, y, z, w, px, py, pz);
        double rz = rotateZ(x, y, z, w, px, py, pz);
        out[oo] = rx + translationX(x, y, z, w, dx, dy, dz, dw);
        out[oo + 1] = ry + translationY(x, y, z, w, dx, dy, dz, dw);
        out[oo + 2] = rz + translationZ(x, y, z, w, dx, dy, dz, dw);
    }

    /**
     * Rotates the direction {@code (vx, vy, vz)} by the real part of the unit dual quaternion
     * {@code dq[o..o+7]} held in double, writing {@code out[oo..oo+2]}.
     */
    public static void transformVector(double[] dq, int o, double vx, double vy, double vz, double[] out, int oo) {
        double x = dq[o], y = dq[o + 1], z = dq[o + 2], w = dq[o + 3];
        double rx = rotateX(x, y, z, w, vx, vy, vz);
        double ry = rotateY(x, y, z, w, vx, vy, vz);
        double rz = rotateZ(x, y, z, w, vx, vy, vz);
        out[oo] = rx;
        out[oo + 1] = ry;
        out[oo + 2] = rz;
    }

    // rotation of v by the unit quaternion (x, y, z, w): v + 2 r × (r × v + w v), r = (x, y, z)

    private static double rotateX(double x, double y, double z, double w, double vx, double vy, double vz) {
        double cy = z * vx - x * vz + w * vy;
        double cz = x * vy - y * vx + w * vz;
        return vx + 2 * (y * cz - z * cy);
    }

    private static double rotateY(double x, double y, double z, double w, double vx, double vy, double vz) {
        double cx = y * vz - z * vy + w * vx;
        double cz = x * vy - y * vx + w * vz;
        return vy + 2 * (z * cx - x * cz);
    }

    private static double rotateZ(double x, double y, double z, double w, double vx, double vy, double vz) {
        double cx = y * vz - z * vy + w * vx;
        double cy = z * vx - x * vz + w * vy;
        return vz + 2 * (x * cy - y * cx);
    }

    // translation = vector part of 2 qε q0* = 2 (w·d − dw·r + r × d), r = (x, y, z), d = (dx, dy, dz)

    private static double translationX(double x, double y, double z, double w, double dx, double dy, double dz,
            double dw) {
        return 2 * (w * dx - dw * x + y * dz - z * dy);
    }

    private static double translationY(double x, double y, double z, double w, double dx, double dy, double dz,
            double dw) {
        return 2 * (w * dy - dw * y + z * dx - x * dz);
    }

    private static double translationZ(double x, double y, double z, double w, double dx, double dy, double dz,
            double dw) {
        return 2 * (w * dz - dw * z + x * dy - y * dx);
    }

    /** Stores rotation (x, y, z, w) and translation t as a dual quaternion: qε = ½ (t, 0) q. */
    private static void store(double x, double y, double z, double w, double tx, double ty, double tz, float[] out,
            int o) {
        // (t, 0) q = (w t + t × r, −t · r) for q = (r, w)
        double dx = 0.5 * (w * tx + ty * z - tz * y);
        double dy = 0.5 * (w * ty + tz * x - tx * z);
        double dz = 0.5 * (w * tz + tx * y - ty * x);
        double dw = -0.5 * (tx * x + ty * y + tz * z);
        out[o] = (float) x;
        out[o + 1] = (float) y;
        out[o + 2] = (float) z;
        out[o + 3] = (float) w;
        out[o + 4] = (float) dx;
        out[o + 5] = (float) dy;
        out[o + 6] = (float) dz;
        out[o + 7] = (float) dw;
    }
}
