package io.posekit.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.MorphTargets;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Morph weights from weights tracks, node/mesh defaults, with known answers for every interpolation. */
class MorphWeightsJobTest {

    private static Primitive point(int targets) {
        Primitive p = new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), new float[3], null, null, null, 0,
                new int[0], new float[0]);
        return targets == 0 ? p : p.withMorphTargets(new MorphTargets(1, new float[targets][], null));
    }

    /** Instance 0: rigid, no targets, node 0; instance 1: 2 targets on node 1 (defaults 0.5, 0.25); instance 2: 2 on node 2. */
    private static List<MeshInstance> meshes() {
        return List.of(new MeshInstance("plain", 0, -1, 0, List.of(point(0))),
                new MeshInstance("a", 1, -1, 1, List.of(point(2)), new float[] {0.5f, 0.25f}),
                new MeshInstance("b", 2, -1, 2, List.of(point(2), point(2))));
    }

    private static MorphWeights sample(Clip clip, double t) {
        return MorphWeights.evaluate(meshes(), clip, t);
    }

    private static Clip clip(Track... tracks) {
        return Clip.of("c", List.of(tracks));
    }

    @Test
    void withoutAClipTheDefaultsApply() {
        MorphWeights w = sample(null, 0);
        assertThat(w.meshCount()).isEqualTo(3);
        assertThat(w.weights(0)).isEmpty();
        assertThat(w.weights(1)).containsExactly(0.5f, 0.25f);
        assertThat(w.weights(2)).containsExactly(0, 0);
    }

    @Test
    void linearWeightsInterpolateComponentWise() {
        Track t = new Track(1, TrackProperty.WEIGHTS, Interpolation.LINEAR, 2, new float[] {0, 1},
                new float[] {0, 0, 1, 0});
        MorphWeights w = sample(clip(t), 0.5);
        assertThat(w.weights(1)).containsExactly(0.5f, 0);
        // the other instance keeps its defaults
        assertThat(w.weights(2)).containsExactly(0, 0);
        // clamped outside the keys
        assertThat(sample(clip(t), 7).weights(1)).containsExactly(1, 0);
        assertThat(sample(clip(t), -1).weights(1)).containsExactly(0, 0);
    }

    @Test
    void stepWeightsHoldTheirKey() {
        Track t = new Track(2, TrackProperty.WEIGHTS, Interpolation.STEP, 2, new float[] {0, 1},
                new float[] {0.25f, 0.75f, 1, 0});
        assertThat(sample(clip(t), 0.99).weights(2)).containsExactly(0.25f, 0.75f);
        assertThat(sample(clip(t), 1).weights(2)).containsExactly(1, 0);
    }

    @Test
    void cubicSplineWeightsUseTheHermiteBasisWithScaledTangents() {
        // keys at 0 and 2 s, values (0, 1) → (1, 1); out-tangent of key 0 = (1, 0), in-tangent of key 1 = (0, 2)
        float[] values = {
            9, 9, 0, 1, 1, 0,   // key 0: in-tangent (unused), value, out-tangent
            0, 2, 1, 1, 9, 9,   // key 1: in-tangent, value, out-tangent (unused)
        };
        Track t = new Track(1, TrackProperty.WEIGHTS, Interpolation.CUBICSPLINE, 2, new float[] {0, 2}, values);
        // s = 0.5, td = 2: h00 = 0.5, h10 = 0.125·2 = 0.25, h01 = 0.5, h11 = −0.125·2 = −0.25
        // w0 = 0.5·0 + 0.25·1 + 0.5·1 − 0.25·0 = 0.75; w1 = 0.5·1 + 0.25·0 + 0.5·1 − 0.25·2 = 0.5
        assertThat(sample(clip(t), 1).weights(1)).containsExactly(new float[] {0.75f, 0.5f}, within(1e-7f));
        assertThat(sample(clip(t), 2).weights(1)).containsExactly(1, 1);
    }

    @Test
    void tracksOfNodesWithoutAMatchingMeshAreIgnoredAndOthersUntouched() {
        Track other = new Track(0, TrackProperty.WEIGHTS, Interpolation.LINEAR, 2, new float[] {0}, new float[] {1, 1});
        Track translation = new Track(1, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, new float[] {0},
                new float[] {1, 2, 3});
        MorphWeights w = sample(clip(other, translation), 0);
        assertThat(w.weights(1)).containsExactly(0.5f, 0.25f);
    }

    @Test
    void theJobIsReusableAndValidatesItsOutput() {
        MorphWeightsJob job = new MorphWeightsJob();
        job.meshes = meshes();
        job.output = new MorphWeights(meshes());
        Track t = new Track(1, TrackProperty.WEIGHTS, Interpolation.LINEAR, 2, new float[] {0, 1},
                new float[] {0, 0, 1, 0});
        job.clip = clip(t);
        for (double time : new double[] {0.25, 0.5, 0.75, 0.5}) {
            job.time = time;
            job.run();
            assertThat(job.output.weights(1)).containsExactly((float) time, 0);
        }
        job.clip = null;
        job.run();
        assertThat(job.output.weights(1)).containsExactly(0.5f, 0.25f);
        job.output = new MorphWeights(meshes().subList(0, 2));
        assertThat(job.validate()).isFalse();
        assertThatThrownBy(job::run).isInstanceOf(IllegalStateException.class);
        job.output = new MorphWeights(meshes());
        job.time = Double.NaN;
        assertThat(job.validate()).isFalse();
    }
}
