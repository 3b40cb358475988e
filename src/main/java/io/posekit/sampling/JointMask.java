package io.posekit.sampling;

import io.posekit.rig.Rig;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Builds per-node weight arrays ({@link BlendLayer#jointWeights()}) that restrict a layer to parts of a rig.
 *
 * <p>Each name selects <em>the node of that name and its whole subtree</em> (all its descendants). Names are
 * matched exactly (case-sensitive, no trimming) against {@link Rig#name(int)}; when several nodes share a
 * name, all of them (and their subtrees) are selected. Selected nodes get weight 1, the others 0.
 */
public final class JointMask {

    // longest name echoed in an error message: names come from requests and must not flood logs
    private static final int MAX_ECHOED_NAME = 64;

    private JointMask() {
    }

    /**
     * A new array of {@code rig.nodeCount()} weights: 1 for every node that is named in {@code roots} or has an
     * ancestor named in {@code roots}, 0 for every other node. An empty list selects nothing (all 0).
     *
     * @param rig the rig whose node order the array follows
     * @param roots names of the subtree roots to select
     * @return a fresh array owned by the caller
     * @throws IllegalArgumentException if a name is {@code null} or names no node of the rig (the message
     *     quotes that one name, shortened if long)
     */
    public static float[] subtrees(Rig rig, List<String> roots) {
        Set<String> wanted = new HashSet<>();
        for (String name : roots) {
            if (name == null) {
                throw new IllegalArgumentException("null joint name in a mask");
            }
            wanted.add(name);
        }
        int n = rig.nodeCount();
        float[] weights = new float[n];
        Set<String> found = new HashSet<>();
        int[] parents = rig.parents();
        // parent-first order: a parent's weight is final before any child is visited, so one forward pass
        // propagates every selection to the whole subtree
        for (int i = 0; i < n; i++) {
            String name = rig.name(i);
            if (name != null && wanted.contains(name)) {
                weights[i] = 1f;
                found.add(name);
            } else if (parents[i] >= 0) {
                weights[i] = weights[parents[i]];
            }
        }
        for (String name : roots) {
            if (!found.contains(name)) {
                throw new IllegalArgumentException("unknown joint name '" + shorten(name) + "'");
            }
        }
        return weights;
    }

    private static String shorten(String name) {
        return name.length() <= MAX_ECHOED_NAME ? name : name.substring(0, MAX_ECHOED_NAME) + "…";
    }
}
