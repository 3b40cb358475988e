package io.posekit.skinning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link SkinningMethod#AUTHORED}: Maya's dual-quaternion skinning with a scale per mesh axis
 * ({@link AxisScaleDualQuaternionSkinning}) and its per-vertex blend with linear skinning ({@link BlendedSkinning}),
 * against answers worked by hand.
 */
class AuthoredSkinningTest {

    private static final float S = (float) Math.sqrt(0.5);

    /** Column-major T·Rz(90°)·diag(sx, sy, sz) with translation t. */
    private static float[] rz90(double sx, double sy, double sz, double tx, double ty, double tz) {
        return new float[] {0, (float) sx, 0, 0, (float) -sy, 0, 0, 0, 0, 0, (float) sz, 0, (float) tx, (float) ty,
                (float) tz, 1};
    }

    /** Column-major diag(sx, sy, sz). */
    private static float[] scale(double sx, double sy, double sz) {
        return new float[] {(float) sx, 0, 0, 0, 0, (float) sy, 0, 0, 0, 0, (float) sz, 0, 0, 0, 0, 1};
    }

    private static float[] concat(float[]... ms) {
        float[] out = new float[16 * ms.length];
        for (int i = 0; i < ms.length; i++) {
            System.arraycopy(ms[i], 0, out, 16 * i, 16);
        }
        return out;
    }

    /** Points with normals and tangents, each bound to joints 0 and 1 with the given weights. */
    private static Primitive twoJoints(float[] positions, float[] normals, float[] tangents, float w0, float w1) {
        int n = positions.length / 3;
        int[] joints = new int[4 * n];
        float[] weights = new float[4 * n];
        for (int v = 0; v < n; v++) {
            joints[4 * v + 1] = 1;
            weights[4 * v] = w0;
            weights[4 * v + 1] = w1;
        }
        return new Primitive(PrimitiveMode.POINTS, List.of("POSITION", "NORMAL", "TANGENT", "JOINTS_0", "WEIGHTS_0"),
                positions, normals, tangents, null, 4, joints, weights);
    }

    private static void assertVec(float[] actual, int at, double x, double y, double z) {
        assertThat(actual[at]).isCloseTo((float) x, within(1e-6f));
        assertThat(actual[at + 1]).isCloseTo((float) y, within(1e-6f));
        assertThat(actual[at + 2]).isCloseTo((float) z, within(1e-6f));
    }

    /**
     * One joint T(5, 0, 0)·Rz(90°)·diag(1, 2, 3), which the uniform-scale {@link DualQuaternionSkinningJob} refuses:
     * p = (1, 1, 1) scales to (1, 2, 3), turns to (−2, 1, 3), moves to (3, 1, 3); the normal (1, 0, 0) keeps its
     * direction under the axis scale and turns to (0, 1, 0); the tangent (0, 1, 0) turns to (−1, 0, 0), w kept.
     */
    @Test
    void aJointWithAScalePerAxisIsSkinnedExactly() {
        Primitive p = twoJoints(new float[] {1, 1, 1}, new float[] {1, 0, 0}, new float[] {0, 1, 0, -1}, 1, 0)
                .withDualQuaternionWeights(new float[] {1});
        float[] m = concat(rz90(1, 2, 3, 5, 0, 0), scale(1, 1, 1));
        float[] pos = new float[3];
        float[] nrm = new float[3];
        float[] tan = new float[4];
        new Skinner().skin(p, m, SkinningMethod.AUTHORED, pos, nrm, tan);
        assertVec(pos, 0, 3, 1, 3);
        assertVec(nrm, 0, 0, 1, 0);
        assertVec(tan, 0, -1, 0, 0);
        assertThat(tan[3]).isEqualTo(-1);
        // the same joint as a linear skin: the same point
        float[] linear = new float[3];
        new Skinner().skin(p, m, SkinningMethod.LINEAR, linear, null, null);
        assertVec(linear, 0, 3, 1, 3);
        assertThatThrownBy(() -> new Skinner().skin(p, m, SkinningMethod.DUAL_QUATERNION, new float[3], null, null))
                .isInstanceOf(NonRigidJointException.class);
    }

    /**
     * Halfway between the identity and Rz(90°): dual quaternions turn (1, 0, 0) by 45° and keep its length, where
     * linear blending gives (0.5, 0.5, 0); axis scales blend linearly: diag(1, 1, 1) and diag(3, 1, 1) give
     * diag(2, 1, 1), so (1, 1, 0) goes to (2, 1, 0).
     */
    @Test
    void rotationsBlendAsDualQuaternionsAndScalesLinearly() {
        float[] pos = new float[3];
        Primitive turn = twoJoints(new float[] {1, 0, 0}, null, null, 0.5f, 0.5f)
                .withDualQuaternionWeights(new float[] {1});
        new Skinner().skin(turn, concat(scale(1, 1, 1), rz90(1, 1, 1, 0, 0, 0)), SkinningMethod.AUTHORED, pos, null,
                null);
        assertVec(pos, 0, S, S, 0);
        Primitive stretch = twoJoints(new float[] {1, 1, 0}, null, null, 0.25f, 0.25f)
                .withDualQuaternionWeights(new float[] {1});
        // weights 0.25 + 0.25: divided by their sum, as ufbx does
        new Skinner().skin(stretch, concat(scale(1, 1, 1), scale(3, 1, 1)), SkinningMethod.AUTHORED, pos, null, null);
        assertVec(pos, 0, 2, 1, 0);
    }

    /** A mirroring matrix diag(−1, 1, 1): its first axis is flipped, so (1, 2, 3) goes to (−1, 2, 3). */
    @Test
    void aMirroredJointFlipsItsFirstAxis() {
        Primitive p = twoJoints(new float[] {1, 2, 3}, null, null, 1, 0).withDualQuaternionWeights(new float[] {1});
        float[] pos = new float[3];
        new Skinner().skin(p, concat(scale(-1, 1, 1), scale(1, 1, 1)), SkinningMethod.AUTHORED, pos, null, null);
        assertVec(pos, 0, -1, 2, 3);
    }

    /**
     * Maya's blend, per vertex: weight 0 is the linear result (0.5, 0.5, 0), weight 1 the dual-quaternion one
     * (√½, √½, 0), weight 0.5 their mean; normals blend and are normalised again.
     */
    @Test
    void blendWeightsMixLinearAndDualQuaternionPerVertex() {
        Primitive p = twoJoints(new float[] {1, 0, 0, 1, 0, 0, 1, 0, 0}, new float[] {1, 0, 0, 1, 0, 0, 1, 0, 0},
                null, 0.5f, 0.5f).withDualQuaternionWeights(new float[] {0, 1, 0.5f});
        assertThat(p.dualQuaternionOnly()).isFalse();
        float[] m = concat(scale(1, 1, 1), rz90(1, 1, 1, 0, 0, 0));
        float[] pos = new float[9];
        float[] nrm = new float[9];
        new Skinner().skin(p, m, SkinningMethod.AUTHORED, pos, nrm, null);
        assertVec(pos, 0, 0.5, 0.5, 0);
        assertVec(pos, 3, S, S, 0);
        assertVec(pos, 6, (0.5 + S) / 2, (0.5 + S) / 2, 0);
        for (int v = 0; v < 3; v++) {
            assertVec(nrm, 3 * v, S, S, 0);
        }
        // exactly the linear skinning where the weight is 0
        float[] linear = new float[9];
        new Skinner().skin(p, m, SkinningMethod.LINEAR, linear, null, null);
        assertThat(pos[0]).isEqualTo(linear[0]);
        assertThat(pos[1]).isEqualTo(linear[1]);
    }

    /** Without dual-quaternion weights the authored method is linear blend skinning, bit for bit. */
    @Test
    void withoutDualQuaternionWeightsAuthoredIsLinear() {
        Primitive p = twoJoints(new float[] {1, 0, 0, 0, 2, 1}, new float[] {1, 0, 0, 0, 1, 0}, null, 0.3f, 0.7f);
        float[] m = concat(rz90(1, 2, 3, 1, 2, 3), scale(2, 1, 1));
        float[] a = new float[6];
        float[] an = new float[6];
        float[] b = new float[6];
        float[] bn = new float[6];
        new Skinner().skin(p, m, SkinningMethod.AUTHORED, a, an, null);
        new Skinner().skin(p, m, SkinningMethod.LINEAR, b, bn, null);
        assertThat(a).containsExactly(b);
        assertThat(an).containsExactly(bn);
    }

    @Test
    void dualQuaternionWeightsAreChecked() {
        Primitive p = twoJoints(new float[] {0, 0, 0, 1, 1, 1}, null, null, 1, 0);
        assertThat(p.withDualQuaternionWeights(new float[] {1, 1}).dualQuaternionOnly()).isTrue();
        assertThat(p.withDualQuaternionWeights(new float[] {1, 1}).withColors(null).dualQuaternionWeights())
                .containsExactly(1, 1);
        assertThatThrownBy(() -> p.withDualQuaternionWeights(new float[] {1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("dual-quaternion weights length 1 != 2");
        assertThatThrownBy(() -> p.withDualQuaternionWeights(new float[] {0, 1.5f}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("dual-quaternion weight of vertex 1 is 1.5, not in [0, 1]");
        assertThatThrownBy(() -> p.withDualQuaternionWeights(new float[] {Float.NaN, 0}))
                .isInstanceOf(IllegalArgumentException.class);
        Primitive rigid = new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), new float[] {0, 0, 0}, null, null,
                null, 0, new int[0], new float[0]);
        assertThatThrownBy(() -> rigid.withDualQuaternionWeights(new float[] {1}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("dual-quaternion weights on a primitive without influences");
    }
}
