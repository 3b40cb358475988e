package io.posekit.asset.collada;

import static io.posekit.asset.collada.ColladaTestSupport.assertInvalid;
import static io.posekit.asset.collada.ColladaTestSupport.build;
import static io.posekit.asset.collada.ColladaTestSupport.importDae;
import static io.posekit.asset.collada.MorphImportTest.INSTANCE;
import static io.posekit.asset.collada.MorphImportTest.morph;
import static io.posekit.asset.collada.MorphImportTest.scene;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.sampling.MorphWeights;
import org.junit.jupiter.api.Test;

/**
 * Animated COLLADA morph weights: channels targeting a morph's MORPH_WEIGHT source or array, one weight
 * ({@code id(i)}) or all ({@code id}), become a weights track on the node the morphed mesh is placed on.
 */
class MorphAnimationTest {

    @Test
    void aChannelOnOneWeightIsAWeightsTrackTheOthersHeldAtTheirDefaults() {
        DaeBuilder b = scene(morph("NORMALIZED", "t1 t2", 0.5, 0.25), INSTANCE)
                .animation(DaeBuilder.linear("w", "morph-weights(1)", new double[] {0, 2}, 1, 0, 1));
        ImportScene s = importDae(b);
        Track t = s.clips().getFirst().tracks().getFirst();
        assertThat(t.property()).isEqualTo(TrackProperty.WEIGHTS);
        assertThat(s.nodes().get(t.node()).name()).isEqualTo("FaceNode");
        assertThat(t.interpolation()).isEqualTo(Interpolation.LINEAR);
        assertThat(t.times()).containsExactly(0, 2);
        assertThat(t.values()).containsExactly(0.5f, 0, 0.5f, 1);
        assertThat(s.warnings()).isEmpty();
        Model model = build(b);
        assertThat(MorphWeights.evaluate(model.meshes(), model.clips().getFirst(), 1.5).weights(0))
                .containsExactly(new float[] {0.5f, 0.75f}, within(1e-6f));
    }

    @Test
    void aChannelOnTheWholeArrayUnderASkinSetsEveryWeight() {
        // the float_array's id (the source's id + "-array") addresses the weights too; STEP keys: a STEP track
        DaeBuilder b = scene(MorphImportTest.SKIN_OVER_MORPH + morph("NORMALIZED", "t1 t2", 0.5, 0.25),
                "<instance_controller url=\"#ctrl\"><skeleton>#arm</skeleton></instance_controller>")
                .animation(DaeBuilder.animation("w", "morph-weights-array", new double[] {0, 1}, 2,
                        new double[] {0, 1, 1, 0}, new String[] {"STEP", "STEP"}, null, null));
        ImportScene s = importDae(b);
        Track t = s.clips().getFirst().tracks().getFirst();
        assertThat(t.components()).isEqualTo(2);
        assertThat(t.interpolation()).isEqualTo(Interpolation.STEP);
        assertThat(t.values()).containsExactly(0, 1, 1, 0);
        assertThat(s.meshes().getFirst().skin()).isZero();
    }

    @Test
    void badWeightChannelsAreInvalid() {
        DaeBuilder outOfRange = scene(morph("NORMALIZED", "t1 t2", 0.5, 0.25), INSTANCE)
                .animation(DaeBuilder.linear("w", "morph-weights(2)", new double[] {0}, 1, 1));
        assertInvalid(() -> importDae(outOfRange), "animation channel 'morph-weights(2)': weight 2 is out of range for"
                + " the 2 targets of morph 'morph'");
        DaeBuilder wide = scene(morph("NORMALIZED", "t1 t2", 0.5, 0.25), INSTANCE)
                .animation(DaeBuilder.linear("w", "morph-weights", new double[] {0}, 3, 1, 1, 1));
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> importDae(wide)))
                .hasMessageEndingWith("has 3 output values per key but the target takes 2");
    }
}
