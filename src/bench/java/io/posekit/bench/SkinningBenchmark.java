package io.posekit.bench;

import io.posekit.math.Kernels;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.Skinner;
import io.posekit.skinning.SkinningJob;
import io.posekit.skinning.SkinningMethod;
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
 * Core linear blend skinning of positions and normals on one thread: {@code vertices} vertices with {@code influences}
 * influences each over 64 joints ({@link #skin}), and the same through {@link Skinner} ({@link #skinner}: both cores for
 * the large mesh), on either kernel path ({@code kernel}). Vertices per second = vertices / average time.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SkinningBenchmark {

    @Param({"10000", "100000"})
    int vertices;

    @Param({"4", "8"})
    int influences;

    /** The kernel path ({@link Kernels.Path}): {@code vector} needs {@code --add-modules jdk.incubator.vector}. */
    @Param({"scalar", "vector"})
    String kernel;

    private SkinningJob job;
    private Skinner skinner;

    @Setup
    public void setUp() {
        Kernels.Path path = Kernels.Path.valueOf(kernel.toUpperCase(java.util.Locale.ROOT));
        job = new SkinningJob(path);
        skinner = new Skinner(path);
        int joints = 64;
        Primitive primitive = Rigs.mesh(vertices, influences, joints, 3);
        float[] matrices = new float[16 * joints];
        SplittableRandom random = new SplittableRandom(5);
        for (int j = 0; j < joints; j++) {
            double angle = random.nextDouble(-Math.PI, Math.PI);
            float c = (float) Math.cos(angle), s = (float) Math.sin(angle);
            int o = 16 * j;
            matrices[o] = c;
            matrices[o + 1] = s;
            matrices[o + 4] = -s;
            matrices[o + 5] = c;
            matrices[o + 10] = 1;
            matrices[o + 12] = (float) random.nextDouble(-1, 1);
            matrices[o + 13] = (float) random.nextDouble(-1, 1);
            matrices[o + 15] = 1;
        }
        job.primitive = primitive;
        job.skinningMatrices = matrices;
        job.outPositions = new float[3 * vertices];
        job.outNormals = new float[3 * vertices];
    }

    /** One {@link SkinningJob} on the benchmark thread. */
    @Benchmark
    public float skin() {
        job.run();
        return job.outPositions[0];
    }

    /**
     * What the service does: {@link Skinner}, which splits primitives of at least {@link Skinner#PARALLEL_VERTICES}
     * vertices (here the 100 000-vertex ones) over the cores.
     */
    @Benchmark
    public float skinner() {
        skinner.skin(job.primitive, job.skinningMatrices, SkinningMethod.LINEAR, job.outPositions, job.outNormals, null);
        return job.outPositions[0];
    }

    /**
     * {@link #skinner} with dual-quaternion skinning (the matrices converted to dual quaternions, then blended per
     * vertex; on the vector path four vertices at a time).
     */
    @Benchmark
    public float dualQuaternions() {
        skinner.skin(job.primitive, job.skinningMatrices, SkinningMethod.DUAL_QUATERNION, job.outPositions,
                job.outNormals, null);
        return job.outPositions[0];
    }
}
