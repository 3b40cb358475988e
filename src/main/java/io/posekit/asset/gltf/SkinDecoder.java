package io.posekit.asset.gltf;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.ImportScene;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Reads glTF skins, all of them in file order (so a mesh's {@code skin} index stays valid). A skin's
 * {@code joints} are non-empty glTF node indices; joints outside the imported scene pull their whole root
 * hierarchy into the import (with a warning). {@code inverseBindMatrices}, when present, is a MAT4 float
 * accessor (column-major, mesh space to joint space) with at least one matrix per joint; surplus matrices are
 * dropped with a warning; without it the builder uses identities.
 */
final class SkinDecoder {

    private final GltfDocument doc;
    private final int[][] joints;

    /**
     * Reads every skin's joint list and makes sure the joints are imported.
     *
     * @throws ImportException (invalid) on a missing, empty or out-of-range joint list
     */
    SkinDecoder(GltfDocument doc, SceneGraph graph, ImportLimits limits, ImportWarnings warnings) {
        this.doc = doc;
        int count = doc.count("skins");
        joints = new int[count][];
        for (int s = 0; s < count; s++) {
            String where = "skin " + s;
            JsonNode list = Json.reqArray(doc.element("skins", s, "skin"), "joints", where);
            if (list.isEmpty()) {
                throw ImportException.invalid(where + ": joints must not be empty");
            }
            if (list.size() > limits.maxJointsPerSkin()) {
                throw ImportLimits.exceeded(where, list.size(), "joints", limits.maxJointsPerSkin(),
                        ImportLimits.JOINTS_PER_SKIN);
            }
            joints[s] = new int[list.size()];
            for (int k = 0; k < list.size(); k++) {
                int node = Json.toInt(list.get(k), where + ": joints[" + k + "]");
                if (node < 0 || node >= graph.nodeCount()) {
                    throw ImportException.invalid(where + ": joint " + k + " = node " + node
                            + " does not exist (there are " + graph.nodeCount() + ")");
                }
                joints[s][k] = node;
                graph.includeHierarchy(node, where + ": joint node " + node, warnings);
            }
        }
    }

    /** Number of skins. */
    int skinCount() {
        return joints.length;
    }

    /**
     * The skins with joints mapped to imported node indices. Call after the imported node set is final.
     *
     * @param importIndex glTF node index → imported node index
     * @throws ImportException (invalid) on a bad inverse bind matrix accessor: wrong type, too few matrices,
     *     non-finite values
     */
    List<ImportScene.Skin> decode(AccessorReader accessors, int[] importIndex, ImportWarnings warnings) {
        List<ImportScene.Skin> out = new ArrayList<>(joints.length);
        for (int s = 0; s < joints.length; s++) {
            String where = "skin " + s;
            JsonNode skin = doc.element("skins", s, "skin");
            int[] mapped = new int[joints[s].length];
            for (int k = 0; k < mapped.length; k++) {
                mapped[k] = importIndex[joints[s][k]];
            }
            float[] ibm = null;
            if (Json.has(skin, "inverseBindMatrices")) {
                Accessor a = accessors.require(Json.reqInt(skin, "inverseBindMatrices", where),
                        AccessorUsage.INVERSE_BIND_MATRICES, "inverseBindMatrices", where);
                if (a.count() < mapped.length) {
                    throw ImportException.invalid(where + ": inverseBindMatrices " + a.describe() + " has " + a.count()
                            + " matrices but the skin has " + mapped.length + " joints");
                }
                ibm = accessors.floats(a);
                for (int i = 0; i < 16 * mapped.length; i++) {
                    if (!Float.isFinite(ibm[i])) {
                        throw ImportException.invalid(where + ": inverse bind matrix " + i / 16 + " (" + a.describe()
                                + ") is not finite");
                    }
                }
                if (a.count() > mapped.length) {
                    warnings.add(where + ": inverseBindMatrices " + a.describe() + " has " + a.count()
                            + " matrices for " + mapped.length + " joints; the extra ones are ignored");
                    ibm = Arrays.copyOf(ibm, 16 * mapped.length);
                }
            }
            out.add(new ImportScene.Skin(Json.optString(skin, "name", where), mapped, ibm));
        }
        return out;
    }
}
