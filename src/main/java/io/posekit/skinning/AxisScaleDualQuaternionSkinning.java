package io.posekit.skinning;

/**
 * Dual-quaternion skinning as Maya shows an FBX skin of {@code SkinningType} {@code DualQuaternion} or {@code Blend}
 * (and as ufbx evaluates it, {@code ufbx_get_skin_vertex_matrix}): each skinning matrix is split as {@code T·R·S} with
 * a scale {@code S = diag(sx, sy, sz)} per mesh axis — not only a uniform one, as {@link DualQuaternionSkinningJob}
 * requires — and, per vertex, the rigid parts are blended as dual quaternions while the axis scales are blended
 * linearly. Used by {@link SkinningMethod#AUTHORED}; scalar, in double.
 *
 * <p><b>Split</b> of skinning matrix {@code M} (16 floats, column-major): {@code t} its last column, {@code s_i} the
 * length of column {@code i}, {@code R} the rotation of the columns divided by their lengths (a quaternion, as ufbx's
 * {@code ufbx_matrix_to_transform}; where the determinant is negative the first axis of non-zero length is mirrored:
 * its scale negated, its column flipped). Exact for {@code M = T·R·S}; for a matrix with shear (columns not
 * perpendicular) the rotation is the nearest the columns give, as in ufbx.
 *
 * <p><b>Per vertex</b>, over its slots of non-zero weight {@code w_i} (sum {@code Σw}): the real parts
 * {@code q_i} (each negated when its dot with the first such slot's is negative), the dual parts
 * {@code ½·(t_i, 0)·q_i} and the scales are summed with the weights and divided by {@code Σw}; then
 * {@code p' = R̄ (S̄ p) + t̄} with {@code R̄ = q̄/|q̄|} and {@code t̄ = 2·vec(ē·q̄*)/|q̄|²}; normals
 * {@code normalize(R̄ · cof(S̄) n)} ({@code cof(S̄) = diag(s̄y s̄z, s̄x s̄z, s̄x s̄y)}, the normal transform of
 * {@code S̄} up to a positive factor), tangents {@code normalize(R̄ S̄ t.xyz)} with {@code w} kept. A vertex whose
 * weights sum to 0 (or to a non-finite value), or whose blended rotation is zero, follows its slot-0 joint alone.
 *
 * <p>Not thread-safe (per-joint scratch, grown as needed); one per {@link Skinner}.
 */
final class AxisScaleDualQuaternionSkinning {

    // per joint: rotation x y z w, dual part x y z w, scale x y z
    private static final int STRIDE = 11;
    private double[] joints = new double[0];
    // scratch: a vertex's blend, a transformed vector, and split's columns, lengths and mirror signs
    private final double[] b = new double[STRIDE];
    private final double[] r = new double[3];
    private final double[] c = new double[9];
    private final double[] s = new double[3];
    private final double[] sign = new double[3];

    /**
     * Skins {@code primitive} into the wanted outputs ({@code null}: not wanted; normals and tangents only where the
     * primitive has them), from {@code inPositions}/{@code inNormals} ({@code null}: the primitive's own).
     *
     * @throws IllegalStateException when the primitive has no influences, the buffers are inconsistent
     *     ({@link SkinningOutputs#valid}) or a vertex refers to a joint beyond {@code skinningMatrices}
     */
    void skin(Primitive primitive, float[] inPositions, float[] inNormals, float[] skinningMatrices,
            float[] outPositions, float[] outNormals, float[] outTangents) {
        if (primitive.influencesPerVertex() <= 0 || skinningMatrices == null
                || !SkinningOutputs.valid(primitive, inPositions, inNormals, outPositions, outNormals, outTangents)) {
            throw new IllegalStateException("authored dual-quaternion skinning inputs are missing or inconsistent");
        }
        int jointCount = skinningMatrices.length / 16;
        if (joints.length < STRIDE * jointCount) {
            joints = new double[STRIDE * jointCount];
        }
        for (int j = 0; j < jointCount; j++) {
            split(skinningMatrices, 16 * j, joints, STRIDE * j);
        }
        float[] pos = inPositions != null ? inPositions : primitive.positions();
        float[] nrm = primitive.normals() == null ? null : inNormals != null ? inNormals : primitive.normals();
        float[] tan = primitive.tangents();
        float[] outN = nrm == null ? null : outNormals;
        float[] outT = tan == null ? null : outTangents;
        int k = primitive.influencesPerVertex();
        int[] vj = primitive.joints();
        float[] vw = primitive.weights();
        double[] d = joints;
        final double[] b = this.b;
        final double[] r = this.r;
        for (int v = 0, n = primitive.vertexCount(); v < n; v++) {
            int base = v * k;
            java.util.Arrays.fill(b, 0);
            double sum = 0;
            int first = -1;
            for (int i = 0; i < k; i++) {
                double w = vw[base + i];
                if (w == 0) {
                    continue;
                }
                int o = STRIDE * joint(vj, base + i, v, jointCount);
                if (first < 0) {
                    first = o;
                }
                double dot = d[o] * d[first] + d[o + 1] * d[first + 1] + d[o + 2] * d[first + 2]
                        + d[o + 3] * d[first + 3];
                double sw = dot < 0 ? -w : w;
                for (int c = 0; c < 8; c++) {
                    b[c] += sw * d[o + c];
                }
                b[8] += w * d[o + 8];
                b[9] += w * d[o + 9];
                b[10] += w * d[o + 10];
                sum += w;
            }
            double len2 = b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3];
            if (sum == 0 || !Double.isFinite(sum) || !(len2 > 0) || !Double.isFinite(len2)) {
                int o = STRIDE * joint(vj, base, v, jointCount);
                System.arraycopy(d, o, b, 0, STRIDE);
                sum = 1;
                len2 = b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3];
            }
            // the sums are divided by Σw (ufbx's normalisation): it cancels in the rotation, not in t̄ and S̄
            double inv = 1 / sum;
            for (int c = 0; c < STRIDE; c++) {
                b[c] *= inv;
            }
            len2 *= inv * inv;
            double len = Math.sqrt(len2);
            double qx = b[0] / len, qy = b[1] / len, qz = b[2] / len, qw = b[3] / len;
            double ex = b[4], ey = b[5], ez = b[6], ew = b[7];
            double k2 = 2 / len2;
            double tx = k2 * (-ew * b[0] + ex * b[3] - ey * b[2] + ez * b[1]);
            double ty = k2 * (-ew * b[1] + ex * b[2] + ey * b[3] - ez * b[0]);
            double tz = k2 * (-ew * b[2] - ex * b[1] + ey * b[0] + ez * b[3]);
            double sx = b[8], sy = b[9], sz = b[10];
            int p3 = 3 * v;
            if (outPositions != null) {
                rotate(qx, qy, qz, qw, sx * pos[p3], sy * pos[p3 + 1], sz * pos[p3 + 2], r);
                outPositions[p3] = (float) (r[0] + tx);
                outPositions[p3 + 1] = (float) (r[1] + ty);
                outPositions[p3 + 2] = (float) (r[2] + tz);
            }
            if (outN != null) {
                rotate(qx, qy, qz, qw, sy * sz * nrm[p3], sx * sz * nrm[p3 + 1], sx * sy * nrm[p3 + 2], r);
                SkinningJob.store3Normalized(r[0], r[1], r[2], outN, p3);
            }
            if (outT != null) {
                int p4 = 4 * v;
                rotate(qx, qy, qz, qw, sx * tan[p4], sy * tan[p4 + 1], sz * tan[p4 + 2], r);
                SkinningJob.store3Normalized(r[0], r[1], r[2], outT, p4);
                outT[p4 + 3] = tan[p4 + 3];
            }
        }
    }

    private static int joint(int[] joints, int at, int vertex, int jointCount) {
        int j = joints[at];
        if (j >= jointCount) {
            throw new IllegalStateException("vertex " + vertex + " refers to joint " + j + " but there are only "
                    + jointCount + " skinning matrices");
        }
        return j;
    }

    /** {@code v} rotated by the unit quaternion {@code q}: {@code v + 2w(u×v) + 2u×(u×v)}, into {@code out}. */
    private static void rotate(double x, double y, double z, double w, double vx, double vy, double vz,
            double[] out) {
        double cx = y * vz - z * vy;
        double cy = z * vx - x * vz;
        double cz = x * vy - y * vx;
        out[0] = vx + 2 * (w * cx + y * cz - z * cy);
        out[1] = vy + 2 * (w * cy + z * cx - x * cz);
        out[2] = vz + 2 * (w * cz + x * cy - y * cx);
    }

    /**
     * Splits the matrix at {@code m[o..o+15]} into {@code out[at..at+10]}: rotation quaternion xyzw, dual part
     * {@code ½·(t, 0)·q} xyzw, axis scales xyz (see the class comment).
     */
    void split(float[] m, int o, double[] out, int at) {
        final double[] c = this.c;
        final double[] s = this.s;
        final double[] sign = this.sign;
        java.util.Arrays.fill(sign, 1);
        for (int i = 0; i < 3; i++) {
            double x = m[o + 4 * i], y = m[o + 4 * i + 1], z = m[o + 4 * i + 2];
            s[i] = Math.sqrt(x * x + y * y + z * z);
            c[3 * i] = x;
            c[3 * i + 1] = y;
            c[3 * i + 2] = z;
        }
        double det = c[0] * (c[4] * c[8] - c[5] * c[7]) - c[3] * (c[1] * c[8] - c[2] * c[7])
                + c[6] * (c[1] * c[5] - c[2] * c[4]);
        if (det < 0) {
            for (int i = 0; i < 3; i++) {
                if (s[i] > 0) {
                    sign[i] = -1;
                    break;
                }
            }
        }
        for (int i = 0; i < 3; i++) {
            double f = s[i] > 0 ? sign[i] / s[i] : 0;
            c[3 * i] *= f;
            c[3 * i + 1] *= f;
            c[3 * i + 2] *= f;
        }
        // rotation from the unit columns X = c[0..2], Y = c[3..5], Z = c[6..8] (element (row r, column k) = c[3k + r])
        double qx, qy, qz, qw;
        double trace = c[0] + c[4] + c[8];
        if (trace > 0) {
            double a = Math.sqrt(trace + 1), f = 0.5 / a;
            qx = (c[5] - c[7]) * f;
            qy = (c[6] - c[2]) * f;
            qz = (c[1] - c[3]) * f;
            qw = 0.5 * a;
        } else if (c[0] > c[4] && c[0] > c[8]) {
            double a = Math.sqrt(Math.max(0, 1 + c[0] - c[4] - c[8])), f = a != 0 ? 0.5 / a : 0;
            qx = 0.5 * a;
            qy = (c[3] + c[1]) * f;
            qz = (c[6] + c[2]) * f;
            qw = (c[5] - c[7]) * f;
        } else if (c[4] > c[8]) {
            double a = Math.sqrt(Math.max(0, 1 - c[0] + c[4] - c[8])), f = a != 0 ? 0.5 / a : 0;
            qx = (c[3] + c[1]) * f;
            qy = 0.5 * a;
            qz = (c[7] + c[5]) * f;
            qw = (c[6] - c[2]) * f;
        } else {
            double a = Math.sqrt(Math.max(0, 1 - c[0] - c[4] + c[8])), f = a != 0 ? 0.5 / a : 0;
            qx = (c[6] + c[2]) * f;
            qy = (c[7] + c[5]) * f;
            qz = 0.5 * a;
            qw = (c[1] - c[3]) * f;
        }
        double n = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
        if (n == 0 || !Double.isFinite(n)) {
            qx = 0;
            qy = 0;
            qz = 0;
            qw = 1;
        } else {
            qx /= n;
            qy /= n;
            qz /= n;
            qw /= n;
        }
        double tx = m[o + 12], ty = m[o + 13], tz = m[o + 14];
        out[at] = qx;
        out[at + 1] = qy;
        out[at + 2] = qz;
        out[at + 3] = qw;
        // ½ (t, 0) ⊗ q
        out[at + 4] = 0.5 * (tx * qw + ty * qz - tz * qy);
        out[at + 5] = 0.5 * (ty * qw + tz * qx - tx * qz);
        out[at + 6] = 0.5 * (tz * qw + tx * qy - ty * qx);
        out[at + 7] = -0.5 * (tx * qx + ty * qy + tz * qz);
        out[at + 8] = sign[0] * s[0];
        out[at + 9] = sign[1] * s[1];
        out[at + 10] = sign[2] * s[2];
    }
}
