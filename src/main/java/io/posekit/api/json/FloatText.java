package io.posekit.api.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The decimal text of a float, character for character what {@link Float#toString(float)} gives (JDK 19 and later):
 * the shortest decimal that reads back as the same float (of those, the closest; a one-digit answer may grow to two
 * digits when that is closer), plain between 10⁻³ and 10⁷ ({@code 0.001}, {@code 1234567.0}), otherwise
 * {@code d.dddE±n}. Every such text is also a valid JSON number. It is written as ASCII straight into a byte array,
 * so a response of thousands of floats needs no {@code String} per number.
 *
 * <p>The digits come from Raffaello Giulietti's Schubfach algorithm ("The Schubfach way to render doubles", 2020),
 * the one behind {@code Float.toString}, for the float case: one 64-bit power-of-ten approximation per decimal
 * exponent, three 64×64-bit products per value.
 */
public final class FloatText {

    /** The longest text of a float: a sign, nine digits and a two-digit negative exponent ({@code -1.21589096E-20}). */
    public static final int MAX_LENGTH = 15;

    /** The exponent of the smallest subnormal: its value is 1 × 2^Q_MIN. */
    private static final int Q_MIN = -149;
    /** The significand of the smallest normal float, 2^23. */
    private static final int C_MIN = 1 << 23;
    /**
     * Subnormal significands below this (values under 10⁻⁴⁴) have a one-digit shortest decimal whose two-digit
     * neighbour may be closer: they are rendered with one more digit, then the closest candidate wins.
     */
    private static final int C_TINY = 8;
    /** The decimal exponents the powers-of-ten table covers: floor(log10(2^q)) over all floats. */
    private static final int K_MIN = -45;
    private static final int K_MAX = 31;
    /** G[k − K_MIN]: 10^−k scaled into [2^62, 2^63] and rounded up (see {@link #powersOfTen}). */
    private static final long[] G = powersOfTen();

    private static final int[] POWERS = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
        1_000_000_000};
    /** '0' in each byte: digits 0–9 in the bytes of a word become their characters. */
    private static final long ASCII_ZEROS = 0x3030_3030_3030_3030L;
    /** Stores eight characters at once, the first at the lowest index. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private FloatText() {
    }

    /**
     * Writes the text of {@code v} at {@code out[at]} on. Whole words of digits are stored at once, so bytes after the
     * text may be overwritten too, but none from {@code at + MAX_LENGTH} on.
     *
     * @return the index just after the text
     * @throws IllegalArgumentException if {@code v} is NaN or infinite (JSON has no text for them)
     * @throws IndexOutOfBoundsException if {@code out} has fewer than {@link #MAX_LENGTH} bytes from {@code at}
     */
    public static int write(float v, byte[] out, int at) {
        int bits = Float.floatToRawIntBits(v);
        int t = bits & (C_MIN - 1);
        int bq = (bits >>> 23) & 0xFF;
        if (bq == 0xFF) {
            throw new IllegalArgumentException("a float without decimal text: " + v);
        }
        Objects.checkFromIndexSize(at, MAX_LENGTH, out.length);
        // a sign costs a byte only when set (no branch: signs of vertex data are unpredictable)
        out[at] = '-';
        at -= bits >> 31;
        long decimal;
        if (bq != 0) {
            int mq = 1 - Q_MIN - bq; // v = c · 2^−mq
            int c = C_MIN | t;
            int f = c >> mq;
            // an integer below 2^24 is exact, and no shorter decimal lies within half an ulp (< 1/2) of it
            decimal = 0 < mq && mq < 24 && f << mq == c ? f : shortest(-mq, c, 0);
        } else if (t != 0) {
            decimal = t < C_TINY ? shortest(Q_MIN, 10 * t, -1) : shortest(Q_MIN, t, 0);
        } else {
            out[at] = '0';
            out[at + 1] = '.';
            out[at + 2] = '0';
            return at + 3;
        }
        return text((int) decimal, (int) (decimal >> 32), out, at);
    }

    /**
     * The shortest decimal in the rounding interval of c · 2^q (with {@code dk = -1} for tiny subnormals passed as
     * 10·c, whose answer has one digit more) as f · 10^e, packed: f in the low and e in the high 32 bits.
     */
    private static long shortest(int q, int c, int dk) {
        // the interval's ends are included only when c is even (round-half-even maps them back to c)
        int open = c & 1;
        long cb = (long) c << 2;
        long cbr = cb + 2;
        long cbl;
        int k;
        if (c != C_MIN || q == Q_MIN) {
            cbl = cb - 2;
            k = floorLog10Pow2(q);
        } else {
            // at a power of two the float below is twice as close: the interval is asymmetric
            cbl = cb - 1;
            k = floorLog10ThreeQuartersPow2(q);
        }
        int h = q + floorLog2Pow10(-k) + 33;
        long g = G[k - K_MIN];
        // 4 · c · 2^q · 10^−k and the interval's ends, to a quarter unit, rounded to odd
        int vb = roundToOdd(g, cb << h);
        int vbl = roundToOdd(g, cbl << h);
        int vbr = roundToOdd(g, cbr << h);
        int s = vb >> 2;
        if (s >= 100) {
            // one digit fewer: at most one multiple of 10 fits in the interval (it is under 10 units wide)
            int sp10 = 10 * (int) ((s * 1_717_986_919L) >>> 34);
            int tp10 = sp10 + 10;
            boolean lowerIn = vbl + open <= sp10 << 2;
            boolean upperIn = (tp10 << 2) + open <= vbr;
            if (lowerIn != upperIn) {
                return (long) k << 32 | (lowerIn ? sp10 : tp10);
            }
        }
        // s or s + 1, whichever is in; if both, the closer one, the even one on a tie
        int up = s + 1;
        boolean lowerIn = vbl + open <= s << 2;
        boolean upperIn = (up << 2) + open <= vbr;
        int cmp = vb - ((s + up) << 1);
        int f = lowerIn != upperIn ? (lowerIn ? s : up) : cmp < 0 || cmp == 0 && (s & 1) == 0 ? s : up;
        return (long) (k + dk) << 32 | f;
    }

    /** g · cp / 2^95, its last bit set when anything was cut off (so ties and exact values stay apart). */
    private static int roundToOdd(long g, long cp) {
        long x = Math.multiplyHigh(g, cp);
        long floor = x >>> 31;
        long sticky = ((x & 0xFFFF_FFFFL) + 0xFFFF_FFFFL) >>> 32;
        return (int) (floor | sticky);
    }

    /**
     * Writes f · 10^e (0 < f < 10^9) in Float.toString's layout: f as nine digits d₁…d₉ (d₁ ≠ 0, trailing zeros
     * possible), the last eight computed together in one word ({@link #eightDigits}), stored whole and then cut back
     * to the significant ones (at least one after the point), with few branches: they are what costs most in
     * unpredictable data such as vertex coordinates.
     */
    private static int text(int f, int e, byte[] out, int at) {
        int len = floorLog10Pow2(Integer.SIZE - Integer.numberOfLeadingZeros(f));
        len += (POWERS[len] - 1 - f) >>> 31; // one more when f ≥ 10^len
        // f · 10^e = 0.d₁d₂…d₉ · 10^point
        int point = e + len;
        int nine = f * POWERS[9 - len];
        int first = nine / 100_000_000;
        long digits = eightDigits(nine - 100_000_000 * first);
        // the significant digits among d₂…d₉ (zero bytes at the high end are trailing zeros)
        int significant = 8 - (Long.numberOfLeadingZeros(digits) >>> 3);
        long chars = digits + ASCII_ZEROS;
        if (0 < point && point <= 7) {
            // d₁…d_point '.' d_point+1…d₉: the point goes in after point − 1 of the eight
            int split = 8 * (point - 1);
            long low = chars & ((1L << split) - 1);
            long high = chars >>> split;
            out[at] = (byte) ('0' + first);
            LONGS.set(out, at + 1, low | ((long) '.' << split) | (high << (split + 8)));
            out[at + 9] = (byte) (chars >>> 56);
            return at + point + 1 + Math.max(1, significant + 1 - point);
        }
        if (-3 < point && point <= 0) {
            // 0.00d₁…: write both zeros after the point, then start the digits where they belong
            out[at] = '0';
            out[at + 1] = '.';
            out[at + 2] = '0';
            out[at + 3] = '0';
            int d = at + 2 - point;
            out[d] = (byte) ('0' + first);
            LONGS.set(out, d + 1, chars);
            return d + 1 + significant;
        }
        out[at] = (byte) ('0' + first);
        out[at + 1] = '.';
        LONGS.set(out, at + 2, chars);
        at += 2 + Math.max(1, significant);
        out[at++] = 'E';
        int exponent = point - 1;
        out[at] = '-';
        at -= exponent >> 31;
        exponent = Math.abs(exponent);
        if (exponent < 10) {
            out[at] = (byte) ('0' + exponent);
            return at + 1;
        }
        out[at] = (byte) ('0' + exponent / 10);
        out[at + 1] = (byte) ('0' + exponent % 10);
        return at + 2;
    }

    /**
     * The eight decimal digits of 0 ≤ l < 10^8 as the bytes of a little-endian word, most significant first, each
     * 0–9: halved into 4-digit, 2-digit and 1-digit lanes by multiplying with reciprocals (exact in these ranges:
     * n / 100 = n · 5243 >> 19 below 43 699, n / 10 = n · 103 >> 10 below 179), no lane overflowing into the next.
     */
    static long eightDigits(int l) {
        int upper = l / 10_000;
        long fours = upper | (long) (l - 10_000 * upper) << 32;
        long hundreds = ((fours * 5243) >>> 19) & 0x0000_007F_0000_007FL;
        long twos = hundreds | (fours - 100 * hundreds) << 16;
        long tens = ((twos * 103) >>> 10) & 0x000F_000F_000F_000FL;
        return tens | (twos - 10 * tens) << 8;
    }

    /** floor(q · log10(2)), exact for |q| ≤ 5 456 721. */
    static int floorLog10Pow2(int q) {
        return (int) ((q * 661_971_961_083L) >> 41);
    }

    /** floor(log10(3/4 · 2^q)), exact for |q| ≤ 5 456 721. */
    static int floorLog10ThreeQuartersPow2(int q) {
        return (int) ((q * 661_971_961_083L - 274_743_187_321L) >> 41);
    }

    /** floor(e · log2(10)), exact for |e| ≤ 1 838 394. */
    static int floorLog2Pow10(int e) {
        return (int) ((e * 913_124_641_741L) >> 38);
    }

    /**
     * For each k: write 10^−k = β · 2^r with 2^125 ≤ β < 2^126; the entry is floor((floor(β) + 1) / 2^63) + 1, a
     * 63-bit upper bound of β / 2^63 (the float case of Schubfach's table, computed exactly once).
     */
    private static long[] powersOfTen() {
        long[] g = new long[K_MAX - K_MIN + 1];
        for (int k = K_MIN; k <= K_MAX; k++) {
            int shift = 125 - floorLog2Pow10(-k); // β = 10^−k · 2^shift
            BigInteger beta;
            if (k <= 0) {
                BigInteger p = BigInteger.TEN.pow(-k);
                beta = shift >= 0 ? p.shiftLeft(shift) : p.shiftRight(-shift);
            } else {
                beta = BigInteger.ONE.shiftLeft(shift).divide(BigInteger.TEN.pow(k));
            }
            g[k - K_MIN] = beta.add(BigInteger.ONE).shiftRight(63).longValueExact() + 1;
        }
        return g;
    }
}
