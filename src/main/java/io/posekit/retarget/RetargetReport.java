package io.posekit.retarget;

import io.posekit.asset.Model;
import io.posekit.rig.Rig;
import java.util.ArrayList;
import java.util.List;

/**
 * What a retargeting paired and made.
 *
 * @param mapped each driven target joint (parent-first): the source joint it follows ({@code null} for a chain joint)
 *     and the rule
 * @param unmappedTarget target joints (skin joints, or named nodes without skins) that keep their rest pose, at most
 *     {@link #MAX_LISTED}
 * @param unmappedTargetCount how many there are in all
 * @param unmappedSource source joints that drive nothing, at most {@link #MAX_LISTED}
 * @param unmappedSourceCount how many there are in all
 * @param rootJoint the target joint carrying the root motion
 * @param rootScale the factor its translation was scaled by (0 for no root motion)
 * @param clips one per retargeted clip
 */
public record RetargetReport(List<Pair> mapped, List<String> unmappedTarget, int unmappedTargetCount,
        List<String> unmappedSource, int unmappedSourceCount, String rootJoint, double rootScale,
        List<ClipReport> clips) {

    /** The most joint names listed per side. */
    public static final int MAX_LISTED = 50;

    /**
     * One driven target joint.
     *
     * @param target its name ({@code #i} when unnamed)
     * @param source the source joint it follows, or {@code null} for {@link MatchRule#CHAIN}
     * @param rule how it was paired
     */
    public record Pair(String target, String source, MatchRule rule) {
    }

    /**
     * One retargeted clip.
     *
     * @param name its name in the new asset (made unique with " (2)"…)
     * @param sourceName its name in the source
     * @param keys sample times per track
     * @param tracks tracks written
     */
    public record ClipReport(String name, String sourceName, int keys, int tracks) {
    }

    static RetargetReport of(Model target, Model source, RetargetPlan plan, List<ClipReport> clips) {
        Rig t = target.rig();
        Rig s = source.rig();
        int[] sourceOf = plan.map.sourceOf();
        List<Pair> mapped = new ArrayList<>();
        for (int i = 0; i < t.nodeCount(); i++) {
            if (plan.kind[i] == RetargetPlan.MAPPED) {
                mapped.add(new Pair(name(t, i), name(s, sourceOf[i]), plan.map.rules()[i]));
            } else if (plan.kind[i] == RetargetPlan.CHAIN) {
                mapped.add(new Pair(name(t, i), null, MatchRule.CHAIN));
            }
        }
        List<String> unmappedTarget = new ArrayList<>();
        int targetCount = 0;
        for (int j : JointMatcher.joints(target)) {
            if (plan.kind[j] == RetargetPlan.REST) {
                targetCount++;
                if (unmappedTarget.size() < MAX_LISTED) {
                    unmappedTarget.add(name(t, j));
                }
            }
        }
        boolean[] used = new boolean[s.nodeCount()];
        for (int si : sourceOf) {
            if (si >= 0) {
                used[si] = true;
            }
        }
        List<String> unmappedSource = new ArrayList<>();
        int sourceCount = 0;
        for (int j : JointMatcher.joints(source)) {
            if (!used[j]) {
                sourceCount++;
                if (unmappedSource.size() < MAX_LISTED) {
                    unmappedSource.add(name(s, j));
                }
            }
        }
        return new RetargetReport(List.copyOf(mapped), List.copyOf(unmappedTarget), targetCount,
                List.copyOf(unmappedSource), sourceCount, name(t, plan.root), plan.rootScale, List.copyOf(clips));
    }

    private static String name(Rig rig, int i) {
        return rig.name(i) == null ? "#" + i : rig.name(i);
    }
}
