package io.posekit.sampling;

import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.math.Quaternions;

/**
 * Evaluates one {@link Track} at a clip-local time, following the glTF 2.0 sampler semantics exactly as the
 * conformance evaluator does ({@code shared/tools/oracle/lib/gltf-ref.mjs}, {@code sampleSampler}).
 *
 * <p>Static and allocation-free: values are written into a caller-supplied buffer, key lookup is a binary
 * search over the track's flat {@code times} array (three.js {@code KeyframeTrack} style), and interpolation
 * is done in double and rounded to float once.
 */
public final class TrackSampler {

    private TrackSampler() {
    }

    /**
     * Writes the value of track at clip-local time t (s) into out[o .. o+components-1].
     * Semantics (glTF spec, as gltf-ref.mjs sampleSampler): t ≤ first key or single key → first key value;
     * t ≥ last key → last key value; key k found by binary search with times[k] ≤ t &lt; times[k+1];
     * STEP → key k (a STEP track switches to key k at t == t_k); exactly on a key → that key's stored value
     * untouched; LINEAR → lerp (ROTATION: Quaternions.slerp); CUBICSPLINE → Hermite with tangents ×
     * (t_{k+1} − t_k) (value layout in-tangent, value, out-tangent per key), ROTATION normalized after.
     * Equal consecutive key times must not divide by zero.
     *
     * <p>Equal key times cannot divide by zero because the bracketing key pair always has
     * {@code times[k] ≤ t < times[k+1]}, so its interval is positive; at a duplicated time the value of the
     * later key of the pair applies from that instant on. A NaN time gives the first key value. Rotation
     * values are {@code [x, y, z, w]}; a CUBICSPLINE rotation that interpolates to zero length gives the
     * identity rather than NaN.
     *
     * @param track the track (a {@link TrackProperty#ROTATION} track must have 4 components)
     * @param t clip-local time, seconds
     * @param out destination, at least {@code o + track.components()} long
     * @param o offset in {@code out}
     * @throws IllegalArgumentException if a rotation track does not have 4 components
     */
    public static void sample(Track track, double t, float[] out, int o) {
        sample(track, t, -1, out, o);
    }

    /**
     * As {@link #sample(Track, double, float[], int)}, with a key hint for sequential sampling.
     *
     * @param hint a key index returned by a previous call for the same track (or any value, e.g. -1, when
     *     there is none); it only speeds up the lookup, never changes the result
     * @return the key index {@code k} of the last key with {@code times[k] ≤ t} (0 before the first key), to
     *     pass as {@code hint} next time
     */
    public static int sample(Track track, double t, int hint, float[] out, int o) {
        float[] times = track.times();
        int k = locate(times, t, hint);
        interpolate(track, k, fraction(times, t, k), out, o);
        return k;
    }

    /**
     * The key a track's value at time {@code t} starts from: 0 when {@code t} is before (or at) the first key or NaN,
     * the last key when at or after it, otherwise {@link #findKey} (so {@code times[k] ≤ t < times[k+1]}).
     *
     * @param hint as for {@link #findKey}
     */
    public static int locate(float[] times, double t, int hint) {
        int last = times.length - 1;
        if (last == 0 || !(t > times[0])) {
            return 0;
        }
        if (t >= times[last]) {
            return last;
        }
        return findKey(times, t, hint);
    }

    /**
     * How far {@code t} is into the segment starting at key {@code k} (a {@link #locate} result for the same t), in
     * {@code [0, 1)}: 0 at the key itself and outside the keys, where the value is the key's own.
     */
    public static double fraction(float[] times, double t, int k) {
        if (k == times.length - 1 || !(t > times[k])) {
            return 0;
        }
        // times[k] < t < times[k+1] here, so the interval is positive even with duplicate times
        return (t - times[k]) / (times[k + 1] - times[k]);
    }

    /**
     * Writes the track's value at fraction {@code s} of the segment starting at key {@code k} (as {@link #locate} and
     * {@link #fraction} give them) into {@code out[o..]}: the key's stored value untouched when {@code s == 0} or the
     * track steps, otherwise the interpolation described at {@link #sample(Track, double, float[], int)}. Tracks that
     * share their key times share {@code k} and {@code s}, so a clip locates each time once per times array.
     *
     * @throws IllegalArgumentException if a rotation track does not have 4 components
     */
    public static void interpolate(Track track, int k, double s, float[] out, int o) {
        float[] times = track.times();
        float[] values = track.values();
        int n = track.components();
        boolean rotation = track.property() == TrackProperty.ROTATION;
        if (rotation && n != 4) {
            throw new IllegalArgumentException("rotation track of node " + track.node() + " has " + n
                    + " components, 4 expected");
        }
        Interpolation interpolation = track.interpolation();
        boolean cubic = interpolation == Interpolation.CUBICSPLINE;
        // floats per key, and where the value sits within the key (cubic keys are in-tangent, value, out-tangent)
        int stride = cubic ? 3 * n : n;
        int valueOffset = cubic ? n : 0;
        int v0 = k * stride + valueOffset;
        if (interpolation == Interpolation.STEP || s == 0) {
            // exactly on a key the stored value is returned untouched (no normalisation, no rounding)
            System.arraycopy(values, v0, out, o, n);
            return;
        }
        int v1 = v0 + stride;
        if (!cubic) {
            if (rotation) {
                Quaternions.slerp(values, v0, values, v1, s, out, o);
            } else {
                for (int c = 0; c < n; c++) {
                    double a = values[v0 + c];
                    out[o + c] = (float) (a + (values[v1 + c] - a) * s);
                }
            }
            return;
        }
        double td = times[k + 1] - times[k];
        double s2 = s * s;
        double s3 = s2 * s;
        double h00 = 2 * s3 - 3 * s2 + 1;
        double h10 = (s3 - 2 * s2 + s) * td;
        double h01 = -2 * s3 + 3 * s2;
        double h11 = (s3 - s2) * td;
        int outTangent0 = v0 + n;          // b_k, out-tangent of key k
        int inTangent1 = v1 - n;           // a_{k+1}, in-tangent of key k+1
        if (rotation) {
            double x = h00 * values[v0] + h10 * values[outTangent0] + h01 * values[v1] + h11 * values[inTangent1];
            double y = h00 * values[v0 + 1] + h10 * values[outTangent0 + 1] + h01 * values[v1 + 1]
                    + h11 * values[inTangent1 + 1];
            double z = h00 * values[v0 + 2] + h10 * values[outTangent0 + 2] + h01 * values[v1 + 2]
                    + h11 * values[inTangent1 + 2];
            double w = h00 * values[v0 + 3] + h10 * values[outTangent0 + 3] + h01 * values[v1 + 3]
                    + h11 * values[inTangent1 + 3];
            Quaternions.normalizeTo(x, y, z, w, out, o);
        } else {
            for (int c = 0; c < n; c++) {
                out[o + c] = (float) (h00 * values[v0 + c] + h10 * values[outTangent0 + c] + h01 * values[v1 + c]
                        + h11 * values[inTangent1 + c]);
            }
        }
    }

    /**
     * Index k of the last key with times[k] ≤ t (0 when t &lt; times[0]). {@code hint} (a previous result) is
     * checked first, so sequential sampling is O(1); otherwise the first probe is where t would fall if the keys
     * were evenly spaced, and only if that misses is the rest found by binary search.
     *
     * <p>The hint and the key after it are tried first, so playing forwards (a time in the same or the next key
     * interval) costs a couple of comparisons. Exported clips almost always have evenly spaced keys (a fixed frame
     * rate), so the interpolated probe lands on the right interval, or the one next to it after float rounding,
     * and a random time costs O(1) as well; uneven keys fall back to O(log n). The probes only choose where to
     * look: every answer is checked against the times themselves, so the result is exactly the binary search's.
     * An out-of-range or wrong hint is harmless. With duplicate key times the last of the duplicates is returned.
     * A NaN time gives 0.
     *
     * @param times key times in seconds, non-decreasing, at least one
     * @param t time, seconds
     * @param hint a previous result, or any value (e.g. -1) when there is none
     */
    public static int findKey(float[] times, double t, int hint) {
        int last = times.length - 1;
        if (!(t >= times[0])) {
            return 0;
        }
        if (t >= times[last]) {
            return last;
        }
        // here times[0] ≤ t < times[last], so last ≥ 1 and the answer is in [0, last − 1];
        // an interval k holds t when times[k] ≤ t < times[k + 1]
        if (hint >= 0 && hint < last && times[hint] <= t) {
            if (t < times[hint + 1]) {
                return hint;
            }
            // the common case when playing forwards; hint + 1 < last because t < times[last]
            if (t < times[hint + 2]) {
                return hint + 1;
            }
        }
        double first = times[0];
        int guess = (int) ((t - first) / (times[last] - first) * last);
        // the span is positive (times[0] ≤ t < times[last]) and t − first < span, so guess ∈ [0, last − 1]
        // before rounding; the clamp keeps a rounded-up quotient in range
        guess = Math.min(guess, last - 1);
        int lo;
        int hi;
        if (times[guess] <= t) {
            if (t < times[guess + 1]) {
                return guess;
            }
            if (guess + 1 < last && t < times[guess + 2]) {
                return guess + 1;
            }
            lo = guess + 1;
            hi = last - 1;
        } else {
            if (times[guess - 1] <= t) {
                // guess ≥ 1 here, because times[0] ≤ t < times[guess]
                return guess - 1;
            }
            lo = 0;
            hi = guess - 2;
        }
        // invariant: times[lo] ≤ t and the answer is in [lo, hi]
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (times[mid] <= t) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
