package io.posekit.asset.collada;

/**
 * A decoded {@code <controller><skin>}: its base geometry, joints and per-control-vertex influences.
 *
 * @param where names the skin in messages: {@code skin 'controller-id'}
 * @param name the controller's {@code name}, else its {@code id}
 * @param geometry the {@code <geometry>} the skin deforms (the morph's base when the skin's source is a morph)
 * @param morph the {@code <controller>} of the {@code <morph>} the skin's source names, or {@code null}
 * @param jointNames the JOINT source's names, in skin order
 * @param idrefs whether the joint names are {@code IDREF_array} entries (node ids) rather than {@code Name_array}
 *     ones (sids, ids or names)
 * @param inverseBindMatrices per joint {@code IBM_k · bind_shape_matrix}, column-major, 16 floats each
 * @param start per control vertex {@code v}, its influences are {@code start[v] .. start[v+1]-1}
 * @param joints influence joint indices (into {@code jointNames}), file order per control vertex
 * @param weights influence weights as stored
 * @param maxInfluences the most influences any control vertex has
 */
record SkinData(String where, String name, XmlElement geometry, XmlElement morph, String[] jointNames, boolean idrefs,
        float[] inverseBindMatrices, int[] start, int[] joints, float[] weights, int maxInfluences) {

    /** Number of control vertices ({@code <vertex_weights count>}). */
    int controlVertexCount() {
        return start.length - 1;
    }

    /** Influence slots per vertex: the most influences rounded up to a multiple of 4. */
    int slots() {
        return 4 * ((maxInfluences + 3) / 4);
    }
}
