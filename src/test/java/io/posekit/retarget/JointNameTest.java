package io.posekit.retarget;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.rig.Rig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Name normalisation and the humanoid role table, convention by convention. */
class JointNameTest {

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "mixamorig:LeftForeArm ; left forearm",
        "mixamorig1:Hips ; hips",
        "mixamorig_RightUpLeg ; right upleg",
        "Armature|LeftHand ; left hand",
        "upperarm_l ; left upperarm",
        "ForeArm.L ; left forearm",
        "L_ForeArm ; left forearm",
        "l_forearm ; left forearm",
        "DEF-forearm.L ; left forearm",
        "LHipJoint ; left hipjoint",
        "RThumb ; right thumb",
        "LowerBack ; lowerback",
        "J_Bip_L_UpperArm ; left upperarm",
        "J_Bip_C_Hips ; hips",
        "leftUpperArm ; left upperarm",
        "Bip01 R Calf ; right calf",
        "CC_Base_L_Thigh ; left thigh",
        "spine_01 ; spine01",
        "Left ; left",
    })
    void namesNormalise(String name, String key) {
        assertThat(JointName.of(name).key()).isEqualTo(key);
    }

    private static final List<String> ROLE_ORDER = List.of("HIPS", "SPINE", "NECK", "HEAD", "SHOULDER LEFT",
            "UPPER_ARM LEFT", "LOWER_ARM LEFT", "HAND LEFT", "UPPER_LEG RIGHT", "LOWER_LEG RIGHT", "FOOT RIGHT",
            "TOES RIGHT");

    @ParameterizedTest
    @CsvSource({
        "Mixamo, mixamorig:Hips, mixamorig:Spine2, mixamorig:Neck, mixamorig:Head, mixamorig:LeftShoulder, "
                + "mixamorig:LeftArm, mixamorig:LeftForeArm, mixamorig:LeftHand, mixamorig:RightUpLeg, "
                + "mixamorig:RightLeg, mixamorig:RightFoot, mixamorig:RightToeBase",
        "Unreal, pelvis, spine_03, neck_01, head, clavicle_l, upperarm_l, lowerarm_l, hand_l, thigh_r, calf_r, foot_r, "
                + "ball_r",
        "Unity, Hips, UpperChest, Neck, Head, LeftShoulder, LeftUpperArm, LeftLowerArm, LeftHand, RightUpperLeg, "
                + "RightLowerLeg, RightFoot, RightToes",
        "VRM, J_Bip_C_Hips, J_Bip_C_Chest, J_Bip_C_Neck, J_Bip_C_Head, J_Bip_L_Shoulder, J_Bip_L_UpperArm, "
                + "J_Bip_L_LowerArm, J_Bip_L_Hand, J_Bip_R_UpperLeg, J_Bip_R_LowerLeg, J_Bip_R_Foot, J_Bip_R_ToeBase",
        "CMU, Hips, LowerBack, Neck1, Head, LeftShoulder, LeftArm, LeftForeArm, LeftHand, RightUpLeg, RightLeg, "
                + "RightFoot, RightToeBase",
        "Rigify, DEF-spine, DEF-spine.003, DEF-spine.004, DEF-spine.006, DEF-shoulder.L, DEF-upper_arm.L, "
                + "DEF-forearm.L, DEF-hand.L, DEF-thigh.R, DEF-shin.R, DEF-foot.R, DEF-toe.R",
    })
    void everyConventionNamesEveryRole(String convention, String hips, String spine, String neck, String head,
            String shoulder, String upperArm, String lowerArm, String hand, String upperLeg, String lowerLeg,
            String foot, String toes) {
        List<String> names = List.of(hips, spine, neck, head, shoulder, upperArm, lowerArm, hand, upperLeg, lowerLeg,
                foot, toes);
        for (int i = 0; i < names.size(); i++) {
            JointName name = JointName.of(names.get(i));
            String role = HumanoidRole.of(name).map(r -> r.sided ? r + " " + name.side() : r.toString()).orElse("none");
            assertThat(role).as("%s %s", convention, names.get(i)).isEqualTo(ROLE_ORDER.get(i));
        }
    }

    /**
     * Blender's leg bones without Rigify's {@code DEF-} prefix (the IQM sample mrfixit's {@code Thigh.L}, {@code Shin.L}):
     * the shin was only known with the prefix, so the thigh paired and the shin below it did not.
     */
    @Test
    void blenderLegNamesWithoutThePrefixHaveTheirRoles() {
        assertThat(HumanoidRole.of(JointName.of("Thigh.L"))).contains(HumanoidRole.UPPER_LEG);
        assertThat(HumanoidRole.of(JointName.of("Shin.L"))).contains(HumanoidRole.LOWER_LEG);
        assertThat(HumanoidRole.of(JointName.of("shin.R"))).contains(HumanoidRole.LOWER_LEG);
        assertThat(JointName.of("Shin.R").side()).isEqualTo(JointName.Side.RIGHT);
    }

    @Test
    void namesThatAreNotHumanoidBonesHaveNoRole() {
        assertThat(HumanoidRole.of(JointName.of("LHipJoint"))).isEmpty();
        assertThat(HumanoidRole.of(JointName.of("Arm"))).as("an arm needs a side").isEmpty();
        assertThat(HumanoidRole.of(JointName.of("LeftHips"))).as("the hips have none").isEmpty();
        assertThat(HumanoidRole.of(JointName.of("leg_joint_L_1"))).isEmpty();
    }

    @Test
    void cmuNamesMatchMixamoNamesByNameAndRole() {
        Rig mixamo = Skeletons.humanoid();
        String[] names = mixamo.names().stream().map(n -> "mixamorig:" + n).toArray(String[]::new);
        Rig prefixed = Skeletons.renamed(mixamo, names);
        // the CMU hierarchy: Hips, LHipJoint ← LeftUpLeg…, LowerBack ← Spine ← Spine1 ← Neck ← Neck1 ← Head…
        Rig cmu = Skeletons.build(new Object[][] {
            {"Hips", -1, 0f, 1f, 0f}, {"LHipJoint", 0, 0.05f, -0.02f, 0f}, {"LeftUpLeg", 1, 0.05f, -0.03f, 0f},
            {"LeftLeg", 2, 0f, -0.45f, 0f}, {"LeftFoot", 3, 0f, -0.45f, 0f}, {"LeftToeBase", 4, 0f, -0.05f, 0.1f},
            {"LowerBack", 0, 0f, 0.1f, 0f}, {"Spine", 6, 0f, 0.1f, 0f}, {"Spine1", 7, 0f, 0.1f, 0f},
            {"Neck", 8, 0f, 0.1f, 0f}, {"Neck1", 9, 0f, 0.1f, 0f}, {"Head", 10, 0f, 0.1f, 0f},
            {"LeftShoulder", 8, 0.05f, 0.1f, 0f}, {"LeftArm", 12, 0.1f, 0f, 0f}, {"LeftForeArm", 13, 0.25f, 0f, 0f},
            {"LeftHand", 14, 0.2f, 0f, 0f}, {"LThumb", 15, 0.02f, 0f, 0.02f}});

        JointMap map = JointMatcher.match(Skeletons.model(prefixed), Skeletons.model(cmu), Map.of());

        int[] expected = {0, 7, 8, 9, 11, 12, 13, 14, 15, -1, -1, -1, -1, 2, 3, 4, 5, -1, -1, -1, -1};
        assertThat(map.sourceOf()).containsExactly(expected);
        assertThat(map.rules()[0]).isEqualTo(MatchRule.NORMALISED); // mixamorig:Hips
    }

}
