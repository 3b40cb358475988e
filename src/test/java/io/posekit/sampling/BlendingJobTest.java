package io.posekit.sampling;

import static io.posekit.sampling.BlendTestPoses.IDENTITY;
import static io.posekit.sampling.BlendTestPoses.S45;
import static io.posekit.sampling.BlendTestPoses.assertSameRotation;
import static io.posekit.sampling.BlendTestPoses.negated;
import static io.posekit.sampling.BlendTestPoses.rig;
import static io.posekit.sampling.BlendTestPoses.rotation;
import static io.posekit.sampling.BlendTestPoses.rz;
import static io.posekit.sampling.BlendTestPoses.scale;
import static io.posekit.sampling.BlendTestPoses.set;
import static io.posekit.sampling.BlendTestPoses.translation;
import static io.posekit.sampling.BlendTestPoses.uniform;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.posekit.math.Quaternions;
import io.posekit.rig.Rig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class BlendingJobTest {

    private static final float[] RZ90 = {0, 0, S45, S45};

    private static BlendingJob job(Rig rig, LocalPose out, BlendLayer... layers) {
        BlendingJob job = new BlendingJob();
        job.rig = rig;
        job.layers = List.of(layers);
        job.output = out;
        return job;
    }

    private static LocalPose run(Rig rig, BlendLayer... layers) {
        LocalPose out = garbage(rig.nodeCount());
        BlendingJob job = job(rig, out, layers);
        assertThat(job.validate()).isTrue();
        job.run();
        return out;
    }

    private static LocalPose garbage(int n) {
        LocalPose pose = new LocalPose(n);
        Arrays.fill(pose.translations(), -42);
        Arrays.fill(pose.rotations(), -42);
        Arrays.fill(pose.scales(), -42);
        return pose;
    }

    /** Layer A: t (2,4,−6), identity, s (1,2,4). Layer B: t (4,0,2), 90° about Z, s (3,2,0.5). */
    private static LocalPose poseA() {
        return uniform(4, new float[] {2, 4, -6}, IDENTITY, new float[] {1, 2, 4});
    }

    private static LocalPose poseB() {
        return uniform(4, new float[] {4, 0, 2}, RZ90, new float[] {3, 2, 0.5f});
    }

    @Test
    void equalWeightsGiveTheHalfwayTranslationAndScaleAndTheBisectorRotation() {
        LocalPose out = run(rig(), BlendLayer.normal(poseA(), 0.5f), BlendLayer.normal(poseB(), 0.5f));
        float[] rz45 = {0, 0, (float) Math.sin(Math.PI / 8), (float) Math.cos(Math.PI / 8)};
        for (int i = 0; i < 4; i++) {
            assertThat(translation(out, i)).containsExactly(3, 2, -2);
            assertThat(scale(out, i)).containsExactly(2, 2, 2.25f);
            // nlerp of two unit quaternions at equal weights is their bisector: exactly 45° about Z
            assertThat(rotation(out, i)).containsExactly(rz45, within(1e-7f));
        }
    }

    @Test
    void weightsNotSummingToOneAreNormalised() {
        LocalPose out = run(rig(), BlendLayer.normal(poseA(), 2), BlendLayer.normal(poseB(), 6));
        // 2 : 6 = 0.25 : 0.75
        double z = 0.75 * S45;
        double w = 0.25 + 0.75 * S45;
        double len = Math.hypot(z, w);
        for (int i = 0; i < 4; i++) {
            assertThat(translation(out, i)).containsExactly(3.5f, 1, 0);
            assertThat(scale(out, i)).containsExactly(2.5f, 2, 1.375f);
            assertThat(rotation(out, i)).containsExactly(new float[] {0, 0, (float) (z / len), (float) (w / len)},
                    within(1e-7f));
        }
        LocalPose quarters = run(rig(), BlendLayer.normal(poseA(), 0.25f), BlendLayer.normal(poseB(), 0.75f));
        assertThat(out.translations()).containsExactly(quarters.translations());
        assertThat(out.rotations()).containsExactly(quarters.rotations());
        assertThat(out.scales()).containsExactly(quarters.scales());
    }

    @Test
    void aSingleLayerReproducesItsPoseExactly() {
        LocalPose pose = new LocalPose(4);
        float[] q = {0.1f, -0.7f, 0.3f, 0.5f};
        Quaternions.normalize(q, 0);
        set(pose, 0, new float[] {1.25f, -3.5f, 1e-3f}, q, new float[] {0.5f, 3, 7.125f});
        set(pose, 2, new float[] {-9, 0.1f, 17}, BlendTestPoses.rx(33), new float[] {1, 1, -2});
        for (float weight : new float[] {1, 0.3f, 250}) {
            LocalPose out = run(rig(), BlendLayer.normal(pose, weight));
            assertThat(out.translations()).containsExactly(pose.translations());
            assertThat(out.scales()).containsExactly(pose.scales());
            assertThat(out.rotations()).containsExactly(pose.rotations(), within(1e-7f));
        }
    }

    @Test
    void zeroWeightLayersContributeNothing() {
        LocalPose out = run(rig(), BlendLayer.normal(poseA(), 1), BlendLayer.normal(poseB(), 0));
        LocalPose a = poseA();
        assertThat(out.translations()).containsExactly(a.translations());
        assertThat(out.scales()).containsExactly(a.scales());
        assertThat(out.rotations()).containsExactly(a.rotations());
    }

    @Test
    void totalWeightBelowTheThresholdBlendsInTheRestPose() {
        Rig rig = rig();
        LocalPose layer = uniform(4, new float[] {8, 0, 4}, RZ90, new float[] {2, 2, 2});
        LocalPose out = garbage(4);
        BlendingJob job = job(rig, out, BlendLayer.normal(layer, 0.125f));
        job.threshold = 0.5f;
        job.run();
        // rest pose gets 0.5 − 0.125 = 0.375, total 0.5: 25 % layer, 75 % rest
        // hips rest: t (0,4,0), identity, s 1 → t (2,3,1), s 1.25
        assertThat(translation(out, 0)).containsExactly(2, 3, 1);
        assertThat(scale(out, 0)).containsExactly(1.25f, 1.25f, 1.25f);
        double z = 0.25 * S45;
        double w = 0.25 * S45 + 0.75;
        double len = Math.hypot(z, w);
        assertThat(rotation(out, 0)).containsExactly(new float[] {0, 0, (float) (z / len), (float) (w / len)},
                within(1e-7f));
        // arm rest: t (1,0,0), s 2 → t (2.75, 0, 1), s 2
        assertThat(translation(out, 2)).containsExactly(2.75f, 0, 1);
        assertThat(scale(out, 2)).containsExactly(2, 2, 2);

        // at the threshold exactly the rest pose is not used
        job.layers = List.of(BlendLayer.normal(layer, 0.5f));
        job.run();
        assertThat(out.translations()).containsExactly(layer.translations());
        assertThat(out.scales()).containsExactly(layer.scales());
    }

    @Test
    void defaultThresholdIsOzzsTenthAndWeightsBelowItFadeToRest() {
        BlendingJob job = new BlendingJob();
        assertThat(job.threshold).isEqualTo(0.1f);
        Rig rig = rig();
        LocalPose layer = uniform(4, new float[] {8, 0, 4}, IDENTITY, new float[] {1, 1, 1});
        LocalPose out = run(rig, BlendLayer.normal(layer, 0.025f));
        // 0.025 / 0.1 = 25 % layer at the hips (rest (0,4,0)): (2, 3, 1)
        assertThat(translation(out, 0)).containsExactly(new float[] {2, 3, 1}, within(1e-6f));
    }

    @Test
    void withoutNormalLayersTheOutputIsTheRestPose() {
        Rig rig = rig();
        LocalPose out = run(rig);
        assertThat(out.translations()).containsExactly(rig.restTranslations());
        assertThat(out.rotations()).containsExactly(rig.restRotations());
        assertThat(out.scales()).containsExactly(rig.restScales());
    }

    @Test
    void aMaskedLayerAffectsOnlyItsSubtree() {
        Rig rig = rig();
        float[] spine = JointMask.subtrees(rig, List.of("spine"));
        assertThat(spine).containsExactly(0, 1, 1, 0);
        LocalPose a = poseA();
        LocalPose b = poseB();

        // alone: spine and arm are B, the others have no weight and fall back to the rest pose
        LocalPose alone = run(rig, BlendLayer.normal(b, 1).withJointWeights(spine));
        for (int i : new int[] {1, 2}) {
            assertThat(translation(alone, i)).containsExactly(4, 0, 2);
            assertThat(rotation(alone, i)).containsExactly(RZ90, within(1e-7f));
            assertThat(scale(alone, i)).containsExactly(3, 2, 0.5f);
        }
        for (int i : new int[] {0, 3}) {
            assertThat(translation(alone, i)).containsExactly(Arrays.copyOfRange(rig.restTranslations(), 3 * i,
                    3 * i + 3));
            assertThat(rotation(alone, i)).containsExactly(Arrays.copyOfRange(rig.restRotations(), 4 * i,
                    4 * i + 4), within(1e-7f));
            assertThat(scale(alone, i)).containsExactly(1, 1, 1);
        }

        // over a full layer: hips and leg are A, spine and arm half A half B
        LocalPose mixed = run(rig, BlendLayer.normal(a, 1), BlendLayer.normal(b, 1).withJointWeights(spine));
        for (int i : new int[] {0, 3}) {
            assertThat(translation(mixed, i)).containsExactly(2, 4, -6);
            assertThat(rotation(mixed, i)).containsExactly(IDENTITY);
            assertThat(scale(mixed, i)).containsExactly(1, 2, 4);
        }
        for (int i : new int[] {1, 2}) {
            assertThat(translation(mixed, i)).containsExactly(3, 2, -2);
            assertThat(scale(mixed, i)).containsExactly(2, 2, 2.25f);
        }
    }

    @Test
    void theThresholdIsTestedPerNodeWithJointWeights() {
        Rig rig = rig();
        LocalPose b = uniform(4, new float[] {8, 0, 4}, IDENTITY, new float[] {1, 1, 1});
        LocalPose out = garbage(4);
        // arm weight 0.25 under a threshold of 0.5: half layer, half rest (arm rest t (1,0,0), s 2)
        BlendingJob job = job(rig, out, BlendLayer.normal(b, 1).withJointWeights(new float[] {1, 1, 0.25f, 0}));
        job.threshold = 0.5f;
        job.run();
        assertThat(translation(out, 0)).containsExactly(8, 0, 4);
        assertThat(translation(out, 1)).containsExactly(8, 0, 4);
        assertThat(translation(out, 2)).containsExactly(4.5f, 0, 2);
        assertThat(scale(out, 2)).containsExactly(1.5f, 1.5f, 1.5f);
        assertThat(translation(out, 3)).containsExactly(0, -1, 0);
    }

    @Test
    void oppositeSignsOfTheSameRotationDoNotCancel() {
        Rig rig = rig();
        LocalPose p = uniform(4, new float[3], RZ90, new float[] {1, 1, 1});
        LocalPose minusP = uniform(4, new float[3], negated(RZ90), new float[] {1, 1, 1});
        LocalPose out = run(rig, BlendLayer.normal(p, 0.5f), BlendLayer.normal(minusP, 0.5f));
        // a plain sum would be the zero quaternion
        for (int i = 0; i < 4; i++) {
            assertSameRotation(rotation(out, i), RZ90);
        }
        // identity and −(90° about Z) are still 45° apart on the short path
        LocalPose id = uniform(4, new float[3], IDENTITY, new float[] {1, 1, 1});
        LocalPose mixed = run(rig, BlendLayer.normal(id, 0.5f), BlendLayer.normal(minusP, 0.5f));
        for (int i = 0; i < 4; i++) {
            assertSameRotation(rotation(mixed, i), rz(45));
        }
    }

    @Test
    void theOutputMayBeOneOfTheLayerPoses() {
        Rig rig = rig();
        LocalPose expected = run(rig, BlendLayer.normal(poseA(), 0.5f), BlendLayer.normal(poseB(), 0.5f));
        LocalPose b = poseB();
        BlendingJob job = job(rig, b, BlendLayer.normal(poseA(), 0.5f), BlendLayer.normal(b, 0.5f));
        job.run();
        assertThat(b.translations()).containsExactly(expected.translations());
        assertThat(b.rotations()).containsExactly(expected.rotations());
        assertThat(b.scales()).containsExactly(expected.scales());
    }

    @Test
    void validateRejectsMissingAndInconsistentInputs() {
        Rig rig = rig();
        LocalPose pose = poseA();
        assertThat(job(rig, new LocalPose(4), BlendLayer.normal(pose, 1)).validate()).isTrue();

        List<BlendingJob> invalid = new ArrayList<>();
        invalid.add(job(null, new LocalPose(4), BlendLayer.normal(pose, 1)));
        invalid.add(job(rig, null, BlendLayer.normal(pose, 1)));
        invalid.add(job(rig, new LocalPose(3), BlendLayer.normal(pose, 1)));
        invalid.add(job(rig, new LocalPose(4), BlendLayer.normal(new LocalPose(5), 1)));
        invalid.add(job(rig, new LocalPose(4), BlendLayer.additive(new LocalPose(3), 1)));
        invalid.add(job(rig, new LocalPose(4), BlendLayer.normal(null, 1)));
        invalid.add(job(rig, new LocalPose(4), new BlendLayer(pose, 1, null, null)));
        for (float bad : new float[] {-1, -Float.MIN_VALUE, Float.NaN, Float.POSITIVE_INFINITY}) {
            invalid.add(job(rig, new LocalPose(4), BlendLayer.normal(pose, 1), BlendLayer.normal(pose, bad)));
            invalid.add(job(rig, new LocalPose(4), BlendLayer.additive(pose, bad)));
            invalid.add(job(rig, new LocalPose(4),
                    BlendLayer.normal(pose, 1).withJointWeights(new float[] {1, bad, 1, 1})));
        }
        invalid.add(job(rig, new LocalPose(4), BlendLayer.normal(pose, 1).withJointWeights(new float[3])));
        invalid.add(job(rig, new LocalPose(4), BlendLayer.normal(pose, 1).withJointWeights(new float[5])));
        for (float bad : new float[] {0, -0.1f, Float.NaN, Float.POSITIVE_INFINITY}) {
            BlendingJob j = job(rig, new LocalPose(4), BlendLayer.normal(pose, 1));
            j.threshold = bad;
            invalid.add(j);
        }
        BlendingJob nullList = job(rig, new LocalPose(4));
        nullList.layers = null;
        invalid.add(nullList);
        BlendingJob nullLayer = job(rig, new LocalPose(4));
        nullLayer.layers = Arrays.asList(BlendLayer.normal(pose, 1), null);
        invalid.add(nullLayer);

        for (BlendingJob j : invalid) {
            assertThat(j.validate()).isFalse();
            assertThatThrownBy(j::run).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void runAllocatesNothing() {
        Rig rig = rig();
        LocalPose out = new LocalPose(4);
        BlendingJob job = job(rig, out, BlendLayer.normal(poseA(), 0.5f),
                BlendLayer.normal(poseB(), 0.5f).withJointWeights(new float[] {1, 0, 1, 0.5f}),
                BlendLayer.additive(poseB(), 0.3f));
        for (int i = 0; i < 20_000; i++) {
            job.run();
        }
        int runs = 10_000;
        long before = allocatedBytes();
        for (int i = 0; i < runs; i++) {
            job.run();
        }
        long after = allocatedBytes();
        assertThat(before).as("thread allocation counter supported").isNotNegative();
        // one object per run would be ≥ 16 bytes per run; the slack absorbs the JVM's own bookkeeping
        // (compilation, the management bean), a few hundred bytes in all
        assertThat(after - before).isLessThan(runs);
    }

    private static long allocatedBytes() {
        if (java.lang.management.ManagementFactory.getThreadMXBean()
                instanceof com.sun.management.ThreadMXBean bean && bean.isThreadAllocatedMemorySupported()) {
            return bean.getCurrentThreadAllocatedBytes();
        }
        return -1;
    }
}
