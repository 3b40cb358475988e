package io.posekit.sampling;

import io.posekit.clip.Curve;

/**
 * Evaluates a {@link Curve} at a time, allocation-free. Key lookup is the binary search of
 * {@link TrackSampler#findKey}; a Bézier segment is solved for its curve parameter (Newton's method from the
 * linear guess, safeguarded by bisection, to about 1e-12 of the segment) before its value is taken.
 */
public final class CurveSampler {

    private static final int MAX_ITERATIONS = 64;

    private CurveSampler() {
    }

    /** The curve's value at {@code t} seconds (first value before the first key, last value after the last). */
    public static double evaluate(Curve curve, double t) {
        float[] times = curve.times();
        float[] values = curve.values();
        int last = times.length - 1;
        if (last == 0 || !(t > times[0])) {
            return values[0];
        }
        if (t >= times[last]) {
            return values[last];
        }
        int k = TrackSampler.findKey(times, t, -1);
        double t0 = times[k];
        double t1 = times[k + 1];
        double v0 = values[k];
        double v1 = values[k + 1];
        if (t == t0 || t1 == t0) {
            return v0;
        }
        return switch (curve.segments()[k]) {
            case Curve.STEP -> v0;
            case Curve.LINEAR -> v0 + (v1 - v0) * ((t - t0) / (t1 - t0));
            default -> bezier(curve.controls(), k, t0, v0, t1, v1, t);
        };
    }

    /** Value of the Bézier segment {@code k} at time {@code t} strictly inside it. */
    static double bezier(float[] c, int k, double t0, double v0, double t1, double v1, double t) {
        double c0t = c[4 * k];
        double c0v = c[4 * k + 1];
        double c1t = c[4 * k + 2];
        double c1v = c[4 * k + 3];
        // solve time(s) = t: time(s) is monotonic because the control times lie inside [t0, t1]
        double lo = 0;
        double hi = 1;
        double s = (t - t0) / (t1 - t0);
        double eps = 1e-12 * (t1 - t0);
        for (int i = 0; i < MAX_ITERATIONS; i++) {
            double f = cubic(t0, c0t, c1t, t1, s) - t;
            if (Math.abs(f) <= eps) {
                break;
            }
            if (f > 0) {
                hi = s;
            } else {
                lo = s;
            }
            double d = derivative(t0, c0t, c1t, t1, s);
            double next = d != 0 ? s - f / d : Double.NaN;
            // a Newton step that leaves the bracket (flat derivative at an end) falls back to bisection
            s = next > lo && next < hi ? next : 0.5 * (lo + hi);
        }
        return cubic(v0, c0v, c1v, v1, s);
    }

    private static double cubic(double p0, double p1, double p2, double p3, double s) {
        double u = 1 - s;
        return u * u * u * p0 + 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s * p3;
    }

    private static double derivative(double p0, double p1, double p2, double p3, double s) {
        double u = 1 - s;
        return 3 * u * u * (p1 - p0) + 6 * u * s * (p2 - p1) + 3 * s * s * (p3 - p2);
    }
}
