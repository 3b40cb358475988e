package io.posekit.skinning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PrimitiveTexcoordSetsTest {

    private static Primitive pair(float[] uv0) {
        return new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), new float[] {0, 0, 0, 1, 0, 0}, null, null, null, 0,
                new int[0], new float[0], uv0, null);
    }

    @Test
    void furtherSetsFollowTexcoord0AndAreCarriedAndWeighed() {
        float[] uv0 = {0, 0, 1, 1};
        float[] uv1 = {0.5f, 0.5f, 0.25f, 0.75f};
        float[] uv2 = {9, 9, 8, 8};
        Primitive base = pair(uv0);
        assertThat(base.texcoordSets()).containsExactly(uv0);
        Primitive three = base.withFurtherTexcoords(List.of(uv1, uv2));
        assertThat(three.texcoordSets()).containsExactly(uv0, uv1, uv2);
        assertThat(three.texcoords()).isSameAs(uv0);
        // each further set: its 4-byte floats and an array header
        assertThat(three.footprintBytes()).isEqualTo(base.footprintBytes() + 2 * (16 + 16));

        Primitive morphing = three.withColors(new float[8])
                .withMorphTargets(new MorphTargets(2, new float[][] {{0, 0, 1, 0, 0, 1}}, null));
        assertThat(morphing.texcoordSets()).containsExactly(uv0, uv1, uv2);
        assertThat(morphing.withFurtherTexcoords(List.of()).texcoordSets()).containsExactly(uv0);
        assertThat(pair(null).texcoordSets()).isEmpty();
    }

    @Test
    void aSetOfTheWrongLengthOrWithoutTexcoord0IsRefused() {
        assertThatThrownBy(() -> pair(new float[4]).withFurtherTexcoords(List.of(new float[2])))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("TEXCOORD_1 length 2 != 2 × 2");
        assertThatThrownBy(() -> pair(null).withFurtherTexcoords(List.of(new float[4])))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("TEXCOORD_1 without TEXCOORD_0");
    }
}
