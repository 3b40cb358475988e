package io.posekit.sampling;

import io.posekit.clip.Clip;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Track;
import io.posekit.rig.Rig;
import java.util.Arrays;
import java.util.List;

/**
 * Samples a clip into a local pose (ozz-animation style job: set the public fields, then {@link #run()}).
 *
 * <p>The output is the rig's rest pose with every {@code TRANSLATION}, {@code ROTATION} and {@code SCALE}
 * track of the clip evaluated at {@link #time} (see {@link TrackSampler}) and written over its node's
 * property; nodes and properties without a track keep their rest value. Curve-driven transform stacks
 * ({@link NodeTransformTrack}) then set their nodes' whole local TRS. {@code WEIGHTS} tracks are ignored
 * here; {@link MorphWeightsJob} samples them. Local space: each node relative to its parent.
 *
 * <p>Not thread-safe: the job keeps a per-track key cache (so playing a clip forwards finds keys in O(1));
 * reuse one instance per thread. {@code run()} allocates nothing except when the cache has to grow for a
 * clip with more tracks than any before.
 */
public final class SamplingJob {

    /** The rig whose rest pose is the base. Required. */
    public Rig rig;
    /** The clip to sample, or {@code null} for the rest pose. */
    public Clip clip;
    /** Clip-local time in seconds, already mapped by a {@link LoopMode}; must not be NaN. */
    public double time;
    /** Where the pose is written; {@code output.nodeCount() == rig.nodeCount()}. Required. */
    public LocalPose output;

    private final NodeTransformEvaluator nodeTransforms = new NodeTransformEvaluator();

    // per-track key index of the previous run, valid for hintClip only
    private int[] hints = new int[0];
    private Clip hintClip;

    /**
     * Whether the inputs are present and consistent: rig and output set, output sized for the rig, time not
     * NaN, and (when a clip is set) every track's node index in {@code [0, rig.nodeCount())} and every
     * translation/scale track with 3 components and rotation track with 4.
     */
    public boolean validate() {
        if (rig == null || output == null || output.nodeCount() != rig.nodeCount() || Double.isNaN(time)) {
            return false;
        }
        if (clip == null) {
            return true;
        }
        int nodeCount = rig.nodeCount();
        List<Track> tracks = clip.tracks();
        for (int i = 0, n = tracks.size(); i < n; i++) {
            Track track = tracks.get(i);
            if (track.node() < 0 || track.node() >= nodeCount) {
                return false;
            }
            int expected = switch (track.property()) {
                case TRANSLATION, SCALE -> 3;
                case ROTATION -> 4;
                case WEIGHTS -> track.components();
            };
            if (track.components() != expected) {
                return false;
            }
        }
        for (NodeTransformTrack stack : clip.nodeTransforms()) {
            if (stack.node() < 0 || stack.node() >= nodeCount) {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes the sampled pose into {@link #output}.
     *
     * @throws IllegalStateException if {@link #validate()} is false
     */
    public void run() {
        if (!validate()) {
            throw new IllegalStateException("SamplingJob inputs are missing or inconsistent");
        }
        output.setToRest(rig);
        if (clip == null) {
            return;
        }
        List<Track> tracks = clip.tracks();
        int trackCount = tracks.size();
        if (clip != hintClip || hints.length < trackCount) {
            // keys found for another clip mean nothing here; -1 = no hint
            if (hints.length < trackCount) {
                hints = new int[trackCount];
            }
            Arrays.fill(hints, -1);
            hintClip = clip;
        }
        int[] h = hints;
        float[] translations = output.translations();
        float[] rotations = output.rotations();
        float[] scales = output.scales();
        double t = time;
        // tracks usually share their key times (one glTF input accessor for all channels of an animation, one
        // frame list per FBX/BVH clip): the key and segment fraction found for the previous track with the same times
        // array are then the answer, and are not searched for again
        float[] previousTimes = null;
        int key = -1;
        double fraction = 0;
        for (int i = 0; i < trackCount; i++) {
            Track track = tracks.get(i);
            float[] times = track.times();
            if (times != previousTimes) {
                key = TrackSampler.locate(times, t, h[i]);
                fraction = TrackSampler.fraction(times, t, key);
                previousTimes = times;
            }
            h[i] = key;
            int node = track.node();
            switch (track.property()) {
                case TRANSLATION -> TrackSampler.interpolate(track, key, fraction, translations, 3 * node);
                case ROTATION -> TrackSampler.interpolate(track, key, fraction, rotations, 4 * node);
                case SCALE -> TrackSampler.interpolate(track, key, fraction, scales, 3 * node);
                case WEIGHTS -> {
                    // morph weights: MorphWeightsJob
                }
            }
        }
        List<NodeTransformTrack> stacks = clip.nodeTransforms();
        for (int i = 0, n = stacks.size(); i < n; i++) {
            nodeTransforms.evaluate(stacks.get(i), t, output);
        }
    }
}
