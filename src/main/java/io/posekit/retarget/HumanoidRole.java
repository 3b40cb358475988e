package io.posekit.retarget;

import java.util.Map;
import java.util.Optional;

/**
 * The standard bones of a humanoid and the names five conventions give them (Mixamo, Unreal mannequin, Unity/VRM
 * humanoid, CMU BVH, Blender Rigify), matched on the {@link JointName} base (side removed, lower case, no
 * separators). The spine and the neck are chains: a convention has one to five spine joints and one or two neck
 * joints, so their joints share the role {@link #SPINE} or {@link #NECK} and {@link JointMatcher} pairs them along the
 * chain. The table is in {@code docs/retargeting.md}.
 */
enum HumanoidRole {
    HIPS(false, false), SPINE(false, true), NECK(false, true), HEAD(false, false),
    SHOULDER(true, false), UPPER_ARM(true, false), LOWER_ARM(true, false), HAND(true, false),
    UPPER_LEG(true, false), LOWER_LEG(true, false), FOOT(true, false), TOES(true, false);

    /** Whether the role exists once per side (arms, legs) rather than once on the centre line. */
    final boolean sided;
    /** Whether several joints in a row may have the role (spine, neck). */
    final boolean chain;

    HumanoidRole(boolean sided, boolean chain) {
        this.sided = sided;
        this.chain = chain;
    }

    private static final Map<String, HumanoidRole> NAMES = Map.ofEntries(
            // hips: Mixamo, Unity, VRM, CMU Hips; Unreal pelvis
            Map.entry("hips", HIPS), Map.entry("hip", HIPS), Map.entry("pelvis", HIPS),
            // spine: Mixamo Spine, Spine1, Spine2; Unreal spine_01…05; Unity Spine, Chest, UpperChest; CMU LowerBack,
            // Spine, Spine1
            Map.entry("spine", SPINE), Map.entry("spine1", SPINE), Map.entry("spine2", SPINE),
            Map.entry("spine3", SPINE), Map.entry("spine01", SPINE), Map.entry("spine02", SPINE),
            Map.entry("spine03", SPINE), Map.entry("spine04", SPINE), Map.entry("spine05", SPINE),
            Map.entry("chest", SPINE), Map.entry("upperchest", SPINE), Map.entry("lowerback", SPINE),
            // neck: Mixamo, Unity Neck; Unreal neck_01, neck_02; CMU Neck, Neck1
            Map.entry("neck", NECK), Map.entry("neck1", NECK), Map.entry("neck01", NECK), Map.entry("neck02", NECK),
            Map.entry("head", HEAD),
            // shoulders: Mixamo, Unity, CMU LeftShoulder; Unreal clavicle_l
            Map.entry("shoulder", SHOULDER), Map.entry("clavicle", SHOULDER),
            // upper arm: Mixamo, CMU LeftArm; Unreal upperarm_l; Unity LeftUpperArm
            Map.entry("arm", UPPER_ARM), Map.entry("upperarm", UPPER_ARM),
            // lower arm: Mixamo, CMU LeftForeArm; Unreal lowerarm_l; Unity LeftLowerArm
            Map.entry("forearm", LOWER_ARM), Map.entry("lowerarm", LOWER_ARM),
            Map.entry("hand", HAND),
            // upper leg: Mixamo, CMU LeftUpLeg; Unreal thigh_l; Unity LeftUpperLeg
            Map.entry("upleg", UPPER_LEG), Map.entry("upperleg", UPPER_LEG), Map.entry("thigh", UPPER_LEG),
            // lower leg: Mixamo, CMU LeftLeg; Unreal calf_l; Unity LeftLowerLeg; Blender shin.L (thigh.L's sibling
            // name, as in the IQM sample mrfixit: Thigh.L, Shin.L)
            Map.entry("leg", LOWER_LEG), Map.entry("lowerleg", LOWER_LEG), Map.entry("calf", LOWER_LEG),
            Map.entry("shin", LOWER_LEG),
            Map.entry("foot", FOOT),
            // toes: Mixamo, CMU LeftToeBase; Unreal ball_l; Unity LeftToes
            Map.entry("toebase", TOES), Map.entry("toes", TOES), Map.entry("toe", TOES), Map.entry("ball", TOES));

    /** Rigify's deform bones ({@code DEF-spine} is the pelvis, {@code .001}–{@code .003} the spine…). */
    private static final Map<String, HumanoidRole> RIGIFY = Map.ofEntries(
            Map.entry("spine", HIPS), Map.entry("spine001", SPINE), Map.entry("spine002", SPINE),
            Map.entry("spine003", SPINE), Map.entry("spine004", NECK), Map.entry("spine005", NECK),
            Map.entry("spine006", HEAD), Map.entry("shoulder", SHOULDER), Map.entry("upperarm", UPPER_ARM),
            Map.entry("forearm", LOWER_ARM), Map.entry("hand", HAND), Map.entry("thigh", UPPER_LEG),
            Map.entry("shin", LOWER_LEG), Map.entry("foot", FOOT), Map.entry("toe", TOES));

    /**
     * The role of a normalised name: a sided role needs a side, a centre role none.
     */
    static Optional<HumanoidRole> of(JointName name) {
        HumanoidRole role = (name.rigify() ? RIGIFY : NAMES).get(name.base());
        if (role == null || role.sided != (name.side() != JointName.Side.NONE)) {
            return Optional.empty();
        }
        return Optional.of(role);
    }
}
