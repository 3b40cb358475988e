package io.posekit.math;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class MatricesTest {

    private static final float S = (float) Math.sqrt(0.5);

    @Test
    void composeTrsIsTranslationTimesRotationTimesScale() {
        double[] m = new double[16];
        // 90° about Z, scale (2,3,4), translation (1,2,3): columns are R·S
        Matrices.composeTrs(new float[] {1, 2, 3}, 0, new float[] {0, 0, S, S}, 0, new float[] {2, 3, 4}, 0, m, 0);
        double[] expected = {0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1};
        for (int i = 0; i < 16; i++) {
            assertThat(m[i]).as("element %d", i).isCloseTo(expected[i], within(1e-6));
        }
    }

    @Test
    void decomposeRecoversTrsAndRepresentsAMirrorAsNegativeX() {
        float[] m = {0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1};
        float[] t = new float[3], r = new float[4], s = new float[3];
        double err = Matrices.decompose(m, 0, t, 0, r, 0, s, 0);
        assertThat(err).isLessThan(1e-6);
        assertThat(t).containsExactly(1, 2, 3);
        assertThat(s).containsExactly(new float[] {2, 3, 4}, within(1e-6f));
        assertThat(r).containsExactly(new float[] {0, 0, S, S}, within(1e-6f));

        float[] mirror = {-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        assertThat(Matrices.decompose(mirror, 0, t, 0, r, 0, s, 0)).isLessThan(1e-6);
        assertThat(s).containsExactly(-1, 1, 1);
        assertThat(r).containsExactly(new float[] {0, 0, 0, 1}, within(0f)); // ±0 alike

        float[] shear = {1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        assertThat(Matrices.decompose(shear, 0, t, 0, r, 0, s, 0)).as("shear is reported").isGreaterThan(0.1);
    }

    @Test
    void normalMatrixIsTheInverseTransposeAndZeroForSingularMatrices() {
        // scale (2, 4, 1): normals scale by (1/2, 1/4, 1)
        float[] m = {2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1};
        float[] n = new float[9];
        Matrices.normalMatrix(m, 0, n, 0);
        assertThat(n).containsExactly(new float[] {0.5f, 0, 0, 0, 0.25f, 0, 0, 0, 1}, within(0f));
        // a shear x += y maps the plane x = 0 onto x − y = 0: its normal (1,0,0) goes to (1,−1,0), while the
        // plane y = 0 maps onto itself and its normal (0,1,0) stays
        float[] shear = {1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        Matrices.normalMatrix(shear, 0, n, 0);
        assertThat(new float[] {n[0], n[1], n[2]}).containsExactly(new float[] {1, -1, 0}, within(0f));
        assertThat(new float[] {n[3], n[4], n[5]}).containsExactly(new float[] {0, 1, 0}, within(0f));
        float[] singular = {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        Matrices.normalMatrix(singular, 0, n, 0);
        assertThat(n).containsExactly(new float[9], within(0f));
    }

    @Test
    void normalMatrixOfANearlySingularMatrixKeepsTheDirectionInsteadOfOverflowing() {
        // found by the upload fuzzer: a joint scaled by 1e-42 (an IQM scale of 1.0 whose bits were overwritten)
        // has an inverse transpose of 1e42, infinite as a float, and skinned normals became NaN (0 × ∞)
        float tiny = 1e-42f;
        float[] m = {tiny, 0, 0, 0, 0, tiny, 0, 0, 0, 0, tiny, 0, 0, 0, 0, 1};
        float[] n = new float[9];
        Matrices.normalMatrix(m, 0, n, 0);
        assertThat(n).containsExactly(new float[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, within(0f));
        // mirrored: the sign of the determinant is kept, so normals still flip with the mirror
        float[] mirror = {-tiny, 0, 0, 0, 0, tiny, 0, 0, 0, 0, tiny, 0, 0, 0, 0, 1};
        Matrices.normalMatrix(mirror, 0, n, 0);
        assertThat(n).containsExactly(new float[] {-1, 0, 0, 0, 1, 0, 0, 0, 1}, within(0f));
        // just inside the float range the exact inverse transpose is still written
        float[] small = {1e-19f, 0, 0, 0, 0, 1e-19f, 0, 0, 0, 0, 1e-19f, 0, 0, 0, 0, 1};
        Matrices.normalMatrix(small, 0, n, 0);
        assertThat(n[0]).isEqualTo((float) (1 / (double) 1e-19f));
    }

    @Test
    void invertAndMultiplyRoundTrip() {
        float[] m = {0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1};
        float[] inv = new float[16];
        assertThat(Matrices.invert(m, 0, inv, 0)).isTrue();
        float[] product = new float[16];
        Matrices.multiply(m, 0, inv, 0, product, 0);
        float[] identity = new float[16];
        Matrices.identity(identity, 0);
        assertThat(product).containsExactly(identity, within(1e-6f));
        assertThat(Matrices.invert(new float[16], 0, inv, 0)).isFalse();
    }

    @Test
    void decomposesDoubleMatricesWithoutAllocatingInEveryQuadrant() {
        float[] t = new float[3], r = new float[4], s = new float[3];
        // rotations near 180° about each axis exercise every branch of the quaternion extraction
        double[][] quaternions = {{0, 0, 0, 1}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0.5, 0.5, 0.5, 0.5},
            {0.9, 0.1, 0.1, 0.4}, {0.1, 0.9, 0.1, 0.4}, {0.1, 0.1, 0.9, 0.4}};
        for (double[] q0 : quaternions) {
            double len = Math.sqrt(q0[0] * q0[0] + q0[1] * q0[1] + q0[2] * q0[2] + q0[3] * q0[3]);
            float[] q = {(float) (q0[0] / len), (float) (q0[1] / len), (float) (q0[2] / len), (float) (q0[3] / len)};
            double[] m = new double[16];
            Matrices.composeTrs(new float[] {1, -2, 3}, 0, q, 0, new float[] {2, 0.5f, 3}, 0, m, 0);
            Matrices.decompose(m, 0, t, 0, r, 0, s, 0);
            assertThat(t).containsExactly(1, -2, 3);
            assertThat(s).containsExactly(new float[] {2, 0.5f, 3}, within(1e-5f));
            double dot = q[0] * r[0] + q[1] * r[1] + q[2] * r[2] + q[3] * r[3];
            assertThat(Math.abs(dot)).as("same rotation as %s", java.util.Arrays.toString(q)).isCloseTo(1, within(1e-6));
        }
    }
}
