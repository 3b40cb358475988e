package io.posekit.math;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class QuaternionsTest {

    private static final float S45 = (float) Math.sqrt(0.5);
    private static final float[] IDENTITY = {0, 0, 0, 1};
    /** 90° about +Z. */
    private static final float[] Z90 = {0, 0, S45, S45};

    private static float[] slerp(float[] a, float[] b, double t) {
        float[] out = new float[4];
        Quaternions.slerp(a, 0, b, 0, t, out, 0);
        return out;
    }

    /** Rotation of {@code degrees} about +Z as a quaternion, in double, rounded to float. */
    private static float[] aboutZ(double degrees) {
        double h = Math.toRadians(degrees) / 2;
        return new float[] {0, 0, (float) Math.sin(h), (float) Math.cos(h)};
    }

    /**
     * Dequantized keys can be longer than unit (a normalized-short quaternion is off by up to ~1e-4): two such keys
     * have a dot product above 1, where slerp's weights would extrapolate and lengthen the result. It is the
     * normalized lerp then (as three.js interpolates them): unit length, halfway between.
     */
    @Test
    void keysLongerThanUnitGiveAUnitResult() {
        float[] a = {0, 0, 0.38270f * 1.0001f, 0.92390f * 1.0001f};
        float[] b = {0, 0, 0.38271f * 1.0001f, 0.92389f * 1.0001f};
        float[] out = new float[4];
        Quaternions.slerp(a, 0, b, 0, 0.5, out, 0);
        double length = Math.sqrt(out[2] * (double) out[2] + out[3] * (double) out[3]);
        assertThat(length).isCloseTo(1.0, within(1e-7));
        double x = 0.5 * (a[2] + b[2]);
        double w = 0.5 * (a[3] + b[3]);
        double n = Math.sqrt(x * x + w * w);
        assertThat(out[2]).isEqualTo((float) (x / n));
        assertThat(out[3]).isEqualTo((float) (w / n));
    }

    @Test
    void endpointsAreExact() {
        assertThat(slerp(IDENTITY, Z90, 0)).containsExactly(IDENTITY);
        assertThat(slerp(IDENTITY, Z90, 1)).containsExactly(Z90);
        float[] a = {0.1f, -0.7f, 0.5f, 0.5f};
        float[] b = {-0.3f, 0.2f, 0.9f, 0.2f};
        assertThat(slerp(a, b, 0)).containsExactly(a);
        assertThat(slerp(a, b, 1)).containsExactly(b);
    }

    @Test
    void halfwayBetweenIdentityAnd90AboutZIs45AboutZ() {
        // 45° about Z: [0, 0, sin 22.5°, cos 22.5°]
        assertThat(slerp(IDENTITY, Z90, 0.5)).containsExactly(new float[] {0, 0, 0.38268343f, 0.9238795f},
                within(1e-7f));
        // a quarter of the way: 22.5° about Z = [0, 0, sin 11.25°, cos 11.25°]
        assertThat(slerp(IDENTITY, Z90, 0.25)).containsExactly(new float[] {0, 0, 0.19509032f, 0.98078528f},
                within(1e-7f));
    }

    @Test
    void negatedEndQuaternionTakesTheShortPathAndGivesTheSameRotation() {
        float[] minusZ90 = {-0f, -0f, -S45, -S45};
        float[] viaPlus = slerp(IDENTITY, Z90, 0.5);
        float[] viaMinus = slerp(IDENTITY, minusZ90, 0.5);
        assertThat(viaMinus).containsExactly(viaPlus);
        // at t = 1 the (negated) end is reached: −(−q) = q
        assertThat(slerp(IDENTITY, minusZ90, 1)).containsExactly(Z90);
    }

    @Test
    void moreThan180DegreesApartGoesTheShortWay() {
        // 200° about Z has dot −sin(10°) < 0 with the identity; as −q it is −160°, so halfway is −80° about Z
        float[] z200 = aboutZ(200);
        assertThat(Quaternions.dot(IDENTITY, 0, z200, 0)).isNegative();
        float[] half = slerp(IDENTITY, z200, 0.5);
        assertThat(half).containsExactly(new float[] {0, 0, -0.64278761f, 0.76604444f}, within(1e-7f));
    }

    @Test
    void oppositeRotationsInterpolateAlongAConsistentGreatCircle() {
        // 180° about Z: dot = 0, every great circle is as short; the result must still be a unit quaternion
        // a quarter turn (90°) from both ends
        float[] z180 = {0, 0, 1, 0};
        float[] half = slerp(IDENTITY, z180, 0.5);
        assertThat(Quaternions.length(half, 0)).isCloseTo(1, within(1e-7));
        assertThat(Quaternions.angleBetween(IDENTITY, 0, half, 0)).isCloseTo(Math.PI / 2, within(1e-6));
        assertThat(Quaternions.angleBetween(half, 0, z180, 0)).isCloseTo(Math.PI / 2, within(1e-6));
        // with these inputs the circle is the Z one: 90° about Z
        assertThat(half).containsExactly(Z90, within(1e-7f));
        assertThat(slerp(IDENTITY, z180, 0.5)).containsExactly(half);
    }

    @Test
    void nearlyIdenticalQuaternionsGiveNoNaN() {
        float[] b = {1e-6f, 0, 0, 1};
        Quaternions.normalize(b, 0);
        float[] half = slerp(IDENTITY, b, 0.5);
        assertThat(half).doesNotContain(Float.NaN);
        assertThat(half).containsExactly(new float[] {0.5e-6f, 0, 0, 1}, within(1e-12f));
        // identical inputs: dot = 1 exactly
        assertThat(slerp(Z90, Z90, 0.3)).containsExactly(Z90, within(1e-7f));
        // just beyond the lerp threshold (angle 1e-4 rad): the exact formula, still no NaN
        float[] c = {(float) Math.sin(0.5e-4), 0, 0, (float) Math.cos(0.5e-4)};
        assertThat(slerp(IDENTITY, c, 0.5)).containsExactly(
                new float[] {(float) Math.sin(0.25e-4), 0, 0, (float) Math.cos(0.25e-4)}, within(1e-9f));
    }

    @Test
    void matchesAnIndependentDoublePrecisionReference() {
        float[][] pairs = {
            {0.1f, 0.2f, 0.3f, 0.9f}, {-0.4f, 0.5f, 0.1f, 0.7f},
            {0.5f, 0.5f, 0.5f, 0.5f}, {-0.1f, 0.9f, -0.3f, -0.2f},   // negative dot
            {0, 0.6f, 0, 0.8f}, {0.01f, 0.61f, 0.02f, 0.79f},       // close, but not within the lerp threshold
        };
        double[] ts = {0.1, 0.25, 0.5, 0.75, 0.9};
        for (int p = 0; p < pairs.length; p += 2) {
            float[] a = pairs[p].clone();
            float[] b = pairs[p + 1].clone();
            Quaternions.normalize(a, 0);
            Quaternions.normalize(b, 0);
            for (double t : ts) {
                double[] ref = referenceSlerp(a, b, t);
                float[] got = slerp(a, b, t);
                for (int i = 0; i < 4; i++) {
                    assertThat((double) got[i]).as("pair %d t %s component %d", p / 2, t, i)
                            .isCloseTo(ref[i], within(2e-7));
                }
            }
        }
    }

    /**
     * Over every angle between the keys — from 1e-7 rad, through the 60° where the weights switch from the series
     * to trigonometry, to 180° — and every t, slerp stays within float rounding of the double reference, and its
     * result is a unit quaternion.
     */
    @Test
    void matchesTheReferenceOverEveryAngle() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        for (int round = 0; round < 2000; round++) {
            float[] a = randomUnit(random);
            double angle = round < 1000 ? Math.PI * (round + 1) / 1000 : Math.pow(10, random.nextDouble(-7, 0));
            // b = a rotated by angle about a random axis (quaternion half angle angle/2)
            float[] axis = randomUnit(random);
            double len = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
            double s = Math.sin(angle / 2) / len;
            double[] r = {axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)};
            double[] bd = mul(new double[] {a[0], a[1], a[2], a[3]}, r);
            float[] b = {(float) bd[0], (float) bd[1], (float) bd[2], (float) bd[3]};
            double t = random.nextDouble();
            double[] ref = referenceSlerp(a, b, t);
            float[] got = slerp(a, b, t);
            for (int i = 0; i < 4; i++) {
                assertThat((double) got[i]).as("angle %s t %s component %d", angle, t, i).isCloseTo(ref[i], within(2e-7));
            }
            assertThat(Quaternions.length(got, 0)).isCloseTo(1, within(3e-7));
        }
    }

    private static float[] randomUnit(java.util.SplittableRandom random) {
        double x = random.nextDouble(-1, 1), y = random.nextDouble(-1, 1), z = random.nextDouble(-1, 1),
                w = random.nextDouble(-1, 1);
        double n = Math.sqrt(x * x + y * y + z * z + w * w);
        return new float[] {(float) (x / n), (float) (y / n), (float) (z / n), (float) (w / n)};
    }

    /**
     * Shortest-path slerp by a different formula: {@code a · (a⁻¹ b)^t} through axis–angle, in double.
     */
    private static double[] referenceSlerp(float[] af, float[] bf, double t) {
        double[] a = {af[0], af[1], af[2], af[3]};
        double[] b = {bf[0], bf[1], bf[2], bf[3]};
        double[] r = mul(new double[] {-a[0], -a[1], -a[2], a[3]}, b);   // a⁻¹·b (a is unit)
        if (r[3] < 0) {                                                  // shortest path: rotation ≤ 180°
            r = new double[] {-r[0], -r[1], -r[2], -r[3]};
        }
        double v = Math.sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
        double half = Math.atan2(v, r[3]);
        double s = Math.sin(t * half) / v;
        double[] rt = {r[0] * s, r[1] * s, r[2] * s, Math.cos(t * half)};
        return mul(a, rt);
    }

    private static double[] mul(double[] p, double[] q) {
        return new double[] {
            p[3] * q[0] + p[0] * q[3] + p[1] * q[2] - p[2] * q[1],
            p[3] * q[1] - p[0] * q[2] + p[1] * q[3] + p[2] * q[0],
            p[3] * q[2] + p[0] * q[1] - p[1] * q[0] + p[2] * q[3],
            p[3] * q[3] - p[0] * q[0] - p[1] * q[1] - p[2] * q[2],
        };
    }

    @Test
    void outputMayAliasAnInput() {
        float[] a = IDENTITY.clone();
        Quaternions.slerp(a, 0, Z90, 0, 0.5, a, 0);
        assertThat(a).containsExactly(new float[] {0, 0, 0.38268343f, 0.9238795f}, within(1e-7f));
    }

    @Test
    void normalizeScalesToUnitLengthAndMapsZeroToIdentity() {
        float[] q = {9, 0, 3, 0, 4, 7};
        Quaternions.normalize(q, 1);
        assertThat(q).containsExactly(new float[] {9, 0, 0.6f, 0, 0.8f, 7}, within(1e-7f));
        float[] zero = {0, 0, 0, 0};
        Quaternions.normalize(zero, 0);
        assertThat(zero).containsExactly(IDENTITY);
        float[] nan = {Float.NaN, 0, 0, 1};
        Quaternions.normalize(nan, 0);
        assertThat(nan).containsExactly(IDENTITY);
    }
}
