package io.posekit.sampling;

import io.posekit.clip.Clip;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.skinning.MeshInstance;
import java.util.Arrays;
import java.util.List;

/**
 * Samples the morph target weights of a model's mesh instances (ozz-animation style job: set the public fields,
 * then {@link #run()}).
 *
 * <p>Every instance starts from its default weights ({@link MeshInstance#morphWeights()}: glTF node weights,
 * else mesh weights, else zeros). Then every {@link TrackProperty#WEIGHTS} track of the clip is evaluated at
 * {@link #time} with the glTF sampler semantics of {@link TrackSampler} (STEP, LINEAR component-wise, CUBICSPLINE
 * Hermite; clamped outside the keys) and written over the weights of each instance on the track's node that has
 * one target per track component. Weights are not clamped or normalised.
 *
 * <p>Not thread-safe: the job keeps a per-track key cache; reuse one instance per thread. {@code run()} allocates
 * nothing except when the cache has to grow for a clip with more tracks than any before.
 */
public final class MorphWeightsJob {

    /** The model's mesh instances. Required. */
    public List<MeshInstance> meshes;
    /** The clip whose weights tracks are sampled, or {@code null} for the default weights. */
    public Clip clip;
    /** Clip-local time in seconds, already mapped by a {@link LoopMode}; must not be NaN. */
    public double time;
    /** Where the weights are written; shaped for {@link #meshes} ({@link MorphWeights#fits}). Required. */
    public MorphWeights output;

    private int[] hints = new int[0];
    private Clip hintClip;

    /** Whether meshes and output are set, the output fits the meshes and the time is not NaN. */
    public boolean validate() {
        return meshes != null && output != null && !Double.isNaN(time) && output.fits(meshes);
    }

    /**
     * Writes the weights into {@link #output}.
     *
     * @throws IllegalStateException if {@link #validate()} is false
     */
    public void run() {
        if (!validate()) {
            throw new IllegalStateException("MorphWeightsJob inputs are missing or inconsistent");
        }
        int[] morphed = output.morphed();
        for (int m : morphed) {
            float[] defaults = meshes.get(m).morphWeights();
            System.arraycopy(defaults, 0, output.weights(m), 0, defaults.length);
        }
        if (clip == null || morphed.length == 0) {
            return;
        }
        List<Track> tracks = clip.tracks();
        int trackCount = tracks.size();
        if (clip != hintClip || hints.length < trackCount) {
            if (hints.length < trackCount) {
                hints = new int[trackCount];
            }
            Arrays.fill(hints, -1);
            hintClip = clip;
        }
        for (int i = 0; i < trackCount; i++) {
            Track track = tracks.get(i);
            if (track.property() != TrackProperty.WEIGHTS) {
                continue;
            }
            float[] first = null;
            for (int m : morphed) {
                MeshInstance mesh = meshes.get(m);
                if (mesh.node() != track.node() || mesh.morphTargetCount() != track.components()) {
                    continue;
                }
                float[] out = output.weights(m);
                if (first == null) {
                    hints[i] = TrackSampler.sample(track, time, hints[i], out, 0);
                    first = out;
                } else {
                    System.arraycopy(first, 0, out, 0, out.length);
                }
            }
        }
    }
}
