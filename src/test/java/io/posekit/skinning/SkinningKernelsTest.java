package io.posekit.skinning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.math.Kernels;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The scalar and the vector linear blend skinning kernels against each other on random meshes: 4 and 8 influences,
 * normals and tangents, rigid and non-rigid joints (non-uniform scale, shear), zero weights naming joints without a
 * matrix, vertices whose weights sum to zero, negative weights, and vertex ranges as {@link Skinner} splits them.
 *
 * <p>Tolerance: positions {@code |v − s| ≤ 1e-5 · max(1, max|s|)} over the mesh (the conformance tolerance for
 * positions, relative to the mesh's extent), normals and tangents (unit vectors) {@code ≤ 1e-5}; the vector kernel
 * works in float, the scalar one in double, so they differ by a few float roundings.
 */
class SkinningKernelsTest {

    private static final double TOLERANCE = 1e-5;

    @ParameterizedTest(name = "{0} influences, rigid {1}, vertices {2}, range [{3}, {4})")
    @CsvSource({
        "4, true, 1000, 0, -1",
        "4, false, 1000, 0, -1",
        "8, true, 1003, 0, -1",
        "8, false, 1003, 0, -1",
        "4, true, 997, 13, 500",
        "8, false, 997, 500, 997",
        "4, false, 5, 0, -1",
        "8, true, 17, 3, 4",
    })
    void theVectorKernelMatchesTheScalarOne(int k, boolean rigid, int vertices, int first, int end) {
        assumeTrue(Kernels.vectorAvailable(), "jdk.incubator.vector is not in the boot layer");
        SplittableRandom random = new SplittableRandom(31L * k + vertices + (rigid ? 1 : 0));
        int joints = 40;
        Primitive mesh = mesh(random, vertices, k, joints);
        float[] matrices = matrices(random, joints, rigid);
        float[][] scalar = skin(new SkinningJob(Kernels.Path.SCALAR), mesh, matrices, first, end);
        float[][] vector = skin(new SkinningJob(Kernels.Path.VECTOR), mesh, matrices, first, end);
        double extent = 1;
        for (float x : scalar[0]) {
            extent = Float.isNaN(x) ? extent : Math.max(extent, Math.abs(x));
        }
        assertClose(vector[0], scalar[0], TOLERANCE * extent);
        assertClose(vector[1], scalar[1], TOLERANCE);
        assertClose(vector[2], scalar[2], TOLERANCE);
        // outside the range nothing is written
        int last = end == -1 ? vertices : end;
        for (int v = 0; v < vertices; v++) {
            if (v < first || v >= last) {
                assertThat(vector[0][3 * v]).isNaN();
                assertThat(vector[2][4 * v + 3]).isNaN();
            }
        }
    }

    @Test
    void bothKernelsRefuseAJointWithoutAMatrixAndKeepAZeroWeightOneAtBay() {
        assumeTrue(Kernels.vectorAvailable(), "jdk.incubator.vector is not in the boot layer");
        for (Kernels.Path path : Kernels.Path.values()) {
            // slot 1 has weight 0.5 and names joint 4 of 2
            Primitive bad = new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), new float[] {0, 0, 0}, null, null,
                    null, 4, new int[] {0, 4, 0, 0}, new float[] {0.5f, 0.5f, 0, 0});
            float[] identity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,
                0, 1};
            SkinningJob job = new SkinningJob(path);
            job.primitive = bad;
            job.skinningMatrices = identity;
            job.outPositions = new float[3];
            assertThatThrownBy(job::run).isInstanceOf(IllegalStateException.class)
                    .hasMessage("vertex 0 slot 1 refers to joint 4 but there are only 2 skinning matrices");
            // the same joint with weight 0 contributes nothing; all-zero weights follow slot 0
            Primitive ok = new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), new float[] {1, 2, 3, 1, 2, 3},
                    null, null, null, 4, new int[] {1, 4, 0, 0, 1, 9, 9, 9}, new float[] {1, 0, 0, 0, 0, 0, 0, 0});
            identity[28] = 10; // joint 1 translates by 10 in x
            job.primitive = ok;
            job.outPositions = new float[6];
            job.run();
            assertThat(job.outPositions).as(path.label()).containsExactly(11, 2, 3, 11, 2, 3);
        }
    }

    /** Runs {@code job} on the range, into outputs prefilled with NaN, and returns positions, normals, tangents. */
    private static float[][] skin(SkinningJob job, Primitive mesh, float[] matrices, int first, int end) {
        int n = mesh.vertexCount();
        float[][] out = {new float[3 * n], new float[3 * n], new float[4 * n]};
        for (float[] o : out) {
            java.util.Arrays.fill(o, Float.NaN);
        }
        job.primitive = mesh;
        job.skinningMatrices = matrices;
        job.outPositions = out[0];
        job.outNormals = out[1];
        job.outTangents = out[2];
        job.firstVertex = first;
        job.endVertex = end;
        job.run();
        return out;
    }

    private static void assertClose(float[] actual, float[] expected, double tolerance) {
        for (int i = 0; i < expected.length; i++) {
            if (Float.isNaN(expected[i])) {
                assertThat(actual[i]).as("element %d", i).isNaN();
            } else {
                assertThat((double) Math.abs(actual[i] - expected[i])).as("element %d: %s vs %s", i, actual[i], expected[i])
                        .isLessThanOrEqualTo(tolerance);
            }
        }
    }

    /**
     * Random vertices in a box of ±2, unit normals and tangents (w ±1), {@code k} slots per vertex: mostly random
     * positive weights over random joints, with some slots of weight 0 naming joints without a matrix, some vertices
     * with all weights 0 (slot 0 then rules), and a few with a negative weight.
     */
    static Primitive mesh(SplittableRandom random, int vertices, int k, int joints) {
        float[] positions = new float[3 * vertices];
        float[] normals = new float[3 * vertices];
        float[] tangents = new float[4 * vertices];
        int[] jointIndices = new int[k * vertices];
        float[] weights = new float[k * vertices];
        for (int v = 0; v < vertices; v++) {
            for (int c = 0; c < 3; c++) {
                positions[3 * v + c] = (float) random.nextDouble(-2, 2);
            }
            unit(random, normals, 3 * v);
            unit(random, tangents, 4 * v);
            tangents[4 * v + 3] = random.nextBoolean() ? 1 : -1;
            int kind = random.nextInt(20);
            for (int i = 0; i < k; i++) {
                int s = k * v + i;
                jointIndices[s] = random.nextInt(joints);
                weights[s] = i == 0 || random.nextInt(3) > 0 ? (float) random.nextDouble() : 0;
                if (kind == 0) {
                    weights[s] = 0;
                } else if (kind == 1 && i == 1) {
                    weights[s] = -0.2f;
                }
                if (weights[s] == 0 && random.nextBoolean()) {
                    jointIndices[s] = joints + random.nextInt(100); // no matrix: harmless at weight 0
                }
            }
            if (kind == 0) {
                jointIndices[k * v] = random.nextInt(joints);
            }
        }
        return new Primitive(PrimitiveMode.POINTS, List.of("POSITION", "NORMAL", "TANGENT"), positions, normals,
                tangents, null, k, jointIndices, weights);
    }

    private static void unit(SplittableRandom random, float[] out, int o) {
        double x = random.nextGaussian(), y = random.nextGaussian(), z = random.nextGaussian();
        double len = Math.sqrt(x * x + y * y + z * z);
        out[o] = (float) (x / len);
        out[o + 1] = (float) (y / len);
        out[o + 2] = (float) (z / len);
    }

    /**
     * Random rotations and translations (±3); unless {@code rigid}, every fifth joint also scales non-uniformly
     * (0.5–2 per axis) and shears.
     */
    static float[] matrices(SplittableRandom random, int joints, boolean rigid) {
        float[] m = new float[16 * joints];
        for (int j = 0; j < joints; j++) {
            double x = random.nextGaussian(), y = random.nextGaussian(), z = random.nextGaussian(),
                    w = random.nextGaussian();
            double len = Math.sqrt(x * x + y * y + z * z + w * w);
            x /= len;
            y /= len;
            z /= len;
            w /= len;
            double[] r = {1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y),
                2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x),
                2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)};
            boolean scaled = !rigid && j % 5 == 0;
            int o = 16 * j;
            for (int c = 0; c < 3; c++) {
                double s = scaled ? random.nextDouble(0.5, 2) : 1;
                for (int e = 0; e < 3; e++) {
                    m[o + 4 * c + e] = (float) (r[3 * c + e] * s + (scaled && c == 2 && e == 0 ? 0.3 : 0));
                }
                m[o + 12 + c] = (float) random.nextDouble(-3, 3);
            }
            m[o + 15] = 1;
        }
        return m;
    }
}
