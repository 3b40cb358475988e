package io.posekit.export;

import io.posekit.clip.TrackProperty;
import io.posekit.math.Quaternions;

/**
 * Removes keys from a densely resampled channel while the channel, played back as glTF {@code LINEAR} (lerp for
 * translation and scale, exact shortest-path slerp for rotation, as posekit samples it), stays within a tolerance
 * of a reference: posekit's own sample at every check frame.
 *
 * <p>The check frames are sorted times (seconds) with a reference value each; the candidate keys are some of them
 * (all, or a coarser {@code fps} grid). A run of keys may be replaced by one segment when every check frame in it
 * is within {@code tolerance} of its reference — or, where the full candidate set already misses a frame by more
 * (a grid coarser than the motion), within that error: reduction never makes a frame worse than resampling did.
 * The segments are found greedily from the first key, each as long as exponential probing followed by a binary
 * search finds (O(n log n) per channel; not always the fewest keys, always within the bound).
 *
 * <p>Errors: rotation, the angle between the rotations in radians; translation, the Euclidean distance in scene
 * units; scale, the largest component difference relative to {@code max(1, |reference|)}. Stateless.
 */
final class KeyReduction {

    private KeyReduction() {
    }

    /**
     * A reduced channel.
     *
     * @param times key times, seconds (float32, strictly increasing)
     * @param values key values, {@code components} per key
     * @param keysBefore the candidate key count
     * @param maxError the largest error at a check frame, in the property's unit (see the class comment)
     */
    record Reduced(float[] times, float[] values, int keysBefore, double maxError) {

        int keysAfter() {
            return times.length;
        }
    }

    /**
     * Reduces one channel.
     *
     * @param property translation, rotation or scale
     * @param frames check frame times, float32 values, strictly increasing, at least one
     * @param reference the reference value at each frame ({@code components} per frame; rotations unit quaternions)
     * @param candidates indices into {@code frames} of the candidate keys, increasing, first 0 and last the final frame
     * @param tolerance the error allowed at a frame, in the property's unit
     */
    static Reduced reduce(TrackProperty property, float[] frames, float[] reference, int[] candidates, double tolerance) {
        int c = components(property);
        float[] ref = property == TrackProperty.ROTATION ? continuous(reference) : reference;
        // the error of the full candidate set at each frame: the floor the reduction may not go below
        double[] floor = new double[frames.length];
        float[] scratch = new float[4];
        for (int k = 0; k + 1 < candidates.length; k++) {
            for (int f = candidates[k] + 1; f < candidates[k + 1]; f++) {
                floor[f] = error(property, ref, candidates[k], candidates[k + 1], frames, f, scratch);
            }
        }
        int[] kept = new int[candidates.length];
        int count = 0;
        kept[count++] = 0;
        int a = 0;
        double maxError = 0;
        int last = candidates.length - 1;
        while (a < last) {
            int good = a + 1;
            int probe = a + 2;
            while (probe <= last && fits(property, ref, candidates, a, probe, frames, floor, tolerance, scratch)) {
                good = probe;
                probe = a + 2 * (probe - a);
            }
            int hi = Math.min(probe, last + 1); // fails, or past the end
            while (hi - good > 1) {
                int mid = (good + hi) >>> 1;
                if (fits(property, ref, candidates, a, mid, frames, floor, tolerance, scratch)) {
                    good = mid;
                } else {
                    hi = mid;
                }
            }
            for (int f = candidates[a] + 1; f < candidates[good]; f++) {
                maxError = Math.max(maxError, error(property, ref, candidates[a], candidates[good], frames, f, scratch));
            }
            kept[count++] = good;
            a = good;
        }
        if (candidates.length == 1) {
            count = 1;
        }
        float[] times = new float[count];
        float[] values = new float[count * c];
        for (int i = 0; i < count; i++) {
            int f = candidates[kept[i]];
            times[i] = frames[f];
            System.arraycopy(ref, f * c, values, i * c, c);
        }
        return new Reduced(times, values, candidates.length, maxError);
    }

    static int components(TrackProperty property) {
        return property == TrackProperty.ROTATION ? 4 : 3;
    }

    private static boolean fits(TrackProperty property, float[] ref, int[] candidates, int a, int b, float[] frames,
            double[] floor, double tolerance, float[] scratch) {
        int from = candidates[a];
        int to = candidates[b];
        for (int f = from + 1; f < to; f++) {
            if (error(property, ref, from, to, frames, f, scratch) > Math.max(tolerance, floor[f])) {
                return false;
            }
        }
        return true;
    }

    /** The error at frame {@code f} of the segment from key frame {@code a} to key frame {@code b}. */
    private static double error(TrackProperty property, float[] ref, int a, int b, float[] frames, int f, float[] out) {
        double s = ((double) frames[f] - frames[a]) / ((double) frames[b] - frames[a]);
        if (property == TrackProperty.ROTATION) {
            Quaternions.slerp(ref, 4 * a, ref, 4 * b, s, out, 0);
            return angle(out, 0, ref, 4 * f);
        }
        double sum = 0;
        double max = 0;
        for (int i = 0; i < 3; i++) {
            double va = ref[3 * a + i];
            double v = va + (ref[3 * b + i] - va) * s;
            double d = Math.abs((float) v - (double) ref[3 * f + i]);
            if (property == TrackProperty.SCALE) {
                max = Math.max(max, d / Math.max(1, Math.abs(ref[3 * f + i])));
            } else {
                sum += d * d;
            }
        }
        return property == TrackProperty.SCALE ? max : Math.sqrt(sum);
    }

    /**
     * The rotation angle between the unit quaternions {@code a} and {@code b} in radians, accurate for small angles
     * too: {@code ‖a ∓ b‖ = 2 sin(θ/4)}.
     */
    static double angle(float[] a, int ao, float[] b, int bo) {
        double sign = Quaternions.dot(a, ao, b, bo) < 0 ? -1 : 1;
        double sum = 0;
        for (int i = 0; i < 4; i++) {
            double d = a[ao + i] - sign * b[bo + i];
            sum += d * d;
        }
        return 4 * Math.asin(Math.min(1, Math.sqrt(sum) / 2));
    }

    /** Rotations with each in the hemisphere of the one before (the same rotations; tidier keys). */
    private static float[] continuous(float[] q) {
        float[] out = q.clone();
        for (int i = 4; i < out.length; i += 4) {
            if (Quaternions.dot(out, i - 4, out, i) < 0) {
                for (int j = 0; j < 4; j++) {
                    out[i + j] = -out[i + j];
                }
            }
        }
        return out;
    }
}
