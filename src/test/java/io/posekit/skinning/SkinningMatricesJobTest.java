package io.posekit.skinning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.rig.Skin;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SkinningMatricesJobTest {

    // model matrices of 3 nodes: 0 = T(1,2,3), 1 = unused garbage, 2 = T(0,5,0)·Rz(90°)
    private static final float[] MODEL = {
        1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1,
        9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
        0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 5, 0, 1,
    };

    // joint 0 = node 2 with IBM T(−1,0,0); joint 1 = node 0 with IBM S(2,3,4)
    private static Skin skin() {
        return new Skin("s", new int[] {2, 0}, new float[] {
            1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 1,
            2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1,
        });
    }

    private static SkinningMatricesJob job(Skin skin, float[] model, float[] out) {
        SkinningMatricesJob job = new SkinningMatricesJob();
        job.skin = skin;
        job.modelMatrices = model;
        job.output = out;
        return job;
    }

    @Test
    void modelTimesInverseBindKnownAnswer() {
        float[] out = new float[32];
        SkinningMatricesJob job = job(skin(), MODEL, out);
        assertThat(job.validate()).isTrue();
        job.run();
        // joint 0: T(0,5,0)·Rz·T(−1,0,0) = upper Rz, translation Rz·(−1,0,0) + (0,5,0) = (0,4,0)
        assertThat(Arrays.copyOfRange(out, 0, 16)).containsExactly(0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 4, 0, 1);
        // joint 1: T(1,2,3)·S(2,3,4)
        assertThat(Arrays.copyOfRange(out, 16, 32)).containsExactly(2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1);
    }

    /**
     * A skin carried by node 0 (T(1,2,3)) bound where T(0,2,0) is: every matrix is moved by the carrier's motion since
     * the bind, T(1,2,3)·T(0,−2,0) = T(1,0,3), on the left.
     */
    @Test
    void aCarriedSkinIsMovedByItsCarriersMotionSinceTheBind() {
        Skin plain = skin();
        float[] bindInverse = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0, 1};
        Skin carried = new Skin("s", plain.jointNodes(), plain.inverseBindMatrices(), 0, bindInverse);
        float[] out = new float[32];
        SkinningMatricesJob job = job(carried, MODEL, out);
        assertThat(job.validate()).isTrue();
        job.run();
        assertThat(Arrays.copyOfRange(out, 0, 16)).containsExactly(0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 4, 3, 1);
        assertThat(Arrays.copyOfRange(out, 16, 32)).containsExactly(2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 2, 2, 6, 1);
        Skin beyond = new Skin("s", plain.jointNodes(), plain.inverseBindMatrices(), 3, bindInverse);
        assertThat(job(beyond, MODEL, new float[32]).validate()).isFalse();
        assertThatThrownBy(job(beyond, MODEL, new float[32])::run).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("carrier is node 3 but there are 3 model matrices");
        assertThatThrownBy(() -> new Skin("s", plain.jointNodes(), plain.inverseBindMatrices(), 0, null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void validateRejectsMissingModelMatricesAndShortOutput() {
        assertThat(job(skin(), Arrays.copyOf(MODEL, 47), new float[32]).validate()).isFalse();
        assertThat(job(skin(), MODEL, new float[31]).validate()).isFalse();
        assertThat(job(null, MODEL, new float[32]).validate()).isFalse();
        assertThat(job(skin(), null, new float[32]).validate()).isFalse();
        assertThat(job(skin(), MODEL, null).validate()).isFalse();
        float[] same = MODEL.clone();
        assertThat(job(skin(), same, same).validate()).isFalse();
        assertThatThrownBy(job(skin(), MODEL, new float[31])::run).isInstanceOf(IllegalStateException.class);
    }

    /**
     * Affine pairs take the short product and anything else the general one; both give the general 4×4 product's
     * values (compared numerically, so +0 and −0 are equal).
     */
    @Test
    void affineAndGeneralMatricesGiveTheGeneralProduct() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(9);
        int joints = 6;
        float[] model = new float[16 * joints];
        float[] ibm = new float[16 * joints];
        int[] nodes = new int[joints];
        for (int k = 0; k < joints; k++) {
            nodes[k] = joints - 1 - k;
            for (int e = 0; e < 16; e++) {
                model[16 * k + e] = (float) random.nextDouble(-2, 2);
                ibm[16 * k + e] = (float) random.nextDouble(-2, 2);
            }
            // joints 0–3 affine on both sides; joint 4 a projective inverse bind; joint 5 a projective model matrix
            if (k != 5) {
                model[16 * k + 3] = model[16 * k + 7] = model[16 * k + 11] = 0;
                model[16 * k + 15] = 1;
            }
            if (k != 4) {
                ibm[16 * k + 3] = ibm[16 * k + 7] = ibm[16 * k + 11] = 0;
                ibm[16 * k + 15] = 1;
            }
        }
        float[] out = new float[16 * joints];
        job(new Skin("s", nodes, ibm), model, out).run();
        for (int k = 0; k < joints; k++) {
            float[] expected = new float[16];
            io.posekit.math.Matrices.multiply(model, 16 * nodes[k], ibm, 16 * k, expected, 0);
            assertThat(Arrays.copyOfRange(out, 16 * k, 16 * k + 16)).as("joint %d", k)
                    .containsExactly(expected, org.assertj.core.api.Assertions.within(0f));
        }
    }
}
