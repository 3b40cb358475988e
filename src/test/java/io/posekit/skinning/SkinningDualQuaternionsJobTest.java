package io.posekit.skinning;

import static io.posekit.skinning.DqFixtures.NO_ROTATION;
import static io.posekit.skinning.DqFixtures.axisAngle;
import static io.posekit.skinning.DqFixtures.concat;
import static io.posekit.skinning.DqFixtures.trs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.within;

import io.posekit.math.DualQuaternions;
import io.posekit.skinning.NonRigidJointException.Reason;
import java.util.List;
import org.junit.jupiter.api.Test;

class SkinningDualQuaternionsJobTest {

    private static final float[] T = {1, 2, 3};

    private static SkinningDualQuaternionsJob job(float[] matrices) {
        SkinningDualQuaternionsJob job = new SkinningDualQuaternionsJob();
        job.skinningMatrices = matrices;
        job.outDualQuaternions = new float[8 * (matrices.length / 16)];
        job.outScales = new float[matrices.length / 16];
        return job;
    }

    private static float[] rigidDq(float[] t, float[] q) {
        float[] dq = new float[8];
        DualQuaternions.fromRigidMatrix(trs(t, q, 1), 0, dq, 0);
        return dq;
    }

    private static NonRigidJointException failure(float[] matrices) {
        SkinningDualQuaternionsJob job = job(matrices);
        assertThat(job.validate()).isTrue();
        return catchThrowableOfType(NonRigidJointException.class, job::run);
    }

    @Test
    void rigidAndUniformlyScaledMatricesSplitIntoRigidPartAndScale() {
        float[] q = axisAngle(1, -2, 0.5, 70);
        float[] zero = new float[16];
        zero[12] = 4;
        zero[13] = 5;
        zero[14] = 6;
        SkinningDualQuaternionsJob job = job(concat(trs(T, q, 1), trs(T, q, 2.5f), trs(T, q, 0.01f), zero));
        assertThat(job.validate()).isTrue();
        job.run();
        // M = T·R·(s·I): the translation is the matrix's, unscaled; the rotation is the same for every s
        float[] rigid = rigidDq(T, q);
        for (int j = 0; j < 3; j++) {
            float[] dq = java.util.Arrays.copyOfRange(job.outDualQuaternions, 8 * j, 8 * j + 8);
            assertThat(dq).as("joint %d", j).containsExactly(rigid, within(1e-6f));
        }
        assertThat(job.outScales[0]).isCloseTo(1, within(1e-6f));
        assertThat(job.outScales[1]).isCloseTo(2.5f, within(1e-6f));
        assertThat(job.outScales[2]).isCloseTo(0.01f, within(1e-8f));
        // a joint scaled to nothing: scale 0, no rotation, its translation (every vertex lands on it)
        assertThat(job.outScales[3]).isZero();
        assertThat(java.util.Arrays.copyOfRange(job.outDualQuaternions, 24, 32))
                .containsExactly(rigidDq(new float[] {4, 5, 6}, NO_ROTATION));
    }

    @Test
    void theBottomRowIsIgnoredAsLinearBlendSkinningIgnoresIt() {
        float[] m = trs(T, axisAngle(0, 0, 1, 30), 1);
        m[3] = 0.5f;
        m[15] = 2;
        SkinningDualQuaternionsJob job = job(m);
        job.run();
        assertThat(job.outDualQuaternions).containsExactly(rigidDq(T, axisAngle(0, 0, 1, 30)), within(1e-6f));
        assertThat(job.outScales).containsExactly(new float[] {1}, within(1e-6f));
    }

    @Test
    void nonUniformScaleIsRejectedWithTheJointAndItsMeasuredScales() {
        // joint 2 of 3 has scale (1, 2, 1) under a rotation: the column lengths are the scales
        NonRigidJointException e = failure(concat(trs(T, NO_ROTATION, 1), trs(T, NO_ROTATION, 3),
                trs(T, axisAngle(1, 1, 1, 33), 1, 2, 1)));
        assertThat(e.joint()).isEqualTo(2);
        assertThat(e.reason()).isEqualTo(Reason.NON_UNIFORM_SCALE);
        assertThat(e.scaleX()).isCloseTo(1, within(1e-6));
        assertThat(e.scaleY()).isCloseTo(2, within(1e-6));
        assertThat(e.scaleZ()).isCloseTo(1, within(1e-6));
        assertThat(e.formattedScales()).isEqualTo("(1, 2, 1)");
        assertThat(e).hasMessage("joint 2 has non-uniform scale (1, 2, 1); dual-quaternion skinning cannot"
                + " represent it");
    }

    @Test
    void theFirstOffendingJointIsReportedAndEarlierJointsAreWritten() {
        SkinningDualQuaternionsJob job = job(concat(trs(T, NO_ROTATION, 2), trs(T, NO_ROTATION, 1, 1, 0.5f),
                trs(T, NO_ROTATION, 3, 1, 1)));
        NonRigidJointException e = catchThrowableOfType(NonRigidJointException.class, job::run);
        assertThat(e.joint()).isEqualTo(1);
        assertThat(e.formattedScales()).isEqualTo("(1, 1, 0.5)");
        assertThat(job.outScales[0]).isEqualTo(2);
    }

    @Test
    void aPartlyCollapsedJointIsNonUniform() {
        NonRigidJointException e = failure(trs(T, NO_ROTATION, 1, 0, 1));
        assertThat(e.reason()).isEqualTo(Reason.NON_UNIFORM_SCALE);
        assertThat(e.formattedScales()).isEqualTo("(1, 0, 1)");
    }

    @Test
    void scaleSpreadWithinTheRelativeToleranceIsAcceptedAsTheMean() {
        // spread 0.0009 ≤ 1e-3 · 1.0009 at scale 1, and the same relative spread at scale 1000
        SkinningDualQuaternionsJob job = job(concat(trs(T, NO_ROTATION, 1, 1.0009f, 1),
                trs(T, NO_ROTATION, 1000, 1000.9f, 1000)));
        job.run();
        assertThat(job.outScales[0]).isCloseTo(1.0003f, within(1e-6f));
        assertThat(job.outScales[1]).isCloseTo(1000.3f, within(1e-3f));
        // 0.0011 > 1e-3 · 1.0011
        assertThat(failure(trs(T, NO_ROTATION, 1, 1.0011f, 1)).reason()).isEqualTo(Reason.NON_UNIFORM_SCALE);
    }

    @Test
    void shearIsRejectedWithTheLargestCosineBetweenAxes() {
        // unit columns x and y at 89.4° (cos = sin 0.6° ≈ 0.01047), scaled by 2
        double a = Math.toRadians(0.6);
        float[] m = {2, 0, 0, 0, (float) (2 * Math.sin(a)), (float) (2 * Math.cos(a)), 0, 0, 0, 0, 2, 0, 1, 2, 3, 1};
        NonRigidJointException e = failure(m);
        assertThat(e.joint()).isZero();
        assertThat(e.reason()).isEqualTo(Reason.SHEAR);
        assertThat(e.shear()).isCloseTo(Math.sin(a), within(1e-6));
        assertThat(e.formattedScales()).isEqualTo("(2, 2, 2)");
        assertThat(e).hasMessage("joint 0 has shear (axes at |cos| 0.010472 from perpendicular, scales (2, 2, 2));"
                + " dual-quaternion skinning cannot represent it");

        // within the tolerance (cos = sin 0.05° ≈ 0.00087): accepted
        double b = Math.toRadians(0.05);
        float[] slight = {1, 0, 0, 0, (float) Math.sin(b), (float) Math.cos(b), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        SkinningDualQuaternionsJob ok = job(slight);
        ok.run();
        assertThat(ok.outScales[0]).isCloseTo(1, within(1e-6f));
    }

    @Test
    void mirroringIsRejectedWithANegativeXScale() {
        NonRigidJointException e = failure(concat(trs(T, NO_ROTATION, 1), trs(T, axisAngle(0, 1, 0, 90), -1, 1, 1)));
        assertThat(e.joint()).isEqualTo(1);
        assertThat(e.reason()).isEqualTo(Reason.MIRROR);
        assertThat(e.scaleX()).isCloseTo(-1, within(1e-6));
        assertThat(e.formattedScales()).isEqualTo("(-1, 1, 1)");
        assertThat(e).hasMessage("joint 1 has a mirroring (negative) scale (-1, 1, 1); dual-quaternion skinning"
                + " cannot represent it");
        // a negative uniform scale is a point reflection: determinant −8
        NonRigidJointException uniform = failure(trs(T, NO_ROTATION, -2));
        assertThat(uniform.reason()).isEqualTo(Reason.MIRROR);
        assertThat(uniform.formattedScales()).isEqualTo("(-2, 2, 2)");
    }

    @Test
    void nonFiniteValuesAreRejected() {
        float[] m = trs(T, NO_ROTATION, 1);
        m[5] = Float.NaN;
        assertThat(failure(m).reason()).isEqualTo(Reason.NOT_FINITE);
        float[] t = trs(T, NO_ROTATION, 1);
        t[13] = Float.POSITIVE_INFINITY;
        NonRigidJointException e = failure(t);
        assertThat(e.reason()).isEqualTo(Reason.NOT_FINITE);
        assertThat(e).hasMessage("joint 0 has a skinning matrix with non-finite values; dual-quaternion skinning"
                + " cannot represent it");
    }

    @Test
    void onlyJointsMarkedUsedMustBeRepresentable() {
        float[] matrices = concat(trs(T, NO_ROTATION, 2), trs(T, NO_ROTATION, 1, 2, 1), trs(T, NO_ROTATION, 1));
        SkinningDualQuaternionsJob job = job(matrices);
        job.usedJoints = new boolean[] {true, false, true};
        assertThat(job.validate()).isTrue();
        job.run();
        assertThat(job.outScales[0]).isEqualTo(2);
        assertThat(job.outScales[1]).isNaN();
        assertThat(job.outScales[2]).isEqualTo(1);
        assertThat(java.util.Arrays.copyOfRange(job.outDualQuaternions, 8, 16)).containsExactly(0, 0, 0, 1, 0, 0, 0,
                0);

        job.usedJoints[1] = true;
        assertThat(catchThrowableOfType(NonRigidJointException.class, job::run).joint()).isEqualTo(1);
    }

    @Test
    void markUsedJointsFollowsTheSkinningWeightRules() {
        // vertex 0: joints 1 and 3 weighted, 5 in a zero-weight slot; vertex 1: weights sum to 0 → slot 0 = 4;
        // vertex 2: joint 9 is beyond the mask (skinning reports it)
        Primitive p = new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), new float[9], null, null, null, 4,
                new int[] {1, 5, 3, 1, 4, 2, 2, 2, 9, 0, 0, 0}, new float[] {0.5f, 0, 0.5f, 0, 0, 0, 0, 0, 1, 0, 0, 0});
        boolean[] used = new boolean[6];
        used[0] = true; // entries are only ever set
        SkinningDualQuaternionsJob.markUsedJoints(p, used);
        assertThat(used).containsExactly(true, true, false, true, true, false);
        assertThat(p.maxUsedJoint()).isEqualTo(9);

        boolean[] none = new boolean[2];
        SkinningDualQuaternionsJob.markUsedJoints(new Primitive(PrimitiveMode.POINTS, List.of("POSITION"),
                new float[3], null, null, null, 0, new int[0], new float[0]), none);
        assertThat(none).containsOnly(false);
    }

    @Test
    void validateRejectsInconsistentInputs() {
        float[] two = concat(trs(T, NO_ROTATION, 1), trs(T, NO_ROTATION, 1));
        assertThat(job(two).validate()).isTrue();
        SkinningDualQuaternionsJob noInput = job(two);
        noInput.skinningMatrices = null;
        assertThat(noInput.validate()).isFalse();
        assertThatThrownBy(noInput::run).isInstanceOf(IllegalStateException.class);
        SkinningDualQuaternionsJob shortDq = job(two);
        shortDq.outDualQuaternions = new float[15];
        assertThat(shortDq.validate()).isFalse();
        SkinningDualQuaternionsJob noDq = job(two);
        noDq.outDualQuaternions = null;
        assertThat(noDq.validate()).isFalse();
        SkinningDualQuaternionsJob shortScales = job(two);
        shortScales.outScales = new float[1];
        assertThat(shortScales.validate()).isFalse();
        SkinningDualQuaternionsJob shortMask = job(two);
        shortMask.usedJoints = new boolean[1];
        assertThat(shortMask.validate()).isFalse();
        SkinningDualQuaternionsJob inPlace = job(two);
        inPlace.outDualQuaternions = two;
        assertThat(inPlace.validate()).isFalse();
        SkinningDualQuaternionsJob shared = job(two);
        shared.outScales = shared.outDualQuaternions;
        assertThat(shared.validate()).isFalse();
        // no joints: nothing to do
        SkinningDualQuaternionsJob empty = job(new float[0]);
        assertThat(empty.validate()).isTrue();
        empty.run();
    }
}
