package io.posekit.asset.gltf;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.ImportScene;
import io.posekit.math.Matrices;
import tools.jackson.databind.JsonNode;

/**
 * Reads a glTF node's name and rest local transform into an {@link ImportScene.Node}. The transform is the
 * node's {@code translation} (default 0), {@code rotation} (quaternion {@code [x,y,z,w]}, default identity)
 * and {@code scale} (default 1), in the parent node's space; or, when the node has a {@code matrix}
 * (16 floats, column-major), that matrix decomposed with {@link Matrices#decompose}, with a warning when the
 * matrix holds shear or projection that translation, rotation and scale cannot reproduce.
 */
final class NodeTransform {

    /** Relative reconstruction error above which a decomposed matrix is reported as not representable. */
    static final double SHEAR_TOLERANCE = 1e-4;

    private NodeTransform() {
    }

    /**
     * @param json the glTF node
     * @param index its glTF index
     * @param parent the parent's index in the imported node list, or -1
     * @throws ImportException (invalid) when a field has the wrong type or length or a non-finite number
     */
    static ImportScene.Node read(JsonNode json, int index, int parent, ImportWarnings warnings) {
        String where = "node " + index;
        String name = Json.optString(json, "name", where);
        float[] t = Json.optFloats(json, "translation", 3, where);
        float[] r = Json.optFloats(json, "rotation", 4, where);
        float[] s = Json.optFloats(json, "scale", 3, where);
        float[] m = Json.optFloats(json, "matrix", 16, where);
        if (m != null) {
            if (t != null || r != null || s != null) {
                warnings.add(where + " has both a matrix and translation/rotation/scale; the matrix is used");
            }
            t = new float[3];
            r = new float[4];
            s = new float[3];
            double error = Matrices.decompose(m, 0, t, 0, r, 0, s, 0);
            double largest = 1;
            for (float v : m) {
                largest = Math.max(largest, Math.abs(v));
            }
            if (!(error <= SHEAR_TOLERANCE * largest)) {
                warnings.add(where + ": matrix has shear or projection that translation/rotation/scale cannot "
                        + "represent (reconstruction error " + (float) error + "); the nearest TRS is used");
            }
            if (!allFinite(t) || !allFinite(r) || !allFinite(s)) {
                throw ImportException.invalid(where + ": matrix cannot be decomposed into a finite transform");
            }
        }
        return new ImportScene.Node(name, parent, index, t != null ? t : new float[] {0, 0, 0},
                r != null ? r : new float[] {0, 0, 0, 1}, s != null ? s : new float[] {1, 1, 1});
    }

    private static boolean allFinite(float[] values) {
        for (float v : values) {
            if (!Float.isFinite(v)) {
                return false;
            }
        }
        return true;
    }
}
