package io.posekit.retarget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.rig.Rig;
import io.posekit.sampling.Pose;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Known answers of {@link Retargeter}: itself, a scaled copy, turned rest rotations, an A-pose, chains. */
class RetargetTest {

    private static final RetargetRequest ALL = new RetargetRequest(List.of(), Map.of(),
            RetargetRequest.RootMotion.AUTO, null, false);

    private static Retargeter.Result retarget(Model target, Model source) {
        return Retargeter.retarget(target, source, ALL, 100);
    }

    private static Clip last(Model model) {
        return model.clips().getLast();
    }

    /** The largest component difference of two rotations (q and −q the same). */
    private static double rotationDifference(float[] a, int ao, float[] b, int bo) {
        double plus = 0;
        double minus = 0;
        for (int c = 0; c < 4; c++) {
            plus = Math.max(plus, Math.abs(a[ao + c] - b[bo + c]));
            minus = Math.max(minus, Math.abs(a[ao + c] + b[bo + c]));
        }
        return Math.min(plus, minus);
    }

    private static double rotationDifference(double[] a, int ao, double[] b, int bo) {
        double plus = 0;
        double minus = 0;
        for (int c = 0; c < 4; c++) {
            plus = Math.max(plus, Math.abs(a[ao + c] - b[bo + c]));
            minus = Math.max(minus, Math.abs(a[ao + c] + b[bo + c]));
        }
        return Math.min(plus, minus);
    }

    private static float[] keyTimes(Clip clip) {
        return clip.tracks().getFirst().times();
    }

    @Test
    void aSkeletonOntoItselfIsTheIdentity() {
        Rig rig = Skeletons.humanoid();
        Clip dance = Skeletons.dance(rig, 12, 1);
        Model model = Skeletons.model(rig, dance);

        Retargeter.Result result = retarget(model, model);

        Clip made = last(result.model());
        assertThat(made.name()).isEqualTo("Dance (2)");
        assertThat(made.duration()).isEqualTo(dance.duration());
        assertThat(result.report().mapped()).hasSize(21).allMatch(p -> p.rule() == MatchRule.EXACT
                && p.target().equals(p.source()));
        assertThat(result.report().unmappedTarget()).isEmpty();
        assertThat(result.report().rootScale()).isCloseTo(1, within(1e-12));
        assertThat(keyTimes(made)).containsExactly(keyTimes(dance));
        for (float time : keyTimes(dance)) {
            Pose expected = Pose.evaluate(rig, dance, time);
            Pose actual = Pose.evaluate(rig, made, time);
            for (int j = 0; j < rig.nodeCount(); j++) {
                assertThat(rotationDifference(actual.local().rotations(), 4 * j, expected.local().rotations(), 4 * j))
                        .as("joint %s at %s", rig.name(j), time).isLessThanOrEqualTo(1e-6);
                for (int c = 0; c < 3; c++) {
                    assertThat(actual.local().translations()[3 * j + c])
                            .isCloseTo(expected.local().translations()[3 * j + c], within(1e-6f));
                }
            }
        }
    }

    @Test
    void ontoAUniformlyScaledCopyRotationsAreTheSameAndTheRootTranslationScales() {
        Rig rig = Skeletons.humanoid();
        Clip dance = Skeletons.dance(rig, 12, 2);
        Rig big = Skeletons.scaled(rig, 2.5f);

        Retargeter.Result result = retarget(Skeletons.model(big), Skeletons.model(rig, dance));

        assertThat(result.report().rootScale()).isCloseTo(2.5, within(1e-6));
        Clip made = last(result.model());
        for (float time : keyTimes(dance)) {
            Pose expected = Pose.evaluate(rig, dance, time);
            Pose actual = Pose.evaluate(big, made, time);
            for (int j = 0; j < rig.nodeCount(); j++) {
                assertThat(rotationDifference(actual.local().rotations(), 4 * j, expected.local().rotations(), 4 * j))
                        .as("joint %s at %s", rig.name(j), time).isLessThanOrEqualTo(1e-6);
            }
            for (int c = 0; c < 3; c++) {
                assertThat(actual.local().translations()[c])
                        .isCloseTo(2.5f * expected.local().translations()[c], within(1e-5f));
            }
        }
    }

    @Test
    void ontoACopyWithTurnedRestRotationsEveryBoneKeepsTheSourceDirection() {
        Rig rig = Skeletons.humanoid();
        Clip dance = Skeletons.dance(rig, 12, 3);
        Rig turned = Skeletons.turned(rig, 4);
        double[] restA = Skeletons.positions(rig);
        double[] restB = Skeletons.positions(turned);
        for (int i = 0; i < restA.length; i++) {
            assertThat(restB[i]).as("the copy's rest joint positions").isCloseTo(restA[i], within(1e-5));
        }
        assertThat(rotationDifference(turned.restRotations(), 8, rig.restRotations(), 8)).isGreaterThan(0.01);

        Retargeter.Result result = retarget(Skeletons.model(turned), Skeletons.model(rig, dance));

        Clip made = last(result.model());
        double worst = 0;
        for (float time : keyTimes(dance)) {
            double[] source = Skeletons.positions(rig, dance, time);
            double[] target = Skeletons.positions(turned, made, time);
            for (int j = 1; j < rig.nodeCount(); j++) {
                int p = rig.parent(j);
                worst = Math.max(worst, Skeletons.directionAngle(target, p, j, source, p, j));
            }
        }
        assertThat(worst).as("largest bone direction difference, radians").isLessThanOrEqualTo(1e-4);
    }

    /** The humanoid in an A-pose (arms 40° down) with longer legs and shorter arms, named like Unreal's mannequin. */
    static Rig unrealAPose() {
        Rig rig = Skeletons.humanoid();
        float[] t = rig.restTranslations().clone();
        float[] r = rig.restRotations().clone();
        for (int leg : new int[] {14, 15, 18, 19}) {
            t[3 * leg + 1] *= 1.3f;
        }
        for (int arm : new int[] {7, 8, 11, 12}) {
            t[3 * arm] *= 0.8f;
        }
        double half = Math.toRadians(40) / 2;
        r[4 * 6 + 2] = (float) -Math.sin(half); // LeftArm about z, down
        r[4 * 6 + 3] = (float) Math.cos(half);
        r[4 * 10 + 2] = (float) Math.sin(half); // RightArm
        r[4 * 10 + 3] = (float) Math.cos(half);
        return Skeletons.with(rig, new String[] {"pelvis", "spine_01", "spine_02", "neck_01", "head", "clavicle_l",
            "upperarm_l", "lowerarm_l", "hand_l", "clavicle_r", "upperarm_r", "lowerarm_r", "hand_r", "thigh_l",
            "calf_l", "foot_l", "ball_l", "thigh_r", "calf_r", "foot_r", "ball_r"}, t, r);
    }

    @Test
    void aTPoseClipOnAnAPoseRigOfOtherProportionsKeepsTheLimbDirections() {
        Rig rig = Skeletons.humanoid();
        Clip dance = Skeletons.dance(rig, 12, 5);
        Rig unreal = unrealAPose();

        Retargeter.Result result = retarget(Skeletons.model(unreal), Skeletons.model(rig, dance));

        assertThat(result.report().mapped()).hasSize(21);
        assertThat(result.report().mapped()).filteredOn(p -> p.rule() == MatchRule.NORMALISED)
                .extracting(RetargetReport.Pair::target).containsExactly("head", "hand_l", "hand_r", "foot_l", "foot_r");
        assertThat(result.report().mapped()).filteredOn(p -> p.rule() == MatchRule.ROLE).hasSize(16)
                .contains(new RetargetReport.Pair("upperarm_l", "LeftArm", MatchRule.ROLE),
                        new RetargetReport.Pair("calf_r", "RightLeg", MatchRule.ROLE),
                        new RetargetReport.Pair("spine_02", "Spine1", MatchRule.ROLE));
        // hips 1.05 m above the toes in the source, 1.32 m in the target
        assertThat(result.report().rootScale()).isCloseTo((0.05 + 1.3 * 0.9 + 0.05) / 1.0, within(1e-6));
        Clip made = last(result.model());
        // every bone from a joint with one child: shoulders, arms, forearms, legs, feet, spine and neck
        int[][] limbs = {{5, 6}, {6, 7}, {7, 8}, {9, 10}, {10, 11}, {11, 12}, {13, 14}, {14, 15}, {15, 16}, {17, 18},
            {18, 19}, {19, 20}, {1, 2}, {3, 4}};
        double worst = 0;
        for (float time : keyTimes(dance)) {
            double[] source = Skeletons.positions(rig, dance, time);
            double[] target = Skeletons.positions(unreal, made, time);
            for (int[] bone : limbs) {
                worst = Math.max(worst, Skeletons.directionAngle(target, bone[0], bone[1], source, bone[0], bone[1]));
            }
            // the hips' first bone (to the spine) is exact too; the legs' hip offsets keep the twist
            worst = Math.max(worst, Skeletons.directionAngle(target, 0, 1, source, 0, 1));
        }
        assertThat(worst).as("largest limb direction difference, radians").isLessThanOrEqualTo(1e-4);
    }

    /** Hips ← Spine ← Chest ← Neck ← Head (two spine joints, Unity names), 0.15 m bones, straight up. */
    static Rig twoSpine() {
        return Skeletons.build(new Object[][] {
            {"Hips", -1, 0f, 1f, 0f}, {"Spine", 0, 0f, 0.15f, 0f}, {"Chest", 1, 0f, 0.3f, 0f},
            {"Neck", 2, 0f, 0.15f, 0f}, {"Head", 3, 0f, 0.15f, 0f}});
    }

    /** Hips ← Spine ← Spine1 ← Spine2 ← Neck ← Head (three spine joints, Mixamo names), same heights. */
    static Rig threeSpine() {
        return Skeletons.build(new Object[][] {
            {"Hips", -1, 0f, 1f, 0f}, {"Spine", 0, 0f, 0.15f, 0f}, {"Spine1", 1, 0f, 0.15f, 0f},
            {"Spine2", 2, 0f, 0.15f, 0f}, {"Neck", 3, 0f, 0.15f, 0f}, {"Head", 4, 0f, 0.15f, 0f}});
    }

    @Test
    void twoSpineJointsOntoThreeMapTheEndsAndInterpolateTheMiddle() {
        Rig two = twoSpine();
        Rig three = threeSpine();
        Clip dance = Skeletons.dance(two, 8, 6);

        Retargeter.Result result = retarget(Skeletons.model(three), Skeletons.model(two, dance));

        assertThat(result.report().mapped()).containsExactly(
                new RetargetReport.Pair("Hips", "Hips", MatchRule.EXACT),
                new RetargetReport.Pair("Spine", "Spine", MatchRule.EXACT),
                new RetargetReport.Pair("Spine1", null, MatchRule.CHAIN),
                new RetargetReport.Pair("Spine2", "Chest", MatchRule.ROLE),
                new RetargetReport.Pair("Neck", "Neck", MatchRule.EXACT),
                new RetargetReport.Pair("Head", "Head", MatchRule.EXACT));
        Clip made = last(result.model());
        for (float time : keyTimes(dance)) {
            double[] source = Skeletons.modelRotations(two.parents(), Pose.evaluate(two, dance, time).local().rotations());
            double[] target = Skeletons.modelRotations(three.parents(),
                    Pose.evaluate(three, made, time).local().rotations());
            // rest rotations are all the identity and the rest bones point the same way: model rotations are copied
            assertThat(rotationDifference(target, 4, source, 4)).isLessThanOrEqualTo(1e-6);
            assertThat(rotationDifference(target, 12, source, 8)).as("Spine2 follows Chest").isLessThanOrEqualTo(1e-6);
            assertThat(rotationDifference(target, 16, source, 12)).isLessThanOrEqualTo(1e-6);
            double[] middle = new double[4];
            Rotations.slerp(source, 4, source, 8, 0.5, middle, 0);
            assertThat(rotationDifference(target, 8, middle, 0)).as("Spine1 halfway").isLessThanOrEqualTo(1e-6);
        }
    }

    @Test
    void threeSpineJointsOntoTwoPointTheSpineAlongTheSourceChainsChord() {
        Rig two = twoSpine();
        Rig three = threeSpine();
        Clip dance = Skeletons.dance(three, 8, 7);

        Retargeter.Result result = retarget(Skeletons.model(two), Skeletons.model(three, dance));

        assertThat(result.report().mapped()).extracting(RetargetReport.Pair::source)
                .containsExactly("Hips", "Spine", "Spine2", "Neck", "Head");
        assertThat(result.report().unmappedSource()).containsExactly("Spine1");
        Clip made = last(result.model());
        double worst = 0;
        for (float time : keyTimes(dance)) {
            double[] source = Skeletons.positions(three, dance, time);
            double[] target = Skeletons.positions(two, made, time);
            worst = Math.max(worst, Skeletons.directionAngle(target, 1, 2, source, 1, 3)); // Spine→Chest, Spine→Spine2
            worst = Math.max(worst, Skeletons.directionAngle(target, 2, 3, source, 3, 4));
            worst = Math.max(worst, Skeletons.directionAngle(target, 3, 4, source, 4, 5));
            worst = Math.max(worst, Skeletons.directionAngle(target, 0, 1, source, 0, 1));
        }
        assertThat(worst).isLessThanOrEqualTo(1e-4);
    }

    @Test
    void rootMotionNoneKeepsTheRestTranslationAndANumberScalesIt() {
        Rig rig = Skeletons.humanoid();
        Clip dance = Skeletons.dance(rig, 4, 8);
        Model source = Skeletons.model(rig, dance);
        Model target = Skeletons.model(Skeletons.scaled(rig, 2));

        Retargeter.Result none = Retargeter.retarget(target, source, new RetargetRequest(List.of(), Map.of(),
                RetargetRequest.RootMotion.parse("none"), null, false), 10);
        Retargeter.Result half = Retargeter.retarget(target, source, new RetargetRequest(List.of("Dance"), Map.of(),
                RetargetRequest.RootMotion.parse("0.5"), "Hips", false), 10);

        assertThat(last(none.model()).tracks()).noneMatch(t -> t.property() == io.posekit.clip.TrackProperty.TRANSLATION);
        assertThat(none.report().rootScale()).isZero();
        float[] moved = Pose.evaluate(target.rig(), last(half.model()), 3 / 30.0).local().translations();
        float[] from = Pose.evaluate(rig, dance, 3 / 30.0).local().translations();
        // rest 2 m plus half of the source's displacement from its rest 1 m
        assertThat(moved[0]).isCloseTo(0.5f * from[0], within(1e-6f));
        assertThat(moved[1]).isCloseTo(2 + 0.5f * (from[1] - 1), within(1e-6f));
        assertThatThrownBy(() -> RetargetRequest.RootMotion.parse("fast")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetargetRequest.RootMotion.parse("-1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keptTranslationsFollowTheSourceAndAreScaled() {
        Rig rig = Skeletons.humanoid();
        float[] times = {0, 1};
        Clip stretch = Clip.of("Stretch", List.of(new io.posekit.clip.Track(4, io.posekit.clip.TrackProperty.TRANSLATION,
                io.posekit.clip.Interpolation.LINEAR, 3, times, new float[] {0, 0.1f, 0, 0, 0.3f, 0})));
        Model target = Skeletons.model(Skeletons.scaled(rig, 2));

        Retargeter.Result kept = Retargeter.retarget(target, Skeletons.model(rig, stretch), new RetargetRequest(
                List.of(), Map.of(), RetargetRequest.RootMotion.AUTO, null, true), 10);

        float[] head = Pose.evaluate(target.rig(), last(kept.model()), 1).local().translations();
        assertThat(head[13]).isCloseTo(0.2f + 2 * 0.2f, within(1e-6f)); // rest 0.2 plus twice the source's +0.2
    }

    @Test
    void badMapsAndSkeletonsWithNothingInCommonAreRefusedNamingTheJoints() {
        Rig rig = Skeletons.humanoid();
        Model source = Skeletons.model(rig, Skeletons.dance(rig, 2, 9));
        Model target = Skeletons.model(rig);

        assertThatThrownBy(() -> Retargeter.retarget(target, source, map(Map.of("Hips", "Hips", "Tail", "Spine",
                "Spine", "Wing")), 10))
                .isInstanceOfSatisfying(RetargetException.class, e -> {
                    assertThat(e.kind()).isEqualTo(RetargetException.Kind.BAD_REQUEST);
                    assertThat(e.getMessage()).contains("target 'Tail'", "source 'Wing'");
                });
        assertThatThrownBy(() -> Retargeter.retarget(target, source, map(Map.of("Hips", "Hips", "Spine", "Hips")), 10))
                .isInstanceOfSatisfying(RetargetException.class, e -> assertThat(e.getMessage())
                        .contains("ambiguous", "'Hips'", "'Spine'", "source joint 'Hips'"));
        assertThatThrownBy(() -> Retargeter.retarget(target, source, map(Map.of("Hips", "LeftHand", "LeftArm",
                "Hips")), 10))
                .isInstanceOfSatisfying(RetargetException.class, e -> {
                    assertThat(e.getMessage()).contains("cycle", "'LeftArm'", "'LeftHand'");
                    assertThat(e.joints()).containsExactly("Hips", "LeftArm");
                });
        String[] bones = new String[rig.nodeCount()];
        for (int i = 0; i < bones.length; i++) {
            bones[i] = "bone" + i;
        }
        assertThatThrownBy(() -> retarget(Skeletons.model(Skeletons.renamed(rig, bones)), source))
                .isInstanceOfSatisfying(RetargetException.class, e -> {
                    assertThat(e.kind()).isEqualTo(RetargetException.Kind.NOTHING_TO_RETARGET);
                    assertThat(e.getMessage()).contains("bone0, bone1", "Hips, Spine");
                });
        assertThatThrownBy(() -> Retargeter.retarget(target, source, new RetargetRequest(List.of("Walk"), Map.of(),
                RetargetRequest.RootMotion.AUTO, null, false), 10))
                .isInstanceOfSatisfying(RetargetException.class, e -> assertThat(e.getMessage())
                        .contains("no clip named 'Walk'", "'Dance'"));
        assertThatThrownBy(() -> Retargeter.retarget(target, source, new RetargetRequest(List.of(), Map.of(),
                RetargetRequest.RootMotion.AUTO, "Spine", false), 10))
                .isInstanceOfSatisfying(RetargetException.class, e -> assertThat(e.getMessage())
                        .contains("'Spine'", "mapped ancestor 'Hips'"));
    }

    @Test
    void anExplicitMapDrivesOnlyTheJointsItNames() {
        Rig rig = Skeletons.humanoid();
        Clip dance = Skeletons.dance(rig, 3, 10);
        Retargeter.Result result = Retargeter.retarget(Skeletons.model(rig), Skeletons.model(rig, dance),
                map(Map.of("Hips", "Hips", "LeftArm", "RightArm")), 10);

        assertThat(result.report().mapped()).containsExactly(new RetargetReport.Pair("Hips", "Hips", MatchRule.MAP),
                new RetargetReport.Pair("Spine", null, MatchRule.CHAIN),
                new RetargetReport.Pair("Spine1", null, MatchRule.CHAIN),
                new RetargetReport.Pair("LeftShoulder", null, MatchRule.CHAIN),
                new RetargetReport.Pair("LeftArm", "RightArm", MatchRule.MAP));
        assertThat(result.report().unmappedTargetCount()).isEqualTo(16);
        assertThat(result.report().unmappedSourceCount()).isEqualTo(19);
        Clip made = last(result.model());
        assertThat(made.tracks()).extracting(io.posekit.clip.Track::node).containsExactly(0, 0, 1, 2, 5, 6);
    }

    private static RetargetRequest map(Map<String, String> map) {
        return new RetargetRequest(List.of(), map, RetargetRequest.RootMotion.AUTO, null, false);
    }
}
