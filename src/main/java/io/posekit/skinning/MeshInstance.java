package io.posekit.skinning;

import java.util.List;

/**
 * One placement of a mesh in the scene: the rig node that carries it, the skin that deforms it (or none)
 * and its primitives. A mesh used by several nodes gives several instances sharing the same
 * {@link Primitive} objects.
 *
 * <p>A skinned instance is posed by its skin's skinning matrices alone (the carrying node's own transform is
 * ignored, as glTF specifies); a rigid instance by the model matrix of its node. Morph targets, when the
 * primitives have them, are applied first, in mesh space.
 *
 * @param name the mesh's name (or the node's when the mesh has none), or {@code null}
 * @param node rig node index of the carrying node
 * @param skin skin index, or {@code -1} for a rigid instance
 * @param sourceMesh the mesh's index in the source file, or {@code -1}
 * @param primitives the mesh's primitives; all have the same number of morph targets
 * @param morphWeights the instance's default morph weights, one per target (glTF: the node's {@code weights},
 *     else the mesh's, else zeros), used when no clip animates them; empty without targets. Shared storage
 *     that callers must not modify.
 */
public record MeshInstance(String name, int node, int skin, int sourceMesh, List<Primitive> primitives,
        float[] morphWeights) {

    /**
     * @throws IllegalArgumentException when the primitives disagree on the number of morph targets, or
     *     {@code morphWeights} has another length ({@code null} is read as all zeros)
     */
    public MeshInstance {
        primitives = List.copyOf(primitives);
        int targets = primitives.isEmpty() ? 0 : primitives.getFirst().morphTargetCount();
        for (int p = 1; p < primitives.size(); p++) {
            if (primitives.get(p).morphTargetCount() != targets) {
                throw new IllegalArgumentException("primitive " + p + " has " + primitives.get(p).morphTargetCount()
                        + " morph targets but primitive 0 has " + targets);
            }
        }
        if (morphWeights == null) {
            morphWeights = new float[targets];
        } else if (morphWeights.length != targets) {
            throw new IllegalArgumentException(morphWeights.length + " default morph weights for " + targets
                    + " morph targets");
        }
    }

    /** An instance whose primitives have no morph targets (or whose default morph weights are all 0). */
    public MeshInstance(String name, int node, int skin, int sourceMesh, List<Primitive> primitives) {
        this(name, node, skin, sourceMesh, primitives, null);
    }

    /** Whether a skin deforms this instance. */
    public boolean skinned() {
        return skin >= 0;
    }

    /** Number of morph targets of every primitive (0 = none). */
    public int morphTargetCount() {
        return morphWeights.length;
    }
}
