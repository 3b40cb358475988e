package io.posekit.export;

import io.posekit.clip.Clip;
import io.posekit.clip.ClipTimes;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.rig.Rig;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.NodeTransformEvaluator;
import io.posekit.sampling.TrackSampler;
import java.util.Arrays;
import java.util.List;

/**
 * Resamples what glTF cannot hold as it is — a node's curve-driven transform stack ({@link NodeTransformTrack}:
 * COLLADA Bézier and matrix channels, FBX Euler curves), or a keyframe track whose key times repeat or are negative,
 * or any translation, rotation or scale track when a resampling rate is asked for — into {@code LINEAR} glTF
 * channels, then reduces their keys ({@link KeyReduction}).
 *
 * <p>Check frames ({@link #frames}): every frame of the exact 60 Hz grid from 0 to the clip's duration, the duration,
 * every key time of the clip, and with a rate that rate's grid. The reference at each frame is posekit's own sample
 * (the node's local translation, rotation and scale, as {@code SamplingJob} computes them). The candidate keys are
 * every check frame, or with a rate only that rate's grid (and the duration). Stateless.
 */
final class ClipResampler {

    /** The check grid's rate, frames per second. */
    static final double CHECK_FPS = 60;
    /** The most check frames one channel may have (a very long clip at a high rate is refused). */
    static final int MAX_FRAMES = 2_000_000;

    private ClipResampler() {
    }

    /**
     * A resampled and reduced channel.
     *
     * @param node the rig node
     * @param property translation, rotation or scale
     * @param keys the reduced keys
     */
    record Channel(int node, TrackProperty property, KeyReduction.Reduced keys) {
    }

    /** The error allowed per property: rotation in radians, translation in scene units, scale relative. */
    record Tolerances(double rotation, double translation, double scale) {

        double of(TrackProperty p) {
            return switch (p) {
                case ROTATION -> rotation;
                case TRANSLATION -> translation;
                default -> scale;
            };
        }
    }

    /** Whether glTF can hold {@code track} as it is: key times finite, non-negative and strictly increasing. */
    static boolean expressible(Track track) {
        float[] t = track.times();
        if (!(t[0] >= 0) || !Float.isFinite(t[t.length - 1])) {
            return false;
        }
        for (int i = 1; i < t.length; i++) {
            if (!(t[i] > t[i - 1])) {
                return false;
            }
        }
        return true;
    }

    /**
     * The translation, rotation and scale channels of a curve-driven node.
     *
     * @param fps the candidate key rate, or {@code null} for every check frame
     * @throws IllegalArgumentException past {@link #MAX_FRAMES} check frames
     */
    static List<Channel> resample(NodeTransformTrack track, Rig rig, Clip clip, Double fps, Tolerances tolerances) {
        Frames check = frames(clip, fps);
        float[] frames = check.times();
        int n = frames.length;
        float[] t = new float[3 * n];
        float[] r = new float[4 * n];
        float[] s = new float[3 * n];
        LocalPose pose = new LocalPose(rig.nodeCount());
        NodeTransformEvaluator evaluator = new NodeTransformEvaluator();
        int node = track.node();
        for (int f = 0; f < n; f++) {
            evaluator.evaluate(track, frames[f], pose);
            System.arraycopy(pose.translations(), 3 * node, t, 3 * f, 3);
            System.arraycopy(pose.rotations(), 4 * node, r, 4 * f, 4);
            System.arraycopy(pose.scales(), 3 * node, s, 3 * f, 3);
        }
        int[] candidates = check.candidates();
        return List.of(
                new Channel(node, TrackProperty.TRANSLATION, KeyReduction.reduce(TrackProperty.TRANSLATION, frames, t,
                        candidates, tolerances.translation())),
                new Channel(node, TrackProperty.ROTATION, KeyReduction.reduce(TrackProperty.ROTATION, frames, r,
                        candidates, tolerances.rotation())),
                new Channel(node, TrackProperty.SCALE, KeyReduction.reduce(TrackProperty.SCALE, frames, s, candidates,
                        tolerances.scale())));
    }

    /**
     * A translation, rotation or scale keyframe track resampled.
     *
     * @throws IllegalArgumentException past {@link #MAX_FRAMES} check frames
     */
    static Channel resample(Track track, Clip clip, Double fps, Tolerances tolerances) {
        Frames check = frames(clip, fps);
        float[] frames = check.times();
        int c = KeyReduction.components(track.property());
        float[] values = new float[c * frames.length];
        int hint = -1;
        for (int f = 0; f < frames.length; f++) {
            hint = TrackSampler.sample(track, frames[f], hint, values, c * f);
        }
        return new Channel(track.node(), track.property(), KeyReduction.reduce(track.property(), frames, values,
                check.candidates(), tolerances.of(track.property())));
    }

    /**
     * Check frames and candidate keys.
     *
     * @param times the check frames: float32 seconds, sorted, distinct, from 0 to the clip's duration
     * @param candidates indices into {@code times} of the candidate keys, increasing, the first and the last included
     */
    record Frames(float[] times, int[] candidates) {
    }

    /**
     * The check frames of {@code clip} and its candidate keys. The check frames: every frame {@code i / 60} of the
     * exact 60 Hz grid before the duration, the duration, and every key time of the clip's tracks and curves in
     * between (as {@link ClipTimes} collects them); with a rate, that rate's grid too. The candidates: every check
     * frame, or with a rate only that rate's grid and the duration.
     *
     * @throws IllegalArgumentException past {@link #MAX_FRAMES} frames
     */
    static Frames frames(Clip clip, Double fps) {
        double duration = clip.duration();
        double grid = 2 * (Math.ceil(duration * CHECK_FPS) + 2) + (fps == null ? 0 : Math.floor(duration * fps) + 2);
        if (grid > MAX_FRAMES) {
            throw new IllegalArgumentException("resampling " + duration + " s would take more than " + MAX_FRAMES
                    + " frames");
        }
        // ClipTimes with a grid of 2: the clip's key times and its two ends; the grid is the exact 60 Hz one
        double[] clipTimes = ClipTimes.of(clip, CHECK_FPS, 2, MAX_FRAMES);
        float[] keys = new float[clipTimes.length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = (float) clipTimes[i];
        }
        float[] checks = union(keys, grid(duration, CHECK_FPS));
        float[] candidates = fps == null ? checks : grid(duration, fps);
        float[] times = union(checks, candidates);
        int[] indices = new int[candidates.length];
        int count = 0;
        for (float t : distinct(candidates)) {
            indices[count++] = Arrays.binarySearch(times, t);
        }
        return new Frames(times, Arrays.copyOf(indices, count));
    }

    /** {@code i / fps} for every frame {@code i} before the duration, and the duration. */
    private static float[] grid(double duration, double fps) {
        float[] out = new float[(int) Math.floor(duration * fps) + 2];
        int count = 0;
        for (long i = 0; i / fps < duration; i++) {
            out[count++] = (float) (i / fps);
        }
        out[count++] = (float) duration;
        return distinct(Arrays.copyOf(out, count));
    }

    private static float[] union(float[] a, float[] b) {
        float[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return distinct(all);
    }

    /** Sorted, without repeats. */
    private static float[] distinct(float[] values) {
        float[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = 0;
        for (float t : sorted) {
            if (n == 0 || t != sorted[n - 1]) {
                sorted[n++] = t;
            }
        }
        return Arrays.copyOf(sorted, n);
    }
}
