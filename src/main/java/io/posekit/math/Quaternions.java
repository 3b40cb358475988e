package io.posekit.math;

/**
 * Static operations on rotation quaternions stored as four consecutive floats {@code [x, y, z, w]} in a flat
 * array at an offset (the layout of glTF, three.js and {@link io.posekit.rig.Rig}).
 *
 * <p>Arithmetic is done in double precision and the result is rounded to float once, at the store. All
 * methods are allocation-free, and every method that writes reads all of its inputs first, so the output
 * may alias any input.
 */
public final class Quaternions {

    private Quaternions() {
    }

    /** Writes the identity rotation {@code [0, 0, 0, 1]} at {@code out[o..o+3]}. */
    public static void identity(float[] out, int o) {
        out[o] = 0f;
        out[o + 1] = 0f;
        out[o + 2] = 0f;
        out[o + 3] = 1f;
    }

    /** The 4D dot product of the quaternions at {@code a[ao..]} and {@code b[bo..]}, in double. */
    public static double dot(float[] a, int ao, float[] b, int bo) {
        return (double) a[ao] * b[bo] + (double) a[ao + 1] * b[bo + 1] + (double) a[ao + 2] * b[bo + 2]
                + (double) a[ao + 3] * b[bo + 3];
    }

    /** The Euclidean length of the quaternion at {@code q[o..o+3]}, in double. */
    public static double length(float[] q, int o) {
        return Math.sqrt(dot(q, o, q, o));
    }

    /**
     * Shortest-path spherical linear interpolation (glTF 2.0 Appendix C) between the unit quaternions {@code a} and
     * {@code b}, written to {@code out[o..o+3]}: {@code (sin((1−t)θ)·a + sin(tθ)·(±b)) / sin θ}, where
     * {@code cos θ = |dot(a, b)|}.
     *
     * <ul>
     *   <li>If {@code dot(a, b) < 0}, {@code −b} is used instead of {@code b} (the same rotation), so the
     *       path is the short one (≤ 180° of rotation).</li>
     *   <li>The two weights {@code sin(tθ)/sin θ} and {@code sin((1−t)θ)/sin θ} are evaluated without
     *       trigonometry when {@code cos θ ≥ ½} (θ ≤ 60°, i.e. keys up to 120° of rotation apart, which covers the
     *       consecutive keys of any real animation): as the truncated series {@code Σ c_i(t)·(cos θ − 1)^i},
     *       {@code c_0 = t}, {@code c_i = c_(i−1)·(t² − i²) / (i(2i+1))} (D. Eberly, <i>A Fast and Accurate
     *       Algorithm for Computing SLERP</i>), to {@value #NEAR_TERMS} terms when {@code cos θ ≥ 0.9} (keys up to
     *       51° of rotation apart) and {@value #SERIES_TERMS} otherwise. The truncation error is below 2e-9, far
     *       under a float ulp of the result. Wider angles use {@code acos} and {@code sin}. Either way this is
     *       slerp, not nlerp: the result stays on the great circle at constant angular speed.</li>
     *   <li>{@code t == 0} gives {@code a} exactly and {@code t == 1} gives {@code ±b} exactly (the sign
     *       chosen above), bit for bit.</li>
     * </ul>
     *
     * <p>{@code t} is normally in {@code [0, 1]}; other values extrapolate along the same great circle. The
     * inputs are expected to be unit quaternions (they are not normalised first); a pair whose dot product exceeds 1
     * (only longer than unit, e.g. dequantized keys) is interpolated linearly and normalized; NaN components give NaN
     * output.
     */
    public static void slerp(float[] a, int ao, float[] b, int bo, double t, float[] out, int o) {
        double ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
        double bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
        double d = ax * bx + ay * by + az * bz + aw * bw;
        if (d < 0) {
            // q and −q are the same rotation; taking −b makes the interpolation go the short way round
            d = -d;
            bx = -bx;
            by = -by;
            bz = -bz;
            bw = -bw;
        }
        if (t == 0) {
            // exact endpoints: callers (and tests) rely on getting the stored key back bit for bit
            out[o] = (float) ax;
            out[o + 1] = (float) ay;
            out[o + 2] = (float) az;
            out[o + 3] = (float) aw;
            return;
        }
        if (t == 1) {
            out[o] = (float) bx;
            out[o + 1] = (float) by;
            out[o + 2] = (float) bz;
            out[o + 3] = (float) bw;
            return;
        }
        double k0;
        double k1;
        double u = 1 - t;
        if (d > 1) {
            // only keys longer than unit (quantized ones: |q|² off 1 by up to ~1e-4) get here: the angle between them is
            // 0 and the series would extrapolate past it, lengthening the result; normalized lerp, as three.js does
            double x = u * ax + t * bx;
            double y = u * ay + t * by;
            double z = u * az + t * bz;
            double w = u * aw + t * bw;
            double inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
            out[o] = (float) (x * inv);
            out[o + 1] = (float) (y * inv);
            out[o + 2] = (float) (z * inv);
            out[o + 3] = (float) (w * inv);
            return;
        }
        if (d >= 0.9) {
            // keys up to 51° of rotation apart: 5 terms already give the 2e-9 accuracy
            k0 = u * seriesFactor(u * u, d - 1, NEAR_TERMS);
            k1 = t * seriesFactor(t * t, d - 1, NEAR_TERMS);
        } else if (d >= 0.5) {
            k0 = u * seriesFactor(u * u, d - 1, SERIES_TERMS);
            k1 = t * seriesFactor(t * t, d - 1, SERIES_TERMS);
        } else if (d <= 1) {
            // d < ½ here, so the angle is > 60° and sin(angle) is far from zero
            // sin(acos d) = √((1−d)(1+d)): one transcendental call fewer than Math.sin(angle)
            double angle = Math.acos(d);
            double invSin = 1 / Math.sqrt((1 - d) * (1 + d));
            k0 = Math.sin(angle * u) * invSin;
            k1 = Math.sin(angle * t) * invSin;
        } else {
            // NaN input: propagate it
            k0 = Double.NaN;
            k1 = Double.NaN;
        }
        out[o] = (float) (k0 * ax + k1 * bx);
        out[o + 1] = (float) (k0 * ay + k1 * by);
        out[o + 2] = (float) (k0 * az + k1 * bz);
        out[o + 3] = (float) (k0 * aw + k1 * bw);
    }

    /** Terms of the slerp weight series after the constant one, for {@code cos θ ∈ [½, 0.9)}: error below 2e-9. */
    static final int SERIES_TERMS = 12;
    /** Terms enough for {@code cos θ ≥ 0.9} (keys up to 51° of rotation apart, nearly every pair): error below 2e-9. */
    static final int NEAR_TERMS = 5;
    // series coefficient i: c_i/c_(i−1) = (t² − i²)/(i(2i+1)) = t²·SERIES_U[i] − SERIES_V[i]
    private static final double[] SERIES_U = new double[SERIES_TERMS + 1];
    private static final double[] SERIES_V = new double[SERIES_TERMS + 1];

    static {
        for (int i = 1; i <= SERIES_TERMS; i++) {
            SERIES_U[i] = 1.0 / (i * (2.0 * i + 1));
            SERIES_V[i] = i / (2.0 * i + 1);
        }
    }

    /**
     * {@code sin(sθ)/(s·sin θ)} for {@code t2 = s²} and {@code y = cos θ − 1 ∈ [−½, 0]}, to {@code terms} terms: the
     * series {@code 1 + b_1·y·(1 + b_2·y·(1 + …))}, {@code b_i = t2·U_i − V_i}, in Horner form from the innermost
     * term. The chain through {@code f} is one fused multiply-add per term; the {@code b_i·y} do not depend on it.
     */
    private static double seriesFactor(double t2, double y, int terms) {
        double f = 1;
        for (int i = terms; i >= 1; i--) {
            f = Math.fma((t2 * SERIES_U[i] - SERIES_V[i]) * y, f, 1);
        }
        return f;
    }

    /**
     * Scales the quaternion at {@code q[o..o+3]} to unit length in place. A zero (or non-finite) quaternion
     * has no direction and becomes the identity {@code [0, 0, 0, 1]}, so downstream matrices stay finite.
     */
    public static void normalize(float[] q, int o) {
        double x = q[o], y = q[o + 1], z = q[o + 2], w = q[o + 3];
        normalizeTo(x, y, z, w, q, o);
    }

    /**
     * Writes {@code (x, y, z, w) / |(x, y, z, w)|} as floats at {@code out[o..o+3]}; a zero or non-finite
     * input gives the identity. Lets callers that computed a quaternion in double normalise it before the
     * single float rounding.
     */
    public static void normalizeTo(double x, double y, double z, double w, float[] out, int o) {
        double len = Math.sqrt(x * x + y * y + z * z + w * w);
        if (len == 0 || !Double.isFinite(len)) {
            identity(out, o);
            return;
        }
        double inv = 1 / len;
        out[o] = (float) (x * inv);
        out[o + 1] = (float) (y * inv);
        out[o + 2] = (float) (z * inv);
        out[o + 3] = (float) (w * inv);
    }

    /**
     * The rotation angle in radians, in {@code [0, π]}, between the rotations {@code a} and {@code b}
     * (unit quaternions; q and −q count as the same rotation): {@code 2·acos(|dot(a, b)|)}.
     */
    public static double angleBetween(float[] a, int ao, float[] b, int bo) {
        return 2 * Math.acos(Math.min(1, Math.abs(dot(a, ao, b, bo))));
    }

    /**
     * The unit quaternion {@code [x, y, z, w]} of a rotation matrix given by its elements ({@code rij} = row i,
     * column j; orthonormal with determinant +1), written to {@code out[0..3]} in double. Shepperd's method: it
     * divides by the largest of the four candidates, which is never small. The sign is whatever the chosen branch
     * gives ({@code q} and {@code −q} are the same rotation).
     */
    public static void fromRotationMatrix(double r00, double r01, double r02, double r10, double r11, double r12,
            double r20, double r21, double r22, double[] out) {
        double trace = r00 + r11 + r22;
        double x;
        double y;
        double z;
        double w;
        if (trace > 0) {
            double k = 0.5 / Math.sqrt(trace + 1);
            w = 0.25 / k;
            x = (r21 - r12) * k;
            y = (r02 - r20) * k;
            z = (r10 - r01) * k;
        } else if (r00 > r11 && r00 > r22) {
            double k = 2 * Math.sqrt(1 + r00 - r11 - r22);
            w = (r21 - r12) / k;
            x = 0.25 * k;
            y = (r01 + r10) / k;
            z = (r02 + r20) / k;
        } else if (r11 > r22) {
            double k = 2 * Math.sqrt(1 + r11 - r00 - r22);
            w = (r02 - r20) / k;
            x = (r01 + r10) / k;
            y = 0.25 * k;
            z = (r12 + r21) / k;
        } else {
            double k = 2 * Math.sqrt(1 + r22 - r00 - r11);
            w = (r10 - r01) / k;
            x = (r02 + r20) / k;
            y = (r12 + r21) / k;
            z = 0.25 * k;
        }
        double len = Math.sqrt(x * x + y * y + z * z + w * w);
        out[0] = x / len;
        out[1] = y / len;
        out[2] = z / len;
        out[3] = w / len;
    }
}
