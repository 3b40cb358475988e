package io.posekit.math;

/**
 * Whole-array checks of imported and computed data, written so that C2 vectorizes them: no branch per element, the
 * offender searched for only when the array has one. Why: an import checks every float it decodes for finiteness and
 * every index against its bound, and loops that left at the first offender were 23 % of BrainStem's parse
 * (docs/performance.md).
 */
public final class ArrayChecks {

    /** Elements per unrolled step: eight independent sums, so that the additions need not wait for each other. */
    private static final int LANES = 8;

    private ArrayChecks() {
    }

    /**
     * The index of the first value of {@code a[from, to)} that is NaN or infinite, or -1 when all are finite.
     *
     * @throws IndexOutOfBoundsException when the range is not within {@code a}
     */
    public static int firstNonFinite(float[] a, int from, int to) {
        java.util.Objects.checkFromToIndex(from, to, a.length);
        // x * 0 is ±0 for a finite x and NaN for NaN or ±infinity, and a sum with a NaN in it is NaN
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        float s4 = 0;
        float s5 = 0;
        float s6 = 0;
        float s7 = 0;
        int i = from;
        for (; i + LANES <= to; i += LANES) {
            s0 += a[i] * 0f;
            s1 += a[i + 1] * 0f;
            s2 += a[i + 2] * 0f;
            s3 += a[i + 3] * 0f;
            s4 += a[i + 4] * 0f;
            s5 += a[i + 5] * 0f;
            s6 += a[i + 6] * 0f;
            s7 += a[i + 7] * 0f;
        }
        for (; i < to; i++) {
            s0 += a[i] * 0f;
        }
        if (s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7 == 0) {
            return -1;
        }
        for (int k = from; k < to; k++) {
            if (!Float.isFinite(a[k])) {
                return k;
            }
        }
        throw new AssertionError("a non-finite sum of finite values");
    }

    /** {@link #firstNonFinite(float[], int, int)} over the whole array; -1 for {@code null}. */
    public static int firstNonFinite(float[] a) {
        return a == null ? -1 : firstNonFinite(a, 0, a.length);
    }

    /**
     * The index of the first value of {@code a} that, read as an unsigned 32-bit integer, is {@code bound} or more, or
     * -1 when all are below it.
     *
     * @param bound the exclusive upper bound, read as unsigned
     */
    public static int firstUnsignedAtLeast(int[] a, int bound) {
        // the unsigned maximum as the signed maximum of the values with their top bit flipped
        int max = Integer.MIN_VALUE;
        for (int v : a) {
            max = Math.max(max, v ^ Integer.MIN_VALUE);
        }
        if (a.length == 0 || Integer.compareUnsigned(max ^ Integer.MIN_VALUE, bound) < 0) {
            return -1;
        }
        for (int k = 0; k < a.length; k++) {
            if (Integer.compareUnsigned(a[k], bound) >= 0) {
                return k;
            }
        }
        throw new AssertionError("an unsigned maximum at or above the bound with no value there");
    }
}
