package io.posekit.asset.fbx;

import io.posekit.asset.ImportWarnings;
import io.posekit.clip.Curve;
import java.util.Arrays;

/**
 * An FBX curve's pre- and post-extrapolation (Maya's pre/post infinity, written as {@code Pre-Extrapolation} and
 * {@code Post-Extrapolation} records with a {@code Type} character and a {@code Repetition} count), applied as ufbx's
 * {@code ufbx_evaluate_curve} applies it, by unrolling the curve into keys over the clip's range so that sampling stays
 * a plain key lookup:
 *
 * <ul>
 *   <li>{@code C} constant: the end key's value holds (what a {@link Curve} does anyway).</li>
 *   <li>{@code K} slope (Maya's linear): the end key's tangent continues as a line.</li>
 *   <li>{@code R} repeat (cycle): the keys play again, period {@code P = t_last − t_first}.</li>
 *   <li>{@code A} repeat relative (cycle with offset): as repeat, each repetition offset by
 *       {@code v_last − v_first} (less before the first key).</li>
 *   <li>{@code M} mirror (oscillate): the keys play backwards, then forwards, and so on.</li>
 * </ul>
 *
 * A positive {@code Repetition} limits the repetitions (then the last one's end value holds); 0 holds the end value;
 * negative repeats for ever. The keys span the clip at most (clip time 0 to its end): beyond, the clip's loop mode
 * decides. A repeated curve jumps from {@code v_last} to {@code v_first} where one repetition meets the next, written
 * as two keys at the same time (sampled exactly there, the value after the jump); so does a mirrored constant segment
 * at its turning point. ufbx repeats in whole FBX ticks; the unrolled keys are float seconds.
 */
final class FbxExtrapolation {

    /** One side's mode (the FBX type character) and repetition count (negative: for ever). */
    record Side(char mode, int repetitions) {

        static final Side CONSTANT = new Side('C', -1);

        /** Whether this side changes anything: not constant, and not zero repetitions of a repeating mode. */
        boolean active() {
            return mode != 'C' && (mode == 'K' || repetitions != 0);
        }
    }

    private FbxExtrapolation() {
    }

    /**
     * The side recorded under {@code name} ({@code Pre-Extrapolation} or {@code Post-Extrapolation}) of an
     * {@code AnimationCurve}; {@link Side#CONSTANT} when absent. An unknown type character is warned about and held
     * constant.
     */
    static Side side(FbxNode curve, String name, String where, ImportWarnings warnings) {
        FbxNode node = curve.child(name);
        FbxNode type = node == null ? null : node.child("Type");
        if (type == null || type.properties().isEmpty()) {
            return Side.CONSTANT;
        }
        Object raw = type.property(0);
        char mode = raw instanceof String s ? (s.isEmpty() ? 'C' : s.charAt(0))
                : raw instanceof Number number ? (char) number.intValue() : '?';
        if ("CKRAM".indexOf(mode) < 0) {
            warnings.add(where + ": " + name + " type '" + printable(mode) + "' is not one of C, K, R, A, M; the end"
                    + " value holds");
            return Side.CONSTANT;
        }
        FbxNode repetition = node.child("Repetition");
        Object times = repetition == null || repetition.properties().isEmpty() ? null : repetition.property(0);
        int count = times instanceof Number number
                ? (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, number.longValue())) : -1;
        return new Side(mode, count);
    }

    private static String printable(char c) {
        return c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c);
    }

    /**
     * {@code curve} with its extrapolation unrolled over clip time {@code [0, end]}.
     *
     * @param firstSlope the first key's right tangent, value per second (for {@code K} before the first key)
     * @param lastSlope the last key's left tangent, value per second (for {@code K} after the last key)
     * @param end the clip's end, clip seconds
     * @param maxKeys the most keys the result may have: past it the unrolling stops short, with a warning
     * @return {@code curve} itself when nothing changes
     */
    static Curve apply(Curve curve, Side pre, Side post, double firstSlope, double lastSlope, double end, int maxKeys,
            String where, ImportWarnings warnings) {
        int n = curve.keyCount();
        float[] t = curve.times();
        double first = t[0];
        double last = t[n - 1];
        double period = last - first;
        boolean before = pre.active() && first > 0;
        boolean after = post.active() && last < end;
        if (n < 2 || period <= 0 || !(before || after)) {
            return curve;
        }
        long preCopies = before ? copies(pre, first, period) : 0;
        long postCopies = after ? copies(post, end - last, period) : 0;
        // each copy writes at most 2 keys per source key (a mirrored step adds one), plus a joining key
        long perCopy = 2L * n + 1;
        long budget = Math.max(0, maxKeys - perCopy);
        if (preCopies + postCopies > budget / perCopy) { // (no product: the copies may number ~2⁶¹)
            long fit = budget / perCopy;
            long keepPre = Math.min(preCopies, fit / 2 + (fit % 2));
            long keepPost = Math.min(postCopies, fit - keepPre);
            keepPre = Math.min(preCopies, fit - keepPost);
            warnings.add(where + ": its extrapolation repeats " + (preCopies + postCopies) + " times over the clip;"
                    + " only " + (keepPre + keepPost) + " fit in " + maxKeys + " keys, then the end value holds");
            preCopies = keepPre;
            postCopies = keepPost;
        }
        Keys out = new Keys((int) ((preCopies + postCopies + 1) * perCopy));
        double rise = curve.values()[n - 1] - curve.values()[0];
        if (before) {
            if (pre.mode() == 'K') {
                out.key(0, curve.values()[0] - firstSlope * first);
                out.segment(Curve.LINEAR);
            } else {
                for (long r = preCopies - 1; r >= 0; r--) {
                    double shift = -(r + 1) * period;
                    if (pre.mode() == 'M' && r % 2 == 0) {
                        out.mirrored(curve, 2 * first - r * period);
                    } else {
                        out.forward(curve, shift, pre.mode() == 'A' ? -(r + 1) * rise : 0);
                    }
                }
            }
        }
        out.forward(curve, 0, 0);
        if (after) {
            if (post.mode() == 'K') {
                out.segment(Curve.LINEAR);
                out.key(end, curve.values()[n - 1] + lastSlope * (end - last));
            } else {
                for (long r = 0; r < postCopies; r++) {
                    double shift = (r + 1) * period;
                    if (post.mode() == 'M' && r % 2 == 0) {
                        out.mirrored(curve, 2 * last + r * period);
                    } else {
                        out.forward(curve, shift, post.mode() == 'A' ? (r + 1) * rise : 0);
                    }
                }
            }
        }
        return out.curve();
    }

    /** How many repetitions cover {@code span} seconds at {@code period}, within the side's count. */
    private static long copies(Side side, double span, double period) {
        if (side.mode() == 'K') {
            return 0;
        }
        double needed = Math.ceil(span / period);
        long count = needed >= Long.MAX_VALUE / 4 ? Long.MAX_VALUE / 4 : (long) needed;
        return side.repetitions() > 0 ? Math.min(count, side.repetitions()) : count;
    }

    /**
     * Keys and segments appended in time order. A piece that starts where the last one ended joins it: the same
     * value shares the key, another value adds a key at the same time (a jump).
     */
    private static final class Keys {
        float[] times;
        float[] values;
        byte[] kinds;
        float[] controls;
        int keys;
        /** The kind of the segment that the next key ends, or -1 when none is open. */
        private int open = -1;
        private final float[] pending = new float[4];
        private boolean bezier;

        Keys(int capacity) {
            times = new float[Math.max(capacity, 2)];
            values = new float[times.length];
            kinds = new byte[times.length];
            controls = new float[4 * times.length];
        }

        void segment(byte kind) {
            open = kind;
        }

        void bezierSegment(float c0t, float c0v, float c1t, float c1v) {
            open = Curve.BEZIER;
            pending[0] = c0t;
            pending[1] = c0v;
            pending[2] = c1t;
            pending[3] = c1v;
        }

        void key(double time, double value) {
            float ft = (float) time;
            float fv = (float) value;
            if (keys > 0) {
                ft = Math.max(ft, times[keys - 1]);
                if (open < 0) {
                    // a new piece: join the previous one
                    if (ft == times[keys - 1] && fv == values[keys - 1]) {
                        return;
                    }
                    open = Curve.STEP;
                }
                grow();
                int s = keys - 1;
                kinds[s] = (byte) open;
                if (open == Curve.BEZIER) {
                    System.arraycopy(pending, 0, controls, 4 * s, 4);
                    bezier = true;
                }
            }
            grow();
            times[keys] = ft;
            values[keys] = fv;
            keys++;
            open = -1;
        }

        private void grow() {
            if (keys + 1 >= times.length) {
                int size = times.length * 2;
                times = Arrays.copyOf(times, size);
                values = Arrays.copyOf(values, size);
                kinds = Arrays.copyOf(kinds, size);
                controls = Arrays.copyOf(controls, 4 * size);
            }
        }

        /** The curve's keys, {@code dt} later and {@code dv} higher. */
        void forward(Curve c, double dt, double dv) {
            float[] t = c.times();
            float[] v = c.values();
            float[] ctl = c.controls();
            for (int k = 0; k < t.length; k++) {
                if (k > 0) {
                    byte kind = c.segments()[k - 1];
                    if (kind == Curve.BEZIER) {
                        int i = 4 * (k - 1);
                        bezierSegment((float) (ctl[i] + dt), (float) (ctl[i + 1] + dv), (float) (ctl[i + 2] + dt),
                                (float) (ctl[i + 3] + dv));
                    } else {
                        segment(kind);
                    }
                }
                key(t[k] + dt, v[k] + dv);
            }
        }

        /** The curve's keys reflected in time: key time {@code t} at {@code axis − t}, so played backwards. */
        void mirrored(Curve c, double axis) {
            float[] t = c.times();
            float[] v = c.values();
            float[] ctl = c.controls();
            for (int k = t.length - 1; k >= 0; k--) {
                if (k < t.length - 1) {
                    byte kind = c.segments()[k];
                    if (kind == Curve.BEZIER) {
                        int i = 4 * k;
                        bezierSegment((float) (axis - ctl[i + 2]), ctl[i + 3], (float) (axis - ctl[i]), ctl[i + 1]);
                    } else if (kind == Curve.STEP) {
                        // the step held v[k] from t[k] on: backwards it holds v[k] from just after axis − t[k+1]
                        segment(Curve.STEP);
                        key(axis - t[k + 1], v[k]);
                        segment(Curve.STEP);
                    } else {
                        segment(kind);
                    }
                }
                key(axis - t[k], v[k]);
            }
        }

        Curve curve() {
            return new Curve(Arrays.copyOf(times, keys), Arrays.copyOf(values, keys), Arrays.copyOf(kinds, keys - 1),
                    bezier ? Arrays.copyOf(controls, 4 * (keys - 1)) : null);
        }
    }
}
