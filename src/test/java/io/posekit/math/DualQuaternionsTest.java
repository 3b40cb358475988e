package io.posekit.math;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class DualQuaternionsTest {

    private static final float S45 = (float) Math.sqrt(0.5);

    /** Column-major float matrix T(t)·R(q)·S(s,s,s), composed in double. */
    static float[] trs(float[] t, float[] q, float s) {
        double[] d = new double[16];
        Matrices.composeTrs(t, 0, q, 0, new float[] {s, s, s}, 0, d, 0);
        float[] m = new float[16];
        for (int i = 0; i < 16; i++) {
            m[i] = (float) d[i];
        }
        return m;
    }

    /** A uniformly distributed unit quaternion (normalised 4D Gaussian). */
    static float[] randomRotation(Random random) {
        double x = random.nextGaussian(), y = random.nextGaussian(), z = random.nextGaussian(),
                w = random.nextGaussian();
        double len = Math.sqrt(x * x + y * y + z * z + w * w);
        return new float[] {(float) (x / len), (float) (y / len), (float) (z / len), (float) (w / len)};
    }

    static float[] randomTranslation(Random random) {
        return new float[] {(float) (4 * random.nextDouble() - 2), (float) (4 * random.nextDouble() - 2),
            (float) (4 * random.nextDouble() - 2)};
    }

    /** Rotation of {@code degrees} about the (normalised) axis as a quaternion [x, y, z, w]. */
    static float[] axisAngle(double ax, double ay, double az, double degrees) {
        double len = Math.sqrt(ax * ax + ay * ay + az * az);
        double h = Math.toRadians(degrees) / 2;
        double s = Math.sin(h) / len;
        return new float[] {(float) (ax * s), (float) (ay * s), (float) (az * s), (float) Math.cos(h)};
    }

    private static float[] dqOf(float[] m) {
        float[] dq = new float[8];
        DualQuaternions.fromRigidMatrix(m, 0, dq, 0);
        return dq;
    }

    private static float[] matrixOf(float[] dq) {
        float[] m = new float[16];
        DualQuaternions.toMatrix(dq, 0, m, 0);
        return m;
    }

    private static float[] point(float[] dq, float... p) {
        float[] out = new float[3];
        DualQuaternions.transformPoint(dq, 0, p, 0, out, 0);
        return out;
    }

    @Test
    void rotationAndTranslationKnownAnswer() {
        // 90° about Z, then T(1, 2, 3): (1,0,0) → (0,1,0) + t; directions ignore t
        float[] dq = new float[8];
        DualQuaternions.fromRotationTranslation(new float[] {0, 0, S45, S45}, 0, new float[] {1, 2, 3}, 0, dq, 0);
        // qε = ½ (t, 0) q = ½ (w t + t × r, −t · r) with r = (0, 0, s), w = s, s = √½
        float h = S45 / 2;
        assertThat(dq).containsExactly(new float[] {0, 0, S45, S45, 3 * h, h, 3 * h, -3 * h}, within(1e-7f));
        assertThat(point(dq, 1, 0, 0)).containsExactly(new float[] {1, 3, 3}, within(1e-6f));
        float[] v = new float[3];
        DualQuaternions.transformVector(dq, 0, new float[] {1, 0, 0}, 0, v, 0);
        assertThat(v).containsExactly(new float[] {0, 1, 0}, within(1e-7f));
        assertThat(matrixOf(dq)).containsExactly(new float[] {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1},
                within(1e-6f));
    }

    @Test
    void identityLeavesPointsAlone() {
        float[] dq = new float[8];
        DualQuaternions.identity(dq, 0);
        assertThat(dq).containsExactly(0, 0, 0, 1, 0, 0, 0, 0);
        assertThat(point(dq, 1, -2, 3)).containsExactly(1, -2, 3);
        assertThat(dqOf(matrixOf(dq))).containsExactly(dq, within(0f)); // ±0 alike
    }

    @Test
    void matrixToDualQuaternionToMatrixRoundTripsForRandomRigidMatrices() {
        Random random = new Random(20080101);
        for (int n = 0; n < 2000; n++) {
            float[] m = trs(randomTranslation(random), randomRotation(random), 1);
            float[] dq = dqOf(m);
            assertThat(dq[3]).as("canonical sign").isGreaterThanOrEqualTo(0);
            assertThat(matrixOf(dq)).as("matrix %d", n).containsExactly(m, within(1e-6f));
            // transforming a point agrees with the matrix
            float[] p = randomTranslation(random);
            float[] expected = {
                m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12],
                m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
                m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14],
            };
            assertThat(point(dq, p)).containsExactly(expected, within(1e-5f));
        }
    }

    @Test
    void halfTurnsRoundTripWithACanonicalSign() {
        // exact half turns 2aaᵀ − I (trace −1): Shepperd's non-trace branches, w exactly 0, and the first
        // non-zero of x, y, z made positive
        int[][] axes = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {0, -1, 1}, {1, 0, -1}, {-1, 1, 0}};
        for (int[] a : axes) {
            int len2 = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
            float[] m = new float[16];
            for (int col = 0; col < 3; col++) {
                for (int row = 0; row < 3; row++) {
                    m[4 * col + row] = 2f * a[row] * a[col] / len2 - (row == col ? 1 : 0);
                }
            }
            m[12] = 0.5f;
            m[13] = -1;
            m[14] = 2;
            m[15] = 1;
            float[] dq = dqOf(m);
            String axis = java.util.Arrays.toString(a);
            assertThat(dq[3]).as("w for axis %s", axis).isZero();
            float first = dq[0] != 0 ? dq[0] : dq[1] != 0 ? dq[1] : dq[2];
            assertThat(first).as("first non-zero of x, y, z for axis %s", axis).isPositive();
            assertThat(matrixOf(dq)).as("axis %s", axis).containsExactly(m, within(1e-6f));
        }
        // float half turns about oblique axes round-trip too
        for (float[] q : new float[][] {axisAngle(-1, 1, 1, 180), axisAngle(2, -3, 1, 180)}) {
            float[] m = trs(new float[] {0.5f, -1, 2}, q, 1);
            assertThat(matrixOf(dqOf(m))).containsExactly(m, within(1e-6f));
        }
    }

    @Test
    void uniformScaleIsIgnoredByTheRigidConversion() {
        float[] q = axisAngle(1, 2, 3, 40);
        float[] t = {1, 2, 3};
        assertThat(dqOf(trs(t, q, 2.5f))).containsExactly(dqOf(trs(t, q, 1)), within(1e-6f));
        // a collapsed axis: no rotation can be read; the translation is kept (the scale, here 0, is not part of
        // a dual quaternion)
        float[] zero = new float[16];
        zero[12] = 4;
        zero[13] = 5;
        zero[14] = 6;
        assertThat(dqOf(zero)).containsExactly(dqOf(trs(new float[] {4, 5, 6}, new float[] {0, 0, 0, 1}, 1)));
        assertThat(point(dqOf(zero), 9, 9, 9)).containsExactly(new float[] {13, 14, 15}, within(1e-6f));
    }

    @Test
    void normalizeMakesAUnitDualQuaternionOfTheSameTransformation() {
        float[] m = trs(new float[] {3, -1, 2}, axisAngle(0, 1, 1, 75), 1);
        float[] dq = dqOf(m);
        float[] scaled = dq.clone();
        for (int i = 0; i < 8; i++) {
            scaled[i] *= -3;
        }
        scaled[4] += 0.3f * scaled[0]; // a dual part not orthogonal to the real part
        scaled[5] += 0.3f * scaled[1];
        scaled[6] += 0.3f * scaled[2];
        scaled[7] += 0.3f * scaled[3];
        assertThat(matrixOf(scaled)).as("toMatrix normalises").containsExactly(m, within(1e-6f));
        DualQuaternions.normalize(scaled, 0);
        assertThat(Quaternions.length(scaled, 0)).isCloseTo(1, within(1e-6));
        assertThat(Quaternions.dot(scaled, 0, scaled, 4)).isCloseTo(0, within(1e-6));
        assertThat(point(scaled, 1, 2, 3)).containsExactly(point(dq, 1, 2, 3), within(1e-5f));

        float[] degenerate = {0, 0, 0, 0, 1, 2, 3, 4};
        DualQuaternions.normalize(degenerate, 0);
        assertThat(degenerate).containsExactly(0, 0, 0, 1, 0, 0, 0, 0);
        assertThat(matrixOf(new float[8])).containsExactly(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
    }

    @Test
    void outputMayAliasTheInput() {
        float[] dq = dqOf(trs(new float[] {1, 2, 3}, new float[] {0, 0, S45, S45}, 1));
        float[] p = {1, 0, 0};
        DualQuaternions.transformPoint(dq, 0, p, 0, p, 0);
        assertThat(p).containsExactly(new float[] {1, 3, 3}, within(1e-6f));
        float[] v = {1, 0, 0};
        DualQuaternions.transformVector(dq, 0, v, 0, v, 0);
        assertThat(v).containsExactly(new float[] {0, 1, 0}, within(1e-7f));
    }

    // --- blending ---

    private static double[] blend(float[] dqs, int[] joints, float[] weights) {
        double[] out = new double[8];
        assertThat(DualQuaternions.blend(dqs, joints, weights, 0, joints.length, out, 0)).isTrue();
        return out;
    }

    private static double[] point(double[] dq, double x, double y, double z) {
        double[] out = new double[3];
        DualQuaternions.transformPoint(dq, 0, x, y, z, out, 0);
        return out;
    }

    private static float[] concat(float[]... dqs) {
        float[] out = new float[8 * dqs.length];
        for (int i = 0; i < dqs.length; i++) {
            System.arraycopy(dqs[i], 0, out, 8 * i, 8);
        }
        return out;
    }

    @Test
    void pureTranslationsBlendLinearly() {
        float[] a = dqOf(trs(new float[] {2, 0, 0}, new float[] {0, 0, 0, 1}, 1));
        float[] b = dqOf(trs(new float[] {0, 4, 0}, new float[] {0, 0, 0, 1}, 1));
        // weights need not sum to 1: only their ratio matters
        double[] d = blend(concat(a, b), new int[] {0, 1}, new float[] {2, 6});
        assertThat(point(d, 1, 1, 1)).containsExactly(new double[] {1.5, 4, 1}, within(1e-6));
    }

    @Test
    void halfwayBetweenIdentityAnd90AboutZRotatesBy45() {
        float[] a = dqOf(trs(new float[3], new float[] {0, 0, 0, 1}, 1));
        float[] b = dqOf(trs(new float[3], new float[] {0, 0, S45, S45}, 1));
        double[] d = blend(concat(a, b), new int[] {0, 1}, new float[] {0.5f, 0.5f});
        assertThat(point(d, 1, 0, 0)).containsExactly(new double[] {Math.sqrt(0.5), Math.sqrt(0.5), 0},
                within(1e-6));
        assertThat(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3]).isCloseTo(1, within(1e-12));
        assertThat(d[0] * d[4] + d[1] * d[5] + d[2] * d[6] + d[3] * d[7]).isCloseTo(0, within(1e-12));
    }

    @Test
    void antipodalDualQuaternionsOfOneTransformationBlendToIt() {
        float[] q = dqOf(trs(new float[] {1, -2, 0.5f}, axisAngle(1, 1, 0, 120), 1));
        float[] minusQ = q.clone();
        for (int i = 0; i < 8; i++) {
            minusQ[i] = -minusQ[i];
        }
        // a naive sum would be zero: the sign of −q is flipped to the pivot's hemisphere first
        double[] d = blend(concat(q, minusQ), new int[] {0, 1}, new float[] {0.5f, 0.5f});
        double[] expected = point(blend(q, new int[] {0}, new float[] {1}), 0.3, 0.7, -1.1);
        assertThat(point(d, 0.3, 0.7, -1.1)).containsExactly(expected, within(1e-6));
        // the same with −q dominant
        d = blend(concat(q, minusQ), new int[] {0, 1}, new float[] {0.25f, 0.75f});
        assertThat(point(d, 0.3, 0.7, -1.1)).containsExactly(expected, within(1e-6));
    }

    @Test
    void signsFollowTheLargestWeightNotTheFirstSlot() {
        // A = +100° about z (weight 0.5), B = −100° about z (0.25, first slot), C = identity (0.25)
        float[] a = dqOf(trs(new float[3], axisAngle(0, 0, 1, 100), 1));
        float[] b = dqOf(trs(new float[3], axisAngle(0, 0, 1, -100), 1));
        float[] c = dqOf(trs(new float[3], new float[] {0, 0, 0, 1}, 1));
        double[] d = blend(concat(a, b, c), new int[] {1, 0, 2}, new float[] {0.25f, 0.5f, 0.25f});
        // pivot A: dot(A, B) = cos 100° < 0 flips B to −B = 260° about z; dot(A, C) = cos 50° > 0 keeps C.
        // Σ = 0.5 A − 0.25 B + 0.25 C = (0, 0, 0.75 sin 50°, 0.25 cos 50° + 0.25): a rotation by
        // 2·atan2(0.75 sin 50°, 0.25 cos 50° + 0.25) ≈ 108.9° about z (pivot B would give ≈ −162.3°)
        double s50 = Math.sin(Math.toRadians(50)), c50 = Math.cos(Math.toRadians(50));
        double angle = 2 * Math.atan2(0.75 * s50, 0.25 * c50 + 0.25);
        assertThat(Math.toDegrees(angle)).isCloseTo(108.9, within(0.05));
        assertThat(point(d, 1, 0, 0)).containsExactly(new double[] {Math.cos(angle), Math.sin(angle), 0},
                within(1e-6));
    }

    @Test
    void zeroWeightSlotsAreNotReadAndNothingWeightedIsReported() {
        float[] a = dqOf(trs(new float[] {1, 2, 3}, new float[] {0, 0, 0, 1}, 1));
        // joint 99 does not exist; its slot has weight 0
        double[] d = blend(a, new int[] {99, 0, 99}, new float[] {0, 0.4f, 0});
        assertThat(point(d, 0, 0, 0)).containsExactly(new double[] {1, 2, 3}, within(1e-6));
        double[] out = {7, 7, 7, 7, 7, 7, 7, 7};
        assertThat(DualQuaternions.blend(a, new int[] {0, 0}, new float[] {0, 0}, 0, 2, out, 0)).isFalse();
        assertThat(DualQuaternions.blend(a, new int[] {0, 0}, new float[] {Float.NaN, 1}, 0, 2, out, 0)).isFalse();
        // opposite weights cancel: degenerate
        float[] two = concat(a, a);
        assertThat(DualQuaternions.blend(two, new int[] {0, 1}, new float[] {1, -1}, 0, 2, out, 0)).isFalse();
        assertThat(out).containsOnly(7);
        // a sub-range of the slots
        d = new double[8];
        assertThat(DualQuaternions.blend(a, new int[] {99, 99, 0, 0}, new float[] {1, 1, 0.5f, 0.5f}, 2, 2, d, 0))
                .isTrue();
        assertThat(point(d, 0, 0, 0)).containsExactly(new double[] {1, 2, 3}, within(1e-6));
    }

    @Test
    void theBlendIsAUnitDualQuaternionOfItsRigidTransformation() {
        // rotations with translations: the raw weighted sum's dual part is not orthogonal to its real part;
        // the blend's is, and its matrix (toMatrix) agrees with transformPoint
        Random random = new Random(7);
        for (int n = 0; n < 200; n++) {
            float[] dqs = concat(dqOf(trs(randomTranslation(random), randomRotation(random), 1)),
                    dqOf(trs(randomTranslation(random), randomRotation(random), 1)),
                    dqOf(trs(randomTranslation(random), randomRotation(random), 1)));
            float[] weights = {(float) random.nextDouble(), (float) random.nextDouble(), (float) random.nextDouble()};
            double[] d = blend(dqs, new int[] {0, 1, 2}, weights);
            assertThat(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3]).isCloseTo(1, within(1e-12));
            assertThat(d[0] * d[4] + d[1] * d[5] + d[2] * d[6] + d[3] * d[7]).isCloseTo(0, within(1e-12));
            float[] f = new float[8];
            for (int i = 0; i < 8; i++) {
                f[i] = (float) d[i];
            }
            float[] m = matrixOf(f);
            double[] p = point(d, 0.5, -1, 2);
            assertThat(new double[] {m[0] * 0.5 - m[4] + 2 * m[8] + m[12], m[1] * 0.5 - m[5] + 2 * m[9] + m[13],
                m[2] * 0.5 - m[6] + 2 * m[10] + m[14]}).containsExactly(p, within(1e-5));
        }
    }
}
