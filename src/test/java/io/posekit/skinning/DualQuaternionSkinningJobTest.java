package io.posekit.skinning;

import static io.posekit.skinning.DqFixtures.NO_ROTATION;
import static io.posekit.skinning.DqFixtures.axisAngle;
import static io.posekit.skinning.DqFixtures.concat;
import static io.posekit.skinning.DqFixtures.randomRotation;
import static io.posekit.skinning.DqFixtures.randomVector;
import static io.posekit.skinning.DqFixtures.trs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.posekit.math.Kernels;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DualQuaternionSkinningJobTest {

    /** Dual quaternions and scales of some skinning matrices, through {@link SkinningDualQuaternionsJob}. */
    private record Rig(float[] matrices, float[] dualQuaternions, float[] scales) {

        static Rig of(float[]... matrices) {
            float[] m = concat(matrices);
            SkinningDualQuaternionsJob convert = new SkinningDualQuaternionsJob();
            convert.skinningMatrices = m;
            convert.outDualQuaternions = new float[8 * matrices.length];
            convert.outScales = new float[matrices.length];
            convert.run();
            return new Rig(m, convert.outDualQuaternions, convert.outScales);
        }
    }

    /** Positions, normals and tangents out of one skinning run. */
    private record Skinned(float[] positions, float[] normals, float[] tangents) {

        float[] position(int v) {
            return Arrays.copyOfRange(positions, 3 * v, 3 * v + 3);
        }
    }

    private static Skinned dqs(Rig rig, Primitive p) {
        DualQuaternionSkinningJob job = new DualQuaternionSkinningJob();
        job.primitive = p;
        job.dualQuaternions = rig.dualQuaternions;
        job.scales = rig.scales;
        Skinned out = outputs(p);
        job.outPositions = out.positions;
        job.outNormals = out.normals;
        job.outTangents = out.tangents;
        assertThat(job.validate()).isTrue();
        job.run();
        return out;
    }

    private static Skinned lbs(Rig rig, Primitive p) {
        SkinningJob job = new SkinningJob();
        job.primitive = p;
        job.skinningMatrices = rig.matrices;
        Skinned out = outputs(p);
        job.outPositions = out.positions;
        job.outNormals = out.normals;
        job.outTangents = out.tangents;
        job.run();
        return out;
    }

    private static Skinned outputs(Primitive p) {
        int n = p.vertexCount();
        return new Skinned(new float[3 * n], p.normals() == null ? null : new float[3 * n],
                p.tangents() == null ? null : new float[4 * n]);
    }

    private static Primitive points(float[] positions, float[] normals, float[] tangents, int k, int[] joints,
            float[] weights) {
        return new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), positions, normals, tangents, null, k, joints,
                weights);
    }

    /** Distance of {@code (x, y, z)} from the x axis. */
    private static double radius(float[] p) {
        return Math.hypot(p[1], p[2]);
    }

    @Test
    void withOneInfluenceDualQuaternionSkinningEqualsLinearBlendSkinning() {
        // random rigid (scale 1) and uniformly scaled joints; each vertex bound to one joint, in varying slots
        // (zero weights elsewhere), with weights that are not 1, or with all weights 0 (→ slot 0)
        Random random = new Random(8);
        int jointCount = 12;
        float[][] matrices = new float[jointCount][];
        for (int j = 0; j < jointCount; j++) {
            float s = j % 2 == 0 ? 1 : (float) (0.25 + 2 * random.nextDouble());
            matrices[j] = trs(randomVector(random, 3), randomRotation(random), s);
        }
        Rig rig = Rig.of(matrices);
        int n = 500;
        int k = 8;
        float[] positions = new float[3 * n];
        float[] normals = new float[3 * n];
        float[] tangents = new float[4 * n];
        int[] joints = new int[k * n];
        float[] weights = new float[k * n];
        for (int v = 0; v < n; v++) {
            System.arraycopy(randomVector(random, 1.5), 0, positions, 3 * v, 3);
            float[] nrm = randomVector(random, 1);
            float len = (float) Math.sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
            normals[3 * v] = nrm[0] / len;
            normals[3 * v + 1] = nrm[1] / len;
            normals[3 * v + 2] = nrm[2] / len;
            System.arraycopy(randomVector(random, 1), 0, tangents, 4 * v, 3);
            tangents[4 * v + 3] = v % 3 == 0 ? -1 : 1;
            for (int i = 0; i < k; i++) {
                joints[k * v + i] = random.nextInt(jointCount);
            }
            int slot = random.nextInt(k);
            weights[k * v + slot] = v % 5 == 0 ? 0 : (float) (0.1 + random.nextDouble());
            if (v % 5 == 0) {
                slot = 0;
            }
            assertThat(weights[k * v + slot] > 0 || slot == 0).isTrue();
        }
        Primitive p = points(positions, normals, tangents, k, joints, weights);
        Skinned dq = dqs(rig, p);
        Skinned lb = lbs(rig, p);
        assertThat(dq.positions).containsExactly(lb.positions, within(1e-5f));
        assertThat(dq.normals).containsExactly(lb.normals, within(1e-5f));
        assertThat(dq.tangents).containsExactly(lb.tangents, within(1e-5f));
    }

    @Test
    void pureTranslationsBlendAsLinearBlendSkinningDoes() {
        Rig rig = Rig.of(trs(new float[] {2, 0, 0}, NO_ROTATION, 1), trs(new float[] {0, 4, 0}, NO_ROTATION, 1),
                trs(new float[] {0, 0, -8}, NO_ROTATION, 1));
        Primitive p = points(new float[] {1, 1, 1}, new float[] {0, 0, 1}, null, 4, new int[] {0, 1, 2, 0},
                new float[] {0.25f, 0.25f, 0.5f, 0});
        Skinned out = dqs(rig, p);
        // (1,1,1) + 0.25·(2,0,0) + 0.25·(0,4,0) + 0.5·(0,0,−8)
        assertThat(out.positions).containsExactly(new float[] {1.5f, 2, -3}, within(1e-6f));
        assertThat(out.positions).containsExactly(lbs(rig, p).positions, within(1e-6f));
        assertThat(out.normals).containsExactly(new float[] {0, 0, 1}, within(1e-7f));
    }

    @Test
    void uniformScalesBlendLinearlyBeforeTheRigidPart() {
        // joint 0: identity; joint 1: scale 3 then 90° about z then T(0, 0, 10)
        Rig rig = Rig.of(trs(new float[3], NO_ROTATION, 1), trs(new float[] {0, 0, 10}, axisAngle(0, 0, 1, 90), 3));
        Primitive p = points(new float[] {1, 0, 0, 1, 0, 0, 1, 0, 0}, new float[] {1, 0, 0, 1, 0, 0, 1, 0, 0}, null, 4,
                new int[] {1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0}, new float[] {1, 0, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0});
        Skinned out = dqs(rig, p);
        assertThat(out.position(0)).containsExactly(new float[] {0, 3, 10}, within(1e-5f));
        assertThat(out.position(1)).containsExactly(new float[] {1, 0, 0}, within(1e-6f));
        // 50/50: s̄ = 2 → (2, 0, 0); half of the rigid motion: 45° about z and T(0, 0, 5) → (√2, √2, 5)
        float r2 = (float) Math.sqrt(2);
        assertThat(out.position(2)).containsExactly(new float[] {r2, r2, 5}, within(1e-5f));
        float h = (float) Math.sqrt(0.5);
        assertThat(Arrays.copyOfRange(out.normals, 6, 9)).containsExactly(new float[] {h, h, 0}, within(1e-6f));
    }

    @Test
    void candyWrapperTwistKeepsItsRadiusWhereLinearBlendSkinningCollapses() {
        // a bone along x; joint 1 twists 170° about the bone axis; vertices at radius 1 around the axis, blended
        // from joint 0 to joint 1 along the bone (weights 1−t, t)
        Rig rig = Rig.of(trs(new float[3], NO_ROTATION, 1), trs(new float[3], axisAngle(1, 0, 0, 170), 1));
        double[] ts = {0, 0.1, 0.25, 0.5, 0.75, 0.9, 1};
        int n = ts.length;
        float[] positions = new float[3 * n];
        float[] normals = new float[3 * n];
        int[] joints = new int[4 * n];
        float[] weights = new float[4 * n];
        for (int v = 0; v < n; v++) {
            positions[3 * v] = v;
            positions[3 * v + 2] = 1;   // (x, 0, 1)
            normals[3 * v + 2] = 1;     // pointing away from the axis
            joints[4 * v + 1] = 1;
            weights[4 * v] = (float) (1 - ts[v]);
            weights[4 * v + 1] = (float) ts[v];
        }
        Primitive p = points(positions, normals, null, 4, joints, weights);
        Skinned dq = dqs(rig, p);
        Skinned lb = lbs(rig, p);
        for (int v = 0; v < n; v++) {
            float[] q = dq.position(v);
            // the twist angle blends too: a rotation by t·170° about x carries (0, 0, 1) to (0, −sin, cos);
            // exact for DLB because both rotations share the axis (the sum stays on one great circle)
            double angle = 2 * Math.atan2(ts[v] * Math.sin(Math.toRadians(85)),
                    1 - ts[v] + ts[v] * Math.cos(Math.toRadians(85)));
            assertThat(radius(q)).as("DQS radius at t = %s", ts[v]).isCloseTo(1, within(1e-5));
            assertThat(q).containsExactly(new float[] {v, (float) -Math.sin(angle), (float) Math.cos(angle)},
                    within(1e-5f));
            // the normal turns with the surface and stays unit
            assertThat(Arrays.copyOfRange(dq.normals, 3 * v, 3 * v + 3))
                    .containsExactly(new float[] {0, (float) -Math.sin(angle), (float) Math.cos(angle)}, within(1e-5f));
            assertThat(q[0]).as("position along the bone").isCloseTo(v, within(1e-6f));
        }
        // at 50/50, LBS averages (0, 0, 1) and (0, −sin 170°, cos 170°): radius |cos 85°| ≈ 0.087
        float[] half = lb.position(3);
        assertThat(radius(half)).isCloseTo(Math.cos(Math.toRadians(85)), within(1e-6));
        assertThat(radius(half)).isLessThan(0.1);
        assertThat(radius(dq.position(3))).isCloseTo(1, within(1e-5));
        // and DQS gives the 85° half twist
        assertThat(dq.position(3)).containsExactly(new float[] {3, (float) -Math.sin(Math.toRadians(85)),
            (float) Math.cos(Math.toRadians(85))}, within(1e-5f));
    }

    @Test
    void anExactHalfTurnTwistKeepsTheStoredSignAndItsRadius() {
        // 180°: the rotations are exactly a half turn apart (dot 0), so neither sign is shorter. The stored,
        // canonical dual quaternion of Rx(180°) is (1, 0, 0, 0) (first non-zero positive); a dot product of 0
        // keeps it, so the 50/50 blend is +90° about x: (0, 0, 1) → (0, −1, 0). LBS collapses to the axis.
        float[] half = {1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1};
        Rig rig = Rig.of(trs(new float[3], NO_ROTATION, 1), half);
        assertThat(Arrays.copyOfRange(rig.dualQuaternions, 8, 12)).containsExactly(1, 0, 0, 0);
        Primitive p = points(new float[] {2, 0, 1}, null, null, 4, new int[] {0, 1, 0, 0},
                new float[] {0.5f, 0.5f, 0, 0});
        assertThat(dqs(rig, p).positions).containsExactly(new float[] {2, -1, 0}, within(1e-6f));
        assertThat(radius(lbs(rig, p).positions)).isCloseTo(0, within(1e-7));
    }

    @Test
    void antipodalDualQuaternionsOfOneTransformationBlendToIt() {
        // joints 0 and 1 hold q and −q: the same rigid transformation with opposite signs; a naive 50/50 sum
        // would be zero
        float[] m = trs(new float[] {1, -2, 3}, axisAngle(1, 2, 2, 130), 1.5f);
        Rig rig = Rig.of(m, m);
        for (int i = 8; i < 16; i++) {
            rig.dualQuaternions[i] = -rig.dualQuaternions[i];
        }
        Primitive p = points(new float[] {0.5f, 0.25f, -1, 0.5f, 0.25f, -1}, new float[] {0, 1, 0, 0, 1, 0}, null, 4,
                new int[] {0, 1, 0, 0, 1, 0, 0, 0}, new float[] {0.5f, 0.5f, 0, 0, 0.2f, 0.8f, 0, 0});
        Skinned out = dqs(rig, p);
        Skinned single = lbs(rig, points(new float[] {0.5f, 0.25f, -1}, new float[] {0, 1, 0}, null, 4,
                new int[] {0, 0, 0, 0}, new float[] {1, 0, 0, 0}));
        for (int v = 0; v < 2; v++) {
            assertThat(out.position(v)).containsExactly(single.positions, within(1e-5f));
            assertThat(Arrays.copyOfRange(out.normals, 3 * v, 3 * v + 3)).containsExactly(single.normals,
                    within(1e-6f));
        }
    }

    @Test
    void normalsAndTangentsStayUnitUnderManyInfluences() {
        Random random = new Random(2008);
        int jointCount = 6;
        float[][] matrices = new float[jointCount][];
        for (int j = 0; j < jointCount; j++) {
            matrices[j] = trs(randomVector(random, 2), randomRotation(random), (float) (0.5 + random.nextDouble()));
        }
        Rig rig = Rig.of(matrices);
        int n = 300;
        float[] positions = new float[3 * n];
        float[] normals = new float[3 * n];
        float[] tangents = new float[4 * n];
        int[] joints = new int[4 * n];
        float[] weights = new float[4 * n];
        for (int v = 0; v < n; v++) {
            System.arraycopy(randomVector(random, 1), 0, positions, 3 * v, 3);
            System.arraycopy(randomVector(random, 1), 0, normals, 3 * v, 3);
            System.arraycopy(randomVector(random, 1), 0, tangents, 4 * v, 3);
            tangents[4 * v + 3] = v % 2 == 0 ? 1 : -1;
            for (int i = 0; i < 4; i++) {
                joints[4 * v + i] = random.nextInt(jointCount);
                weights[4 * v + i] = (float) random.nextDouble();
            }
        }
        Skinned out = dqs(rig, points(positions, normals, tangents, 4, joints, weights));
        for (int v = 0; v < n; v++) {
            double nl = Math.sqrt(out.normals[3 * v] * out.normals[3 * v]
                    + out.normals[3 * v + 1] * out.normals[3 * v + 1] + out.normals[3 * v + 2] * out.normals[3 * v + 2]);
            double tl = Math.sqrt(out.tangents[4 * v] * out.tangents[4 * v]
                    + out.tangents[4 * v + 1] * out.tangents[4 * v + 1]
                    + out.tangents[4 * v + 2] * out.tangents[4 * v + 2]);
            assertThat(nl).as("normal %d", v).isCloseTo(1, within(1e-6));
            assertThat(tl).as("tangent %d", v).isCloseTo(1, within(1e-6));
            assertThat(out.tangents[4 * v + 3]).isEqualTo(tangents[4 * v + 3]);
        }
    }

    @Test
    void aJointScaledToNothingCollapsesToItsTranslationWithAZeroNormal() {
        float[] zero = new float[16];
        zero[12] = 4;
        zero[13] = 5;
        zero[14] = 6;
        Rig rig = Rig.of(zero);
        Primitive p = points(new float[] {1, 2, 3}, new float[] {0, 1, 0}, new float[] {1, 0, 0, -1}, 4,
                new int[] {0, 0, 0, 0}, new float[] {1, 0, 0, 0});
        Skinned dq = dqs(rig, p);
        Skinned lb = lbs(rig, p);
        assertThat(dq.positions).containsExactly(4, 5, 6);
        assertThat(dq.normals).containsExactly(0, 0, 0);
        assertThat(dq.tangents).containsExactly(0, 0, 0, -1);
        assertThat(dq.positions).containsExactly(lb.positions);
        assertThat(dq.normals).containsExactly(lb.normals);
        assertThat(dq.tangents).containsExactly(lb.tangents);
    }

    @Test
    void nonFiniteWeightsFallBackToSlotZero() {
        Rig rig = Rig.of(trs(new float[3], NO_ROTATION, 1), trs(new float[] {10, 0, 0}, NO_ROTATION, 1));
        Primitive p = points(new float[] {1, 2, 3}, new float[] {0, 1, 0}, null, 4, new int[] {1, 0, 0, 0},
                new float[] {0.5f, Float.NaN, 0, 0});
        Skinned out = dqs(rig, p);
        assertThat(out.positions).containsExactly(11, 2, 3);
        assertThat(out.normals).containsExactly(0, 1, 0);
    }

    @Test
    void aDegenerateBlendFallsBackToSlotZero() {
        // real parts (0,0,0,1) + T(10,0,0), (0.6,0,0,0.8) and (−0.6,0,0,0.8), all in the pivot's hemisphere, with
        // weights −1.6, 1, 1 (sum 0.4): they cancel exactly, which only negative (invalid) weights can do. The
        // vertex stays finite and follows slot 0.
        float[] dqs = {0, 0, 0, 1, 5, 0, 0, 0, 0.6f, 0, 0, 0.8f, 0, 0, 0, 0, -0.6f, 0, 0, 0.8f, 0, 0, 0, 0};
        Rig rig = new Rig(null, dqs, new float[] {1, 1, 1});
        Primitive p = points(new float[] {1, 2, 3}, null, null, 4, new int[] {0, 1, 2, 0},
                new float[] {-1.6f, 1, 1, 0});
        assertThat(dqs(rig, p).positions).containsExactly(11, 2, 3);
        // whereas weights summing to 0 take the zero-sum rule, with the same result
        Primitive zero = points(new float[] {1, 2, 3}, null, null, 4, new int[] {0, 1, 2, 0},
                new float[] {1, -0.5f, -0.5f, 0});
        assertThat(dqs(rig, zero).positions).containsExactly(11, 2, 3);
    }

    @Test
    void weightedJointWithoutADualQuaternionFailsTheRun() {
        Rig rig = Rig.of(trs(new float[3], NO_ROTATION, 1), trs(new float[3], NO_ROTATION, 1));
        DualQuaternionSkinningJob job = new DualQuaternionSkinningJob();
        job.dualQuaternions = rig.dualQuaternions;
        job.scales = rig.scales;
        job.outPositions = new float[3];
        // joint 4 weighted: out of range
        job.primitive = points(new float[3], null, null, 4, new int[] {0, 4, 0, 0}, new float[] {0.5f, 0.5f, 0, 0});
        assertThat(job.validate()).isTrue();
        assertThatThrownBy(job::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("joint 4");
        // slot 0 of a zero-weight vertex: out of range
        job.primitive = points(new float[3], null, null, 4, new int[] {4, 0, 0, 0}, new float[4]);
        assertThatThrownBy(job::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("joint 4");
        // fewer scales than dual quaternions: joint 1 has no scale
        job.scales = new float[] {1};
        job.primitive = points(new float[3], null, null, 4, new int[] {1, 0, 0, 0}, new float[] {1, 0, 0, 0});
        assertThatThrownBy(job::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("joint 1");
        // a zero-weight slot's joint is never read
        job.scales = rig.scales;
        job.primitive = points(new float[] {1, 2, 3}, null, null, 4, new int[] {0, 99, 0, 0},
                new float[] {1, 0, 0, 0});
        job.run();
        assertThat(job.outPositions).containsExactly(1, 2, 3);
    }

    @Test
    void aJointConvertedAsUnusedCannotBeSkinnedWith() {
        SkinningDualQuaternionsJob convert = new SkinningDualQuaternionsJob();
        convert.skinningMatrices = concat(trs(new float[3], NO_ROTATION, 1), trs(new float[3], NO_ROTATION, 1, 2, 1));
        convert.outDualQuaternions = new float[16];
        convert.outScales = new float[2];
        Primitive p = points(new float[3], null, null, 4, new int[] {0, 1, 0, 0}, new float[] {0.75f, 0.25f, 0, 0});
        // a mask that forgets joint 1 (markUsedJoints would have set it)
        convert.usedJoints = new boolean[] {true, false};
        convert.run();
        DualQuaternionSkinningJob job = new DualQuaternionSkinningJob();
        job.primitive = p;
        job.dualQuaternions = convert.outDualQuaternions;
        job.scales = convert.outScales;
        job.outPositions = new float[3];
        assertThatThrownBy(job::run).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refers to joint 1, which dual-quaternion skinning cannot represent");
        // with the mask markUsedJoints fills, the conversion itself reports the joint
        Arrays.fill(convert.usedJoints, false);
        SkinningDualQuaternionsJob.markUsedJoints(p, convert.usedJoints);
        assertThat(convert.usedJoints).containsExactly(true, true);
        assertThatThrownBy(convert::run).isInstanceOf(NonRigidJointException.class);
    }

    @Test
    void nullOutputsAreSkippedAndUnusedBuffersIgnored() {
        Rig rig = Rig.of(trs(new float[] {0, 0, 1}, axisAngle(0, 0, 1, 90), 1));
        Primitive p = points(new float[] {1, 0, 0}, new float[] {1, 0, 0}, new float[] {1, 0, 0, 1}, 4,
                new int[] {0, 0, 0, 0}, new float[] {1, 0, 0, 0});
        DualQuaternionSkinningJob job = new DualQuaternionSkinningJob();
        job.primitive = p;
        job.dualQuaternions = rig.dualQuaternions;
        job.scales = rig.scales;
        job.outNormals = new float[3];
        assertThat(job.validate()).isTrue();
        job.run();
        assertThat(job.outNormals).containsExactly(new float[] {0, 1, 0}, within(1e-7f));
        job.outNormals = null;
        job.run(); // nothing wanted

        Primitive bare = points(new float[] {1, 0, 0}, null, null, 4, new int[] {0, 0, 0, 0},
                new float[] {1, 0, 0, 0});
        job.primitive = bare;
        job.outPositions = new float[3];
        job.outNormals = new float[1];   // too short, but the primitive has no normals
        job.outTangents = new float[4];
        Arrays.fill(job.outTangents, 5);
        assertThat(job.validate()).isTrue();
        job.run();
        assertThat(job.outPositions).containsExactly(new float[] {0, 1, 1}, within(1e-6f));
        assertThat(job.outTangents).containsOnly(5);
    }

    @Test
    void validateRejectsInconsistentInputs() {
        Rig rig = Rig.of(trs(new float[3], NO_ROTATION, 1));
        Primitive p = points(new float[3], new float[3], new float[4], 4, new int[4], new float[] {1, 0, 0, 0});
        DualQuaternionSkinningJob job = new DualQuaternionSkinningJob();
        job.primitive = p;
        job.dualQuaternions = rig.dualQuaternions;
        job.scales = rig.scales;
        job.outPositions = new float[3];
        assertThat(job.validate()).isTrue();

        job.primitive = null;
        assertThat(job.validate()).isFalse();
        assertThatThrownBy(job::run).isInstanceOf(IllegalStateException.class);
        job.primitive = p;
        job.dualQuaternions = null;
        assertThat(job.validate()).isFalse();
        job.dualQuaternions = rig.dualQuaternions;
        job.scales = null;
        assertThat(job.validate()).isFalse();
        job.scales = rig.scales;
        job.outPositions = new float[2];
        assertThat(job.validate()).isFalse();
        job.outPositions = null;
        job.outNormals = new float[2];
        assertThat(job.validate()).isFalse();
        job.outNormals = null;
        job.outTangents = new float[3];
        assertThat(job.validate()).isFalse();
        job.outTangents = null;
        // writing into an input or the primitive's own arrays, or one buffer twice
        job.outPositions = p.positions();
        assertThat(job.validate()).isFalse();
        float[] big = new float[8];
        job.dualQuaternions = big;
        job.outPositions = big;
        assertThat(job.validate()).isFalse();
        job.dualQuaternions = rig.dualQuaternions;
        float[] scales = {1, 0, 0};
        job.scales = scales;
        job.outPositions = scales;
        assertThat(job.validate()).isFalse();
        job.scales = rig.scales;
        float[] shared = new float[4];
        job.outPositions = shared;
        job.outTangents = shared;
        assertThat(job.validate()).isFalse();
        job.outTangents = null;
        job.outPositions = new float[3];
        job.scales = job.dualQuaternions;
        assertThat(job.validate()).isFalse();
        // no influences: use RigidTransformJob
        job.scales = rig.scales;
        job.primitive = points(new float[3], null, null, 0, new int[0], new float[0]);
        assertThat(job.validate()).isFalse();
    }

    @Test
    void runDoesNotAllocate() {
        Random random = new Random(3);
        Rig rig = Rig.of(trs(randomVector(random, 1), randomRotation(random), 1),
                trs(randomVector(random, 1), randomRotation(random), 2));
        int n = 20_000;
        float[] positions = new float[3 * n];
        float[] normals = new float[3 * n];
        float[] tangents = new float[4 * n];
        int[] joints = new int[4 * n];
        float[] weights = new float[4 * n];
        for (int v = 0; v < n; v++) {
            positions[3 * v] = v;
            normals[3 * v + 1] = 1;
            tangents[4 * v] = 1;
            tangents[4 * v + 3] = 1;
            joints[4 * v + 1] = 1;
            weights[4 * v] = (v % 10) / 10f;
            weights[4 * v + 1] = 1 - (v % 10) / 10f;
        }
        // the scalar kernel: the vector one allocates nothing once C2 has compiled it (JMH -prof gc: a few bytes per
        // 10 000 vertices), but interpreted Vector API code boxes every vector, and when C2 gets to it depends on load
        DualQuaternionSkinningJob job = new DualQuaternionSkinningJob(Kernels.Path.SCALAR);
        job.primitive = points(positions, normals, tangents, 4, joints, weights);
        job.dualQuaternions = rig.dualQuaternions;
        job.scales = rig.scales;
        job.outPositions = new float[3 * n];
        job.outNormals = new float[3 * n];
        job.outTangents = new float[4 * n];
        job.run(); // warm up
        if (allocatedBytes() < 0) {
            return; // the JVM cannot measure it
        }
        // the least of a few runs: the JVM may allocate on this thread now and then (compilation, deoptimisation),
        // whereas a per-vertex allocation would cost every run ≥ 16 bytes × 20 000
        long least = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 5; attempt++) {
            long before = allocatedBytes();
            job.run();
            least = Math.min(least, allocatedBytes() - before);
        }
        assertThat(least).as("bytes allocated by run()").isLessThan(1024);
    }

    private static long allocatedBytes() {
        if (java.lang.management.ManagementFactory.getThreadMXBean()
                instanceof com.sun.management.ThreadMXBean bean && bean.isThreadAllocatedMemorySupported()) {
            return bean.getCurrentThreadAllocatedBytes();
        }
        return -1;
    }
}
