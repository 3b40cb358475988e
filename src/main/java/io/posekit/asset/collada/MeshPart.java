package io.posekit.asset.collada;

import java.util.List;

/**
 * One de-indexed primitive element of a {@code <mesh>}, before skin influences: unique vertices (one per
 * distinct index tuple, in order of first appearance), triangle indices into them, and per vertex the control
 * vertex (its {@code <vertices>}/POSITION index) that a skin's {@code <vertex_weights>} refers to.
 *
 * @param where names the primitive element in messages, e.g. {@code geometry 'Cube-mesh' polylist 0}
 * @param attributes the attribute names, glTF style ({@code POSITION}, {@code NORMAL}, {@code TEXCOORD_0}, …)
 * @param positions 3 floats per vertex, exactly as in the file
 * @param normals 3 floats per vertex, or {@code null}
 * @param tangents 4 floats per vertex (w = handedness), or {@code null}
 * @param indices 3 per triangle
 * @param controlVertices per vertex, the index into the position source
 * @param texcoordSets the {@code TEXCOORD} sets by ascending {@code set}, 2 floats per vertex each in glTF's
 *     convention (v = 1 − t); empty when there are none
 * @param material the element's material, or {@code null}
 * @param colors the lowest {@code COLOR} set as linear RGBA, 4 floats per vertex (an RGB source gets alpha 1), or
 *     {@code null}
 */
record MeshPart(String where, List<String> attributes, float[] positions, float[] normals, float[] tangents,
        int[] indices, int[] controlVertices, List<float[]> texcoordSets, io.posekit.skinning.Material material,
        float[] colors) {

    MeshPart {
        attributes = List.copyOf(attributes);
        texcoordSets = List.copyOf(texcoordSets);
    }

    int vertexCount() {
        return positions.length / 3;
    }
}
