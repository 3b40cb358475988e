package io.posekit.retarget;

import io.posekit.asset.Model;
import io.posekit.rig.Rig;
import java.util.Optional;

/**
 * The humanoid joints other features find the way retargeting does ({@link HumanoidRole} over {@link JointName}, among
 * the joints automatic matching considers): the root that carries a clip's motion, and the legs that foot locking
 * pins.
 */
public final class HumanoidJoints {

    private HumanoidJoints() {
    }

    /**
     * The joint that carries root motion: a VRM humanoid map's {@code hips}; else the one joint whose role is hips (Hips, pelvis, Rigify's DEF-spine), else the
     * first joint, parent-first, with no joint above it (the top of the skeleton, as retargeting's root is the topmost
     * mapped joint); {@code -1} for a model without joints.
     */
    public static int root(Model model) {
        if (model.humanoid() != null && model.humanoid().bones().get("hips") != null) {
            return model.humanoid().bones().get("hips"); // a VRM's hips, from its humanoid bone map
        }
        int[] joints = JointMatcher.joints(model);
        Rig rig = model.rig();
        int hips = -1;
        for (int j : joints) {
            if (HumanoidRole.of(JointName.of(rig.name(j))).orElse(null) == HumanoidRole.HIPS) {
                if (hips >= 0) {
                    hips = -2; // two hips: not a humanoid name table's answer
                    break;
                }
                hips = j;
            }
        }
        if (hips >= 0) {
            return hips;
        }
        boolean[] joint = new boolean[rig.nodeCount()];
        for (int j : joints) {
            joint[j] = true;
        }
        for (int j : joints) {
            boolean top = true;
            for (int p = rig.parent(j); p >= 0 && top; p = rig.parent(p)) {
                top = !joint[p];
            }
            if (top) {
                return j;
            }
        }
        return -1;
    }

    /**
     * A leg's upper leg, lower leg and foot joints (the hip, knee and ankle of two-bone IK), found by humanoid role
     * and side, each unique and each below the one before; empty when the model has no such leg.
     *
     * @param left the left leg, else the right
     */
    public static Optional<int[]> leg(Model model, boolean left) {
        if (model.humanoid() != null) {
            // a VRM: the leg from its humanoid bone map
            String prefix = left ? "left" : "right";
            Integer hip = model.humanoid().bones().get(prefix + "UpperLeg");
            Integer knee = model.humanoid().bones().get(prefix + "LowerLeg");
            Integer ankle = model.humanoid().bones().get(prefix + "Foot");
            Rig r = model.rig();
            if (hip != null && knee != null && ankle != null && JointMap.isAncestor(r, hip, knee)
                    && JointMap.isAncestor(r, knee, ankle)) {
                return Optional.of(new int[] {hip, knee, ankle});
            }
        }
        JointName.Side side = left ? JointName.Side.LEFT : JointName.Side.RIGHT;
        int[] found = {-1, -1, -1};
        HumanoidRole[] roles = {HumanoidRole.UPPER_LEG, HumanoidRole.LOWER_LEG, HumanoidRole.FOOT};
        Rig rig = model.rig();
        for (int j : JointMatcher.joints(model)) {
            JointName name = JointName.of(rig.name(j));
            if (name.side() != side) {
                continue;
            }
            HumanoidRole role = HumanoidRole.of(name).orElse(null);
            for (int k = 0; k < 3; k++) {
                if (role == roles[k]) {
                    if (found[k] != -1) {
                        return Optional.empty();
                    }
                    found[k] = j;
                }
            }
        }
        if (found[0] < 0 || found[1] < 0 || found[2] < 0 || !JointMap.isAncestor(rig, found[0], found[1])
                || !JointMap.isAncestor(rig, found[1], found[2])) {
            return Optional.empty();
        }
        return Optional.of(found);
    }
}
