package io.posekit.skinning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SkinnerTest {

    private static final int JOINTS = 12;

    /** A point cloud of {@code n} vertices with normals and tangents, 4 random influences each (some of weight 0). */
    private static Primitive cloud(int n, int badJointAt) {
        SplittableRandom random = new SplittableRandom(n);
        float[] positions = new float[3 * n];
        float[] normals = new float[3 * n];
        float[] tangents = new float[4 * n];
        int[] joints = new int[4 * n];
        float[] weights = new float[4 * n];
        for (int v = 0; v < n; v++) {
            for (int c = 0; c < 3; c++) {
                positions[3 * v + c] = (float) random.nextDouble(-1, 1);
                normals[3 * v + c] = (float) random.nextDouble(-1, 1);
                tangents[4 * v + c] = (float) random.nextDouble(-1, 1);
            }
            tangents[4 * v + 3] = random.nextBoolean() ? 1 : -1;
            for (int i = 0; i < 4; i++) {
                joints[4 * v + i] = random.nextInt(JOINTS);
                weights[4 * v + i] = random.nextInt(4) == 0 ? 0 : (float) random.nextDouble();
            }
        }
        if (badJointAt >= 0) {
            joints[4 * badJointAt + 1] = JOINTS + 3;
            weights[4 * badJointAt + 1] = 0.5f;
        }
        return new Primitive(PrimitiveMode.POINTS, List.of("POSITION", "NORMAL", "TANGENT", "JOINTS_0", "WEIGHTS_0"),
                positions, normals, tangents, null, 4, joints, weights);
    }

    private static float[] matrices() {
        SplittableRandom random = new SplittableRandom(1);
        float[] m = new float[16 * JOINTS];
        for (int j = 0; j < JOINTS; j++) {
            for (int e = 0; e < 15; e++) {
                m[16 * j + e] = e % 4 == 3 ? 0 : (float) random.nextDouble(-2, 2);
            }
            m[16 * j + 15] = 1;
        }
        return m;
    }

    /** A primitive above the threshold is split into ranges, and the ranges give exactly the one-job result. */
    @Test
    void parallelRangesGiveExactlyTheSingleJobResult() {
        int n = 3 * Skinner.PARALLEL_VERTICES + 17;
        Primitive p = cloud(n, -1);
        float[] m = matrices();
        SkinningJob single = new SkinningJob();
        single.primitive = p;
        single.skinningMatrices = m;
        single.outPositions = new float[3 * n];
        single.outNormals = new float[3 * n];
        single.outTangents = new float[4 * n];
        single.run();
        float[] positions = new float[3 * n];
        float[] normals = new float[3 * n];
        float[] tangents = new float[4 * n];
        new Skinner().skin(p, m, SkinningMethod.LINEAR, positions, normals, tangents);
        assertThat(positions).isEqualTo(single.outPositions);
        assertThat(normals).isEqualTo(single.outNormals);
        assertThat(tangents).isEqualTo(single.outTangents);
        assertThat(Skinner.ranges(n)).isEqualTo(Math.min(Runtime.getRuntime().availableProcessors(),
                java.util.concurrent.ForkJoinPool.getCommonPoolParallelism() + 1));
        assertThat(Skinner.ranges(Skinner.PARALLEL_VERTICES - 1)).isEqualTo(1);
    }

    /** A bad joint in the last range fails the whole call, after every range has finished. */
    @Test
    void aFailingRangeFailsTheCall() {
        int n = 2 * Skinner.PARALLEL_VERTICES;
        Primitive p = cloud(n, n - 5);
        Skinner skinner = new Skinner();
        assertThatThrownBy(() -> skinner.skin(p, matrices(), SkinningMethod.LINEAR, new float[3 * n], null, null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("vertex " + (n - 5) + " slot 1 refers to joint " + (JOINTS + 3));
        // the skinner stays usable
        Primitive good = cloud(100, -1);
        float[] out = new float[300];
        skinner.skin(good, matrices(), SkinningMethod.LINEAR, out, null, null);
        assertThat(out[0]).isFinite();
    }
}
