package io.posekit.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.clip.Curve;
import org.junit.jupiter.api.Test;

class CurveSamplerTest {

    @Test
    void stepAndLinearSegmentsAndTheEnds() {
        Curve c = new Curve(new float[] {1, 2, 4}, new float[] {10, 20, 0}, new byte[] {Curve.STEP, Curve.LINEAR}, null);
        assertThat(CurveSampler.evaluate(c, 0)).isEqualTo(10);
        assertThat(CurveSampler.evaluate(c, 1.5)).isEqualTo(10);
        assertThat(CurveSampler.evaluate(c, 2)).isEqualTo(20);
        assertThat(CurveSampler.evaluate(c, 3)).isEqualTo(10);
        assertThat(CurveSampler.evaluate(c, 9)).isEqualTo(0);
        assertThat(CurveSampler.evaluate(Curve.constant(7), 3)).isEqualTo(7);
    }

    @Test
    void bezierWithFlatTangentsAtTheThirdsIsTheSmoothstep() {
        // control times at the thirds make time(s) linear: s = (t − t0)/(t1 − t0); flat tangents give
        // value(s) = v0 + (v1 − v0)·(3s² − 2s³), the ease-in-out an artist draws
        Curve c = new Curve(new float[] {0, 1.25f}, new float[] {0, 2.52f}, new byte[] {Curve.BEZIER},
                new float[] {1.25f / 3, 0, 2 * 1.25f / 3, 2.52f});
        for (double t : new double[] {0.1, 0.4625, 0.625, 1.0}) {
            double s = t / 1.25;
            assertThat(CurveSampler.evaluate(c, t)).as("t=%s", t).isCloseTo(2.52 * (3 * s * s - 2 * s * s * s), within(1e-6));
        }
    }

    @Test
    void bezierWithUnevenControlTimesSolvesForTheCurveParameter() {
        // time(s) = 3s² − 2s³ over [0,1] (controls at t=0 and t=1): at t = 0.5, s = 0.5 by symmetry, and
        // value(s) = 3(1−s)s²·1 + s³·1 with value controls (0, 1): 3·0.5·0.25 + 0.125 = 0.5
        Curve c = new Curve(new float[] {0, 1}, new float[] {0, 1}, new byte[] {Curve.BEZIER}, new float[] {0, 0, 1, 1});
        assertThat(CurveSampler.evaluate(c, 0.5)).isCloseTo(0.5, within(1e-9));
        // at t = 0.104: solve 3s² − 2s³ = 0.104 → s = 0.2 exactly; value = 3·0.8·0.04 + 0.008 = 0.104
        assertThat(CurveSampler.evaluate(c, 0.104)).isCloseTo(0.104, within(1e-9));
        // value controls (0,0)->(1,1) with time controls pinned: a different curve value, still exact
        Curve d = new Curve(new float[] {0, 1}, new float[] {0, 1}, new byte[] {Curve.BEZIER}, new float[] {0, 1, 1, 0});
        // s = 0.2 → value = 3·0.64·0.2·1 + 3·0.8·0.04·0 + 0.008 = 0.392
        assertThat(CurveSampler.evaluate(d, 0.104)).isCloseTo(0.392, within(1e-9));
    }

    @Test
    void controlTimesOutsideTheSegmentAreClampedSoTheCurveStaysAFunction() {
        Curve c = new Curve(new float[] {0, 1}, new float[] {0, 1}, new byte[] {Curve.BEZIER}, new float[] {-5, 0, 7, 1});
        assertThat(c.controls()[0]).isEqualTo(0f);
        assertThat(c.controls()[2]).isEqualTo(1f);
        double previous = -1;
        for (double t = 0; t <= 1; t += 0.01) {
            double v = CurveSampler.evaluate(c, t);
            assertThat(v).isGreaterThanOrEqualTo(previous - 1e-12);
            previous = v;
        }
    }
}
