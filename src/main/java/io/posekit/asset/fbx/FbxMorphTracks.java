package io.posekit.asset.fbx;

import io.posekit.asset.DecodeBudget;
import io.posekit.clip.Curve;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.sampling.CurveSampler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Animated blend shape channels ({@code DeformPercent} curves) as morph weight tracks: one {@link TrackProperty#WEIGHTS}
 * track per mesh node with blend shapes, one weight per morph target, the channels' percentages spread over their
 * in-between shapes ({@link FbxBlendShapes.Channel#weights}). A channel without a curve holds its
 * {@code DeformPercent}.
 *
 * <p>The weights are keyed at every key of every curve on the node, and where a linear segment crosses a full weight at
 * which the in-between spread bends. The track is linear between keys, which holds linear curves exactly (and
 * reproduces three.js, which interpolates FBX keys linearly); a cubic segment is keyed {@value #CUBIC_STEPS} times over
 * its span, a constant segment once more just before its end (so the value holds until the next key). Curves with only
 * constant segments give a {@code STEP} track.
 */
final class FbxMorphTracks {

    /** Keys per cubic curve segment. */
    static final int CUBIC_STEPS = 8;

    private FbxMorphTracks() {
    }

    static List<Track> tracks(List<FbxBlendShapes.Placement> morphs, Map<Long, Curve> curves, DecodeBudget budget) {
        List<Track> out = new ArrayList<>();
        Set<Integer> done = new HashSet<>();
        for (FbxBlendShapes.Placement placement : morphs) {
            FbxBlendShapes.Shapes shapes = placement.shapes();
            List<Curve> animated = new ArrayList<>();
            List<double[]> kinks = new ArrayList<>();
            for (FbxBlendShapes.Channel c : shapes.channels()) {
                Curve curve = curves.get(c.channel().id());
                if (curve != null) {
                    animated.add(curve);
                    // the in-between spread bends at every full weight but the last
                    kinks.add(java.util.Arrays.copyOf(c.fullWeights(), c.fullWeights().length - 1));
                }
            }
            if (animated.isEmpty() || !done.add(placement.node())) {
                continue;
            }
            boolean stepOnly = true;
            for (Curve curve : animated) {
                for (byte segment : curve.segments()) {
                    stepOnly &= segment == Curve.STEP;
                }
            }
            float[] times = times(animated, kinks, stepOnly, budget);
            int n = shapes.targetCount();
            budget.charge((long) times.length * n, 4, "morph weights of node " + placement.node());
            float[] values = new float[times.length * n];
            float[] weights = new float[n];
            for (int k = 0; k < times.length; k++) {
                budget.checkTime();
                for (FbxBlendShapes.Channel c : shapes.channels()) {
                    Curve curve = curves.get(c.channel().id());
                    c.weights(curve == null ? c.defaultPercent() : CurveSampler.evaluate(curve, times[k]), weights);
                }
                System.arraycopy(weights, 0, values, k * n, n);
            }
            out.add(new Track(placement.node(), TrackProperty.WEIGHTS,
                    stepOnly ? Interpolation.STEP : Interpolation.LINEAR, n, times, values));
        }
        return out;
    }

    /**
     * The sorted, distinct key times of the curves, with the extra keys of cubic and constant segments and, in a linear
     * segment, the times it crosses one of its channel's {@code kinks} (percentages where the in-between spread bends).
     */
    private static float[] times(List<Curve> curves, List<double[]> kinks, boolean stepOnly, DecodeBudget budget) {
        int count = 0;
        for (int i = 0; i < curves.size(); i++) {
            count += curves.get(i).keyCount() * (stepOnly ? 1 : CUBIC_STEPS + kinks.get(i).length);
        }
        budget.charge(count, 4, "morph weight key times");
        float[] all = new float[count];
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
