package io.posekit.clip;

/**
 * A scalar animation curve: keys at times (seconds) with values, and per segment (between key {@code k} and
 * {@code k+1}) an interpolation: {@link #STEP}, {@link #LINEAR}, or {@link #BEZIER} with two 2D control points
 * in (time, value) space — the curves COLLADA and FBX store (Hermite and FBX cubic tangents convert to Bézier
 * control points at import). Before the first key the first value holds, after the last the last.
 *
 * <p>A Bézier segment is the curve {@code B(s) = (1−s)³P0 + 3(1−s)²s C0 + 3(1−s)s² C1 + s³P1} for s in [0,1],
 * with {@code P0 = (t_k, v_k)}, {@code P1 = (t_k+1, v_k+1)}; its value at time t is {@code B_v(s)} for the s
 * where {@code B_t(s) = t}. Control times are kept within the segment so {@code B_t} is monotonic.
 *
 * <p>Immutable; the arrays are shared storage that callers must not modify.
 */
public final class Curve {

    /** Segment kind: hold the value of the key at the start of the segment. */
    public static final byte STEP = 0;
    /** Segment kind: linear interpolation. */
    public static final byte LINEAR = 1;
    /** Segment kind: cubic Bézier with control points in {@link #controls()}. */
    public static final byte BEZIER = 2;

    private final float[] times;
    private final float[] values;
    private final byte[] segments;
    private final float[] controls;

    /**
     * @param times key times in seconds, non-decreasing, at least one
     * @param values one value per key
     * @param segments one kind per segment ({@code times.length − 1})
     * @param controls 4 floats per segment — out-control (time, value) of key k, in-control (time, value) of key
     *     k+1 — used by Bézier segments; may be {@code null} when no segment is Bézier. Control times are clamped
     *     into the segment.
     * @throws IllegalArgumentException when lengths disagree, times decrease, or a number is not finite
     */
    public Curve(float[] times, float[] values, byte[] segments, float[] controls) {
        int n = times.length;
        if (n == 0 || values.length != n || segments.length != n - 1) {
            throw new IllegalArgumentException("a curve needs n ≥ 1 keys, n values and n − 1 segment kinds");
        }
        boolean bezier = false;
        for (int k = 0; k < n; k++) {
            if (!Float.isFinite(times[k]) || !Float.isFinite(values[k])) {
                throw new IllegalArgumentException("key " + k + " is not finite");
            }
            if (k > 0 && times[k] < times[k - 1]) {
                throw new IllegalArgumentException("key times decrease at key " + k);
            }
        }
        for (byte s : segments) {
            if (s != STEP && s != LINEAR && s != BEZIER) {
                throw new IllegalArgumentException("unknown segment kind " + s);
            }
            bezier |= s == BEZIER;
        }
        if (bezier && (controls == null || controls.length != 4 * (n - 1))) {
            throw new IllegalArgumentException("Bézier segments need 4 control floats per segment");
        }
        float[] c = controls == null ? null : controls.clone();
        if (c != null) {
            for (int k = 0; k < n - 1; k++) {
                for (int i = 0; i < 4; i++) {
                    if (!Float.isFinite(c[4 * k + i])) {
                        throw new IllegalArgumentException("control point of segment " + k + " is not finite");
                    }
                }
                // a control time outside its segment would make time(s) non-monotonic: no unique value at t
                c[4 * k] = Math.clamp(c[4 * k], times[k], times[k + 1]);
                c[4 * k + 2] = Math.clamp(c[4 * k + 2], times[k], times[k + 1]);
            }
        }
        this.times = times;
        this.values = values;
        this.segments = segments;
        this.controls = c;
    }

    /** A curve holding one value forever. */
    public static Curve constant(float value) {
        return new Curve(new float[] {0}, new float[] {value}, new byte[0], null);
    }

    /** A curve interpolating linearly between its keys. */
    public static Curve linear(float[] times, float[] values) {
        byte[] segments = new byte[Math.max(0, times.length - 1)];
        java.util.Arrays.fill(segments, LINEAR);
        return new Curve(times, values, segments, null);
    }

    public int keyCount() {
        return times.length;
    }

    /** Key times, seconds (shared storage). */
    public float[] times() {
        return times;
    }

    /** Key values (shared storage). */
    public float[] values() {
        return values;
    }

    /** Segment kinds (shared storage). */
    public byte[] segments() {
        return segments;
    }

    /** Bézier control points, 4 per segment, or {@code null} (shared storage). */
    public float[] controls() {
        return controls;
    }

    /** Time of the last key, seconds. */
    public float endTime() {
        return times[times.length - 1];
    }

    /** Approximate heap footprint in bytes. */
    public long footprintBytes() {
        return 64 + 4L * (times.length + values.length) + segments.length + (controls == null ? 0 : 4L * controls.length);
    }
}
