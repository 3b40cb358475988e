package io.posekit.retarget;

import io.posekit.rig.Rig;

/**
 * Which source joint drives each target node, and by which rule: {@code sourceOf[t]} is a source node index or −1.
 * Every source node drives at most one target node, and the pairs keep the hierarchy's order: when target {@code a}
 * is an ancestor of target {@code b} and both are mapped, {@code sourceOf[b]} is not an ancestor of
 * {@code sourceOf[a]}. The arrays are owned by the map; callers must not modify them.
 *
 * @param sourceOf per target node, the source node it follows, or −1
 * @param rules per target node, the rule that paired it ({@code null} when unmapped)
 */
record JointMap(int[] sourceOf, MatchRule[] rules) {

    /** Whether {@code ancestor} is a proper ancestor of {@code node} in {@code rig}. */
    static boolean isAncestor(Rig rig, int ancestor, int node) {
        for (int p = rig.parent(node); p >= 0; p = rig.parent(p)) {
            if (p == ancestor) {
                return true;
            }
        }
        return false;
    }

    /** The nearest proper ancestor of target node {@code t} that is mapped, or −1. */
    int mappedAncestor(Rig target, int t) {
        for (int p = target.parent(t); p >= 0; p = target.parent(p)) {
            if (sourceOf[p] >= 0) {
                return p;
            }
        }
        return -1;
    }

    /** How many target nodes are mapped. */
    int mappedCount() {
        int count = 0;
        for (int s : sourceOf) {
            if (s >= 0) {
                count++;
            }
        }
        return count;
    }
}
