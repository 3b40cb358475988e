package io.posekit.skinning;

import io.posekit.math.Kernels;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/**
 * Skins primitives by any {@link SkinningMethod}, reusing its jobs and scratch buffers: for dual quaternions it
 * converts the skinning matrices first ({@link SkinningDualQuaternionsJob}), checking only the joints the primitive
 * actually uses (so an unused helper bone with non-uniform scale does not fail the mesh). The used joints of each
 * primitive are found once and remembered.
 *
 * <p>Linear blend skinning of a large primitive (at least {@link #PARALLEL_VERTICES} vertices) is split into vertex
 * ranges of at least half that size, one per available processor: the calling thread skins the first and the common
 * fork-join pool the others, so a big mesh uses every core while small ones (most requests) pay no hand-off.
 *
 * <p>Not thread-safe: one per request or bake.
 */
public final class Skinner {

    /** Vertex count from which a primitive is skinned by several threads. */
    public static final int PARALLEL_VERTICES = 32_768;

    private final Kernels.Path path;
    private final SkinningJob linear;
    // jobs of the ranges after the first, for parallel skinning; created when first needed
    private SkinningJob[] helpers = new SkinningJob[0];
    private final SkinningDualQuaternionsJob toDualQuaternions = new SkinningDualQuaternionsJob();
    private final DualQuaternionSkinningJob dualQuaternion;
    private final Map<Primitive, boolean[]> usedJoints = new IdentityHashMap<>();
    private float[] dualQuaternions = new float[0];
    private float[] scales = new float[0];
    // the dual-quaternion results of an authored blend (positions, normals, tangents), grown as needed
    private final float[][] scratch = {new float[0], new float[0], new float[0]};
    private final AxisScaleDualQuaternionSkinning axisScale = new AxisScaleDualQuaternionSkinning();

    /** A skinner on the kernel path selected for this JVM ({@link Kernels#selected()}). */
    public Skinner() {
        this(Kernels.selected());
    }

    /**
     * A skinner whose linear blend skinning runs on the given kernel path (benchmarks compare the two).
     *
     * @throws IllegalStateException for {@link Kernels.Path#VECTOR} when {@code jdk.incubator.vector} is absent
     */
    public Skinner(Kernels.Path path) {
        this.path = path;
        this.linear = new SkinningJob(path);
        this.dualQuaternion = new DualQuaternionSkinningJob(path);
    }

    /**
     * Skins {@code primitive} with {@code skinningMatrices} (16 floats per joint) into the wanted outputs (see
     * {@link SkinningJob} for the outputs' contracts).
     *
     * @throws NonRigidJointException (dual quaternions) when a joint the primitive uses is not rigid × uniform scale
     * @throws IllegalStateException when the inputs are inconsistent (see the jobs)
     */
    public void skin(Primitive primitive, float[] skinningMatrices, SkinningMethod method, float[] outPositions,
            float[] outNormals, float[] outTangents) {
        skin(primitive, null, null, skinningMatrices, method, outPositions, outNormals, outTangents);
    }

    /**
     * Skins {@code primitive} as {@link #skin(Primitive, float[], SkinningMethod, float[], float[], float[])} does, from
     * the given mesh-space positions and normals (e.g. morphed; {@code null} = the primitive's own).
     */
    public void skin(Primitive primitive, float[] inPositions, float[] inNormals, float[] skinningMatrices,
            SkinningMethod method, float[] outPositions, float[] outNormals, float[] outTangents) {
        if (method == SkinningMethod.AUTHORED) {
            authored(primitive, inPositions, inNormals, skinningMatrices, outPositions, outNormals, outTangents);
            return;
        }
        if (method == SkinningMethod.LINEAR) {
            linear.primitive = primitive;
            linear.inPositions = inPositions;
            linear.inNormals = inNormals;
            linear.skinningMatrices = skinningMatrices;
            linear.outPositions = outPositions;
            linear.outNormals = outNormals;
            linear.outTangents = outTangents;
            int ranges = ranges(primitive.vertexCount());
            if (ranges == 1) {
                linear.firstVertex = 0;
                linear.endVertex = -1;
                linear.run();
            } else {
                skinInParallel(primitive.vertexCount(), ranges);
            }
            return;
        }
        int joints = skinningMatrices.length / 16;
        if (dualQuaternions.length < 8 * joints) {
            dualQuaternions = new float[8 * joints];
            scales = new float[joints];
        }
        boolean[] used = usedJoints.get(primitive);
        if (used == null || used.length != joints) {
            used = new boolean[joints];
            SkinningDualQuaternionsJob.markUsedJoints(primitive, used);
            usedJoints.put(primitive, used);
        }
        toDualQuaternions.skinningMatrices = skinningMatrices;
        toDualQuaternions.usedJoints = used;
        toDualQuaternions.outDualQuaternions = dualQuaternions;
        toDualQuaternions.outScales = scales;
        toDualQuaternions.run();
        dualQuaternion.primitive = primitive;
        dualQuaternion.inPositions = inPositions;
        dualQuaternion.inNormals = inNormals;
        dualQuaternion.dualQuaternions = dualQuaternions;
        dualQuaternion.scales = scales;
        dualQuaternion.outPositions = outPositions;
        dualQuaternion.outNormals = outNormals;
        dualQuaternion.outTangents = outTangents;
        dualQuaternion.run();
    }

    /**
     * {@link SkinningMethod#AUTHORED}: linear without dual-quaternion weights, Maya's dual quaternions (axis scales
     * blended linearly, {@link AxisScaleDualQuaternionSkinning}) when they are all 1, else both and the per-vertex
     * blend ({@link BlendedSkinning}).
     */
    private void authored(Primitive primitive, float[] inPositions, float[] inNormals, float[] skinningMatrices,
            float[] outPositions, float[] outNormals, float[] outTangents) {
        float[] dqWeights = primitive.dualQuaternionWeights();
        if (dqWeights == null) {
            skin(primitive, inPositions, inNormals, skinningMatrices, SkinningMethod.LINEAR, outPositions, outNormals,
                    outTangents);
            return;
        }
        if (primitive.dualQuaternionOnly()) {
            axisScale.skin(primitive, inPositions, inNormals, skinningMatrices, outPositions, outNormals, outTangents);
            return;
        }
        int n = primitive.vertexCount();
        float[] dqP = outPositions == null ? null : grow(0, 3 * n);
        float[] dqN = outNormals == null || primitive.normals() == null ? null : grow(1, 3 * n);
        float[] dqT = outTangents == null || primitive.tangents() == null ? null : grow(2, 4 * n);
        axisScale.skin(primitive, inPositions, inNormals, skinningMatrices, dqP, dqN, dqT);
        skin(primitive, inPositions, inNormals, skinningMatrices, SkinningMethod.LINEAR, outPositions, outNormals,
                outTangents);
        BlendedSkinning.blend(dqWeights, n, dqP, dqN, dqT, outPositions, dqN == null ? null : outNormals,
                dqT == null ? null : outTangents);
    }

    /** Scratch buffer {@code i} (dual-quaternion positions, normals, tangents), at least {@code length} floats. */
    private float[] grow(int i, int length) {
        if (scratch[i].length < length) {
            scratch[i] = new float[length];
        }
        return scratch[i];
    }

    /** How many ranges to split a primitive of {@code vertices} vertices into: 1 below the parallel threshold. */
    static int ranges(int vertices) {
        if (vertices < PARALLEL_VERTICES) {
            return 1;
        }
        int cores = Math.min(Runtime.getRuntime().availableProcessors(), ForkJoinPool.getCommonPoolParallelism() + 1);
        return Math.max(1, Math.min(cores, vertices / (PARALLEL_VERTICES / 2)));
    }

    private void skinInParallel(int vertices, int ranges) {
        if (helpers.length < ranges - 1) {
            SkinningJob[] grown = java.util.Arrays.copyOf(helpers, ranges - 1);
            for (int i = helpers.length; i < grown.length; i++) {
                grown[i] = new SkinningJob(path);
            }
            helpers = grown;
        }
        ForkJoinTask<?>[] tasks = new ForkJoinTask<?>[ranges - 1];
        for (int r = 1; r < ranges; r++) {
            SkinningJob job = helpers[r - 1];
            job.primitive = linear.primitive;
            job.inPositions = linear.inPositions;
            job.inNormals = linear.inNormals;
            job.skinningMatrices = linear.skinningMatrices;
            job.outPositions = linear.outPositions;
            job.outNormals = linear.outNormals;
            job.outTangents = linear.outTangents;
            job.firstVertex = (int) ((long) vertices * r / ranges);
            job.endVertex = (int) ((long) vertices * (r + 1) / ranges);
            tasks[r - 1] = ForkJoinTask.adapt(job::run).fork();
        }
        linear.firstVertex = 0;
        linear.endVertex = (int) ((long) vertices / ranges);
        RuntimeException failure = null;
        try {
            linear.run();
        } catch (RuntimeException e) {
            failure = e;
        }
        // every range must have finished before the outputs are used (or reused), even when one failed
        for (ForkJoinTask<?> task : tasks) {
            try {
                task.join();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        linear.endVertex = -1;
        if (failure != null) {
            throw failure;
        }
    }
}
