package io.posekit.export;

import io.posekit.rig.Rig;
import java.util.ArrayList;
import java.util.List;

/** One glTF node being written by {@link AnimatedGltf}: name, rest TRS, mesh, skin and default morph weights. */
final class NodeJson {
    String name;
    float[] translation;
    float[] rotation;
    float[] scale;
    /** A constant transform as glTF's {@code matrix} (16 column-major), instead of TRS; never animated. */
    double[] matrix;
    int mesh = -1;
    int skin = -1;
    float[] weights;

    /** Rig node {@code i} with its name and rest transform (defaults left out). */
    static NodeJson rest(Rig rig, int i) {
        NodeJson node = new NodeJson();
        node.name = rig.name(i);
        float[] t = new float[3];
        float[] r = new float[4];
        float[] s = new float[3];
        System.arraycopy(rig.restTranslations(), 3 * i, t, 0, 3);
        System.arraycopy(rig.restRotations(), 4 * i, r, 0, 4);
        System.arraycopy(rig.restScales(), 3 * i, s, 0, 3);
        AnimatedGltf.normalizeIfFar(r, 0);
        node.translation = t[0] == 0 && t[1] == 0 && t[2] == 0 ? null : t;
        node.rotation = r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == 1 ? null : r;
        node.scale = s[0] == 1 && s[1] == 1 && s[2] == 1 ? null : s;
        return node;
    }

    /** A node the rig does not have (an extra mesh carrier or root), without transform. */
    static NodeJson extra(String name) {
        NodeJson node = new NodeJson();
        node.name = name;
        return node;
    }

    /** Whether the node has a rest transform other than the identity (the JSON writes one). */
    boolean hasTransform() {
        return translation != null || rotation != null || scale != null || matrix != null;
    }

    /** The node's JSON with {@code children} (glTF node indices). */
    String json(List<Integer> children) {
        List<String> fields = new ArrayList<>();
        if (name != null) {
            fields.add("\"name\":" + GltfJson.string(name));
        }
        if (!children.isEmpty()) {
            fields.add("\"children\":" + children);
        }
        if (matrix != null) {
            float[] m = new float[16];
            for (int i = 0; i < 16; i++) {
                m[i] = (float) matrix[i];
            }
            fields.add("\"matrix\":" + GltfJson.floats(m));
        }
        if (translation != null) {
            fields.add("\"translation\":" + GltfJson.floats(translation));
        }
        if (rotation != null) {
            fields.add("\"rotation\":" + GltfJson.floats(rotation));
        }
        if (scale != null) {
            fields.add("\"scale\":" + GltfJson.floats(scale));
        }
        if (mesh >= 0) {
            fields.add("\"mesh\":" + mesh);
        }
        if (skin >= 0) {
            fields.add("\"skin\":" + skin);
        }
        if (weights != null && weights.length > 0) {
            fields.add("\"weights\":" + GltfJson.floats(weights));
        }
        return "{" + String.join(",", fields) + "}";
    }
}
