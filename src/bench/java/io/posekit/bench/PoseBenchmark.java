package io.posekit.bench;

import io.posekit.clip.Clip;
import io.posekit.math.Kernels;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.LocalToModelJob;
import io.posekit.sampling.SamplingJob;
import io.posekit.skinning.SkinningMatricesJob;
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
    private final LocalToModelJob toModel = new LocalToModelJob();
    private final SkinningMatricesJob skinning = new SkinningMatricesJob();
    // the same two jobs on the scalar kernels, for matricesScalar (the default ones run on Kernels.selected())
    private final LocalToModelJob toModelScalar = new LocalToModelJob(Kernels.Path.SCALAR);
    private final SkinningMatricesJob skinningScalar = new SkinningMatricesJob(Kernels.Path.SCALAR);
    private final double[] times = new double[1024];
    private int next;

    @Setup
    public void setUp() {
        Rig rig = Rigs.tree(joints);
        Skin skin = Rigs.skin(joints);
        Clip clip = Rigs.clip(joints, 30, 7);
        LocalPose local = new LocalPose(joints);
        float[] model = new float[16 * joints];
        sampling.rig = rig;
        sampling.clip = clip;
        sampling.output = local;
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

    /** Only local→model and the skinning matrices, from the last sampled pose. */
    @Benchmark
    public float matrices() {
        toModel.run();
        skinning.run();
        return skinning.output[12];
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
