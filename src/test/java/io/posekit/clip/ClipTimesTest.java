package io.posekit.clip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClipTimesTest {

    private static Track translation(float... times) {
        return new Track(0, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, times, new float[3 * times.length]);
    }

    @Test
    void gridAndKeyTimesSortedWithoutDuplicates() {
        Clip clip = Clip.of("c", List.of(translation(0, 0.3f, 1), translation(0.5f, 1)));
        // duration 1 s at 4 Hz: 0, 0.25, 0.5, 0.75, 1; keys add 0.3 (0.3f as a double)
        assertThat(ClipTimes.of(clip, 4, 100, 100)).containsExactly(0, 0.25, (double) 0.3f, 0.5, 0.75, 1);
    }

    @Test
    void curveKeysCountAndKeysOutsideTheClipAreLeftOut() {
        Curve curve = Curve.linear(new float[] {0.125f, 2}, new float[] {0, 1});
        NodeTransformTrack stack = new NodeTransformTrack(0, List.of(new NodeTransformTrack.Translate(curve,
                Curve.constant(0), Curve.constant(0))));
        Clip clip = new Clip("c", 1, List.of(), List.of(stack));
        assertThat(ClipTimes.of(clip, 2, 100, 100)).containsExactly(0, 0.125, 0.5, 1);
    }

    @Test
    void capsCoarsenTheGridAndThinTheKeys() {
        float[] keys = new float[1001];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = i / 1000f;
        }
        Clip clip = Clip.of("c", List.of(translation(keys)));
        double[] times = ClipTimes.of(clip, 1000, 3, 10);
        // grid 0, 0.5, 1; every 101st key: 0, 0.101, …, 0.909 (10 keys)
        assertThat(times).hasSize(3 + 10 - 1).startsWith(0).endsWith(1).contains(0.5, (double) (101 / 1000f));
        assertThatThrownBy(() -> ClipTimes.of(clip, 0, 3, 10)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aZeroLengthClipIsSampledOnce() {
        assertThat(ClipTimes.of(Clip.of("still", List.of(translation(0))), 60, 100, 100)).containsExactly(0);
    }
}
