package io.posekit.asset;

import io.posekit.clip.Curve;
import java.util.Arrays;
import java.util.List;

/**
 * The key times at which to sample scalar {@link Curve}s (morph weight curves: FBX {@code DeformPercent}, COLLADA
 * {@code MORPH_WEIGHT} channels) into one linearly interpolated track: every key of every curve; in a cubic segment
 * {@value #CUBIC_STEPS} keys across its span; in a constant segment one more just before its end (so the value holds
 * until the next key); in a linear segment the times it crosses one of its curve's {@code kinks} (values where what the
 * curve drives bends, e.g. FBX in-between shapes). Linear curves are thereby reproduced exactly, cubic ones closely.
 */
public final class CurveKeys {

    /** Keys per cubic curve segment. */
    public static final int CUBIC_STEPS = 8;

    private CurveKeys() {
    }

    /** Whether every segment of every curve is constant (then the keys alone, as a {@code STEP} track). */
    public static boolean stepOnly(List<Curve> curves) {
        for (Curve curve : curves) {
            for (byte segment : curve.segments()) {
                if (segment != Curve.STEP) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The sorted, distinct sample times of {@code curves}.
     *
     * @param kinks per curve, the values whose crossings in linear segments get a key (may be empty arrays)
     * @param stepOnly {@link #stepOnly} of the curves: then only their keys
     * @throws ImportException (too large) past the decode budget
     */
    public static float[] times(List<Curve> curves, List<double[]> kinks, boolean stepOnly, DecodeBudget budget) {
        long count = 0;
        for (int i = 0; i < curves.size(); i++) {
            count += (long) curves.get(i).keyCount() * (stepOnly ? 1 : CUBIC_STEPS + kinks.get(i).length);
        }
        budget.charge(count, 4, "morph weight key times");
        float[] all = new float[Math.toIntExact(count)];
        int at = 0;
        for (int i = 0; i < curves.size(); i++) {
            Curve c = curves.get(i);
            float[] t = c.times();
            float[] v = c.values();
            byte[] segments = c.segments();
            for (int k = 0; k < t.length; k++) {
                all[at++] = t[k];
                if (stepOnly || k + 1 == t.length || !(t[k + 1] > t[k])) {
                    continue;
                }
                if (segments[k] == Curve.BEZIER) {
                    for (int j = 1; j < CUBIC_STEPS; j++) {
                        all[at++] = t[k] + (t[k + 1] - t[k]) * j / CUBIC_STEPS;
                    }
                } else if (segments[k] == Curve.LINEAR) {
                    for (double kink : kinks.get(i)) {
                        double s = (kink - v[k]) / ((double) v[k + 1] - v[k]);
                        if (s > 0 && s < 1) {
                            all[at++] = (float) (t[k] + s * (t[k + 1] - t[k]));
                        }
                    }
                } else if (segments[k] == Curve.STEP) {
                    float before = Math.nextDown(t[k + 1] - (t[k + 1] - t[k]) * 1e-3f);
                    all[at++] = before > t[k] ? before : t[k];
                }
            }
        }
        float[] sorted = Arrays.copyOf(all, at);
        Arrays.sort(sorted);
        int distinct = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (distinct == 0 || sorted[i] != sorted[distinct - 1]) {
                sorted[distinct++] = sorted[i];
            }
        }
        return Arrays.copyOf(sorted, distinct);
    }
}
