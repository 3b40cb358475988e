package io.posekit.clip;

import java.util.Arrays;

/**
 * The times at which to sample a clip to see everything it does: every key time of every track and curve inside
 * {@code [0, duration]}, and a uniform grid of the given rate that includes both ends (between keys, interpolated
 * values such as a slerp's path or a Bézier's overshoot can go beyond the keys'). Seconds, sorted, without
 * duplicates.
 */
public final class ClipTimes {

    private ClipTimes() {
    }

    /**
     * @param clip the clip
     * @param rate the grid rate, samples per second (&gt; 0)
     * @param maxGrid the most grid points (the grid is coarsened to fit, never below the two ends)
     * @param maxKeys the most key times taken (every k-th distinct key time beyond it)
     * @throws IllegalArgumentException for a non-positive rate or caps below 2 / 0
     */
    public static double[] of(Clip clip, double rate, int maxGrid, int maxKeys) {
        if (!(rate > 0) || maxGrid < 2 || maxKeys < 0) {
            throw new IllegalArgumentException("rate must be positive, maxGrid ≥ 2, maxKeys ≥ 0");
        }
        double d = clip.duration();
        int grid = d > 0 ? (int) Math.min(maxGrid, Math.ceil(d * rate) + 1) : 1;
        grid = Math.max(grid, d > 0 ? 2 : 1);
        double[] keys = keyTimes(clip, d);
        int step = keys.length > maxKeys ? (keys.length + maxKeys - 1) / Math.max(1, maxKeys) : 1;
        int taken = maxKeys == 0 ? 0 : (keys.length + step - 1) / step;
        double[] all = new double[grid + taken];
        for (int i = 0; i < grid; i++) {
            all[i] = grid == 1 ? 0 : i == grid - 1 ? d : d * i / (grid - 1);
        }
        for (int i = 0; i < taken; i++) {
            all[grid + i] = keys[i * step];
        }
        Arrays.sort(all);
        int n = 0;
        for (int i = 0; i < all.length; i++) {
            if (n == 0 || all[i] != all[n - 1]) {
                all[n++] = all[i];
            }
        }
        return Arrays.copyOf(all, n);
    }

    private static double[] keyTimes(Clip clip, double d) {
        long total = 0;
        for (Track t : clip.tracks()) {
            total += t.keyCount();
        }
        for (NodeTransformTrack n : clip.nodeTransforms()) {
            for (NodeTransformTrack.Element e : n.elements()) {
                for (Curve c : e.parameters()) {
                    total += c.keyCount();
                }
            }
        }
        double[] out = new double[(int) Math.min(total, Integer.MAX_VALUE - 8)];
        int n = 0;
        for (Track t : clip.tracks()) {
            n = copy(t.times(), d, out, n);
        }
        for (NodeTransformTrack nt : clip.nodeTransforms()) {
            for (NodeTransformTrack.Element e : nt.elements()) {
                for (Curve c : e.parameters()) {
                    n = copy(c.times(), d, out, n);
                }
            }
        }
        Arrays.sort(out, 0, n);
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (m == 0 || out[i] != out[m - 1]) {
                out[m++] = out[i];
            }
        }
        return Arrays.copyOf(out, m);
    }

    private static int copy(float[] times, double d, double[] out, int n) {
        for (float t : times) {
            if (t >= 0 && t <= d && n < out.length) {
                out[n++] = t;
            }
        }
        return n;
    }
}
