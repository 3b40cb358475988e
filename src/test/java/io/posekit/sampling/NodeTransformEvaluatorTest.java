package io.posekit.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.clip.Curve;
import io.posekit.clip.NodeTransformTrack;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeTransformEvaluatorTest {

    private static final Curve ZERO = Curve.constant(0);
    private static final Curve ONE = Curve.constant(1);

    @Test
    void composesElementsInOrderAndDecomposesIntoTrs() {
        // T(1,2,3) · Rz(angle: 0° → 90° over 1 s, linear) · S(2,2,2), sampled at 0.5 s: Rz(45°)
        NodeTransformTrack track = new NodeTransformTrack(1, List.of(
                new NodeTransformTrack.Translate(Curve.constant(1), Curve.constant(2), Curve.constant(3)),
                new NodeTransformTrack.Rotate(0, 0, 2, Curve.linear(new float[] {0, 1}, new float[] {0, 90})),
                new NodeTransformTrack.Scale(Curve.constant(2), Curve.constant(2), Curve.constant(2))));
        LocalPose pose = new LocalPose(2);
        new NodeTransformEvaluator().evaluate(track, 0.5, pose);
        assertThat(pose.translations()).containsExactly(new float[] {0, 0, 0, 1, 2, 3}, within(1e-6f));
        float h = (float) Math.sin(Math.toRadians(22.5));
        float w = (float) Math.cos(Math.toRadians(22.5));
        assertThat(pose.rotations()).containsExactly(new float[] {0, 0, 0, 1, 0, 0, h, w}, within(1e-6f));
        assertThat(pose.scales()).containsExactly(new float[] {1, 1, 1, 2, 2, 2}, within(1e-6f));
        assertThat(track.endTime()).isEqualTo(1.0);
    }

    @Test
    void translationAfterRotationIsRotatedLikeAnyMatrixProduct() {
        // Rz(90°) · T(1,0,0): the translation ends up along +Y
        NodeTransformTrack track = new NodeTransformTrack(0, List.of(
                new NodeTransformTrack.Rotate(0, 0, 1, Curve.constant(90)),
                new NodeTransformTrack.Translate(ONE, ZERO, ZERO)));
        LocalPose pose = new LocalPose(1);
        new NodeTransformEvaluator().evaluate(track, 0, pose);
        assertThat(pose.translations()).containsExactly(new float[] {0, 1, 0}, within(1e-6f));
    }

    @Test
    void matrixElementsAreCurvesInColumnMajorOrder() {
        List<Curve> m = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            m.add(Curve.constant(i % 5 == 0 ? 1 : 0));
        }
        m.set(13, Curve.linear(new float[] {0, 2}, new float[] {0, 4})); // translation y: 0 → 4 over 2 s
        NodeTransformTrack track = new NodeTransformTrack(0, List.of(new NodeTransformTrack.Matrix(m)));
        LocalPose pose = new LocalPose(1);
        new NodeTransformEvaluator().evaluate(track, 0.5, pose);
        assertThat(pose.translations()).containsExactly(0, 1, 0);
        assertThat(pose.rotations()).containsExactly(0, 0, 0, 1);
    }

    @Test
    void samplingJobAppliesTransformStacksAfterKeyframeTracks() {
        io.posekit.rig.Rig rig = new io.posekit.rig.Rig(new String[] {"a", "b"}, new int[] {-1, 0}, new int[] {0, 1},
                new float[6], new float[] {0, 0, 0, 1, 0, 0, 0, 1}, new float[] {1, 1, 1, 1, 1, 1});
        NodeTransformTrack stack = new NodeTransformTrack(1, List.of(
                new NodeTransformTrack.Translate(ZERO, Curve.linear(new float[] {0, 3}, new float[] {0, 3}), ZERO)));
        io.posekit.clip.Clip clip = io.posekit.clip.Clip.of("c", List.of(), List.of(stack));
        assertThat(clip.duration()).isEqualTo(3.0);
        assertThat(clip.channelCount()).isEqualTo(1);
        SamplingJob job = new SamplingJob();
        job.rig = rig;
        job.clip = clip;
        job.time = 1.5;
        job.output = new LocalPose(2);
        job.run();
        assertThat(job.output.translations()).containsExactly(0, 0, 0, 0, 1.5f, 0);
    }
}
