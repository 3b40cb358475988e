package io.posekit.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link FloatText} against {@link Float#toString(float)} (the text Jackson wrote before): the same characters, and
 * {@link Float#parseFloat} gives back the identical bits. All values seeded; {@code FloatTextExhaustiveTest} checks
 * every float on request.
 */
class FloatTextTest {

    private static String text(float v) {
        byte[] out = new byte[FloatText.MAX_LENGTH];
        int end = FloatText.write(v, out, 0);
        return new String(out, 0, end, StandardCharsets.US_ASCII);
    }

    /** The text of {@code v} is Float.toString's, at most MAX_LENGTH long, and reads back as the same bits. */
    private static void assertExact(float v) {
        String t = text(v);
        String expected = Float.toString(v);
        if (!t.equals(expected) || Float.floatToRawIntBits(Float.parseFloat(t)) != Float.floatToRawIntBits(v)) {
            fail("bits %08x: wrote %s, Float.toString gives %s", Float.floatToRawIntBits(v), t, expected);
        }
    }

    @Test
    void knownTexts() {
        assertThat(text(0f)).isEqualTo("0.0");
        assertThat(text(-0f)).isEqualTo("-0.0");
        assertThat(text(1f)).isEqualTo("1.0");
        assertThat(text(-2.5f)).isEqualTo("-2.5");
        assertThat(text(0.1f)).isEqualTo("0.1");
        assertThat(text(1.9498801f)).isEqualTo("1.9498801");
        assertThat(text(33.14065f)).isEqualTo("33.14065");
        assertThat(text(0.001f)).isEqualTo("0.001");
        assertThat(text(9.999999E-4f)).isEqualTo("9.999999E-4");
        assertThat(text(1.0E-4f)).isEqualTo("1.0E-4");
        assertThat(text(9999999f)).isEqualTo("9999999.0");
        assertThat(text(1.0E7f)).isEqualTo("1.0E7");
        assertThat(text(1234567.9f)).isEqualTo("1234567.9");
        assertThat(text(16777215f)).isEqualTo("1.6777215E7");
        assertThat(text(16777216f)).isEqualTo("1.6777216E7");
        assertThat(text(1.0E10f)).isEqualTo("1.0E10");
        assertThat(text(Float.MAX_VALUE)).isEqualTo("3.4028235E38");
        assertThat(text(Float.MIN_NORMAL)).isEqualTo("1.1754944E-38");
        // nine digits and a two-digit negative exponent: the longest kind of text
        assertThat(text(-1.21589096E-20f)).isEqualTo("-1.21589096E-20").hasSize(FloatText.MAX_LENGTH);
        // the smallest subnormals: two digits where they are closer than the shortest one-digit decimal
        assertThat(text(Float.MIN_VALUE)).isEqualTo("1.4E-45");
        assertThat(text(2 * Float.MIN_VALUE)).isEqualTo("2.8E-45");
        assertThat(text(7 * Float.MIN_VALUE)).isEqualTo("9.8E-45");
        assertThat(text(8 * Float.MIN_VALUE)).isEqualTo("1.1E-44");
        assertThat(text(14 * Float.MIN_VALUE)).isEqualTo("2.0E-44");
    }

    @Test
    void edgeCasesMatchFloatToString() {
        int checked = 0;
        for (float v : new float[] {0f, Float.MIN_VALUE, Float.MIN_NORMAL, Math.nextDown(Float.MIN_NORMAL),
            Float.MAX_VALUE, Math.nextDown(Float.MAX_VALUE), 1f, Math.nextUp(1f), Math.nextDown(1f)}) {
            assertExact(v);
            assertExact(-v);
            checked += 2;
        }
        for (int t = 1; t <= 1 << 12; t++) { // the smallest subnormals, one ulp apart
            assertExact(t * Float.MIN_VALUE);
            checked++;
        }
        for (int e = -149; e <= 127; e++) { // every power of two and its neighbours
            float p = Math.scalb(1f, e);
            assertExact(p);
            assertExact(Math.nextUp(p));
            assertExact(Math.nextDown(p));
            checked += 3;
        }
        for (int e = -45; e <= 38; e++) { // the float nearest every power of ten and its neighbours
            float p = Float.parseFloat("1e" + e);
            assertExact(p);
            assertExact(Math.nextUp(p));
            assertExact(Math.nextDown(p));
            checked += 3;
        }
        for (int i = 0; i <= 100_000; i++) { // small integers and their halves
            assertExact(i);
            assertExact(i + 0.5f);
            checked += 2;
        }
        for (int i = (1 << 24) - 1000; i <= (1 << 24) + 1000; i++) { // around the last exactly representable integers
            assertExact(i);
            checked++;
        }
        for (float boundary : new float[] {1e-3f, 1e7f}) { // where the layout switches between plain and E
            float up = boundary;
            float down = Math.nextDown(boundary);
            for (int i = 0; i < 1000; i++) {
                assertExact(up);
                assertExact(down);
                up = Math.nextUp(up);
                down = Math.nextDown(down);
                checked += 2;
            }
        }
        assertThat(checked).isEqualTo(18 + 4096 + 831 + 252 + 200_002 + 2001 + 4000);
    }

    @Test
    void randomBitPatternsMatchFloatToString() {
        SplittableRandom random = new SplittableRandom(0x5EED_F10A7L);
        int checked = 0;
        while (checked < 3_000_000) {
            float v = Float.intBitsToFloat(random.nextInt());
            if (Float.isFinite(v)) {
                assertExact(v);
                checked++;
            }
        }
        assertThat(checked).isEqualTo(3_000_000);
    }

    @Test
    void randomVertexLikeValuesMatchFloatToString() {
        // positions, normals and matrix entries: magnitudes around 1e-3 to 1e3
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 1_000_000; i++) {
            assertExact((float) ((random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-3, 4))));
        }
    }

    @Test
    void textIsTheNearestOfTheShortestDecimalsThatReadBack() {
        // independent of Float.toString, from the exact binary value: no decimal with fewer digits reads back as the
        // float (below 3 digits a closer two-digit text may win over a one-digit one), and no decimal with as many
        // digits that reads back is nearer
        SplittableRandom random = new SplittableRandom(7);
        int checked = 0;
        while (checked < 20_000) {
            float v = Math.abs(Float.intBitsToFloat(random.nextInt()));
            if (!Float.isFinite(v) || v == 0) {
                continue;
            }
            checked++;
            BigDecimal decimal = new BigDecimal(text(v));
            BigDecimal exact = new BigDecimal(v);
            int digits = decimal.stripTrailingZeros().precision();
            assertThat(readsBack(decimal, v)).isTrue();
            if (digits > 2) {
                // the nearest shorter decimals below and above: if neither reads back, none does
                assertThat(readsBack(exact.round(new MathContext(digits - 1, RoundingMode.FLOOR)), v)).isFalse();
                assertThat(readsBack(exact.round(new MathContext(digits - 1, RoundingMode.CEILING)), v)).isFalse();
            }
            BigDecimal nearest = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
            if (readsBack(nearest, v)) {
                assertThat(decimal.compareTo(nearest)).as("%s is the nearest %d-digit decimal", text(v), digits).isZero();
            }
        }
    }

    private static boolean readsBack(BigDecimal decimal, float v) {
        return Float.parseFloat(decimal.toString()) == v;
    }

    @Test
    void writesAtTheOffsetAndNothingFromMaxLengthOn() {
        byte[] out = new byte[40];
        Arrays.fill(out, (byte) '#');
        assertThat(FloatText.write(-1.1754944E-38f, out, 10)).isEqualTo(24);
        assertThat(new String(out, StandardCharsets.US_ASCII)).isEqualTo("##########-1.1754944E-38################");
        Arrays.fill(out, (byte) '#');
        // a short text: the word of digits after "1." reaches past its end, but never to out[10 + MAX_LENGTH]
        assertThat(FloatText.write(1.0E10f, out, 10)).isEqualTo(16);
        assertThat(new String(out, 0, 16, StandardCharsets.US_ASCII)).isEqualTo("##########1.0E10");
        assertThat(new String(out, 10 + FloatText.MAX_LENGTH, 40 - 10 - FloatText.MAX_LENGTH, StandardCharsets.US_ASCII))
                .isEqualTo("###############");
        assertThatThrownBy(() -> FloatText.write(1f, new byte[20], 6)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void nanAndInfinitiesHaveNoText() {
        for (float v : new float[] {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            Float.intBitsToFloat(0x7FC0_0001), Float.intBitsToFloat(0xFF80_0001)}) {
            assertThatThrownBy(() -> FloatText.write(v, new byte[FloatText.MAX_LENGTH], 0))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("a float without decimal text");
        }
    }

    @Test
    void eightDigitsAreTheDecimalDigitsMostSignificantFirst() {
        assertThat(FloatText.eightDigits(12_345_678)).isEqualTo(0x0807_0605_0403_0201L);
        assertThat(FloatText.eightDigits(0)).isZero();
        assertThat(FloatText.eightDigits(99_999_999)).isEqualTo(0x0909_0909_0909_0909L);
        int[] powers = {10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};
        SplittableRandom random = new SplittableRandom(8);
        for (int i = 0; i < 1_000_000; i++) {
            int l = i < 10_000 ? i * 10_000 + i : random.nextInt(100_000_000);
            long word = FloatText.eightDigits(l);
            for (int d = 0; d < 8; d++) {
                int expected = l / powers[d] % 10;
                if ((word >>> (8 * d) & 0xFF) != expected) {
                    fail("digit %d of %d: %x", d, l, word);
                }
            }
        }
    }

    @Test
    void logarithmHelpersAreExactOverTheFloatRange() {
        for (int q = -300; q <= 300; q++) {
            BigDecimal pow2 = new BigDecimal(BigInteger.ONE.shiftLeft(Math.abs(q)));
            BigDecimal twoQ = q >= 0 ? pow2 : BigDecimal.ONE.divide(pow2);
            assertThat(FloatText.floorLog10Pow2(q)).as("floor(log10(2^%d))", q).isEqualTo(floorLog10(twoQ));
            assertThat(FloatText.floorLog10ThreeQuartersPow2(q)).as("floor(log10(3/4 · 2^%d))", q)
                    .isEqualTo(floorLog10(twoQ.multiply(new BigDecimal("0.75"))));
            // 10^n (n ≥ 1) is no power of two: floor(log2(10^n)) = bitLength − 1 and floor(log2(10^−n)) = −bitLength
            int bits = BigInteger.TEN.pow(Math.abs(q)).bitLength();
            assertThat(FloatText.floorLog2Pow10(q)).as("floor(log2(10^%d))", q).isEqualTo(q >= 0 ? bits - 1 : -bits);
        }
    }

    /** floor(log10(x)) for x > 0, exactly: the position of its first significant digit. */
    private static int floorLog10(BigDecimal x) {
        return x.precision() - x.scale() - 1;
    }
}
