package io.posekit.skinning;

import java.util.List;

/**
 * One placement of a mesh in the scene: the rig node that carries it, the skin that deforms it (or none)
 * and its primitives. A mesh used by several nodes gives several instances sharing the same
 * {@link Primitive} objects.
 *
 * <p>A skinned instance is posed by its skin's skinning matrices alone (the carrying node's transform is
 * ignored, as glTF specifies); a rigid instance by the model matrix of its node.
 *
 * @param name the mesh's name (or the node's when the mesh has none), or {@code null}
 * @param node rig node index of the carrying node
 * @param skin skin index, or {@code -1} for a rigid instance
 * @param sourceMesh the mesh's index in the source file, or {@code -1}
 * @param primitives the mesh's primitives
 */
public record MeshInstance(String name, int node, int skin, int sourceMesh, List<Primitive> primitives) {

    public MeshInstance {
        primitives = List.copyOf(primitives);
    }

    /** Whether a skin deforms this instance. */
    public boolean skinned() {
        return skin >= 0;
    }
}
