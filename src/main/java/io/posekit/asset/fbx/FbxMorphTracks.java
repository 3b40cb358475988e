package io.posekit.asset.fbx;

import io.posekit.asset.CurveKeys;
import io.posekit.asset.DecodeBudget;
import io.posekit.clip.Curve;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.sampling.CurveSampler;
import java.util.ArrayList;
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
 * which the in-between spread bends. The track is linear between keys ({@link CurveKeys}), which holds linear curves exactly (and
 * reproduces three.js, which interpolates FBX keys linearly) and cubic ones closely. Curves with only constant segments
 * give a {@code STEP} track.
 */
final class FbxMorphTracks {

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
            boolean stepOnly = CurveKeys.stepOnly(animated);
            float[] times = CurveKeys.times(animated, kinks, stepOnly, budget);
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
}
