package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxSceneFixture.assertInvalid;
import static io.posekit.asset.fbx.FbxSceneFixture.leaf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportWarnings;
import io.posekit.clip.Curve;
import io.posekit.sampling.CurveSampler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * AnimationCurve → {@link Curve}: constant, constant-next, linear and cubic segments (user, weighted, auto and TCB
 * tangents) evaluated against values worked out by hand, the run-length encoded key attributes, and malformed curves.
 */
class FbxCurveTest {

    private static final long TPS = FbxScene.TICKS_PER_SECOND;
    private static final int TI_CLAMP_PROGRESSIVE = FbxCurves.TIME_INDEPENDENT | FbxCurves.CLAMP_PROGRESSIVE;

    /** An AnimationCurve record: times in seconds, values, and the attribute runs (flags, 4 data floats, refcount). */
    private static FbxNode curve(double[] seconds, double[] values, int[] flags, float[] data, int[] refs) {
        long[] ticks = new long[seconds.length];
        for (int i = 0; i < ticks.length; i++) {
            ticks[i] = Math.round(seconds[i] * TPS);
        }
        float[] v = new float[values.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) values[i];
        }
        List<FbxNode> children = new ArrayList<>();
        children.add(leaf("Default", 0.0));
        children.add(leaf("KeyVer", 4008));
        children.add(leaf("KeyTime", (Object) ticks));
        children.add(leaf("KeyValueFloat", (Object) v));
        if (flags != null) {
            children.add(leaf("KeyAttrFlags", (Object) flags));
            children.add(leaf("KeyAttrDataFloat", (Object) data));
            children.add(leaf("KeyAttrRefCount", (Object) refs));
        }
        return new FbxNode("AnimationCurve", List.of(1L, "\0\1AnimCurve", ""), children);
    }

    /** A curve whose keys all share one attribute. */
    private static FbxNode uniform(double[] seconds, double[] values, int flags, float right, float nextLeft, float weights) {
        return curve(seconds, values, new int[] {flags}, new float[] {right, nextLeft, weights, 0},
                new int[] {seconds.length});
    }

    private static Curve read(FbxNode curve) {
        return read(curve, 0);
    }

    private static Curve read(FbxNode curve, long start) {
        DecodeBudget budget = ImportLimits.DEFAULT.newBudget();
        return FbxCurves.read(curve, start, "curve", budget, new ImportWarnings());
    }

    private static double at(Curve c, double t) {
        return CurveSampler.evaluate(c, t);
    }

    /** The cubic Hermite segment from (0, v0) to (1, v1) with slopes m0, m1, at u. */
    private static double hermite(double v0, double m0, double v1, double m1, double u) {
        double u2 = u * u;
        double u3 = u2 * u;
        return (2 * u3 - 3 * u2 + 1) * v0 + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * v1 + (u3 - u2) * m1;
    }

    @Test
    void linearKeysInterpolateLinearly() {
        Curve c = read(uniform(new double[] {0, 1}, new double[] {0, 10}, FbxCurves.LINEAR, 0, 0, 0));
        assertThat(c.segments()).containsExactly(Curve.LINEAR);
        assertThat(at(c, 0.25)).isCloseTo(2.5, within(1e-6));
        assertThat(at(c, -1)).isEqualTo(0);
        assertThat(at(c, 5)).isEqualTo(10);
    }

    @Test
    void constantKeysHoldTheirValue() {
        Curve c = read(uniform(new double[] {0, 1, 2}, new double[] {0, 10, 20}, FbxCurves.CONSTANT, 0, 0, 0));
        assertThat(c.segments()).containsExactly(Curve.STEP, Curve.STEP);
        assertThat(at(c, 0.999)).isEqualTo(0);
        assertThat(at(c, 1)).isEqualTo(10);
        assertThat(at(c, 1.5)).isEqualTo(10);
    }

    @Test
    void constantNextKeysTakeTheNextValueRightAfterTheKey() {
        Curve c = read(uniform(new double[] {0, 1}, new double[] {0, 10},
                FbxCurves.CONSTANT | FbxCurves.CONSTANT_NEXT, 0, 0, 0));
        assertThat(at(c, 0)).isEqualTo(0);
        assertThat(at(c, 0.001)).isEqualTo(10);
        assertThat(at(c, 0.5)).isEqualTo(10);
        assertThat(c.keyCount()).isEqualTo(3);
    }

    @Test
    void cubicUserTangentsAreHermiteSegments() {
        // flat tangents: smoothstep
        Curve flat = read(uniform(new double[] {0, 1}, new double[] {0, 1}, FbxCurves.CUBIC | FbxCurves.TANGENT_USER, 0, 0,
                0));
        assertThat(flat.segments()).containsExactly(Curve.BEZIER);
        assertThat(at(flat, 0.5)).isCloseTo(0.5, within(1e-6));
        assertThat(at(flat, 0.25)).isCloseTo(0.15625, within(1e-6));
        // right slope 2 at key 0, next-left slope 0 at key 1: 0.125·2 + 0.5 = 0.75 at the middle
        Curve sloped = read(uniform(new double[] {0, 1}, new double[] {0, 1}, FbxCurves.CUBIC | FbxCurves.TANGENT_USER, 2,
                0, 0));
        assertThat(at(sloped, 0.5)).isCloseTo(0.75, within(1e-6));
        assertThat(at(sloped, 0.3)).isCloseTo(hermite(0, 2, 1, 0, 0.3), within(1e-6));
        // slopes are per second: the same keys over 2 s with the same slopes
        Curve longer = read(uniform(new double[] {0, 2}, new double[] {0, 1}, FbxCurves.CUBIC | FbxCurves.TANGENT_USER, 2,
                0, 0));
        assertThat(at(longer, 1)).isCloseTo(hermite(0, 2 * 2, 1, 0, 0.5), within(1e-6));
    }

    @Test
    void weightedTangentsMoveTheControlPointsInTime() {
        // both weights 0.5 (5000 = 0x1388 each, packed into the bits of data float 2), flat slopes
        float packed = Float.intBitsToFloat(0x13881388);
        int flags = FbxCurves.CUBIC | FbxCurves.TANGENT_USER | FbxCurves.WEIGHTED_RIGHT | FbxCurves.WEIGHTED_NEXT_LEFT;
        Curve c = read(uniform(new double[] {0, 1}, new double[] {0, 1}, flags, 0, 0, packed));
        assertThat(c.controls()).containsExactly(new float[] {0.5f, 0, 0.5f, 1}, within(1e-6f));
        // the Bézier (0,0) (0.5,0) (0.5,1) (1,1) at time 0.25, solved here by bisection
        double lo = 0;
        double hi = 1;
        for (int i = 0; i < 100; i++) {
            double s = (lo + hi) / 2;
            double time = 3 * (1 - s) * (1 - s) * s * 0.5 + 3 * (1 - s) * s * s * 0.5 + s * s * s;
            if (time < 0.25) {
                lo = s;
            } else {
                hi = s;
            }
        }
        double s = (lo + hi) / 2;
        double expected = 3 * (1 - s) * s * s + s * s * s;
        assertThat(at(c, 0.25)).isCloseTo(expected, within(1e-6));
        // unweighted keys ignore the packed value: 1/3
        Curve unweighted = read(uniform(new double[] {0, 1}, new double[] {0, 1}, FbxCurves.CUBIC | FbxCurves.TANGENT_USER,
                0, 0, packed));
        assertThat(unweighted.controls()).containsExactly(new float[] {1 / 3f, 0, 2 / 3f, 1}, within(1e-6f));
    }

    @Test
    void asciiFilesWriteThePackedWeightsAsAnInteger() {
        FbxNode c = curve(new double[] {0, 1}, new double[] {0, 1},
                new int[] {FbxCurves.CUBIC | FbxCurves.TANGENT_USER | FbxCurves.WEIGHTED_RIGHT | FbxCurves.WEIGHTED_NEXT_LEFT},
                new float[4], new int[] {2});
        List<FbxNode> children = new ArrayList<>(c.children());
        children.replaceAll(n -> n.name().equals("KeyAttrDataFloat") ? leaf("KeyAttrDataFloat",
                (Object) new double[] {0, 0, 327685000, 0}) : n);
        Curve curve = read(new FbxNode("AnimationCurve", c.properties(), children));
        assertThat(curve.controls()).containsExactly(new float[] {0.5f, 0, 0.5f, 1}, within(1e-6f));
    }

    @Test
    void autoTangentsAreDerivedFromTheNeighbours() {
        // time-independent, clamp-progressive (what Maya and the SDK write): interior slope = chord (3 − 0) / 2 = 1.5,
        // the end keys flat; stored slopes (here 5) act only as a bias, which time-independent tangents ignore
        Curve c = read(uniform(new double[] {0, 1, 2}, new double[] {0, 1, 3},
                FbxCurves.CUBIC | FbxCurves.TANGENT_AUTO | TI_CLAMP_PROGRESSIVE, 5, 5, 0));
        assertThat(at(c, 0.5)).isCloseTo(hermite(0, 0, 1, 1.5, 0.5), within(1e-6));
        assertThat(at(c, 0.5)).isCloseTo(0.3125, within(1e-6));
        assertThat(at(c, 1.5)).isCloseTo(1 + hermite(0, 1.5, 2, 0, 0.5), within(1e-6));
    }

    @Test
    void clampProgressiveAutoTangentsDoNotOvershoot() {
        // an extremum: chord (0 − 0) / 2 = 0 → flat; a steep chord is limited so the control point stays below the key
        Curve peak = read(uniform(new double[] {0, 1, 2}, new double[] {0, 1, 0},
                FbxCurves.CUBIC | FbxCurves.TANGENT_AUTO | TI_CLAMP_PROGRESSIVE, 0, 0, 0));
        assertThat(at(peak, 1)).isEqualTo(1);
        assertThat(peak.controls()[3]).isEqualTo(1);
        // keys (0,0) (1,0.1) (2,10): chord 5, but the left control point may rise at most 0.1 over 1/3 s: slope 0.3
        Curve steep = read(uniform(new double[] {0, 1, 2}, new double[] {0, 0.1, 10},
                FbxCurves.CUBIC | FbxCurves.TANGENT_AUTO | TI_CLAMP_PROGRESSIVE, 0, 0, 0));
        assertThat(steep.controls()[3]).isCloseTo((float) (0.1 - 0.3 / 3), within(1e-6f));
    }

    @Test
    void autoTangentsWithoutTimeIndependenceWeighTheOneSidedChords() {
        // keys (0,0) (1,2) (3,3): chord 1, left 2, right 0.5, key at 1/3 of the span: 0.5·1 + 0.5·(2/3·2 + 1/3·0.5) = 1.25;
        // the first key (no clamp) takes its one chord, 2
        Curve c = read(uniform(new double[] {0, 1, 3}, new double[] {0, 2, 3}, FbxCurves.CUBIC | FbxCurves.TANGENT_AUTO,
                0, 0, 0));
        assertThat(at(c, 0.5)).isCloseTo(hermite(0, 2, 2, 1.25, 0.5), within(1e-6));
        assertThat(at(c, 0.5)).isCloseTo(1.09375, within(1e-6));
    }

    @Test
    void tcbTangentsAreKochanekBartels() {
        // tension, continuity, bias 0 (Catmull–Rom): key 1 slope (1 + 2) / 2 = 1.5; the first key (an edge) its chord 1
        Curve c = read(uniform(new double[] {0, 1, 2}, new double[] {0, 1, 3}, FbxCurves.CUBIC | FbxCurves.TANGENT_TCB,
                0, 0, 0));
        assertThat(at(c, 0.5)).isCloseTo(hermite(0, 1, 1, 1.5, 0.5), within(1e-6));
        assertThat(at(c, 0.5)).isCloseTo(0.4375, within(1e-6));
        // full tension flattens the key
        assertThat(FbxCurves.tcb(new double[] {0, 1, 2}, new double[] {0, 1, 3}, 1, 1, 0, 0)).containsExactly(0, 0);
    }

    @Test
    void attributesAreRunLengthEncoded() {
        // key 0 constant, keys 1 and 2 linear
        Curve c = read(curve(new double[] {0, 1, 2, 3}, new double[] {0, 10, 20, 0},
                new int[] {FbxCurves.CONSTANT, FbxCurves.LINEAR}, new float[8], new int[] {1, 3}));
        assertThat(c.segments()).containsExactly(Curve.STEP, Curve.LINEAR, Curve.LINEAR);
        assertThat(at(c, 0.5)).isEqualTo(0);
        assertThat(at(c, 1.5)).isCloseTo(15, within(1e-6));
    }

    @Test
    void aCurveWithoutAttributesIsLinear() {
        Curve c = read(curve(new double[] {0, 2}, new double[] {0, 10}, null, null, null));
        assertThat(at(c, 1)).isCloseTo(5, within(1e-6));
    }

    @Test
    void keyTimesAreShiftedSoThatTheStartIsZero() {
        Curve c = read(uniform(new double[] {1, 2}, new double[] {0, 10}, FbxCurves.LINEAR, 0, 0, 0), TPS);
        assertThat(c.times()).containsExactly(0, 1);
        // ticks are exact int64: 1/3 s apart keys land where they belong
        Curve thirds = read(uniform(new double[] {0, 1 / 3.0}, new double[] {0, 1}, FbxCurves.LINEAR, 0, 0, 0));
        assertThat(thirds.times()[1]).isEqualTo((float) (1 / 3.0));
    }

    @Test
    void noKeysIsNoCurve() {
        assertThat(read(curve(new double[0], new double[0], new int[0], new float[0], new int[0]))).isNull();
    }

    @Test
    void malformedCurvesAreRejected() {
        assertInvalid(() -> read(uniform(new double[] {1, 0}, new double[] {0, 1}, FbxCurves.LINEAR, 0, 0, 0)),
                "curve: KeyTime[1] = 0 is before KeyTime[0] = 46186158000");
        FbxNode valueMismatch = uniform(new double[] {0, 1}, new double[] {0, 1}, FbxCurves.LINEAR, 0, 0, 0);
        List<FbxNode> children = new ArrayList<>(valueMismatch.children());
        children.replaceAll(n -> n.name().equals("KeyValueFloat") ? leaf("KeyValueFloat", (Object) new float[] {1}) : n);
        assertInvalid(() -> read(new FbxNode("AnimationCurve", valueMismatch.properties(), children)),
                "curve: KeyTime has 2 keys but KeyValueFloat 1");
        assertInvalid(() -> read(curve(new double[] {0, 1, 2}, new double[] {0, 1, 2}, new int[] {FbxCurves.LINEAR},
                new float[4], new int[] {2})), "curve: KeyAttrRefCount covers 2 of its 3 keys");
        assertInvalid(() -> read(curve(new double[] {0, 1}, new double[] {0, 1}, new int[] {FbxCurves.LINEAR},
                new float[3], new int[] {2})), "curve: KeyAttrFlags (1), KeyAttrDataFloat (3) and KeyAttrRefCount (1)"
                + " do not describe the same attributes (4 data floats each)");
        FbxNode partial = uniform(new double[] {0, 1}, new double[] {0, 1}, FbxCurves.LINEAR, 0, 0, 0);
        List<FbxNode> noFlags = new ArrayList<>(partial.children());
        noFlags.removeIf(n -> n.name().equals("KeyAttrFlags"));
        assertInvalid(() -> read(new FbxNode("AnimationCurve", partial.properties(), noFlags)),
                "curve needs all of KeyAttrFlags, KeyAttrDataFloat and KeyAttrRefCount (it has KeyAttrDataFloat"
                        + " KeyAttrRefCount)");
    }
}
