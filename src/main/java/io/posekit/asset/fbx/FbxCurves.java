package io.posekit.asset.fbx;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportWarnings;
import io.posekit.clip.Curve;
import java.util.Arrays;

/**
 * Converts an {@code AnimationCurve} into a {@link Curve} that evaluates it exactly.
 *
 * <p>Keys: {@code KeyTime} (int64 FBX ticks, 46 186 158 000 per second, shifted so that the clip's
 * {@code LocalStart} is time 0) and {@code KeyValueFloat}. Per-key attributes are run-length encoded:
 * {@code KeyAttrFlags[i]}, the four floats {@code KeyAttrDataFloat[4i..4i+3]} and {@code KeyAttrRefCount[i]}, the
 * number of consecutive keys they apply to. The attributes of key k describe the segment from k to k+1:
 *
 * <ul>
 *   <li>{@code 0x2} constant: the segment holds {@code v_k} ({@link Curve#STEP}); with {@code 0x100} (constant-next) it
 *       holds {@code v_k+1} from just after {@code t_k}, written as a repeated key at {@code t_k}.</li>
 *   <li>{@code 0x4} linear (and any key without an interpolation bit): {@link Curve#LINEAR}.</li>
 *   <li>{@code 0x8} cubic: a {@link Curve#BEZIER} segment. Its tangents are a slope and a weight on each side: the
 *       right slope of key k and the left slope of key k+1, with weights (fractions of the segment's duration, 1/3
 *       unless the key is weighted, {@code 0x1000000} right / {@code 0x2000000} next-left, two 16-bit fixed-point
 *       numbers /10000 packed into the bits of data float 2). The control points are
 *       {@code (t_k + w_r·Δ, v_k + s_r·w_r·Δ)} and {@code (t_k+1 − w_l·Δ, v_k+1 − s_l·w_l·Δ)} with Δ the segment's
 *       duration, which for weights of 1/3 is exactly the cubic Hermite segment of those slopes.</li>
 * </ul>
 *
 * <p>Where the slopes come from depends on the tangent mode of the key:
 * <ul>
 *   <li>user ({@code 0x400}, also broken {@code 0x800}): as stored — data float 0 is the right slope of key k, data
 *       float 1 the left slope of key k+1 (value per second).</li>
 *   <li>auto ({@code 0x100}, the default for cubic keys): derived from the neighbouring keys as the FBX SDK evaluates
 *       them rather than taken from the file (writers commonly store zeros there): with time-independent tangents
 *       ({@code 0x2000}) the slope of the chord from key k−1 to k+1, otherwise that chord averaged with the two
 *       one-sided chords weighted by the key's position; the stored values act as the auto-tangent bias (percent
 *       towards the right or left chord); clamped ({@code 0x1000}) tangents are flat next to an equal neighbour, and
 *       clamp-progressive ({@code 0x4000}) ones are limited so that neither control point overshoots the neighbouring
 *       key's value. First and last keys use the one chord they have (flat when clamp-progressive).</li>
 *   <li>TCB ({@code 0x200}): Kochanek–Bartels slopes from tension, continuity and bias (data floats 0–2) and the two
 *       chords at the key.</li>
 * </ul>
 * Velocity flags are not evaluated. Pre- and post-extrapolation (Maya's pre/post infinity) are unrolled into keys
 * over the clip's range by {@link FbxExtrapolation}, as ufbx evaluates them; without a clip end the first value holds
 * before the first key and the last after the last. A curve without attribute arrays is linear.
 */
final class FbxCurves {

    static final int CONSTANT = 0x2;
    static final int LINEAR = 0x4;
    static final int CUBIC = 0x8;
    static final int TANGENT_AUTO = 0x100;
    static final int CONSTANT_NEXT = 0x100;
    static final int TANGENT_TCB = 0x200;
    static final int TANGENT_USER = 0x400;
    static final int TANGENT_BREAK = 0x800;
    static final int CLAMP = 0x1000;
    static final int TIME_INDEPENDENT = 0x2000;
    static final int CLAMP_PROGRESSIVE = 0x4000;
    static final int WEIGHTED_RIGHT = 0x1000000;
    static final int WEIGHTED_NEXT_LEFT = 0x2000000;

    private static final double DEFAULT_WEIGHT = 1.0 / 3;
    /** The most keys a curve's extrapolation is unrolled into (then its end value holds, warned). */
    static final int MAX_UNROLLED_KEYS = 1 << 16;

    private FbxCurves() {
    }

    /**
     * Converts an {@code AnimationCurve} record.
     *
     * @param curve the record
     * @param startTicks the clip's start ({@code LocalStart}), ticks
     * @param where how messages name the curve
     * @return the curve, or {@code null} when it has no keys
     * @throws ImportException invalid (422) for arrays that disagree or decreasing key times; too large (413) past the
     *     budget
     */
    static Curve read(FbxNode curve, long startTicks, String where, DecodeBudget budget, ImportWarnings warnings) {
        return read(curve, startTicks, null, where, budget, warnings);
    }

    /**
     * Converts an {@code AnimationCurve} record of a clip that ends at {@code end}: its extrapolation, if any, is
     * unrolled into keys up to there (and from clip time 0).
     *
     * @param end the clip's end, seconds of clip time, or {@code null} when unknown (no extrapolation: a warning)
     * @see #read(FbxNode, long, String, DecodeBudget, ImportWarnings)
     */
    static Curve read(FbxNode curve, long startTicks, Double end, String where, DecodeBudget budget,
            ImportWarnings warnings) {
        FbxNode timeNode = curve.child("KeyTime");
        FbxNode valueNode = curve.child("KeyValueFloat");
        if (timeNode == null || valueNode == null) {
            if (timeNode != null || valueNode != null) {
                throw ImportException.invalid(where + " has " + (timeNode == null ? "KeyValueFloat but no KeyTime"
                        : "KeyTime but no KeyValueFloat"));
            }
            return null;
        }
        long[] ticks = timeNode.longs(0);
        double[] values = valueNode.doubles(0);
        int n = ticks.length;
        if (values.length != n) {
            throw ImportException.invalid(where + ": KeyTime has " + n + " keys but KeyValueFloat " + values.length);
        }
        if (n == 0) {
            return null;
        }
        if (n > budget.limits().maxKeysPerTrack()) {
            throw ImportLimits.exceeded(where, n, "keys", budget.limits().maxKeysPerTrack(),
                    ImportLimits.KEYS_PER_TRACK);
        }
        budget.charge(n, 96, where + " keys");
        double[] t = new double[n];
        for (int k = 0; k < n; k++) {
            if (k > 0 && ticks[k] < ticks[k - 1]) {
                throw ImportException.invalid(where + ": KeyTime[" + k + "] = " + ticks[k] + " is before KeyTime["
                        + (k - 1) + "] = " + ticks[k - 1]);
            }
            if (!Float.isFinite((float) values[k])) {
                throw ImportException.invalid(where + ": KeyValueFloat[" + k + "] (" + values[k] + ") is not a finite"
                        + " float");
            }
            t[k] = (double) (ticks[k] - startTicks) / FbxScene.TICKS_PER_SECOND;
        }
        Attributes a = attributes(curve, n, where);
        FbxExtrapolation.Side pre = FbxExtrapolation.side(curve, "Pre-Extrapolation", where, warnings);
        FbxExtrapolation.Side post = FbxExtrapolation.side(curve, "Post-Extrapolation", where, warnings);
        for (int i = 0; i < 4 * n; i++) {
            if (!Double.isFinite(a.data()[i]) && (i % 4 == 0 || i % 4 == 1)) {
                throw ImportException.invalid(where + ": the tangent data of key " + i / 4 + " is not finite");
            }
        }
        Built built = built(t, values, a, where);
        if (!pre.active() && !post.active()) {
            return built.curve();
        }
        if (end == null) {
            warnings.add(where + ": its extrapolation is not applied (the clip has no LocalStop); the end values hold");
            return built.curve();
        }
        Curve unrolled = FbxExtrapolation.apply(built.curve(), pre, post, built.firstSlope(), built.lastSlope(), end,
                Math.min(MAX_UNROLLED_KEYS, budget.limits().maxKeysPerTrack()), where, warnings);
        budget.charge(unrolled.keyCount() - (long) built.curve().keyCount(), 24, where + " extrapolated keys");
        return unrolled;
    }

    /**
     * A converted curve and its end tangents.
     *
     * @param curve the curve
     * @param firstSlope the first key's right slope, value per second
     * @param lastSlope the last key's left slope, value per second
     */
    record Built(Curve curve, double firstSlope, double lastSlope) {
    }

    /**
     * The per-key attributes, expanded from their run-length encoding.
     *
     * @param flags per key
     * @param data four floats per key (data float 2 as its raw bits in {@code packed})
     * @param weights two per key: the right weight and the next key's left weight, fractions of the segment's duration
     *     (used where the key's flags mark them weighted): 7.x files pack them into data float 2 as 1/10000 units; FBX
     *     6.x keys print them as decimals, which {@link FbxLegacy} carries unrounded in {@link #EXACT_WEIGHTS}
     */
    record Attributes(int[] flags, double[] data, double[] weights) {
    }

    /**
     * The child of an {@code AnimationCurve} that {@link FbxLegacy} writes for FBX 6.x keys: two doubles per attribute
     * run (right weight, next-left weight) that replace the 1/10000 fixed-point weights of data float 2, as the 6.x
     * file prints them (3ds Max writes e.g. 0.333233326673508; rounded to 0.3332 a 168° turn ends up 0.0017° off).
     */
    static final String EXACT_WEIGHTS = "posekit:KeyAttrWeights";

    private static Attributes attributes(FbxNode curve, int n, String where) {
        FbxNode flagsNode = curve.child("KeyAttrFlags");
        FbxNode dataNode = curve.child("KeyAttrDataFloat");
        FbxNode refsNode = curve.child("KeyAttrRefCount");
        int[] flags = new int[n];
        double[] data = new double[4 * n];
        double[] weights = new double[2 * n];
        if (flagsNode == null && dataNode == null && refsNode == null) {
            Arrays.fill(flags, LINEAR);
            Arrays.fill(weights, DEFAULT_WEIGHT);
            return new Attributes(flags, data, weights);
        }
        if (flagsNode == null || dataNode == null || refsNode == null) {
            throw ImportException.invalid(where + " needs all of KeyAttrFlags, KeyAttrDataFloat and KeyAttrRefCount"
                    + " (it has " + (flagsNode == null ? "" : "KeyAttrFlags ") + (dataNode == null ? "" : "KeyAttrDataFloat ")
                    + (refsNode == null ? "" : "KeyAttrRefCount") + ")");
        }
        int[] runFlags = flagsNode.ints(0);
        int[] refs = refsNode.ints(0);
        Object rawData = dataNode.property(0);
        double[] printed = dataNode.doubles(0);
        double[] runData = printedBits(rawData, printed) ? floatsOfBits(printed) : printed;
        if (runFlags.length != refs.length || runData.length != 4L * refs.length) {
            throw ImportException.invalid(where + ": KeyAttrFlags (" + runFlags.length + "), KeyAttrDataFloat ("
                    + runData.length + ") and KeyAttrRefCount (" + refs.length + ") do not describe the same attributes"
                    + " (4 data floats each)");
        }
        FbxNode exactNode = curve.child(EXACT_WEIGHTS);
        double[] exact = exactNode == null ? null : exactNode.doubles(0);
        if (exact != null && exact.length != 2L * refs.length) {
            throw ImportException.invalid(where + ": its " + refs.length + " key attributes have " + exact.length
                    + " exact weights (2 each)");
        }
        for (int i = 0; exact != null && i < exact.length; i++) {
            if (!Double.isFinite(exact[i])) {
                throw ImportException.invalid(where + ": the weight of key " + i / 2 + " is not finite");
            }
        }
        int k = 0;
        for (int i = 0; i < refs.length && k < n; i++) {
            if (refs[i] < 0) {
                throw ImportException.invalid(where + ": KeyAttrRefCount[" + i + "] = " + refs[i] + " is negative");
            }
            int bits = weightBits(rawData, printed, 4 * i + 2);
            double right = exact != null ? Math.clamp(exact[2 * i], 0, 1) : (bits & 0xFFFF) * 1e-4;
            double nextLeft = exact != null ? Math.clamp(exact[2 * i + 1], 0, 1) : (bits >>> 16) * 1e-4;
            for (int r = 0; r < refs[i] && k < n; r++, k++) {
                flags[k] = runFlags[i];
                System.arraycopy(runData, 4 * i, data, 4 * k, 4);
                weights[2 * k] = right;
                weights[2 * k + 1] = nextLeft;
            }
        }
        if (k < n) {
            throw ImportException.invalid(where + ": KeyAttrRefCount covers " + k + " of its " + n + " keys");
        }
        return new Attributes(flags, data, weights);
    }

    /**
     * Whether ASCII data floats are printed as the integers of their bits, as Maya's ASCII writer prints them (e.g.
     * {@code -1044230031} for the slope −24.2893, {@code 218434821} for the packed weights 1/3, 1/3): every number is
     * an integer and one is at least 2²⁴ in magnitude, which no tangent value a writer prints as a number reaches. Other
     * writers print the float values.
     */
    static boolean printedBits(Object raw, double[] printed) {
        if (raw instanceof float[]) {
            return false;
        }
        boolean large = false;
        for (double v : printed) {
            if (v != Math.rint(v) || Math.abs(v) > 0xFFFFFFFFL) {
                return false;
            }
            large |= Math.abs(v) >= 1 << 24;
        }
        return large;
    }

    private static double[] floatsOfBits(double[] printed) {
        double[] out = new double[printed.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = Float.intBitsToFloat((int) (long) printed[i]);
        }
        return out;
    }

    /**
     * The bits of data float {@code i}: binary files store the float (whose bits are the packed weights); ASCII files
     * print those bits as an integer — or, from some writers, the float's value.
     */
    private static int weightBits(Object raw, double[] asDoubles, int i) {
        if (raw instanceof float[] f) {
            return Float.floatToRawIntBits(f[i]);
        }
        double v = asDoubles[i];
        if (v == Math.rint(v) && Math.abs(v) >= 1 && Math.abs(v) <= 0xFFFFFFFFL) {
            return (int) (long) v;
        }
        return Float.floatToRawIntBits((float) v);
    }

    /** Builds the curve of keys at times {@code t} (seconds) with values {@code v} and attributes {@code a}. */
    static Curve build(double[] t, double[] v, Attributes a, String where) {
        return built(t, v, a, where).curve();
    }

    /** {@link #build} with the end tangents. */
    static Built built(double[] t, double[] v, Attributes a, String where) {
        int n = t.length;
        double[] slopeLeft = new double[n];
        double[] slopeRight = new double[n];
        double[] weightLeft = new double[n];
        double[] weightRight = new double[n];
        Arrays.fill(weightLeft, DEFAULT_WEIGHT);
        Arrays.fill(weightRight, DEFAULT_WEIGHT);
        for (int k = 0; k < n; k++) {
            int f = a.flags()[k];
            double storedRight = a.data()[4 * k];
            double storedNextLeft = a.data()[4 * k + 1];
            double wr = (f & WEIGHTED_RIGHT) != 0 ? a.weights()[2 * k] : DEFAULT_WEIGHT;
            double wnl = (f & WEIGHTED_NEXT_LEFT) != 0 ? a.weights()[2 * k + 1] : DEFAULT_WEIGHT;
            double nextLeft = 0;
            if ((f & CONSTANT) != 0) {
                wr = DEFAULT_WEIGHT;
                wnl = DEFAULT_WEIGHT;
            } else if ((f & CUBIC) != 0) {
                if ((f & TANGENT_TCB) != 0) {
                    double[] s = tcb(t, v, k, a.data()[4 * k], a.data()[4 * k + 1], a.data()[4 * k + 2]);
                    slopeLeft[k] = s[0];
                    slopeRight[k] = s[1];
                } else if ((f & TANGENT_USER) != 0) {
                    slopeRight[k] = storedRight;
                    nextLeft = storedNextLeft;
                } else {
                    // auto: the slopes are derived; what the file stores acts as the bias of each side (the left one
                    // carried over from the previous key, as that key's next-left value)
                    auto(t, v, k, f, weightLeft[k], wr, -slopeLeft[k], storedRight, slopeLeft, slopeRight);
                    nextLeft = storedNextLeft;
                }
            } else if (k + 1 < n && t[k + 1] > t[k]) {
                double chord = (v[k + 1] - v[k]) / (t[k + 1] - t[k]);
                slopeRight[k] = chord;
                nextLeft = chord;
                wr = DEFAULT_WEIGHT;
                wnl = DEFAULT_WEIGHT;
            }
            weightRight[k] = wr;
            if (k + 1 < n) {
                weightLeft[k + 1] = wnl;
                slopeLeft[k + 1] = nextLeft;
            }
        }
        return new Built(segments(t, v, a.flags(), slopeLeft, slopeRight, weightLeft, weightRight, where),
                slopeRight[0], slopeLeft[n - 1]);
    }

    private static Curve segments(double[] t, double[] v, int[] flags, double[] slopeLeft, double[] slopeRight,
            double[] weightLeft, double[] weightRight, String where) {
        int n = t.length;
        int extra = 0;
        for (int k = 0; k + 1 < n; k++) {
            if (isConstantNext(flags[k]) && t[k + 1] > t[k]) {
                extra++;
            }
        }
        int keys = n + extra;
        float[] times = new float[keys];
        float[] values = new float[keys];
        byte[] kinds = new byte[keys - 1];
        float[] controls = null;
        int at = 0;
        for (int k = 0; k < n; k++) {
            times[at] = (float) t[k];
            values[at] = (float) v[k];
            if (k + 1 == n) {
                break;
            }
            int f = flags[k];
            double dt = t[k + 1] - t[k];
            if ((f & CONSTANT) != 0) {
                if (isConstantNext(f) && dt > 0) {
                    kinds[at++] = Curve.STEP;
                    times[at] = (float) t[k];
                    values[at] = (float) v[k + 1];
                }
                kinds[at++] = Curve.STEP;
            } else if ((f & CUBIC) != 0 && dt > 0) {
                if (controls == null) {
                    controls = new float[4 * (keys - 1)];
                }
                double dxRight = weightRight[k] * dt;
                double dxLeft = weightLeft[k + 1] * dt;
                controls[4 * at] = (float) (t[k] + dxRight);
                controls[4 * at + 1] = (float) (v[k] + slopeRight[k] * dxRight);
                controls[4 * at + 2] = (float) (t[k + 1] - dxLeft);
                controls[4 * at + 3] = (float) (v[k + 1] - slopeLeft[k + 1] * dxLeft);
                kinds[at++] = Curve.BEZIER;
            } else {
                kinds[at++] = Curve.LINEAR;
            }
        }
        for (int i = 0; controls != null && i < controls.length; i++) {
            if (!Float.isFinite(controls[i])) {
                throw ImportException.invalid(where + ": the tangent of cubic segment " + i / 4 + " is not finite");
            }
        }
        return new Curve(times, values, kinds, controls);
    }

    private static boolean isConstantNext(int f) {
        return (f & CONSTANT) != 0 && (f & CONSTANT_NEXT) != 0;
    }

    /**
     * Auto tangents of key {@code k} (both sides; see the class comment), written into {@code slopeLeft[k]} and
     * {@code slopeRight[k]}.
     */
    private static void auto(double[] t, double[] v, int k, int f, double weightLeft, double weightRight,
            double leftBias, double rightBias, double[] slopeLeft, double[] slopeRight) {
        int n = t.length;
        boolean hasPrev = k > 0 && t[k] > t[k - 1];
        boolean hasNext = k + 1 < n && t[k + 1] > t[k];
        if (hasPrev && hasNext) {
            if (Math.abs(leftBias - rightBias) <= 1e-4) {
                double s = autoSlope(t, v, k, f, weightLeft, weightRight, rightBias);
                slopeLeft[k] = s;
                slopeRight[k] = s;
            } else {
                slopeLeft[k] = autoSlope(t, v, k, f, weightLeft, weightRight, leftBias);
                slopeRight[k] = autoSlope(t, v, k, f, weightLeft, weightRight, rightBias);
            }
        } else if (hasPrev || hasNext) {
            int other = hasPrev ? k - 1 : k + 1;
            double s;
            if ((f & CLAMP_PROGRESSIVE) != 0 || (f & CLAMP) != 0 && v[other] == v[k]) {
                s = 0;
            } else {
                s = (v[k] - v[other]) / (t[k] - t[other]);
                double bias = hasPrev ? leftBias : rightBias;
                double excess = Math.abs(bias) / 100 - 5;
                if ((f & TIME_INDEPENDENT) == 0 && excess > 0) {
                    s += Math.signum(bias) * excess * excess * 40;
                }
            }
            slopeLeft[k] = s;
            slopeRight[k] = s;
        } else {
            slopeLeft[k] = 0;
            slopeRight[k] = 0;
        }
    }

    /** The auto slope at an interior key {@code k} with a bias in percent. */
    static double autoSlope(double[] t, double[] v, int k, int f, double weightLeft, double weightRight, double bias) {
        double t0 = t[k - 1];
        double t1 = t[k];
        double t2 = t[k + 1];
        double v0 = v[k - 1];
        double v1 = v[k];
        double v2 = v[k + 1];
        if ((f & CLAMP) != 0 && Math.min(Math.abs(v0 - v1), Math.abs(v2 - v1)) <= 0) {
            return 0;
        }
        double slope = (v2 - v0) / (t2 - t0);
        if ((f & TIME_INDEPENDENT) == 0) {
            double left = (v1 - v0) / (t1 - t0);
            double right = (v2 - v1) / (t2 - t1);
            double position = (t1 - t0) / (t2 - t0);
            slope = 0.5 * slope + 0.5 * ((1 - position) * left + position * right);
            double weight = Math.abs(bias) / 100;
            if (weight > 1e-4) {
                double target = bias > 0 ? right : left;
                double towards = target - slope;
                slope = slope * (1 - weight) + target * weight;
                double excess = weight - 5;
                if (excess > 0) {
                    double sign = Math.abs(towards) > 1e-5 ? Math.signum(towards) : Math.signum(bias);
                    slope += sign * excess * excess * 40;
                }
            }
        }
        if ((f & CLAMP_PROGRESSIVE) != 0) {
            double sign = slope >= 0 ? 1 : -1;
            double magnitude = Math.abs(slope);
            double rangeLeft = weightLeft * (t1 - t0);
            double rangeRight = weightRight * (t2 - t1);
            double maxLeft = rangeLeft > 0 ? sign * (v1 - v0) / rangeLeft : 0;
            double maxRight = rangeRight > 0 ? sign * (v2 - v1) / rangeRight : 0;
            magnitude = Math.min(magnitude, Math.max(0, Double.isNaN(maxLeft) ? 0 : maxLeft));
            magnitude = Math.min(magnitude, Math.max(0, Double.isNaN(maxRight) ? 0 : maxRight));
            slope = sign * magnitude;
        }
        return slope;
    }

    /** Kochanek–Bartels left and right slopes of key {@code k}. */
    static double[] tcb(double[] t, double[] v, int k, double tension, double continuity, double bias) {
        int n = t.length;
        double left = 0;
        double right = 0;
        boolean edge = false;
        if (k > 0 && t[k] > t[k - 1]) {
            left = (v[k] - v[k - 1]) / (t[k] - t[k - 1]);
        } else {
            edge = true;
        }
        if (k + 1 < n && t[k + 1] > t[k]) {
            right = (v[k + 1] - v[k]) / (t[k + 1] - t[k]);
        } else {
            edge = true;
        }
        double factor = edge ? 1 : 0.5;
        double a = factor * (1 - tension);
        double incoming = a * (1 + bias) * (1 - continuity) * left + a * (1 - bias) * (1 + continuity) * right;
        double outgoing = a * (1 + bias) * (1 + continuity) * left + a * (1 - bias) * (1 - continuity) * right;
        return new double[] {incoming, outgoing};
    }
}
