package io.posekit.rig;

import java.util.List;

/**
 * Which nodes a skeleton drawing shows and how they connect: the joints of the skins (or every node when there is
 * no skin, as for BVH), and for each shown node the segment from its nearest shown ancestor. Indices are rig node
 * indices; the order is the rig's (parent-first), so a segment's parent always comes before its child. Immutable.
 *
 * @param nodes the shown rig nodes, ascending
 * @param parents for each shown node, the position in {@link #nodes} of its nearest shown ancestor, or -1
 */
public record SkeletonLines(int[] nodes, int[] parents) {

    /** Skin joints (the union over {@code skins}), or every node of {@code rig} when {@code all} or no skin. */
    public static SkeletonLines of(Rig rig, List<Skin> skins, boolean all) {
        int n = rig.nodeCount();
        boolean[] shown = new boolean[n];
        boolean any = false;
        if (!all) {
            for (Skin skin : skins) {
                for (int node : skin.jointNodes()) {
                    shown[node] = true;
                    any = true;
                }
            }
        }
        if (!any) {
            java.util.Arrays.fill(shown, true);
        }
        int[] position = new int[n];
        int count = 0;
        for (int i = 0; i < n; i++) {
            position[i] = shown[i] ? count++ : -1;
        }
        int[] nodes = new int[count];
        int[] parents = new int[count];
        for (int i = 0; i < n; i++) {
            if (!shown[i]) {
                continue;
            }
            int p = rig.parent(i);
            while (p >= 0 && !shown[p]) {
                p = rig.parent(p);
            }
            nodes[position[i]] = i;
            parents[position[i]] = p < 0 ? -1 : position[p];
        }
        return new SkeletonLines(nodes, parents);
    }

    /** How many segments: one per shown node with a shown ancestor. */
    public int segmentCount() {
        int s = 0;
        for (int p : parents) {
            if (p >= 0) {
                s++;
            }
        }
        return s;
    }
}
