package io.posekit.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.rig.Rig;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SamplingJobTest {

    private static final float S45 = (float) Math.sqrt(0.5);

    /** root (0) → child (1) → grandchild (2), distinct rest values everywhere. */
    private static Rig rig() {
        return new Rig(new String[] {"root", "child", "leaf"}, new int[] {-1, 0, 1}, new int[] {0, 1, 2},
                new float[] {1, 2, 3, 4, 5, 6, 7, 8, 9},
                new float[] {0, 0, 0, 1, 0, 0, S45, S45, S45, 0, 0, S45},
                new float[] {1, 1, 1, 2, 2, 2, 1, 3, 1});
    }

    private static LocalPose garbagePose(int n) {
        LocalPose pose = new LocalPose(n);
        Arrays.fill(pose.translations(), -42);
        Arrays.fill(pose.rotations(), -42);
        Arrays.fill(pose.scales(), -42);
        return pose;
    }

    private static SamplingJob job(Rig rig, Clip clip, double time, LocalPose out) {
        SamplingJob job = new SamplingJob();
        job.rig = rig;
        job.clip = clip;
        job.time = time;
        job.output = out;
        return job;
    }

    @Test
    void newPoseIsIdentityAndSetToRestCopiesTheRig() {
        LocalPose pose = new LocalPose(2);
        assertThat(pose.nodeCount()).isEqualTo(2);
        assertThat(pose.translations()).containsExactly(0, 0, 0, 0, 0, 0);
        assertThat(pose.rotations()).containsExactly(0, 0, 0, 1, 0, 0, 0, 1);
        assertThat(pose.scales()).containsExactly(1, 1, 1, 1, 1, 1);
        Rig rig = rig();
        LocalPose three = new LocalPose(3);
        three.setToRest(rig);
        assertThat(three.translations()).containsExactly(rig.restTranslations());
        assertThatThrownBy(() -> pose.setToRest(rig)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LocalPose(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void nullClipGivesTheRestPose() {
        Rig rig = rig();
        LocalPose out = garbagePose(3);
        SamplingJob job = job(rig, null, 0.7, out);
        assertThat(job.validate()).isTrue();
        job.run();
        assertThat(out.translations()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(out.rotations()).containsExactly(0, 0, 0, 1, 0, 0, S45, S45, S45, 0, 0, S45);
        assertThat(out.scales()).containsExactly(1, 1, 1, 2, 2, 2, 1, 3, 1);
    }

    @Test
    void tracksOverrideOnlyTheirNodeAndPropertyAndWeightsAreIgnored() {
        Rig rig = rig();
        Track translation = new Track(1, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, new float[] {0, 2},
                new float[] {0, 0, 0, 4, 8, -2});
        Track rotation = new Track(2, TrackProperty.ROTATION, Interpolation.STEP, 4, new float[] {0, 0.5f},
                new float[] {0, 0, 0, 1, 0, 1, 0, 0});
        Track weights = new Track(0, TrackProperty.WEIGHTS, Interpolation.LINEAR, 2, new float[] {0, 1},
                new float[] {0, 1, 1, 0});
        Clip clip = Clip.of("walk", List.of(translation, rotation, weights));
        LocalPose out = garbagePose(3);
        SamplingJob job = job(rig, clip, 0.5, out);
        assertThat(job.validate()).isTrue();
        job.run();
        // node 0: all rest (its weights track changes nothing)
        // node 1: translation at s = 0.25 → (1, 2, −0.5); rotation and scale rest
        // node 2: rotation switched to key 1 at t = 0.5 exactly; translation and scale rest
        assertThat(out.translations()).containsExactly(1, 2, 3, 1, 2, -0.5f, 7, 8, 9);
        assertThat(out.rotations()).containsExactly(0, 0, 0, 1, 0, 0, S45, S45, 0, 1, 0, 0);
        assertThat(out.scales()).containsExactly(1, 1, 1, 2, 2, 2, 1, 3, 1);

        // the same job at an earlier time, then a later one (the key cache must not change results)
        job.time = 0.25;
        job.run();
        assertThat(out.translations()).containsExactly(1, 2, 3, 0.5f, 1, -0.25f, 7, 8, 9);
        assertThat(out.rotations()).containsExactly(0, 0, 0, 1, 0, 0, S45, S45, 0, 0, 0, 1);
        job.time = 3;
        job.run();
        assertThat(out.translations()).containsExactly(1, 2, 3, 4, 8, -2, 7, 8, 9);
        assertThat(out.rotations()).containsExactly(0, 0, 0, 1, 0, 0, S45, S45, 0, 1, 0, 0);
    }

    @Test
    void keyCacheGivesTheSameResultsAsUnhintedSamplingAcrossClipsAndDirections() {
        Rig rig = rig();
        float[] times = {0, 0.1f, 0.2f, 0.3f, 0.5f, 0.8f, 1.3f, 2.1f};
        float[] values = new float[3 * times.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = (i * 7) % 11 - 5;
        }
        Track a = new Track(1, TrackProperty.SCALE, Interpolation.LINEAR, 3, times, values);
        Track b = new Track(2, TrackProperty.SCALE, Interpolation.STEP, 3, times, values);
        Clip clipA = Clip.of("a", List.of(a));
        Clip clipB = Clip.of("b", List.of(b, a));
        SamplingJob job = job(rig, clipA, 0, new LocalPose(3));
        float[] expected = new float[3];
        double[] sequence = {0, 0.05, 0.15, 0.31, 0.9, 2.0, 2.5, 0.12, 0.6, 1.9, 0.01};
        for (Clip clip : List.of(clipA, clipB, clipA)) {
            job.clip = clip;
            for (double t : sequence) {
                job.time = t;
                job.run();
                for (Track track : clip.tracks()) {
                    TrackSampler.sample(track, t, expected, 0);
                    assertThat(Arrays.copyOfRange(job.output.scales(), 3 * track.node(), 3 * track.node() + 3))
                            .as("clip %s t %s node %d", clip.name(), t, track.node()).containsExactly(expected);
                }
            }
        }
    }

    @Test
    void validateRejectsInconsistentInputs() {
        Rig rig = rig();
        Clip ok = Clip.of("ok", List.of(new Track(2, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3,
                new float[] {0}, new float[] {0, 0, 0})));
        assertThat(job(rig, ok, 0, new LocalPose(3)).validate()).isTrue();
        assertThat(job(rig, ok, 0, new LocalPose(2)).validate()).isFalse();
        assertThat(job(rig, ok, 0, new LocalPose(4)).validate()).isFalse();
        assertThat(job(null, ok, 0, new LocalPose(3)).validate()).isFalse();
        assertThat(job(rig, ok, 0, null).validate()).isFalse();
        assertThat(job(rig, ok, Double.NaN, new LocalPose(3)).validate()).isFalse();
        Clip outOfRange = Clip.of("bad", List.of(new Track(3, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3,
                new float[] {0}, new float[] {0, 0, 0})));
        assertThat(job(rig, outOfRange, 0, new LocalPose(3)).validate()).isFalse();
        Clip weightsOutOfRange = Clip.of("bad", List.of(new Track(5, TrackProperty.WEIGHTS, Interpolation.LINEAR,
                1, new float[] {0}, new float[] {0})));
        assertThat(job(rig, weightsOutOfRange, 0, new LocalPose(3)).validate()).isFalse();
        Clip threeComponentRotation = Clip.of("bad", List.of(new Track(0, TrackProperty.ROTATION,
                Interpolation.LINEAR, 3, new float[] {0}, new float[] {0, 0, 0})));
        assertThat(job(rig, threeComponentRotation, 0, new LocalPose(3)).validate()).isFalse();

        LocalPose untouched = garbagePose(2);
        SamplingJob wrongSize = job(rig, ok, 0, untouched);
        assertThatThrownBy(wrongSize::run).isInstanceOf(IllegalStateException.class);
        assertThat(untouched.translations()).containsOnly(-42);
    }
}
