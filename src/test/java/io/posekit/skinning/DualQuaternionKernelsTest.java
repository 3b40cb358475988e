package io.posekit.skinning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.math.Kernels;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The scalar and the vector dual-quaternion skinning kernels against each other, bit for bit, on random meshes
 * ({@link SkinningKernelsTest#mesh}: 4 and 8 influences, zero weights naming joints without a dual quaternion,
 * all-zero weights, negative weights, vertex counts that leave a tail past the last four) with random rigid joints
 * under uniform scales (one zero), plus a non-finite dual quaternion that only zero weights name.
 */
class DualQuaternionKernelsTest {

    @ParameterizedTest(name = "{0} influences, {1} vertices")
    @CsvSource({"4, 1000", "8, 1003", "4, 998", "4, 3", "8, 17"})
    void theVectorKernelGivesTheScalarKernelsBits(int k, int vertices) {
        assumeTrue(Kernels.vectorAvailable(), "jdk.incubator.vector is not in the boot layer");
        SplittableRandom random = new SplittableRandom(17L * k + vertices);
        int joints = 40;
        Primitive mesh = SkinningKernelsTest.mesh(random, vertices, k, joints);
        float[] matrices = SkinningKernelsTest.matrices(random, joints, true);
        for (int j = 0; j < joints; j++) {
            // uniform scales: most 1, some 0.5–2, joint 7 collapsed to 0
            double s = j == 7 ? 0 : j % 3 == 0 ? random.nextDouble(0.5, 2) : 1;
            for (int e = 0; e < 12; e++) {
                if (e % 4 != 3) {
                    matrices[16 * j + e] = (float) (matrices[16 * j + e] * s);
                }
            }
        }
        SkinningDualQuaternionsJob convert = new SkinningDualQuaternionsJob();
        convert.skinningMatrices = matrices;
        convert.outDualQuaternions = new float[8 * joints];
        convert.outScales = new float[joints];
        convert.run();
        float[][] scalar = skin(new DualQuaternionSkinningJob(Kernels.Path.SCALAR), mesh, convert);
        float[][] vector = skin(new DualQuaternionSkinningJob(Kernels.Path.VECTOR), mesh, convert);
        for (int a = 0; a < 3; a++) {
            assertBitsEqual(vector[a], scalar[a], List.of("positions", "normals", "tangents").get(a));
        }
        assertThat(scalar[0]).doesNotContain(Float.NaN);
    }

    @Test
    void aNonFiniteJointThatOnlyZeroWeightsNameChangesNothing() {
        assumeTrue(Kernels.vectorAvailable(), "jdk.incubator.vector is not in the boot layer");
        // joint 0 is poisoned; every vertex weights joint 1 and names joint 0 with weight 0
        float[] dqs = {Float.NaN, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0};
        float[] scales = {1, 1};
        int vertices = 8;
        float[] positions = new float[3 * vertices];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = i;
        }
        int[] joints = new int[4 * vertices];
        float[] weights = new float[4 * vertices];
        for (int v = 0; v < vertices; v++) {
            joints[4 * v] = 1;
            weights[4 * v] = 1;
        }
        Primitive mesh = new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), positions, null, null, null, 4,
                joints, weights);
        for (Kernels.Path path : Kernels.Path.values()) {
            DualQuaternionSkinningJob job = new DualQuaternionSkinningJob(path);
            job.primitive = mesh;
            job.dualQuaternions = dqs;
            job.scales = scales;
            job.outPositions = new float[3 * vertices];
            job.run();
            // joint 1 translates by (2, 0, 0): dual x = 1 = t/2
            for (int v = 0; v < vertices; v++) {
                assertThat(Arrays.copyOfRange(job.outPositions, 3 * v, 3 * v + 3)).as(path.label())
                        .containsExactly(3 * v + 2, 3 * v + 1, 3 * v + 2);
            }
        }
    }

    @Test
    void bothKernelsRefuseAJointWithoutADualQuaternion() {
        assumeTrue(Kernels.vectorAvailable(), "jdk.incubator.vector is not in the boot layer");
        int vertices = 6;
        int[] joints = new int[4 * vertices];
        float[] weights = new float[4 * vertices];
        for (int v = 0; v < vertices; v++) {
            weights[4 * v] = 1;
        }
        joints[4 * 5] = 3;
        Primitive mesh = new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), new float[3 * vertices], null, null,
                null, 4, joints, weights);
        for (Kernels.Path path : Kernels.Path.values()) {
            DualQuaternionSkinningJob job = new DualQuaternionSkinningJob(path);
            job.primitive = mesh;
            job.dualQuaternions = new float[] {0, 0, 0, 1, 0, 0, 0, 0};
            job.scales = new float[] {1};
            job.outPositions = new float[3 * vertices];
            assertThatThrownBy(job::run).as(path.label()).isInstanceOf(IllegalStateException.class)
                    .hasMessage("vertex 5 slot 0 refers to joint 3 but there are only 1 dual quaternions and scales");
        }
    }

    private static float[][] skin(DualQuaternionSkinningJob job, Primitive mesh, SkinningDualQuaternionsJob from) {
        int n = mesh.vertexCount();
        float[][] out = {new float[3 * n], new float[3 * n], new float[4 * n]};
        job.primitive = mesh;
        job.dualQuaternions = from.outDualQuaternions;
        job.scales = from.outScales;
        job.outPositions = out[0];
        job.outNormals = out[1];
        job.outTangents = out[2];
        job.run();
        return out;
    }

    private static void assertBitsEqual(float[] actual, float[] expected, String what) {
        for (int i = 0; i < expected.length; i++) {
            if (Float.floatToRawIntBits(actual[i]) != Float.floatToRawIntBits(expected[i])) {
                throw new AssertionError(what + " [" + i + "]: " + actual[i] + " but the scalar kernel gives "
                        + expected[i]);
            }
        }
    }
}
