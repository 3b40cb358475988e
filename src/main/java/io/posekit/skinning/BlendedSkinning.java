package io.posekit.skinning;

/**
 * Maya's blended skinning ({@code SkinningType: "Blend"} in FBX): per vertex, linear blend skinning and
 * dual-quaternion skinning mixed by the vertex's dual-quaternion weight {@code w} in [0, 1]. Maya (and ufbx's
 * {@code ufbx_get_skin_vertex_matrix}) blend the two matrices, {@code (1 − w)·L + w·D}, which applied to a point is
 * the same blend of the two skinned points; directions are blended the same way and normalised again (the
 * blended matrix's own normal transform differs from this only where the two methods disagree in direction).
 */
final class BlendedSkinning {

    private BlendedSkinning() {
    }

    /**
     * Writes {@code (1 − w)·linear + w·dq} into the linear outputs, vertex by vertex, in double: positions as they
     * are, normals and tangents' xyz normalised ({@link SkinningJob#store3Normalized}; tangents keep their
     * {@code w}). Each pair is skipped when either array is {@code null}.
     *
     * @param weights per vertex, the share of dual-quaternion skinning
     * @param n the vertex count
     * @param dqPositions the dual-quaternion positions (3 per vertex)
     * @param dqNormals the dual-quaternion normals (3 per vertex)
     * @param dqTangents the dual-quaternion tangents (4 per vertex)
     * @param positions the linear positions, overwritten with the blend
     * @param normals the linear normals, overwritten with the blend
     * @param tangents the linear tangents, overwritten with the blend
     */
    static void blend(float[] weights, int n, float[] dqPositions, float[] dqNormals, float[] dqTangents,
            float[] positions, float[] normals, float[] tangents) {
        for (int v = 0; v < n; v++) {
            final double w = weights[v];
            final double l = 1 - w;
            final int p3 = 3 * v;
            if (positions != null && dqPositions != null) {
                positions[p3] = (float) (l * positions[p3] + w * dqPositions[p3]);
                positions[p3 + 1] = (float) (l * positions[p3 + 1] + w * dqPositions[p3 + 1]);
                positions[p3 + 2] = (float) (l * positions[p3 + 2] + w * dqPositions[p3 + 2]);
            }
            if (normals != null && dqNormals != null) {
                SkinningJob.store3Normalized(l * normals[p3] + w * dqNormals[p3],
                        l * normals[p3 + 1] + w * dqNormals[p3 + 1], l * normals[p3 + 2] + w * dqNormals[p3 + 2],
                        normals, p3);
            }
            if (tangents != null && dqTangents != null) {
                final int p4 = 4 * v;
                SkinningJob.store3Normalized(l * tangents[p4] + w * dqTangents[p4],
                        l * tangents[p4 + 1] + w * dqTangents[p4 + 1], l * tangents[p4 + 2] + w * dqTangents[p4 + 2],
                        tangents, p4);
            }
        }
    }
}
