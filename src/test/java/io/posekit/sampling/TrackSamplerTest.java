package io.posekit.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TrackSamplerTest {

    private static final float S45 = (float) Math.sqrt(0.5);

    private static Track track(TrackProperty property, Interpolation interpolation, float[] times, float... values) {
        int components = property == TrackProperty.ROTATION ? 4 : 3;
        return new Track(0, property, interpolation, components, times, values);
    }

    private static float[] sample(Track track, double t) {
        float[] out = new float[track.components() + 2];
        out[0] = 99;
        out[out.length - 1] = 99;
        TrackSampler.sample(track, t, out, 1);
        // nothing outside out[1 .. components] is touched
        assertThat(out[0]).isEqualTo(99);
        assertThat(out[out.length - 1]).isEqualTo(99);
        return java.util.Arrays.copyOfRange(out, 1, 1 + track.components());
    }

    @Test
    void stepSwitchesExactlyAtEachKeyAndHoldsOutsideTheKeys() {
        Track step = track(TrackProperty.TRANSLATION, Interpolation.STEP, new float[] {0, 1, 2},
                1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(sample(step, -1)).containsExactly(1, 2, 3);
        assertThat(sample(step, 0)).containsExactly(1, 2, 3);
        assertThat(sample(step, 0.999)).containsExactly(1, 2, 3);
        assertThat(sample(step, Math.nextDown(1.0))).containsExactly(1, 2, 3);
        assertThat(sample(step, 1)).containsExactly(4, 5, 6);
        assertThat(sample(step, 1.5)).containsExactly(4, 5, 6);
        assertThat(sample(step, 2)).containsExactly(7, 8, 9);
        assertThat(sample(step, 5)).containsExactly(7, 8, 9);
    }

    @Test
    void linearTranslationAndScaleInterpolateComponentwise() {
        Track translation = track(TrackProperty.TRANSLATION, Interpolation.LINEAR, new float[] {0, 2},
                0, 0, 0, 4, -2, 8);
        // s = 0.25
        assertThat(sample(translation, 0.5)).containsExactly(1, -0.5f, 2);
        assertThat(sample(translation, 1)).containsExactly(2, -1, 4);
        Track scale = track(TrackProperty.SCALE, Interpolation.LINEAR, new float[] {1, 3}, 1, 1, 1, 3, 5, 1);
        assertThat(sample(scale, 1.5)).containsExactly(1.5f, 2, 1);
        assertThat(sample(scale, 2.5)).containsExactly(2.5f, 4, 1);
    }

    @Test
    void linearRotationSlerps() {
        Track rotation = track(TrackProperty.ROTATION, Interpolation.LINEAR, new float[] {0, 1},
                0, 0, 0, 1, 0, 0, S45, S45);
        // 45° and 22.5° about Z
        assertThat(sample(rotation, 0.5)).containsExactly(new float[] {0, 0, 0.38268343f, 0.9238795f}, within(1e-7f));
        assertThat(sample(rotation, 0.25)).containsExactly(new float[] {0, 0, 0.19509032f, 0.98078528f},
                within(1e-7f));
        // keys come back untouched
        assertThat(sample(rotation, 1)).containsExactly(0, 0, S45, S45);
    }

    @Test
    void cubicSplineUsesTangentsScaledByTheKeyInterval() {
        // keys at 0, 1, 3: (in-tangent, value, out-tangent) per key; the interval [1, 3] lasts 2 s
        Track cubic = track(TrackProperty.TRANSLATION, Interpolation.CUBICSPLINE, new float[] {0, 1, 3},
                50, 50, 50, 100, 100, 100, 50, 50, 50,
                9, 9, 9, 0, 0, 0, 1, 0, 2,
                3, 0, -1, 10, 20, 0, 7, 7, 7);
        // t = 2: s = 0.5, h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = −0.125, td = 2
        // x = 0.125·2·1 + 0.5·10 − 0.125·2·3 = 4.5; y = 0.5·20 = 10; z = 0.125·2·2 − 0.125·2·(−1) = 0.75
        assertThat(sample(cubic, 2)).containsExactly(4.5f, 10, 0.75f);
        // t = 1.5: s = 0.25, h00 = 0.84375, h10 = 0.140625, h01 = 0.15625, h11 = −0.046875
        // x = 0.140625·2·1 + 0.15625·10 − 0.046875·2·3 = 1.5625; y = 3.125; z = 0.5625 + 0.09375 = 0.65625
        assertThat(sample(cubic, 1.5)).containsExactly(1.5625f, 3.125f, 0.65625f);
        // on keys and outside: the stored values (the middle element of each key)
        assertThat(sample(cubic, -1)).containsExactly(100, 100, 100);
        assertThat(sample(cubic, 0)).containsExactly(100, 100, 100);
        assertThat(sample(cubic, 1)).containsExactly(0, 0, 0);
        assertThat(sample(cubic, 3)).containsExactly(10, 20, 0);
        assertThat(sample(cubic, 4)).containsExactly(10, 20, 0);
    }

    @Test
    void cubicSplineRotationIsNormalised() {
        // zero tangents; at s = 0.5 the raw Hermite value is 0.5·(a + b) = (0, 0, 0.35355, 0.85355), length 0.92388,
        // normalised = 45° about Z
        Track cubic = track(TrackProperty.ROTATION, Interpolation.CUBICSPLINE, new float[] {0, 1},
                0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, S45, S45, 0, 0, 0, 0);
        float[] q = sample(cubic, 0.5);
        assertThat(q).containsExactly(new float[] {0, 0, 0.38268343f, 0.9238795f}, within(1e-7f));
    }

    @Test
    void singleKeyTrackIsConstant() {
        Track one = track(TrackProperty.SCALE, Interpolation.LINEAR, new float[] {0.5f}, 1, 2, 3);
        assertThat(sample(one, -1)).containsExactly(1, 2, 3);
        assertThat(sample(one, 0.5)).containsExactly(1, 2, 3);
        assertThat(sample(one, 7)).containsExactly(1, 2, 3);
        Track cubicOne = track(TrackProperty.SCALE, Interpolation.CUBICSPLINE, new float[] {0.5f},
                9, 9, 9, 1, 2, 3, 8, 8, 8);
        assertThat(sample(cubicOne, 3)).containsExactly(1, 2, 3);
    }

    @Test
    void trackStartingAfterZeroHoldsItsFirstValueBefore() {
        Track late = track(TrackProperty.TRANSLATION, Interpolation.LINEAR, new float[] {2, 4}, 1, 1, 1, 3, 3, 3);
        assertThat(sample(late, 0)).containsExactly(1, 1, 1);
        assertThat(sample(late, 1.99)).containsExactly(1, 1, 1);
        assertThat(sample(late, 3)).containsExactly(2, 2, 2);
    }

    @Test
    void duplicateKeyTimesDoNotDivideByZero() {
        float[] times = {0, 1, 1, 2};
        float[] values = {0, 0, 0, 10, 0, 0, 20, 0, 0, 30, 0, 0};
        Track linear = track(TrackProperty.TRANSLATION, Interpolation.LINEAR, times, values);
        assertThat(sample(linear, 0.5)).containsExactly(5, 0, 0);
        // from the duplicated instant on, the later key applies
        assertThat(sample(linear, 1)).containsExactly(20, 0, 0);
        assertThat(sample(linear, 1.5)).containsExactly(25, 0, 0);
        Track step = track(TrackProperty.TRANSLATION, Interpolation.STEP, times, values);
        assertThat(sample(step, 1)).containsExactly(20, 0, 0);
        // duplicates at the start and at the end
        Track start = track(TrackProperty.TRANSLATION, Interpolation.LINEAR, new float[] {0, 0, 1},
                1, 0, 0, 2, 0, 0, 4, 0, 0);
        assertThat(sample(start, 0)).containsExactly(1, 0, 0);
        assertThat(sample(start, 0.5)).containsExactly(3, 0, 0);
        Track end = track(TrackProperty.TRANSLATION, Interpolation.CUBICSPLINE, new float[] {0, 1, 1},
                0, 0, 0, 1, 0, 0, 0, 0, 0,
                0, 0, 0, 2, 0, 0, 0, 0, 0,
                0, 0, 0, 3, 0, 0, 0, 0, 0);
        assertThat(sample(end, 1)).containsExactly(3, 0, 0);
        // zero tangents, s = 0.5: h00 = h01 = 0.5
        assertThat(sample(end, 0.5)).containsExactly(1.5f, 0, 0);
    }

    @Test
    void nanTimeGivesTheFirstKey() {
        Track linear = track(TrackProperty.TRANSLATION, Interpolation.LINEAR, new float[] {0, 1}, 1, 1, 1, 3, 3, 3);
        assertThat(sample(linear, Double.NaN)).containsExactly(1, 1, 1);
    }

    @Test
    void rotationTrackNeedsFourComponents() {
        Track bad = new Track(0, TrackProperty.ROTATION, Interpolation.LINEAR, 3, new float[] {0, 1},
                new float[] {0, 0, 0, 1, 1, 1});
        assertThatThrownBy(() -> TrackSampler.sample(bad, 0.5, new float[4], 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void weightsTrackWithAnyComponentCountInterpolates() {
        Track weights = new Track(0, TrackProperty.WEIGHTS, Interpolation.LINEAR, 2, new float[] {0, 1},
                new float[] {0, 1, 1, 0});
        float[] out = new float[2];
        TrackSampler.sample(weights, 0.25, out, 0);
        assertThat(out).containsExactly(0.25f, 0.75f);
    }

    @Test
    void hintedSampleReturnsTheKeyAndMatchesUnhinted() {
        Track step = track(TrackProperty.TRANSLATION, Interpolation.LINEAR, new float[] {0, 1, 2, 3},
                0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0);
        float[] out = new float[3];
        assertThat(TrackSampler.sample(step, -1, 2, out, 0)).isZero();
        assertThat(TrackSampler.sample(step, 1.5, 0, out, 0)).isEqualTo(1);
        assertThat(out).containsExactly(1.5f, 0, 0);
        assertThat(TrackSampler.sample(step, 2.25, 1, out, 0)).isEqualTo(2);
        assertThat(out).containsExactly(2.25f, 0, 0);
        assertThat(TrackSampler.sample(step, 9, 1, out, 0)).isEqualTo(3);
        assertThat(out).containsExactly(3, 0, 0);
    }

    @Test
    void findKeyWithoutHint() {
        float[] times = {0, 1, 2, 3, 4};
        assertThat(TrackSampler.findKey(times, -1, -1)).isZero();
        assertThat(TrackSampler.findKey(times, 0, -1)).isZero();
        assertThat(TrackSampler.findKey(times, 0.5, -1)).isZero();
        assertThat(TrackSampler.findKey(times, 2.5, -1)).isEqualTo(2);
        assertThat(TrackSampler.findKey(times, 3, -1)).isEqualTo(3);
        assertThat(TrackSampler.findKey(times, 4, -1)).isEqualTo(4);
        assertThat(TrackSampler.findKey(times, 10, -1)).isEqualTo(4);
        assertThat(TrackSampler.findKey(times, Double.NaN, 3)).isZero();
        assertThat(TrackSampler.findKey(new float[] {5}, 7, -1)).isZero();
        // duplicates: the last of them
        float[] dup = {0, 1, 1, 1, 2};
        assertThat(TrackSampler.findKey(dup, 1, -1)).isEqualTo(3);
        assertThat(TrackSampler.findKey(dup, 0.5, -1)).isZero();
    }

    @Test
    void findKeyWithGoodBadAndOutOfRangeHints() {
        float[] times = {0, 1, 2, 3, 4};
        assertThat(TrackSampler.findKey(times, 2.5, 2)).isEqualTo(2);   // same interval
        assertThat(TrackSampler.findKey(times, 2.5, 1)).isEqualTo(2);   // next interval
        assertThat(TrackSampler.findKey(times, 3.5, 0)).isEqualTo(3);   // far behind
        assertThat(TrackSampler.findKey(times, 0.5, 4)).isZero();       // ahead of t
        assertThat(TrackSampler.findKey(times, 1.5, 3)).isEqualTo(1);
        assertThat(TrackSampler.findKey(times, 2.5, 99)).isEqualTo(2);
        assertThat(TrackSampler.findKey(times, 2.5, -7)).isEqualTo(2);
        float[] dup = {0, 1, 1, 1, 2};
        for (int hint = -1; hint <= 5; hint++) {
            assertThat(TrackSampler.findKey(dup, 1, hint)).as("hint %d", hint).isEqualTo(3);
        }
    }

    @Test
    void findKeyAgreesWithALinearScanForEveryHint() {
        float[] times = {0.25f, 0.5f, 0.5f, 1, 1.75f, 2, 2, 2, 3.5f, 4};
        for (int step = -4; step <= 44; step++) {
            double t = step * 0.1;
            int expected = 0;
            for (int k = 0; k < times.length; k++) {
                if (times[k] <= t) {
                    expected = k;
                }
            }
            for (int hint = -1; hint <= times.length; hint++) {
                assertThat(TrackSampler.findKey(times, t, hint)).as("t %s hint %d", t, hint).isEqualTo(expected);
            }
        }
    }

    /**
     * The interpolated first probe and the hints only choose where to look: over evenly spaced, jittered,
     * clustered and duplicated key times, at random times, key times and times outside the keys, with random
     * hints, findKey answers what a linear scan does.
     */
    @Test
    void findKeyAgreesWithALinearScanOnAnyKeySpacing() {
        SplittableRandom random = new SplittableRandom(5);
        for (int round = 0; round < 400; round++) {
            int n = 1 + random.nextInt(60);
            float[] times = new float[n];
            int kind = round % 4;
            float t = (float) random.nextDouble(-2, 2);
            for (int k = 0; k < n; k++) {
                times[k] = switch (kind) {
                    case 0 -> t + k / 30f;                                            // a frame rate
                    case 1 -> t + (k + (float) random.nextDouble(-0.45, 0.45)) / 24f; // jittered
                    case 2 -> k == 0 ? t : times[k - 1] + (float) Math.pow(random.nextDouble(), 6); // clustered
                    default -> k == 0 ? t : times[k - 1] + (random.nextInt(3) == 0 ? 0 : 0.1f);     // duplicates
                };
                if (k > 0 && times[k] < times[k - 1]) {
                    times[k] = times[k - 1];
                }
            }
            for (int q = 0; q < 50; q++) {
                double time = q % 3 == 0 ? times[random.nextInt(n)]
                        : random.nextDouble(times[0] - 0.5, times[n - 1] + 0.5);
                int hint = random.nextInt(-1, n + 1);
                assertThat(TrackSampler.findKey(times, time, hint)).as("round %d time %s hint %d", round, time, hint)
                        .isEqualTo(linearScan(times, time));
            }
        }
    }

    private static int linearScan(float[] times, double t) {
        int k = 0;
        for (int i = 0; i < times.length; i++) {
            if (times[i] <= t) {
                k = i;
            }
        }
        return k;
    }
}
