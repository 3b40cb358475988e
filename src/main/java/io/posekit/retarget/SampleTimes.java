package io.posekit.retarget;

import io.posekit.clip.Clip;
import io.posekit.clip.Curve;
import io.posekit.clip.Interpolation;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Track;
import java.util.Arrays;

/**
 * The times at which a source clip is sampled for retargeting: the union of its key times, so a clip of linear or
 * step keys (BVH, most glTF, MD5, IQM) is reproduced exactly at every key. Cubic splines and Bézier curves bend
 * between keys, so their clips also get a {@value #RATE} Hz grid over the clip; and when the union would hold more
 * than two keys per grid step (curves keyed at unrelated times, as FBX exports are), the grid alone is used. The
 * retargeted clip interpolates linearly (slerp) between these times; because a model-space rotation composed of
 * slerped local rotations is not itself a slerp, it matches the source exactly at the sample times and closely
 * between them.
 */
final class SampleTimes {

    /** Samples per second of the grid used for curves. */
    static final int RATE = 60;

    private SampleTimes() {
    }

    /** The sample times of {@code clip}, seconds, ascending, distinct, at least one. */
    static float[] of(Clip clip) {
        int count = 0;
        boolean curved = false;
        for (Track t : clip.tracks()) {
            count += t.keyCount();
            curved |= t.interpolation() == Interpolation.CUBICSPLINE;
        }
        for (NodeTransformTrack n : clip.nodeTransforms()) {
            for (NodeTransformTrack.Element e : n.elements()) {
                for (Curve c : e.parameters()) {
                    count += c.keyCount();
                    for (byte s : c.segments()) {
                        curved |= s == Curve.BEZIER;
                    }
                }
            }
        }
        float[] all = new float[count];
        int k = 0;
        for (Track t : clip.tracks()) {
            System.arraycopy(t.times(), 0, all, k, t.keyCount());
            k += t.keyCount();
        }
        for (NodeTransformTrack n : clip.nodeTransforms()) {
            for (NodeTransformTrack.Element e : n.elements()) {
                for (Curve c : e.parameters()) {
                    System.arraycopy(c.times(), 0, all, k, c.keyCount());
                    k += c.keyCount();
                }
            }
        }
        float[] keys = distinct(all);
        if (keys.length == 0) {
            return new float[] {0};
        }
        float start = keys[0];
        float end = keys[keys.length - 1];
        int steps = (int) Math.ceil((end - start) * RATE);
        if (!curved && keys.length <= 2 * steps + 2) {
            return keys;
        }
        float[] grid = new float[steps + 1];
        for (int i = 0; i <= steps; i++) {
            grid[i] = i == steps ? end : (float) (start + (double) i / RATE);
        }
        if (keys.length > 2 * steps + 2) {
            return grid;
        }
        float[] both = Arrays.copyOf(keys, keys.length + grid.length);
        System.arraycopy(grid, 0, both, keys.length, grid.length);
        return distinct(both);
    }

    private static float[] distinct(float[] times) {
        float[] sorted = times.clone();
        Arrays.sort(sorted);
        int n = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (Float.isFinite(sorted[i]) && (n == 0 || sorted[i] != sorted[n - 1])) {
                sorted[n++] = sorted[i];
            }
        }
        return Arrays.copyOf(sorted, n);
    }
}
