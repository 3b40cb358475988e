package io.posekit.skinning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SkinningJobTest {

    private static final float R5 = (float) Math.sqrt(5);
    private static final float R10 = (float) Math.sqrt(10);

    /** S0 = identity, S1 = T(10,0,0), S2 = S(2,1,1), S3 = T(0,0,5)·Rz(90°). */
    private static final float[] SKINNING = {
        1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1,
        2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
        0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 5, 1,
    };

    /**
     * Four vertices with two influence sets (8 slots each):
     * <ol start="0">
     *   <li>five weighted slots over both sets, joint 7 (no matrix) in a zero-weight slot;</li>
     *   <li>weights 2 + 2 (sum 4, not 1);</li>
     *   <li>all weights zero, slot 0 = joint 1, other slots joint 99;</li>
     *   <li>a single weight 0.5 in the second set (slot 5), joint 2 (non-uniform scale).</li>
     * </ol>
     */
    private static Primitive primitive(boolean withNormals, boolean withTangents) {
        float[] positions = {1, 1, 1, 1, 2, 3, 1, 2, 3, 1, 2, 3};
        float[] normals = {1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0};
        float[] tangents = {0, 1, 0, -1, 1, 0, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1};
        int[] joints = {
            0, 1, 2, 3, 3, 1, 7, 0,
            1, 0, 0, 0, 0, 0, 0, 0,
            1, 99, 99, 99, 99, 99, 99, 99,
            0, 0, 0, 0, 0, 2, 0, 0,
        };
        float[] weights = {
            0.1f, 0.2f, 0.3f, 0, 0.25f, 0.15f, 0, 0,
            2, 2, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0.5f, 0, 0,
        };
        return new Primitive(PrimitiveMode.POINTS, List.of("POSITION", "JOINTS_0", "WEIGHTS_0", "JOINTS_1",
                "WEIGHTS_1"), positions, withNormals ? normals : null, withTangents ? tangents : null, null, 8, joints,
                weights);
    }

    private static SkinningJob job(Primitive p, float[] outP, float[] outN, float[] outT) {
        SkinningJob job = new SkinningJob();
        job.primitive = p;
        job.skinningMatrices = SKINNING;
        job.outPositions = outP;
        job.outNormals = outN;
        job.outTangents = outT;
        return job;
    }

    // vertex 0: weights per joint 0: 0.1, 1: 0.35, 2: 0.3, 3: 0.25 (sum 1)
    //   S0 p = (1,1,1), S1 p = (11,1,1), S2 p = (2,1,1), S3 p = (−1,1,6)
    //   → (0.1 + 3.85 + 0.6 − 0.25, 1, 0.1 + 0.35 + 0.3 + 1.5) = (4.3, 1, 2.25)
    // vertex 1: joints 1 and 0 at 0.5 each: 0.5·(11,2,3) + 0.5·(1,2,3) = (6,2,3)
    // vertex 2: joint 1 with weight 1: (11,2,3)
    // vertex 3: joint 2 with weight 1: (2,2,3)
    private static final float[] EXPECTED_POSITIONS = {4.3f, 1, 2.25f, 6, 2, 3, 11, 2, 3, 2, 2, 3};
    // vertex 0: N0 = N1 = I, N2 = diag(0.5,1,1), N3 = Rz; n = (1,0,0):
    //   0.45·(1,0,0) + 0.3·(0.5,0,0) + 0.25·(0,1,0) = (0.6, 0.25, 0), length 0.65 → (12/13, 5/13, 0)
    // vertex 1: (0,0,1); vertex 2: zero stays zero; vertex 3: diag(0.5,1,1)·(1,1,0) = (0.5,1,0) → (1,2,0)/√5
    private static final float[] EXPECTED_NORMALS = {12f / 13, 5f / 13, 0, 0, 0, 1, 0, 0, 0, 1 / R5, 2 / R5, 0};
    // vertex 0: t = (0,1,0): 0.75·(0,1,0) + 0.25·Rz·(0,1,0) = (−0.25, 0.75, 0) → (−1,3,0)/√10, w −1
    // vertex 1: (1,0,0), w 1; vertex 2: (0,0,1), w 1; vertex 3: diag(2,1,1)·(1,1,0) = (2,1,0) → /√5, w 1
    private static final float[] EXPECTED_TANGENTS = {
        -1 / R10, 3 / R10, 0, -1, 1, 0, 0, 1, 0, 0, 1, 1, 2 / R5, 1 / R5, 0, 1,
    };

    @Test
    void eightInfluencesNormalisationAndZeroWeightFallbackKnownAnswer() {
        float[] outP = new float[12];
        float[] outN = new float[12];
        float[] outT = new float[16];
        SkinningJob job = job(primitive(true, true), outP, outN, outT);
        assertThat(job.validate()).isTrue();
        job.run();
        assertThat(outP).containsExactly(EXPECTED_POSITIONS, within(1e-6f));
        assertThat(outN).containsExactly(EXPECTED_NORMALS, within(1e-6f));
        assertThat(outT).containsExactly(EXPECTED_TANGENTS, within(1e-6f));
        // handedness is copied bit for bit
        assertThat(new float[] {outT[3], outT[7], outT[11], outT[15]}).containsExactly(-1, 1, 1, 1);
        // the job is reusable: a second run gives the same result
        job.run();
        assertThat(outP).containsExactly(EXPECTED_POSITIONS, within(1e-6f));
    }

    @Test
    void nullOutputsAreSkipped() {
        float[] outP = new float[12];
        job(primitive(true, true), outP, null, null).run();
        assertThat(outP).containsExactly(EXPECTED_POSITIONS, within(1e-6f));

        float[] outN = new float[12];
        job(primitive(true, true), null, outN, null).run();
        assertThat(outN).containsExactly(EXPECTED_NORMALS, within(1e-6f));

        float[] outT = new float[16];
        job(primitive(true, true), null, null, outT).run();
        assertThat(outT).containsExactly(EXPECTED_TANGENTS, within(1e-6f));

        SkinningJob nothing = job(primitive(true, true), null, null, null);
        assertThat(nothing.validate()).isTrue();
        nothing.run();
    }

    @Test
    void normalAndTangentBuffersAreIgnoredWhenThePrimitiveHasNone() {
        float[] outP = new float[12];
        float[] outN = new float[1];       // too short, but unused
        float[] outT = new float[16];
        Arrays.fill(outT, 5);
        SkinningJob job = job(primitive(false, false), outP, outN, outT);
        assertThat(job.validate()).isTrue();
        job.run();
        assertThat(outP).containsExactly(EXPECTED_POSITIONS, within(1e-6f));
        assertThat(outN).containsExactly(0);
        assertThat(outT).containsOnly(5);
    }

    @Test
    void nonFiniteWeightsFallBackToSlotZero() {
        // a NaN weight makes the sum unusable: the vertex follows its slot-0 joint (1 = T(10,0,0)), no NaN output
        Primitive p = new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), new float[] {1, 2, 3},
                new float[] {0, 1, 0}, null, null, 4, new int[] {1, 2, 0, 0}, new float[] {0.5f, Float.NaN, 0, 0});
        float[] outP = new float[3];
        float[] outN = new float[3];
        job(p, outP, outN, null).run();
        assertThat(outP).containsExactly(11, 2, 3);
        assertThat(outN).containsExactly(0, 1, 0);
    }

    @Test
    void weightedJointWithoutMatrixFailsTheRun() {
        Primitive p = new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), new float[] {0, 0, 0}, null, null,
                null, 4, new int[] {0, 4, 0, 0}, new float[] {0.5f, 0.5f, 0, 0});
        SkinningJob job = job(p, new float[3], null, null);
        assertThat(job.validate()).isTrue();
        assertThatThrownBy(job::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("joint 4");
        Primitive zero = new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), new float[] {0, 0, 0}, null, null,
                null, 4, new int[] {4, 0, 0, 0}, new float[] {0, 0, 0, 0});
        assertThatThrownBy(job(zero, new float[3], null, null)::run).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void validateRejectsInconsistentInputs() {
        Primitive p = primitive(true, true);
        assertThat(job(p, new float[11], null, null).validate()).isFalse();
        assertThat(job(p, null, new float[11], null).validate()).isFalse();
        assertThat(job(p, null, null, new float[15]).validate()).isFalse();
        assertThat(job(null, new float[12], null, null).validate()).isFalse();
        SkinningJob noMatrices = job(p, new float[12], null, null);
        noMatrices.skinningMatrices = null;
        assertThat(noMatrices.validate()).isFalse();
        // writing into the primitive's own (shared, immutable) arrays or one output twice
        assertThat(job(p, p.positions(), null, null).validate()).isFalse();
        assertThat(job(p, null, p.normals(), null).validate()).isFalse();
        float[] shared = new float[16];
        assertThat(job(p, shared, shared, null).validate()).isFalse();
        // no influences: use RigidTransformJob
        Primitive rigid = new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), new float[] {0, 0, 0}, null, null,
                null, 0, new int[0], new float[0]);
        assertThat(job(rigid, new float[3], null, null).validate()).isFalse();
        assertThatThrownBy(job(rigid, new float[3], null, null)::run).isInstanceOf(IllegalStateException.class);
    }

    /** A vertex range skins only its vertices; ranges outside [0, vertexCount] or reversed are refused. */
    @Test
    void vertexRangeSkinsOnlyItsVertices() {
        Primitive p = primitive(false, false);
        float[] outP = new float[12];
        java.util.Arrays.fill(outP, -7);
        SkinningJob job = job(p, outP, null, null);
        job.firstVertex = 1;
        job.endVertex = 3;
        job.run();
        float[] expected = EXPECTED_POSITIONS.clone();
        java.util.Arrays.fill(expected, 0, 3, -7);
        java.util.Arrays.fill(expected, 9, 12, -7);
        assertThat(outP).containsExactly(expected, within(1e-6f));
        job.firstVertex = 3;
        job.endVertex = 2;
        assertThat(job.validate()).isFalse();
        job.firstVertex = 0;
        job.endVertex = 5;
        assertThat(job.validate()).isFalse();
        job.endVertex = -1;
        assertThat(job.validate()).isTrue();
    }

    /**
     * Rotations (the blended-matrix loop) and rotations with non-uniform scale (the per-joint normal matrix loop) both
     * give the formula's values: p' = Σ ŵ S p, n' = normalize(Σ ŵ (S⁻¹)ᵀ n), computed here independently in double.
     */
    @Test
    void rigidAndScaledJointsMatchTheFormula() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(21);
        for (boolean scaled : new boolean[] {false, true}) {
            int joints = 5;
            int n = 200;
            float[] s = new float[16 * joints];
            double[][] normalMatrices = new double[joints][];
            for (int j = 0; j < joints; j++) {
                double ax = random.nextDouble(-1, 1), ay = random.nextDouble(-1, 1), az = random.nextDouble(-1, 1);
                double angle = random.nextDouble(-3, 3);
                double[] r = rotation(ax, ay, az, angle);
                double[] scale = scaled ? new double[] {random.nextDouble(0.5, 2), random.nextDouble(0.5, 2),
                    random.nextDouble(0.5, 2)} : new double[] {1, 1, 1};
                double[] m3 = new double[9]; // column-major R·diag(scale)
                for (int c = 0; c < 3; c++) {
                    for (int row = 0; row < 3; row++) {
                        m3[3 * c + row] = r[3 * c + row] * scale[c];
                        s[16 * j + 4 * c + row] = (float) m3[3 * c + row];
                    }
                }
                s[16 * j + 12] = (float) random.nextDouble(-1, 1);
                s[16 * j + 13] = (float) random.nextDouble(-1, 1);
                s[16 * j + 14] = (float) random.nextDouble(-1, 1);
                s[16 * j + 15] = 1;
                // (R·D)⁻ᵀ = R·D⁻¹
                double[] nm = new double[9];
                for (int c = 0; c < 3; c++) {
                    for (int row = 0; row < 3; row++) {
                        nm[3 * c + row] = r[3 * c + row] / scale[c];
                    }
                }
                normalMatrices[j] = nm;
            }
            float[] positions = new float[3 * n];
            float[] normals = new float[3 * n];
            int[] ji = new int[4 * n];
            float[] w = new float[4 * n];
            for (int v = 0; v < n; v++) {
                for (int c = 0; c < 3; c++) {
                    positions[3 * v + c] = (float) random.nextDouble(-1, 1);
                    normals[3 * v + c] = (float) random.nextDouble(-1, 1);
                }
                for (int i = 0; i < 4; i++) {
                    ji[4 * v + i] = random.nextInt(joints);
                    w[4 * v + i] = i == 3 ? 0 : (float) random.nextDouble(0.1, 1);
                }
            }
            Primitive p = new Primitive(PrimitiveMode.POINTS, List.of("POSITION", "NORMAL", "JOINTS_0", "WEIGHTS_0"),
                    positions, normals, null, null, 4, ji, w);
            float[] outP = new float[3 * n];
            float[] outN = new float[3 * n];
            SkinningJob job = new SkinningJob();
            job.primitive = p;
            job.skinningMatrices = s;
            job.outPositions = outP;
            job.outNormals = outN;
            job.run();
            for (int v = 0; v < n; v++) {
                double sum = 0;
                double[] ep = new double[3];
                double[] en = new double[3];
                for (int i = 0; i < 4; i++) {
                    sum += w[4 * v + i];
                }
                for (int i = 0; i < 4; i++) {
                    double wi = w[4 * v + i] / sum;
                    int j = ji[4 * v + i];
                    for (int row = 0; row < 3; row++) {
                        double pr = s[16 * j + 12 + row];
                        double nr = 0;
                        for (int c = 0; c < 3; c++) {
                            pr += s[16 * j + 4 * c + row] * positions[3 * v + c];
                            nr += normalMatrices[j][3 * c + row] * normals[3 * v + c];
                        }
                        ep[row] += wi * pr;
                        en[row] += wi * nr;
                    }
                }
                double len = Math.sqrt(en[0] * en[0] + en[1] * en[1] + en[2] * en[2]);
                for (int c = 0; c < 3; c++) {
                    assertThat((double) outP[3 * v + c]).as("scaled %s vertex %d", scaled, v).isCloseTo(ep[c], within(2e-6));
                    assertThat((double) outN[3 * v + c]).as("scaled %s normal %d", scaled, v)
                            .isCloseTo(en[c] / len, within(3e-6));
                }
            }
        }
    }

    /** Column-major rotation matrix about axis (ax, ay, az) by angle radians. */
    private static double[] rotation(double ax, double ay, double az, double angle) {
        double len = Math.sqrt(ax * ax + ay * ay + az * az);
        double x = ax / len, y = ay / len, z = az / len;
        double c = Math.cos(angle), s = Math.sin(angle), t = 1 - c;
        return new double[] {
            t * x * x + c, t * x * y + s * z, t * x * z - s * y,
            t * x * y - s * z, t * y * y + c, t * y * z + s * x,
            t * x * z + s * y, t * y * z - s * x, t * z * z + c,
        };
    }
}
