package io.posekit.math;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ArrayChecksTest {

    @Test
    void findsTheFirstNonFiniteValueWhereverItIs() {
        for (int length : new int[] {0, 1, 7, 8, 9, 17, 100}) {
            float[] a = new float[length];
            for (int i = 0; i < length; i++) {
                a[i] = (i % 2 == 0 ? 1 : -1) * Float.MAX_VALUE / (i + 1); // large finite values: their sums overflow
            }
            assertThat(ArrayChecks.firstNonFinite(a)).as("length %d", length).isEqualTo(-1);
            for (int at = 0; at < length; at++) {
                for (float bad : new float[] {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}) {
                    float[] b = a.clone();
                    b[at] = bad;
                    if (at + 1 < length) {
                        b[length - 1] = Float.NaN; // a later offender does not hide the first
                    }
                    assertThat(ArrayChecks.firstNonFinite(b)).as("%s at %d of %d", bad, at, length).isEqualTo(at);
                }
            }
        }
    }

    @Test
    void checksOnlyTheRangeAskedFor() {
        float[] a = {Float.NaN, 1, 2, 3, Float.POSITIVE_INFINITY};
        assertThat(ArrayChecks.firstNonFinite(a, 1, 4)).isEqualTo(-1);
        assertThat(ArrayChecks.firstNonFinite(a, 1, 5)).isEqualTo(4);
        assertThat(ArrayChecks.firstNonFinite(a, 0, 5)).isEqualTo(0);
        assertThat(ArrayChecks.firstNonFinite(null)).isEqualTo(-1);
        assertThat(ArrayChecks.firstNonFinite(new float[] {-0f, 0f, Float.MIN_VALUE})).isEqualTo(-1);
        assertThatThrownBy(() -> ArrayChecks.firstNonFinite(a, 2, 6)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void findsTheFirstIndexAtOrAboveAnUnsignedBound() {
        int[] a = {0, 5, 9, 3};
        assertThat(ArrayChecks.firstUnsignedAtLeast(a, 10)).isEqualTo(-1);
        assertThat(ArrayChecks.firstUnsignedAtLeast(a, 9)).isEqualTo(2);
        assertThat(ArrayChecks.firstUnsignedAtLeast(a, 5)).isEqualTo(1);
        assertThat(ArrayChecks.firstUnsignedAtLeast(new int[0], 0)).isEqualTo(-1);
        // above Integer.MAX_VALUE as unsigned: negative as int, out of range for any int bound
        int[] huge = {1, 2, -1, 3, Integer.MIN_VALUE};
        assertThat(ArrayChecks.firstUnsignedAtLeast(huge, Integer.MAX_VALUE)).isEqualTo(2);
        assertThat(ArrayChecks.firstUnsignedAtLeast(new int[] {1, Integer.MIN_VALUE}, Integer.MAX_VALUE)).isEqualTo(1);
        assertThat(ArrayChecks.firstUnsignedAtLeast(new int[] {Integer.MAX_VALUE - 1}, Integer.MAX_VALUE)).isEqualTo(-1);
        assertThat(ArrayChecks.firstUnsignedAtLeast(new int[] {0, 0}, 0)).isEqualTo(0);
    }
}
