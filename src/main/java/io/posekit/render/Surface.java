package io.posekit.render;

import io.posekit.skinning.PosedPrimitive;
import io.posekit.skinning.Primitive;

/**
 * One primitive to draw: its source (mode, indices, texture coordinates, vertex colours, material) and its vertices
 * posed in model space (positions required, normals optional, same vertex order and count).
 *
 * @param source the primitive
 * @param posed its posed vertices
 */
public record Surface(Primitive source, PosedPrimitive posed) {

    /** @throws IllegalArgumentException when the posed vertices do not match the primitive or have no positions */
    public Surface {
        if (posed.vertexCount() != source.vertexCount() || posed.positions() == null
                || posed.positions().length != 3 * source.vertexCount()
                || posed.normals() != null && posed.normals().length != 3 * source.vertexCount()) {
            throw new IllegalArgumentException("posed vertices do not match the primitive's " + source.vertexCount());
        }
    }
}
