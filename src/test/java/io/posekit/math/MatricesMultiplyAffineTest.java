package io.posekit.math;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MatricesMultiplyAffineTest {

    @Test
    void doubleAffineProductKnownAnswerAndAliasingOfA() {
        // a = T(1,2,3) · diag(2,3,4); b = T(1,1,1) · Rz(90°)
        double[] a = {2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1};
        double[] b = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1};
        double[] out = new double[16];
        Matrices.multiplyAffine(a, 0, b, 0, out, 0);
        // upper 3×3 = diag(2,3,4)·Rz: columns (0,3,0), (−2,0,0), (0,0,4); translation = a·(1,1,1) = (3,5,7)
        double[] expected = {0, 3, 0, 0, -2, 0, 0, 0, 0, 0, 4, 0, 3, 5, 7, 1};
        assertThat(out).containsExactly(expected);
        // out may be a itself
        Matrices.multiplyAffine(a, 0, b, 0, a, 0);
        assertThat(a).containsExactly(expected);
    }
}
