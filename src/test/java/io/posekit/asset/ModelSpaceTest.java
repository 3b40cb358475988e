package io.posekit.asset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.asset.ModelSpace.Axis;
import org.junit.jupiter.api.Test;

/** The conversion from a file's declared space to glTF's, on known answers. */
class ModelSpaceTest {

    @Test
    void glTFsOwnSpaceIsTheIdentity() {
        assertThat(ModelSpace.GLTF.isGltf()).isTrue();
        assertThat(ModelSpace.GLTF.toGltf()).containsExactly(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
        assertThat(new ModelSpace(Axis.PLUS_X, Axis.PLUS_Y, Axis.PLUS_Z, 0.01, 0.01).isGltf()).isFalse();
    }

    @Test
    void zUpCentimetresTurnMinus90AboutXAndScale() {
        ModelSpace max = new ModelSpace(Axis.PLUS_X, Axis.PLUS_Z, Axis.MINUS_Y, 0.01, 0.0254);
        assertThat(max.mirrors()).isFalse();
        assertThat(max.toGltf()).containsExactly(0.01, 0, 0, 0, 0, 0, -0.01, 0, 0, 0.01, 0, 0, 0, 0, 0, 1);
        float[] p = {100, 200, 300};
        max.convertPoints(p);
        assertThat(p).containsExactly(1f, 3f, -2f);
        float[] n = {0, 0, 1};
        max.convertDirections(n);
        assertThat(n).containsExactly(0f, 1f, -0f);
        float[] t = {0, 1, 0, -1};
        max.convertTangents(t);
        assertThat(t).containsExactly(0f, 0f, -1f, -1f);
        // a matrix: C · M (a translation by (100, 200, 300) cm becomes (1, 3, −2) m; the rotation part turns)
        float[] m = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 100, 200, 300, 1};
        max.convertMatrices(m);
        assertThat(m).containsExactly(0.01f, 0, 0, 0, 0, 0, -0.01f, 0, 0, 0.01f, 0, 0, 1, 3, -2, 1);
        assertThat(max.describe()).isEqualTo("right +X, up +Z, front -Y, 0.01 m per unit");
    }

    @Test
    void aLeftHandedFileMirrorsAndFlipsTheBitangentSign() {
        // right +X, up +Y, front −Z: left-handed (X × Y = +Z is the back)
        ModelSpace left = new ModelSpace(Axis.PLUS_X, Axis.PLUS_Y, Axis.MINUS_Z, 1, 1);
        assertThat(left.mirrors()).isTrue();
        float[] t = {0, 0, 1, 1};
        left.convertTangents(t);
        assertThat(t).containsExactly(0f, 0f, -1f, -1f);
        assertThat(new ModelSpace(Axis.PLUS_Z, Axis.PLUS_X, Axis.PLUS_Y, 1, 1).mirrors()).isFalse();
        assertThat(new ModelSpace(Axis.PLUS_Y, Axis.PLUS_X, Axis.PLUS_Z, 1, 1).mirrors()).isTrue();
    }

    @Test
    void axesMustBeThreeDifferentOnesAndUnitsPositive() {
        assertThatThrownBy(() -> new ModelSpace(Axis.PLUS_X, Axis.MINUS_X, Axis.PLUS_Z, 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("right +X, up -X and front +Z are not three different axes");
        assertThatThrownBy(() -> new ModelSpace(Axis.PLUS_X, Axis.PLUS_Y, Axis.PLUS_Z, 0, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ModelSpace(Axis.PLUS_X, Axis.PLUS_Y, Axis.PLUS_Z, 1, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Axis.of(2, -1)).isEqualTo(Axis.MINUS_Z);
        assertThat(Axis.of(0, 0)).isEqualTo(Axis.PLUS_X);
        assertThat(Axis.of(3, 1)).isNull();
        assertThat(Axis.of(-1, 1)).isNull();
    }
}
