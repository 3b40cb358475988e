package io.posekit.sampling;

import static io.posekit.sampling.BlendTestPoses.IDENTITY;
import static io.posekit.sampling.BlendTestPoses.translation;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.rig.Rig;
import java.util.List;
import org.junit.jupiter.api.Test;

class NormalizedTimeTest {

    @Test
    void clipsOfDifferentLengthsLandOnTheSamePhase() {
        // walk 1 s, run 1.5 s
        assertThat(NormalizedTime.toClipTime(0.5, 1, LoopMode.REPEAT)).isEqualTo(0.5);
        assertThat(NormalizedTime.toClipTime(0.5, 1.5, LoopMode.REPEAT)).isEqualTo(0.75);
        assertThat(NormalizedTime.toClipTime(0, 1.5, LoopMode.REPEAT)).isEqualTo(0);
        // outside [0, 1]: repeat wraps, pingpong bounces, clamp holds the ends
        assertThat(NormalizedTime.toClipTime(1.25, 1, LoopMode.REPEAT)).isEqualTo(0.25);
        assertThat(NormalizedTime.toClipTime(1.25, 1.5, LoopMode.REPEAT)).isEqualTo(0.375);
        assertThat(NormalizedTime.toClipTime(-0.25, 1.5, LoopMode.REPEAT)).isEqualTo(1.125);
        assertThat(NormalizedTime.toClipTime(1, 1.5, LoopMode.REPEAT)).isEqualTo(0);
        assertThat(NormalizedTime.toClipTime(1.25, 1, LoopMode.PINGPONG)).isEqualTo(0.75);
        assertThat(NormalizedTime.toClipTime(1.25, 1.5, LoopMode.PINGPONG)).isEqualTo(1.125);
        assertThat(NormalizedTime.toClipTime(1, 1.5, LoopMode.PINGPONG)).isEqualTo(1.5);
        assertThat(NormalizedTime.toClipTime(2, 1.5, LoopMode.PINGPONG)).isEqualTo(0);
        assertThat(NormalizedTime.toClipTime(1.25, 1.5, LoopMode.CLAMP)).isEqualTo(1.5);
        assertThat(NormalizedTime.toClipTime(-3, 1.5, LoopMode.CLAMP)).isEqualTo(0);
        assertThat(NormalizedTime.toClipTime(1, 1.5, LoopMode.CLAMP)).isEqualTo(1.5);
    }

    @Test
    void degenerateInputsGiveZero() {
        for (LoopMode mode : LoopMode.values()) {
            assertThat(NormalizedTime.toClipTime(0.5, 0, mode)).isEqualTo(0);
            assertThat(NormalizedTime.toClipTime(Double.NaN, 1.5, mode)).isEqualTo(0);
            assertThat(NormalizedTime.toClipTime(0.5, Double.NaN, mode)).isEqualTo(0);
            assertThat(NormalizedTime.toClipTime(0.5, Double.POSITIVE_INFINITY, mode)).isEqualTo(0);
        }
        assertThat(NormalizedTime.fromClipTime(0.75, 1.5)).isEqualTo(0.5);
        assertThat(NormalizedTime.fromClipTime(3, 1.5)).isEqualTo(2);
        assertThat(NormalizedTime.fromClipTime(3, 0)).isEqualTo(0);
    }

    @Test
    void aWalkAndRunCrossfadeAtTheSamePhase() {
        Rig rig = new Rig(new String[] {"root"}, new int[] {-1}, new int[] {0}, new float[3], IDENTITY.clone(),
                new float[] {1, 1, 1});
        // the root moves 0 → 2 along x over the walk cycle (1 s) and 0 → 6 over the run cycle (1.5 s)
        Clip walk = Clip.of("walk", List.of(new Track(0, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3,
                new float[] {0, 1}, new float[] {0, 0, 0, 2, 0, 0})));
        Clip run = Clip.of("run", List.of(new Track(0, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3,
                new float[] {0, 1.5f}, new float[] {0, 0, 0, 6, 0, 0})));
        LocalPose walkPose = new LocalPose(1);
        LocalPose runPose = new LocalPose(1);
        SamplingJob sampler = new SamplingJob();
        sampler.rig = rig;
        BlendingJob blend = new BlendingJob();
        blend.rig = rig;
        blend.output = new LocalPose(1);
        blend.layers = List.of(BlendLayer.normal(walkPose, 0.5f), BlendLayer.normal(runPose, 0.5f));
        // phase 1.25 wraps to 0.25: walk at 0.25 s (x = 0.5), run at 0.375 s (x = 1.5); half and half = 1
        double phase = 1.25;
        sampler.clip = walk;
        sampler.time = NormalizedTime.toClipTime(phase, walk.duration(), LoopMode.REPEAT);
        sampler.output = walkPose;
        sampler.run();
        sampler.clip = run;
        sampler.time = NormalizedTime.toClipTime(phase, run.duration(), LoopMode.REPEAT);
        sampler.output = runPose;
        sampler.run();
        blend.run();
        assertThat(translation(walkPose, 0)).containsExactly(0.5f, 0, 0);
        assertThat(translation(runPose, 0)).containsExactly(1.5f, 0, 0);
        assertThat(translation(blend.output, 0)).containsExactly(1, 0, 0);
    }
}
