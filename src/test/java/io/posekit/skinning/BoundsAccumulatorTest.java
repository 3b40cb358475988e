package io.posekit.skinning;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BoundsAccumulatorTest {

    @Test
    void boxAndSphereOverBatchesInTwoPasses() {
        float[] a = {0, 0, 0, 2, 0, 0};
        float[] b = {1, 4, 0, Float.NaN, 9, 9};
        BoundsAccumulator acc = new BoundsAccumulator();
        acc.addToBox(a, 0, 2);
        acc.addToBox(b, 0, 2);
        acc.addToSphere(a, 0, 2);
        acc.addToSphere(b, 0, 2);
        Bounds bounds = acc.bounds();
        assertThat(acc.points()).isEqualTo(3); // the NaN point is skipped
        assertThat(bounds.min()).containsExactly(0, 0, 0);
        assertThat(bounds.max()).containsExactly(2, 4, 0);
        assertThat(bounds.center()).containsExactly(1, 2, 0);
        // farthest from (1,2,0): (0,0,0) and (2,0,0) at √5; (1,4,0) at 2
        assertThat(bounds.radius()).isEqualTo((float) Math.sqrt(5));
    }

    @Test
    void offsetsCountsAndNothingToBound() {
        BoundsAccumulator acc = new BoundsAccumulator();
        assertThat(acc.bounds()).isNull();
        float[] xyz = {9, 9, 9, -1, 2, 3};
        acc.addToBox(xyz, 3, 1);
        acc.addToSphere(xyz, 3, 1);
        assertThat(acc.bounds().min()).containsExactly(-1, 2, 3);
        assertThat(acc.bounds().max()).containsExactly(-1, 2, 3);
        assertThat(acc.bounds().radius()).isZero();
    }
}
