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
 * <p>Check frames ({@link #frames}): every key time of the clip and an even grid of at least 60 Hz from 0 to its
 * duration, and with a rate that rate's grid. The reference at each frame is posekit's own sample
 * (the node's local translation, rotation and scale, as {@code SamplingJob} computes them). The candidate keys are
 * every check frame, or with a rate only that grid's frames (and the duration). Stateless.
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
        float[] frames = frames(clip, fps);
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
        int[] candidates = candidates(frames, fps, clip.duration());
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
        float[] frames = frames(clip, fps);
        int c = KeyReduction.components(track.property());
        float[] values = new float[c * frames.length];
        int hint = -1;
        for (int f = 0; f < frames.length; f++) {
            hint = TrackSampler.sample(track, frames[f], hint, values, c * f);
        }
        return new Channel(track.node(), track.property(), KeyReduction.reduce(track.property(), frames, values,
                candidates(frames, fps, clip.duration()), tolerances.of(track.property())));
    }

    /**
     * The check frames of {@code clip}: the times {@link ClipTimes} gives at {@value #CHECK_FPS} Hz (every key time of
     * the clip's tracks and curves, and an even grid at least that fine including both ends — what
     * {@code bounds?over=clip} samples too), and with a rate that rate's grid; as float32 times, sorted, distinct.
     *
     * @throws IllegalArgumentException past {@link #MAX_FRAMES} frames
     */
    static float[] frames(Clip clip, Double fps) {
        double duration = clip.duration();
        double grid = Math.ceil(duration * CHECK_FPS) + 1 + (fps == null ? 0 : Math.floor(duration * fps) + 2);
        if (grid > MAX_FRAMES) {
            throw new IllegalArgumentException("resampling " + duration + " s would take more than " + MAX_FRAMES
                    + " frames");
        }
        double[] checks = ClipTimes.of(clip, CHECK_FPS, MAX_FRAMES, MAX_FRAMES);
        float[] all = new float[checks.length + (fps == null ? 0 : (int) Math.floor(duration * fps) + 2)];
        int count = 0;
        for (double t : checks) {
            all[count++] = (float) t;
        }
        if (fps != null) {
            count = grid(all, count, duration, fps);
        }
        float[] sorted = Arrays.copyOf(all, count);
        Arrays.sort(sorted);
        int distinct = 0;
        for (float t : sorted) {
            if (distinct == 0 || t != sorted[distinct - 1]) {
                sorted[distinct++] = t;
            }
        }
        return Arrays.copyOf(sorted, distinct);
    }

    /** Appends {@code i / fps} for every frame {@code i} before the duration, and the duration. */
    private static int grid(float[] out, int count, double duration, double fps) {
        for (long i = 0; i / fps < duration; i++) {
            out[count++] = (float) (i / fps);
        }
        out[count++] = (float) duration;
        return count;
    }

    /** Indices of the candidate keys in {@code frames}: all, or the {@code fps} grid's and the last. */
    private static int[] candidates(float[] frames, Double fps, double duration) {
        if (fps == null) {
            int[] all = new int[frames.length];
            for (int i = 0; i < all.length; i++) {
                all[i] = i;
            }
            return all;
        }
        int[] out = new int[frames.length];
        int count = 0;
        int f = 0;
        for (long i = 0; ; i++) {
            float t = (float) Math.min(i / fps, duration);
            while (frames[f] < t) {
                f++;
            }
            if (count == 0 || out[count - 1] != f) {
                out[count++] = f;
            }
            if (i / fps >= duration) {
                break;
            }
        }
        if (out[count - 1] != frames.length - 1) {
            out[count++] = frames.length - 1;
        }
        return Arrays.copyOf(out, count);
    }
}
