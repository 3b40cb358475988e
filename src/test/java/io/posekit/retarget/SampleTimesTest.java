package io.posekit.retarget;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.clip.Clip;
import io.posekit.clip.Curve;
import io.posekit.clip.Interpolation;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sample times of a retargeted clip: key times, plus a 60 Hz grid for curves, or the grid alone. */
class SampleTimesTest {

    private static Track rotation(Interpolation interpolation, float... times) {
        int perKey = interpolation == Interpolation.CUBICSPLINE ? 12 : 4;
        float[] values = new float[perKey * times.length];
        for (int k = 0; k < times.length; k++) {
            values[perKey * k + perKey / 3 * (interpolation == Interpolation.CUBICSPLINE ? 1 : 0) + 3] = 1;
        }
        return new Track(0, TrackProperty.ROTATION, interpolation, 4, times, values);
    }

    @Test
    void linearAndStepKeysAreSampledAtTheUnionOfTheirTimes() {
        Clip clip = Clip.of("c", List.of(rotation(Interpolation.LINEAR, 0.5f, 1f, 2f),
                rotation(Interpolation.STEP, 0.25f, 1f).withNode(1)));
        assertThat(SampleTimes.of(clip)).containsExactly(0.25f, 0.5f, 1f, 2f);
    }

    @Test
    void cubicSplinesAddASixtyHertzGrid() {
        Clip clip = Clip.of("c", List.of(rotation(Interpolation.CUBICSPLINE, 0f, 0.1f)));
        float[] times = SampleTimes.of(clip);
        assertThat(times).hasSize(7).startsWith(0f, 1 / 60f).endsWith(0.1f);
    }

    @Test
    void bezierCurvesAddTheGridAndKeysAtUnrelatedTimesAreReplacedByIt() {
        Curve bezier = new Curve(new float[] {0, 0.05f}, new float[] {0, 90}, new byte[] {Curve.BEZIER},
                new float[] {0.01f, 10, 0.04f, 80});
        Clip curved = Clip.of("c", List.of(), List.of(new NodeTransformTrack(0,
                List.of(new NodeTransformTrack.Rotate(0, 0, 1, bezier)))));
        assertThat(SampleTimes.of(curved)).containsExactly(0f, 1 / 60f, 2 / 60f, 0.05f);

        float[] dense = new float[100];
        for (int k = 0; k < dense.length; k++) {
            dense[k] = k * 0.001f; // 1000 Hz over 0.099 s: more than two keys per 60 Hz step
        }
        float[] times = SampleTimes.of(Clip.of("d", List.of(rotation(Interpolation.LINEAR, dense))));
        assertThat(times).hasSize(7).startsWith(0f, 1 / 60f).endsWith(dense[99]);
    }

    @Test
    void aClipWithoutKeysIsSampledOnce() {
        assertThat(SampleTimes.of(Clip.of("empty", List.of()))).containsExactly(0f);
    }
}
