package io.posekit.conformance;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Joint maps from two conformance characters onto the CMU motion-capture skeleton (BVH 01_01), for the retargeting
 * tests and the docs' screenshots: target joint → CMU joint, every limb and the spine, clavicles and fingers left out.
 */
public final class CmuJointMaps {

    private CmuJointMaps() {
    }

    /** RiggedFigure's joints → CMU's. */
    public static Map<String, String> riggedFigure() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put("torso_joint_1", "Hips");
        map.put("torso_joint_2", "Spine");
        map.put("torso_joint_3", "Spine1");
        map.put("neck_joint_1", "Neck");
        map.put("neck_joint_2", "Head");
        for (String side : new String[] {"L", "R"}) {
            String cmu = side.equals("L") ? "Left" : "Right";
            map.put("arm_joint_" + side + "_1", cmu + "Arm");
            map.put("arm_joint_" + side + "_2", cmu + "ForeArm");
            map.put("arm_joint_" + side + "_3", cmu + "Hand");
            map.put("leg_joint_" + side + "_1", cmu + "UpLeg");
            map.put("leg_joint_" + side + "_2", cmu + "Leg");
            map.put("leg_joint_" + side + "_3", cmu + "Foot");
            map.put("leg_joint_" + side + "_5", cmu + "ToeBase");
        }
        return map;
    }

    /** CesiumMan's joints → CMU's (its arm joints are numbered from the hand on the left side). */
    public static Map<String, String> cesiumMan() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put("Skeleton_torso_joint_1", "Hips");
        map.put("Skeleton_torso_joint_2", "Spine");
        map.put("torso_joint_3", "Spine1");
        map.put("Skeleton_neck_joint_1", "Neck");
        map.put("Skeleton_neck_joint_2", "Head");
        map.put("Skeleton_arm_joint_L__4_", "LeftArm");
        map.put("Skeleton_arm_joint_L__3_", "LeftForeArm");
        map.put("Skeleton_arm_joint_L__2_", "LeftHand");
        map.put("Skeleton_arm_joint_R", "RightArm");
        map.put("Skeleton_arm_joint_R__2_", "RightForeArm");
        map.put("Skeleton_arm_joint_R__3_", "RightHand");
        for (String side : new String[] {"L", "R"}) {
            String cmu = side.equals("L") ? "Left" : "Right";
            map.put("leg_joint_" + side + "_1", cmu + "UpLeg");
            map.put("leg_joint_" + side + "_2", cmu + "Leg");
            map.put("leg_joint_" + side + "_3", cmu + "Foot");
            map.put("leg_joint_" + side + "_5", cmu + "ToeBase");
        }
        return map;
    }
}
