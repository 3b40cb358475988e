package io.posekit.bench;

import io.posekit.clip.Clip;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.LocalToModelJob;
import io.posekit.sampling.SamplingJob;
import io.posekit.skinning.SkinningMatricesJob;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A bake: {@value #FRAMES} evenly spaced frames of a clip, played forwards from start to end as a bake request does,
 * each frame sampled, taken to model space and turned into skinning matrices, written into one caller-owned buffer of
 * {@code FRAMES × joints × 16} floats (the bake's output before encoding). One operation is one frame, so the score is
 * frames per second.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class BakeBenchmark {

    static final int FRAMES = 1000;

    @Param({"150"})
    int joints;

    private final SamplingJob sampling = new SamplingJob();
    private final LocalToModelJob toModel = new LocalToModelJob();
    private final SkinningMatricesJob skinning = new SkinningMatricesJob();
    private float[] baked;
    private double duration;

    @Setup
    public void setUp() {
        Rig rig = Rigs.tree(joints);
        Skin skin = Rigs.skin(joints);
        Clip clip = Rigs.clip(joints, 30, 7);
        LocalPose local = new LocalPose(joints);
        sampling.rig = rig;
        sampling.clip = clip;
        sampling.output = local;
        toModel.rig = rig;
        toModel.input = local;
        toModel.output = new float[16 * joints];
        skinning.skin = skin;
        skinning.modelMatrices = toModel.output;
        skinning.output = new float[16 * joints];
        baked = new float[FRAMES * 16 * joints];
        duration = clip.duration();
    }

    /** The whole bake; the score is per frame. */
    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public float bake() {
        int frameFloats = 16 * joints;
        for (int f = 0; f < FRAMES; f++) {
            sampling.time = duration * f / (FRAMES - 1);
            sampling.run();
            toModel.run();
            skinning.run();
            System.arraycopy(skinning.output, 0, baked, f * frameFloats, frameFloats);
        }
        return baked[baked.length - 4];
    }
}
