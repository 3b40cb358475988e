package io.posekit.rig;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The node hierarchy of an asset and its rest pose: every scene-graph node (joints and plain nodes alike)
 * in parent-first order, so {@code parent(i) < i} for every node and roots have parent {@code -1}.
 *
 * <p>The rest pose is the local transform of each node relative to its parent, as stored in the file:
 * translations (3 floats per node, scene units), rotations (unit quaternions {@code [x,y,z,w]}, 4 per node)
 * and scales (3 per node). The arrays returned by the accessors are the rig's own storage, shared so hot
 * loops can read them without copying: callers must never modify them.
 *
 * <p>Immutable and thread-safe.
 */
public final class Rig {

    private final String[] names;
    private final int[] parents;
    private final int[] sourceIndices;
    private final float[] restTranslations;
    private final float[] restRotations;
    private final float[] restScales;

    /**
     * @param names node names ({@code null} entries for unnamed nodes)
     * @param parents parent index of each node, {@code -1} for roots; must satisfy {@code parents[i] < i}
     * @param sourceIndices the index of each node in the source file (glTF node index), {@code -1} if none
     * @param restTranslations 3 per node
     * @param restRotations 4 per node, unit quaternions {@code [x,y,z,w]}
     * @param restScales 3 per node
     * @throws IllegalArgumentException if the arrays disagree in length or the order is not parent-first
     */
    public Rig(String[] names, int[] parents, int[] sourceIndices, float[] restTranslations, float[] restRotations,
            float[] restScales) {
        int n = names.length;
        if (parents.length != n || sourceIndices.length != n || restTranslations.length != 3 * n
                || restRotations.length != 4 * n || restScales.length != 3 * n) {
            throw new IllegalArgumentException("rig arrays disagree on the node count " + n);
        }
        for (int i = 0; i < n; i++) {
            if (parents[i] < -1 || parents[i] >= i) {
                throw new IllegalArgumentException("node " + i + " has parent " + parents[i] + ": not parent-first");
            }
        }
        this.names = names.clone();
        this.parents = parents.clone();
        this.sourceIndices = sourceIndices.clone();
        this.restTranslations = restTranslations.clone();
        this.restRotations = restRotations.clone();
        this.restScales = restScales.clone();
    }

    /** Number of nodes. */
    public int nodeCount() {
        return names.length;
    }

    /** Name of node {@code i}, or {@code null} when the file gives none. */
    public String name(int i) {
        return names[i];
    }

    /** Parent of node {@code i} ({@code < i}), or {@code -1} for a root. */
    public int parent(int i) {
        return parents[i];
    }

    /** Index of node {@code i} in the source file (glTF: node index), or {@code -1}. */
    public int sourceIndex(int i) {
        return sourceIndices[i];
    }

    /** Parent indices, one per node (shared storage: do not modify). */
    public int[] parents() {
        return parents;
    }

    /** Rest local translations, 3 per node (shared storage: do not modify). */
    public float[] restTranslations() {
        return restTranslations;
    }

    /** Rest local rotations, unit quaternions {@code [x,y,z,w]}, 4 per node (shared storage: do not modify). */
    public float[] restRotations() {
        return restRotations;
    }

    /** Rest local scales, 3 per node (shared storage: do not modify). */
    public float[] restScales() {
        return restScales;
    }

    /** Node names in order (a copy). */
    public List<String> names() {
        return Arrays.asList(names.clone());
    }

    /** The first node with this name, or {@code -1}. */
    public int indexOf(String name) {
        for (int i = 0; i < names.length; i++) {
            if (Objects.equals(names[i], name)) {
                return i;
            }
        }
        return -1;
    }

    /** Approximate heap footprint in bytes, for cache weighing. */
    public long footprintBytes() {
        long bytes = 64 + 4L * (parents.length + sourceIndices.length)
                + 4L * (restTranslations.length + restRotations.length + restScales.length);
        for (String name : names) {
            bytes += 8 + (name == null ? 0 : 40 + name.length());
        }
        return bytes;
    }
}
