package io.posekit.sampling;

import io.posekit.clip.Clip;
import io.posekit.clip.ClipLayout;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.TrackProperty;
import io.posekit.math.Kernels;
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
 * <p>Tracks are sampled through the clip's {@link ClipLayout} (built once per clip): the key and fraction are found
 * once per time base, and each group of tracks sharing them is interpolated in one loop over key-major values
 * ({@link GroupSampler}), with the same results as sampling every track by {@link TrackSampler}, bit for bit. Only
 * the nodes and properties no track drives are copied from the rest pose.
 *
 * <p>Not thread-safe: the job keeps a per-time-base key cache (so playing a clip forwards finds keys in O(1));
 * reuse one instance per thread. {@code run()} allocates nothing except when the cache has to grow for a
 * clip with more time bases than any before (and, once per clip, when its layout is built).
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
    private final SlerpKernel slerp;

    // per-time-base key index of the previous run, valid for hintLayout only
    private int[] hints = new int[0];
    private ClipLayout hintLayout;

    /** A job on the kernel path selected for this JVM ({@link Kernels#selected()}). */
    public SamplingJob() {
        this(Kernels.selected());
    }

    /**
     * A job on the given kernel path (tests compare the two; the results are the same bit for bit).
     *
     * @throws IllegalStateException for {@link Kernels.Path#VECTOR} when {@code jdk.incubator.vector} is absent
     */
    public SamplingJob(Kernels.Path path) {
        slerp = Kernels.load(path, SlerpKernel.class, "io.posekit.sampling.VectorSlerp", ScalarSlerp::new);
    }

    /**
     * Whether the inputs are present and consistent: rig and output set, output sized for the rig, time not
     * NaN, and (when a clip is set) every track's node index in {@code [0, rig.nodeCount())} and every
     * translation/scale track with 3 components and rotation track with 4. O(1) once the clip's layout is built
     * (which this builds).
     */
    public boolean validate() {
        if (rig == null || output == null || output.nodeCount() != rig.nodeCount() || Double.isNaN(time)) {
            return false;
        }
        if (clip == null) {
            return true;
        }
        ClipLayout layout = clip.layout();
        return layout.wellFormed() && layout.minNode() >= 0 && layout.maxNode() < rig.nodeCount();
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
        if (clip == null) {
            output.setToRest(rig);
            return;
        }
        ClipLayout layout = clip.layout();
        copyRest(layout, TrackProperty.TRANSLATION, rig.restTranslations(), output.translations(), 3);
        copyRest(layout, TrackProperty.ROTATION, rig.restRotations(), output.rotations(), 4);
        copyRest(layout, TrackProperty.SCALE, rig.restScales(), output.scales(), 3);
        int bases = layout.timeBaseCount();
        if (layout != hintLayout || hints.length < bases) {
            // keys found for another clip mean nothing here; -1 = no hint
            if (hints.length < bases) {
                hints = new int[bases];
            }
            Arrays.fill(hints, -1);
            hintLayout = layout;
        }
        for (int c = 0, n = layout.constantGroupCount(); c < n; c++) {
            GroupSampler.sampleConstant(layout.constantGroup(c), output);
        }
        int[] h = hints;
        double t = time;
        for (int b = 0; b < bases; b++) {
            float[] times = layout.times(b);
            int key = TrackSampler.locate(times, t, h[b]);
            h[b] = key;
            double fraction = TrackSampler.fraction(times, t, key);
            for (int g = layout.firstGroup(b), end = layout.firstGroup(b + 1); g < end; g++) {
                GroupSampler.sample(layout.group(g), times, key, fraction, output, slerp);
            }
        }
        List<NodeTransformTrack> stacks = clip.nodeTransforms();
        for (int i = 0, n = stacks.size(); i < n; i++) {
            nodeTransforms.evaluate(stacks.get(i), t, output);
        }
    }

    /** Copies the rest value of every node no track of {@code property} drives ({@code width} floats a node). */
    private static void copyRest(ClipLayout layout, TrackProperty property, float[] rest, float[] out, int width) {
        int[] runs = layout.restRuns(property);
        for (int r = 0; r < runs.length; r += 2) {
            int from = width * runs[r];
            System.arraycopy(rest, from, out, from, width * runs[r + 1] - from);
        }
        int from = width * layout.coveredEnd(property);
        System.arraycopy(rest, from, out, from, out.length - from);
    }
}
