package io.posekit.skinning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PrimitiveColorsTest {

    private static Primitive pair() {
        return new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), new float[] {0, 0, 0, 1, 0, 0}, null, null, null, 0,
                new int[0], new float[0]);
    }

    @Test
    void coloursAreCarriedThroughMorphTargetsAndWeighed() {
        float[] rgba = {1, 0, 0, 1, 0, 0.5f, 1, 0.25f};
        Primitive coloured = pair().withColors(rgba);
        assertThat(coloured.colors()).isSameAs(rgba);
        assertThat(coloured.footprintBytes()).isEqualTo(pair().footprintBytes() + 32);

        Primitive morphing = coloured.withMorphTargets(new MorphTargets(2, new float[][] {{0, 0, 1, 0, 0, 1}}, null));
        assertThat(morphing.colors()).isSameAs(rgba);
        assertThat(morphing.withColors(null).colors()).isNull();
        assertThat(morphing.withColors(null).morphTargetCount()).isEqualTo(1);
    }

    @Test
    void coloursOfTheWrongLengthOrNotFiniteAreRefused() {
        assertThatThrownBy(() -> pair().withColors(new float[] {1, 1, 1, 1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("colors length 4 != 4 × 2");
        assertThatThrownBy(() -> pair().withColors(new float[] {1, 1, 1, 1, 1, Float.NaN, 1, 1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("colour of vertex 1 is not finite");
    }
}
