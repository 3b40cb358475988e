package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxSceneFixture.leaf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportWarnings;
import io.posekit.clip.Curve;
import io.posekit.sampling.CurveSampler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Maya's pre/post infinity on FBX curves ({@code Pre-Extrapolation}/{@code Post-Extrapolation}: constant, slope,
 * cycle, cycle with offset, oscillate; a repetition count), unrolled over a clip of 5 s, with values worked out by
 * hand as ufbx's {@code ufbx_evaluate_curve} gives them. The ramp: linear keys 0 at 1 s and 10 at 2 s (period 1 s,
 * slope 10/s); so the ufbx test file {@code maya_extrapolate_cube} keys its cube.
 */
class FbxExtrapolationTest {

    private static final long TPS = FbxScene.TICKS_PER_SECOND;
    private static final double END = 5;

    /** An AnimationCurve record with linear (or {@code flags}) keys and the given extrapolation records. */
    private static FbxNode curve(double[] seconds, double[] values, int flags, float[] data, FbxNode... extrapolation) {
        long[] ticks = new long[seconds.length];
        float[] v = new float[values.length];
        for (int i = 0; i < ticks.length; i++) {
            ticks[i] = Math.round(seconds[i] * TPS);
            v[i] = (float) values[i];
        }
        List<FbxNode> children = new ArrayList<>(List.of(leaf("Default", 0.0), leaf("KeyVer", 4009),
                leaf("KeyTime", (Object) ticks), leaf("KeyValueFloat", (Object) v),
                leaf("KeyAttrFlags", (Object) new int[] {flags}), leaf("KeyAttrDataFloat", (Object) data),
                leaf("KeyAttrRefCount", (Object) new int[] {seconds.length})));
        children.addAll(List.of(extrapolation));
        return new FbxNode("AnimationCurve", List.of(1L, "\0\1AnimCurve", ""), children);
    }

    private static FbxNode ramp(FbxNode... extrapolation) {
        return curve(new double[] {1, 2}, new double[] {0, 10}, FbxCurves.LINEAR, new float[4], extrapolation);
    }

    private static FbxNode pre(String type, int repetition) {
        return new FbxNode("Pre-Extrapolation", List.of(), List.of(leaf("Type", type), leaf("Repetition", repetition)));
    }

    private static FbxNode post(String type, int repetition) {
        return new FbxNode("Post-Extrapolation", List.of(), List.of(leaf("Type", type), leaf("Repetition", repetition)));
    }

    private static Curve read(FbxNode curve, ImportWarnings warnings) {
        return FbxCurves.read(curve, 0, END, "curve", ImportLimits.DEFAULT.newBudget(), warnings);
    }

    private static Curve read(FbxNode curve) {
        return read(curve, new ImportWarnings());
    }

    private static double at(Curve c, double t) {
        return CurveSampler.evaluate(c, t);
    }

    @Test
    void constantHoldsTheEndValues() {
        Curve c = read(ramp(pre("C", -1), post("C", -1)));
        assertThat(c.keyCount()).isEqualTo(2);
        assertThat(at(c, 0.5)).isEqualTo(0);
        assertThat(at(c, 4)).isEqualTo(10);
    }

    @Test
    void cycleRepeatsTheKeys() {
        Curve c = read(ramp(pre("R", -1), post("R", -1)));
        assertThat(at(c, 0.25)).isCloseTo(2.5, within(1e-5)); // 1.25 one period on
        assertThat(at(c, 2.5)).isCloseTo(5, within(1e-5));
        assertThat(at(c, 3.25)).isCloseTo(2.5, within(1e-5));
        assertThat(at(c, 4.75)).isCloseTo(7.5, within(1e-5));
        assertThat(c.endTime()).isEqualTo(5f); // unrolled to the clip's end, no further
        assertThat(c.times()[0]).isEqualTo(0f);
    }

    @Test
    void cycleWithOffsetStacksTheRisePerRepetition() {
        Curve c = read(ramp(pre("A", -1), post("A", -1)));
        assertThat(at(c, 2.5)).isCloseTo(15, within(1e-5));
        assertThat(at(c, 3.5)).isCloseTo(25, within(1e-5));
        assertThat(at(c, 4.75)).isCloseTo(37.5, within(1e-5));
        assertThat(at(c, 0.25)).isCloseTo(-7.5, within(1e-5)); // one rise lower before the first key
    }

    @Test
    void oscillatePlaysBackwardsThenForwards() {
        Curve c = read(ramp(pre("M", -1), post("M", -1)));
        assertThat(at(c, 2.25)).isCloseTo(7.5, within(1e-5)); // backwards: 2 − 0.25
        assertThat(at(c, 3)).isCloseTo(0, within(1e-5));
        assertThat(at(c, 3.25)).isCloseTo(2.5, within(1e-5)); // forwards again
        assertThat(at(c, 4.5)).isCloseTo(5, within(1e-5)); // backwards
        assertThat(at(c, 0.25)).isCloseTo(7.5, within(1e-5)); // before the first key: mirrored about it
    }

    @Test
    void slopeContinuesTheEndTangents() {
        Curve c = read(ramp(pre("K", -1), post("K", -1)));
        assertThat(at(c, 0.25)).isCloseTo(-7.5, within(1e-5));
        assertThat(at(c, 4)).isCloseTo(30, within(1e-5));
        assertThat(at(c, 5)).isCloseTo(40, within(1e-5));
        assertThat(c.keyCount()).isEqualTo(4);
    }

    @Test
    void aRepetitionCountStopsTheRepeatsThenTheLastOnesEndHolds() {
        Curve once = read(ramp(post("A", 1)));
        assertThat(at(once, 2.5)).isCloseTo(15, within(1e-5));
        assertThat(at(once, 3.5)).isCloseTo(20, within(1e-5));
        assertThat(at(once, 4.5)).isCloseTo(20, within(1e-5));
        Curve never = read(ramp(post("R", 0)));
        assertThat(never.keyCount()).isEqualTo(2);
        assertThat(at(never, 3)).isEqualTo(10);
    }

    @Test
    void cubicSegmentsRepeatAndMirrorExactly() {
        // user tangents: slope 30/s out of the first key, 0 into the second (a bezier ease)
        FbxNode base = curve(new double[] {1, 2}, new double[] {0, 10}, FbxCurves.CUBIC | FbxCurves.TANGENT_USER,
                new float[] {30, 0, 0, 0}, post("R", -1));
        Curve cycle = read(base);
        Curve mirror = read(curve(new double[] {1, 2}, new double[] {0, 10}, FbxCurves.CUBIC | FbxCurves.TANGENT_USER,
                new float[] {30, 0, 0, 0}, post("M", -1)));
        for (double u : new double[] {0.1, 0.3, 0.5, 0.9}) {
            double inside = at(cycle, 1 + u);
            assertThat(at(cycle, 2 + u)).isCloseTo(inside, within(1e-4));
            assertThat(at(cycle, 4 + u)).isCloseTo(inside, within(1e-4));
            assertThat(at(mirror, 3 - u)).isCloseTo(inside, within(1e-4));
            assertThat(at(mirror, 3 + u)).isCloseTo(inside, within(1e-4));
        }
        assertThat(at(cycle, 1.5)).isNotCloseTo(5, within(0.5)); // an ease, not a line
    }

    /** At the instant of a jump (here 2 s) the unrolled curve has the value after it; just before, the one before. */
    @Test
    void oscillatedStepsHoldTheValueTheyHeldForwards() {
        Curve c = read(curve(new double[] {1, 2}, new double[] {0, 10}, FbxCurves.CONSTANT, new float[4],
                post("M", -1)));
        assertThat(at(c, 1.5)).isEqualTo(0);
        assertThat(at(c, 1.9999)).isEqualTo(0);
        assertThat(at(c, 2.0001)).isEqualTo(0); // backwards through the step: 0 held, from just after 2 s
        assertThat(at(c, 2.5)).isEqualTo(0);
        assertThat(at(c, 3.5)).isEqualTo(0);
    }

    @Test
    void withoutAClipEndTheEndValuesHoldWithAWarning() {
        ImportWarnings warnings = new ImportWarnings();
        Curve c = FbxCurves.read(ramp(post("R", -1)), 0, null, "curve", ImportLimits.DEFAULT.newBudget(), warnings);
        assertThat(at(c, 3)).isEqualTo(10);
        assertThat(warnings.list()).containsExactly("curve: its extrapolation is not applied (the clip has no"
                + " LocalStop); the end values hold");
    }

    @Test
    void anUnknownTypeHoldsWithAWarning() {
        ImportWarnings warnings = new ImportWarnings();
        Curve c = read(ramp(post("Q", -1)), warnings);
        assertThat(at(c, 3)).isEqualTo(10);
        assertThat(warnings.list()).containsExactly("curve: Post-Extrapolation type 'Q' is not one of C, K, R, A, M;"
                + " the end value holds");
    }

    @Test
    void repeatsPastTheKeyLimitStopShortWithAWarning() {
        Curve ramp = Curve.linear(new float[] {0, 0.001f}, new float[] {0, 1});
        ImportWarnings warnings = new ImportWarnings();
        Curve c = FbxExtrapolation.apply(ramp, FbxExtrapolation.Side.CONSTANT, new FbxExtrapolation.Side('R', -1), 0,
                0, 3600, 1000, "curve", warnings);
        assertThat(c.keyCount()).isLessThanOrEqualTo(1000);
        // 3600 s over a period of 0.001f s (a little over 1 ms): 3 599 999 repetitions, at most 5 keys each
        assertThat(warnings.list()).containsExactly("curve: its extrapolation repeats 3599999 times over the clip;"
                + " only 199 fit in 1000 keys, then the end value holds");
        assertThat(at(c, 0.1005)).isCloseTo(0.5, within(0.01)); // repetition 100 of the 199 that fit
        assertThat(c.endTime()).isCloseTo(0.2f, within(1e-5f));
        assertThat(at(c, 0.5)).isEqualTo(1); // past them, the last one's end holds
        // a period of 1e-30 s over an hour: ~10³³ repetitions, counted without overflow, cut to what fits
        Curve tiny = FbxExtrapolation.apply(Curve.linear(new float[] {0, 1e-30f}, new float[] {0, 1}),
                FbxExtrapolation.Side.CONSTANT, new FbxExtrapolation.Side('M', -1), 0, 0, 3600, 1000, "curve",
                new ImportWarnings());
        assertThat(tiny.keyCount()).isBetween(2, 1000);
    }

    @Test
    void asciiDataFloatsPrintedAsTheirBitsAreReadAsFloats() {
        // Maya's ASCII writer prints KeyAttrDataFloat as the integers of the floats' bits
        double[] printed = {Float.floatToRawIntBits(30f), 0, 218434821, 0};
        FbxNode ascii = curve(new double[] {1, 2}, new double[] {0, 10}, FbxCurves.CUBIC | FbxCurves.TANGENT_USER,
                new float[4]);
        List<FbxNode> children = new ArrayList<>(ascii.children());
        children.replaceAll(n -> n.name().equals("KeyAttrDataFloat") ? leaf("KeyAttrDataFloat", (Object) printed) : n);
        Curve fromBits = read(new FbxNode("AnimationCurve", ascii.properties(), children));
        Curve binary = read(curve(new double[] {1, 2}, new double[] {0, 10}, FbxCurves.CUBIC | FbxCurves.TANGENT_USER,
                new float[] {30, 0, Float.intBitsToFloat(218434821), 0}));
        assertThat(at(fromBits, 1.3)).isCloseTo(at(binary, 1.3), within(1e-6));
        assertThat(FbxCurves.printedBits(printed, printed)).isTrue();
        assertThat(FbxCurves.printedBits(new double[] {30, 0, 0, 0}, new double[] {30, 0, 0, 0})).isFalse();
        assertThat(FbxCurves.printedBits(new double[] {30.5, 0, 218434821, 0}, new double[] {30.5, 0, 218434821, 0}))
                .isFalse();
    }
}
