package io.posekit.bench;

import io.posekit.clip.Clip;
import io.posekit.clip.Track;
import io.posekit.math.Kernels;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.LocalToModelJob;
import io.posekit.sampling.SamplingJob;
import io.posekit.sampling.TrackSampler;
import io.posekit.skinning.SkinningMatricesJob;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The core pose: sample every track of a clip (30 keys per track, rotation and translation on every joint) at a random
 * time, accumulate model matrices and compute the skinning matrices — what one pose request costs before encoding.
 * Divide the average time by {@code joints} for the cost per joint. {@link #sample} and {@link #matrices} split the
 * cost into its two halves.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PoseBenchmark {

    @Param({"20", "150", "500"})
    int joints;

    private final SamplingJob sampling = new SamplingJob();
    private final SamplingJob samplingScalar = new SamplingJob(Kernels.Path.SCALAR);
    private final LocalToModelJob toModel = new LocalToModelJob();
    private final SkinningMatricesJob skinning = new SkinningMatricesJob();
    // the same two jobs on the scalar kernels, for matricesScalar (the default ones run on Kernels.selected())
    private final LocalToModelJob toModelScalar = new LocalToModelJob(Kernels.Path.SCALAR);
    private final SkinningMatricesJob skinningScalar = new SkinningMatricesJob(Kernels.Path.SCALAR);
    private final double[] times = new double[1024];
    private int next;
    // samplePerTrack's inputs and output
    private Rig rig;
    private Clip clip;
    private LocalPose perTrackPose;

    @Setup
    public void setUp() {
        Rig rig = Rigs.tree(joints);
        Skin skin = Rigs.skin(joints);
        Clip clip = Rigs.clip(joints, 30, 7);
        LocalPose local = new LocalPose(joints);
        this.rig = rig;
        this.clip = clip;
        perTrackPose = new LocalPose(joints);
        float[] model = new float[16 * joints];
        sampling.rig = rig;
        sampling.clip = clip;
        sampling.output = local;
        samplingScalar.rig = rig;
        samplingScalar.clip = clip;
        samplingScalar.output = new LocalPose(joints);
        toModel.rig = rig;
        toModel.input = local;
        toModel.output = model;
        skinning.skin = skin;
        skinning.modelMatrices = model;
        skinning.output = new float[16 * joints];
        toModelScalar.rig = rig;
        toModelScalar.input = local;
        toModelScalar.output = new float[16 * joints];
        skinningScalar.skin = skin;
        skinningScalar.modelMatrices = toModelScalar.output;
        skinningScalar.output = new float[16 * joints];
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < times.length; i++) {
            times[i] = random.nextDouble();
        }
    }

    /** Only sampling the tracks (binary search, slerp, lerp) into the local pose. */
    @Benchmark
    public float sample() {
        sampling.time = times[next++ & (times.length - 1)];
        sampling.run();
        return sampling.output.rotations()[3];
    }

    /** {@link #sample} on the scalar kernels, whatever {@link Kernels#selected()} is. */
    @Benchmark
    public float sampleScalar() {
        samplingScalar.time = times[next++ & (times.length - 1)];
        samplingScalar.run();
        return samplingScalar.output.rotations()[3];
    }

    /** Only local→model and the skinning matrices, from the last sampled pose. */
    @Benchmark
    public float matrices() {
        toModel.run();
        skinning.run();
        return skinning.output[12];
    }

    /**
     * {@link #sample}'s work done track by track, as SamplingJob did before its compiled clip layout (issue 19): every
     * track's node and component count checked, rest pose copied whole, the key located once per run of tracks sharing a times array, each track interpolated by
     * {@link TrackSampler}. The same results bit for bit; measured beside {@link #sample} so that one run on a noisy
     * machine compares the two.
     */
    @Benchmark
    public float samplePerTrack() {
        double t = times[next++ & (times.length - 1)];
        LocalPose out = perTrackPose;
        List<Track> tracks = clip.tracks();
        for (int i = 0, n = tracks.size(); i < n; i++) {
            Track track = tracks.get(i);
            int expected = switch (track.property()) {
                case TRANSLATION, SCALE -> 3;
                case ROTATION -> 4;
                case WEIGHTS -> track.components();
            };
            if (track.node() < 0 || track.node() >= rig.nodeCount() || track.components() != expected) {
                throw new IllegalStateException("invalid track " + i);
            }
        }
        out.setToRest(rig);
        float[] previousTimes = null;
        int key = -1;
        double fraction = 0;
        for (int i = 0, n = tracks.size(); i < n; i++) {
            Track track = tracks.get(i);
            float[] keyTimes = track.times();
            if (keyTimes != previousTimes) {
                key = TrackSampler.locate(keyTimes, t, key);
                fraction = TrackSampler.fraction(keyTimes, t, key);
                previousTimes = keyTimes;
            }
            int node = track.node();
            switch (track.property()) {
                case TRANSLATION -> TrackSampler.interpolate(track, key, fraction, out.translations(), 3 * node);
                case ROTATION -> TrackSampler.interpolate(track, key, fraction, out.rotations(), 4 * node);
                case SCALE -> TrackSampler.interpolate(track, key, fraction, out.scales(), 3 * node);
                case WEIGHTS -> {
                }
            }
        }
        return out.rotations()[3];
    }

    /** {@link #matrices} on the scalar kernels, whatever {@link Kernels#selected()} is. */
    @Benchmark
    public float matricesScalar() {
        toModelScalar.run();
        skinningScalar.run();
        return skinningScalar.output[12];
    }

    @Benchmark
    public float pose() {
        sampling.time = times[next++ & (times.length - 1)];
        sampling.run();
        toModel.run();
        skinning.run();
        return skinning.output[12];
    }
}
