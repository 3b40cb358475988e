package io.posekit.sampling;

import io.posekit.math.Quaternions;

/**
 * The scalar {@link SlerpKernel}: {@link Quaternions#slerp} per track with its common branch inline (keys at most 51°
 * of rotation apart, {@code cos θ ≥ 0.9}). The series {@code f(t²) = 1 + b_1·y·(1 + b_2·y·(1 + … b_5·y))},
 * {@code y = cos θ − 1}, has factors {@code b_i = t²·U_i − V_i} that depend on the fraction only: {@link #factors}
 * computes them once per group, by the expressions slerp uses, so every double is the same. Any other pair (wider
 * angles, NaN) goes through {@link Quaternions#slerp} itself.
 */
final class ScalarSlerp implements SlerpKernel {

    // Quaternions.slerp's U_i = 1/(i(2i+1)) and V_i = i/(2i+1) for i = 1..5 (its NEAR_TERMS), same expressions
    private static final double U1 = u(1);
    private static final double U2 = u(2);
    private static final double U3 = u(3);
    private static final double U4 = u(4);
    private static final double U5 = u(5);
    private static final double V1 = v(1);
    private static final double V2 = v(2);
    private static final double V3 = v(3);
    private static final double V4 = v(4);
    private static final double V5 = v(5);

    // the series factors of the fraction's two weights: b_1..b_5 for 1 − s, then for s
    private final double[] factors = new double[10];
    // one pair of keys gathered for Quaternions.slerp: a at 0, b at 4
    private final float[] pair = new float[8];

    private static double u(int i) {
        return 1.0 / (i * (2.0 * i + 1));
    }

    private static double v(int i) {
        return i / (2.0 * i + 1);
    }

    /** Writes the series factors of fraction {@code s}: {@code b_1..b_5} of {@code 1 − s} at 0..4, of {@code s} at 5..9. */
    static void factors(double s, double[] f) {
        double u = 1 - s;
        double u2 = u * u;
        double t2 = s * s;
        f[0] = u2 * U1 - V1;
        f[1] = u2 * U2 - V2;
        f[2] = u2 * U3 - V3;
        f[3] = u2 * U4 - V4;
        f[4] = u2 * U5 - V5;
        f[5] = t2 * U1 - V1;
        f[6] = t2 * U2 - V2;
        f[7] = t2 * U3 - V3;
        f[8] = t2 * U4 - V4;
        f[9] = t2 * U5 - V5;
    }

    @Override
    public void run(float[] v, int[] nodes, int k, double s, float[] out) {
        int count = nodes.length;
        int a = 4 * k * count;
        if (s == 1) {
            // possible when t rounds onto the next key's time: slerp's exact endpoint, rare enough to take as is
            for (int i = 0; i < count; i++) {
                slerp(v, a + i, count, s, out, 4 * nodes[i], pair);
            }
            return;
        }
        factors(s, factors);
        tracks(v, a, 0, count, count, s, factors, out, nodes, pair);
    }

    /**
     * Tracks {@code [from, to)} of a component-major group whose key k starts at {@code a} ({@code count} tracks), with
     * the {@link #factors} of {@code s}; {@code pair} is 8 floats of scratch.
     */
    static void tracks(float[] v, int a, int from, int to, int count, double s, double[] f, float[] out, int[] nodes,
            float[] pair) {
        double u = 1 - s;
        double bu1 = f[0], bu2 = f[1], bu3 = f[2], bu4 = f[3], bu5 = f[4];
        double bt1 = f[5], bt2 = f[6], bt3 = f[7], bt4 = f[8], bt5 = f[9];
        int b = a + 4 * count;
        for (int i = from; i < to; i++) {
            int o = 4 * nodes[i];
            double ax = v[a + i];
            double ay = v[a + count + i];
            double az = v[a + 2 * count + i];
            double aw = v[a + 3 * count + i];
            double bx = v[b + i];
            double by = v[b + count + i];
            double bz = v[b + 2 * count + i];
            double bw = v[b + 3 * count + i];
            double d = ax * bx + ay * by + az * bz + aw * bw;
            if (d < 0) {
                // q and −q are the same rotation: the short way round, as slerp
                d = -d;
                bx = -bx;
                by = -by;
                bz = -bz;
                bw = -bw;
            }
            if (!(d >= 0.9 && d <= 1)) {
                // keys more than 51° of rotation apart, longer than unit (dot > 1), or NaN: slerp's other branches
                slerp(v, a + i, count, s, out, o, pair);
                continue;
            }
            double y = d - 1;
            // slerp's Horner loop from i = 5 down, f starting at 1: fma(b5·y, 1, 1) is b5·y + 1 exactly
            double fu = bu5 * y + 1;
            double ft = bt5 * y + 1;
            fu = Math.fma(bu4 * y, fu, 1);
            ft = Math.fma(bt4 * y, ft, 1);
            fu = Math.fma(bu3 * y, fu, 1);
            ft = Math.fma(bt3 * y, ft, 1);
            fu = Math.fma(bu2 * y, fu, 1);
            ft = Math.fma(bt2 * y, ft, 1);
            fu = Math.fma(bu1 * y, fu, 1);
            ft = Math.fma(bt1 * y, ft, 1);
            double k0 = u * fu;
            double k1 = s * ft;
            out[o] = (float) (k0 * ax + k1 * bx);
            out[o + 1] = (float) (k0 * ay + k1 * by);
            out[o + 2] = (float) (k0 * az + k1 * bz);
            out[o + 3] = (float) (k0 * aw + k1 * bw);
        }
    }

    /** {@link Quaternions#slerp} of the track whose key-k x is at {@code ax}, gathered into {@code pair}. */
    static void slerp(float[] v, int ax, int count, double s, float[] out, int o, float[] pair) {
        int bx = ax + 4 * count;
        for (int c = 0; c < 4; c++) {
            pair[c] = v[ax + c * count];
            pair[4 + c] = v[bx + c * count];
        }
        Quaternions.slerp(pair, 0, pair, 4, s, out, o);
    }
}
