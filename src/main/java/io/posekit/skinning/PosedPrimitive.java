package io.posekit.skinning;

/**
 * A primitive's vertices posed into model space, in the same vertex order as its bind-shape geometry.
 *
 * @param vertexCount number of vertices
 * @param positions 3 floats per vertex, or {@code null} when not requested
 * @param normals 3 floats per vertex (unit length), or {@code null} when not requested or absent
 * @param tangents 4 floats per vertex (unit xyz, w handedness), or {@code null} when not requested or absent
 */
public record PosedPrimitive(int vertexCount, float[] positions, float[] normals, float[] tangents) {
}
