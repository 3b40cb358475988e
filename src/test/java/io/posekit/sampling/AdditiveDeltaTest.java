package io.posekit.sampling;

import static io.posekit.sampling.BlendTestPoses.IDENTITY;
import static io.posekit.sampling.BlendTestPoses.assertSameRotation;
import static io.posekit.sampling.BlendTestPoses.mul;
import static io.posekit.sampling.BlendTestPoses.rig;
import static io.posekit.sampling.BlendTestPoses.rot;
import static io.posekit.sampling.BlendTestPoses.rotation;
import static io.posekit.sampling.BlendTestPoses.rx;
import static io.posekit.sampling.BlendTestPoses.rz;
import static io.posekit.sampling.BlendTestPoses.scale;
import static io.posekit.sampling.BlendTestPoses.set;
import static io.posekit.sampling.BlendTestPoses.translation;
import static io.posekit.sampling.BlendTestPoses.uniform;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.math.Quaternions;
import io.posekit.rig.Rig;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdditiveDeltaTest {

    /** A reference with a different, non-trivial transform on every node. */
    private static LocalPose reference() {
        LocalPose ref = new LocalPose(4);
        set(ref, 0, new float[] {1, 2, 3}, rz(90), new float[] {1, 2, 0.5f});
        set(ref, 1, new float[] {-0.5f, 0, 7}, rot(40, 0.6, 0, 0.8), new float[] {3, 3, 3});
        set(ref, 2, new float[] {0, 0, 0}, rx(-120), new float[] {0.25f, 1, 4});
        set(ref, 3, new float[] {10, -10, 0.125f}, IDENTITY, new float[] {1, 1, 1});
        return ref;
    }

    /** A pose differing from {@link #reference()} on every node and property. */
    private static LocalPose pose() {
        LocalPose pose = new LocalPose(4);
        set(pose, 0, new float[] {4, -2, 3.5f}, mul(rx(90), rz(90)), new float[] {2, 2, 2});
        set(pose, 1, new float[] {0.25f, 9, -1}, rot(75, 0, 1, 0), new float[] {1.5f, 0.3f, 6});
        set(pose, 2, new float[] {1, 1, 1}, rot(170, 0.48, 0.6, 0.64), new float[] {1, 1, 1});
        set(pose, 3, new float[] {-3, 0, 0}, rz(-30), new float[] {0.5f, 5, 1});
        return pose;
    }

    private static BlendingJob blend(Rig rig, LocalPose out, BlendLayer... layers) {
        BlendingJob job = new BlendingJob();
        job.rig = rig;
        job.layers = List.of(layers);
        job.output = out;
        assertThat(job.validate()).isTrue();
        job.run();
        return job;
    }

    @Test
    void theDeltaOfTheReferenceIsTheIdentity() {
        LocalPose delta = new LocalPose(4);
        java.util.Arrays.fill(delta.translations(), 9);
        AdditiveDelta.compute(reference(), reference(), delta);
        LocalPose identity = new LocalPose(4);
        assertThat(delta.translations()).containsExactly(identity.translations());
        assertThat(delta.scales()).containsExactly(identity.scales());
        assertThat(delta.rotations()).containsExactly(identity.rotations(), within(1e-7f));
    }

    @Test
    void theDeltaIsPreMultiplied() {
        // reference 90° about Z, pose (90° about X) · (90° about Z) → delta is exactly 90° about X
        LocalPose ref = uniform(4, new float[3], rz(90), new float[] {1, 1, 1});
        LocalPose pose = uniform(4, new float[3], mul(rx(90), rz(90)), new float[] {1, 1, 1});
        LocalPose delta = new LocalPose(4);
        AdditiveDelta.compute(ref, pose, delta);
        for (int i = 0; i < 4; i++) {
            assertThat(rotation(delta, i)).containsExactly(rx(90), within(1e-7f));
        }
    }

    @Test
    void applyingTheDeltaAtWeightOneToTheReferenceGivesThePoseBack() {
        Rig rig = rig();
        LocalPose ref = reference();
        LocalPose pose = pose();
        LocalPose delta = new LocalPose(4);
        AdditiveDelta.compute(ref, pose, delta);
        LocalPose out = new LocalPose(4);
        blend(rig, out, BlendLayer.normal(ref, 1), BlendLayer.additive(delta, 1));
        assertThat(out.translations()).containsExactly(pose.translations(), within(1e-6f));
        assertThat(out.scales()).containsExactly(pose.scales(), within(1e-6f));
        for (int i = 0; i < 4; i++) {
            assertSameRotation(rotation(out, i), rotation(pose, i));
        }
    }

    @Test
    void deltaMayOverwriteItsInputs() {
        LocalPose expected = new LocalPose(4);
        AdditiveDelta.compute(reference(), pose(), expected);
        LocalPose aliased = pose();
        AdditiveDelta.compute(reference(), aliased, aliased);
        assertThat(aliased.translations()).containsExactly(expected.translations());
        assertThat(aliased.rotations()).containsExactly(expected.rotations());
        assertThat(aliased.scales()).containsExactly(expected.scales());
    }

    @Test
    void aZeroReferenceScaleLeavesThatAxisAlone() {
        LocalPose ref = uniform(1, new float[3], IDENTITY, new float[] {0, 2, -0f});
        LocalPose pose = uniform(1, new float[3], IDENTITY, new float[] {3, 3, 5});
        LocalPose delta = new LocalPose(1);
        AdditiveDelta.compute(ref, pose, delta);
        assertThat(delta.scales()).containsExactly(1, 1.5f, 1);
    }

    @Test
    void halfWeightAppliesHalfTheDelta() {
        Rig rig = rig();
        LocalPose base = uniform(4, new float[] {1, 1, 1}, IDENTITY, new float[] {2, 2, 2});
        LocalPose delta = uniform(4, new float[] {2, 0, -4}, rz(90), new float[] {3, 1, 0});
        LocalPose out = new LocalPose(4);
        blend(rig, out, BlendLayer.normal(base, 1), BlendLayer.additive(delta, 0.5f));
        for (int i = 0; i < 4; i++) {
            assertThat(translation(out, i)).containsExactly(2, 1, -1);
            // s · lerp(1, s_d, 0.5)
            assertThat(scale(out, i)).containsExactly(4, 2, 1);
            assertThat(rotation(out, i)).containsExactly(rz(45), within(1e-7f));
        }
    }

    @Test
    void additiveRotationWeightsScaleTheAngleExactly() {
        // slerp from identity, not nlerp: a quarter of 120° is 30°, twice 30° is 60°
        Rig rig = rig();
        LocalPose base = uniform(4, new float[3], rx(90), new float[] {1, 1, 1});
        LocalPose out = new LocalPose(4);
        blend(rig, out, BlendLayer.normal(base, 1),
                BlendLayer.additive(uniform(4, new float[3], rz(120), new float[] {1, 1, 1}), 0.25f));
        float[] expected = mul(rz(30), rx(90));
        assertThat(rotation(out, 0)).containsExactly(expected, within(1e-7f));
        blend(rig, out, BlendLayer.normal(base, 1),
                BlendLayer.additive(uniform(4, new float[3], rz(30), new float[] {1, 1, 1}), 2));
        assertThat(rotation(out, 0)).containsExactly(mul(rz(60), rx(90)), within(1e-7f));
        // 270° about Z is stored with w < 0; it is the same rotation as −90° about Z and the short way is
        // taken, so half of it is −45° (not 135°)
        blend(rig, out, BlendLayer.normal(base, 1),
                BlendLayer.additive(uniform(4, new float[3], rz(270), new float[] {1, 1, 1}), 0.5f));
        assertSameRotation(rotation(out, 0), mul(rz(-45), rx(90)));
    }

    @Test
    void additiveLayersApplyInOrderAfterTheNormalMixAndRespectMasks() {
        Rig rig = rig();
        LocalPose base = uniform(4, new float[] {1, 0, 0}, IDENTITY, new float[] {1, 1, 1});
        LocalPose first = uniform(4, new float[3], rx(90), new float[] {1, 1, 1});
        LocalPose second = uniform(4, new float[3], rz(90), new float[] {1, 1, 1});
        float[] arm = JointMask.subtrees(rig, List.of("arm"));
        LocalPose out = new LocalPose(4);
        blend(rig, out, BlendLayer.normal(base, 3), BlendLayer.additive(first, 1).withJointWeights(arm),
                BlendLayer.additive(second, 1).withJointWeights(arm));
        // arm: second · first · base; elsewhere the base (the normal weight 3 normalises to 1)
        assertThat(rotation(out, 2)).containsExactly(mul(rz(90), rx(90)), within(1e-7f));
        for (int i : new int[] {0, 1, 3}) {
            assertThat(rotation(out, i)).containsExactly(IDENTITY);
            assertThat(translation(out, i)).containsExactly(1, 0, 0);
        }
        // the other order is another rotation
        assertThat(Quaternions.angleBetween(mul(rz(90), rx(90)), 0, mul(rx(90), rz(90)), 0)).isGreaterThan(1);
    }

    @Test
    void additiveLayersWithoutNormalLayersApplyToTheRestPose() {
        Rig rig = rig();
        LocalPose delta = uniform(4, new float[] {0, 0, 1}, IDENTITY, new float[] {2, 2, 2});
        LocalPose out = new LocalPose(4);
        blend(rig, out, BlendLayer.additive(delta, 1));
        assertThat(translation(out, 0)).containsExactly(0, 4, 1);
        assertThat(scale(out, 2)).containsExactly(4, 4, 4);
    }

    @Test
    void firstFrameReferenceMakesAClipsDeltaStartAtIdentity() {
        Rig rig = rig();
        Track lift = new Track(1, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, new float[] {0, 1},
                new float[] {5, 0, 0, 5, 2, 0});
        Track turn = new Track(1, TrackProperty.ROTATION, Interpolation.LINEAR, 4, new float[] {0, 1},
                new float[] {0, 0, 0, 1, 0, 0, (float) Math.sqrt(0.5), (float) Math.sqrt(0.5)});
        Clip clip = Clip.of("nod", List.of(lift, turn));
        SamplingJob sampler = new SamplingJob();
        LocalPose ref = new LocalPose(4);
        AdditiveDelta.sampleFirstFrame(sampler, rig, clip, ref);
        assertThat(translation(ref, 1)).containsExactly(5, 0, 0);

        LocalPose at = new LocalPose(4);
        sampler.time = 0.5;
        sampler.output = at;
        sampler.run();
        LocalPose delta = new LocalPose(4);
        AdditiveDelta.compute(ref, at, delta);
        assertThat(translation(delta, 1)).containsExactly(0, 1, 0);
        assertThat(rotation(delta, 1)).containsExactly(rz(45), within(1e-7f));
        // nodes the clip does not animate sample to the rest pose in both: identity delta
        assertThat(translation(delta, 2)).containsExactly(0, 0, 0);
        assertThat(scale(delta, 2)).containsExactly(1, 1, 1);
    }

    @Test
    void mismatchedNodeCountsAreRejected() {
        assertThatThrownBy(() -> AdditiveDelta.compute(new LocalPose(3), new LocalPose(4), new LocalPose(4)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AdditiveDelta.compute(new LocalPose(4), new LocalPose(4), new LocalPose(2)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
