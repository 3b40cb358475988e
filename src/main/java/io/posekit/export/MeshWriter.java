package io.posekit.export;

import io.posekit.rig.Skin;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.MorphTargets;
import io.posekit.skinning.Primitive;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the meshes of an {@link AnimatedGltf}: one glTF mesh per distinct list of primitives (by identity) and skin
 * size, so instances sharing geometry share it. Per primitive, on top of {@link GltfWriter#primitive}'s common
 * attributes: {@code TANGENT} (unit direction, w ±1; only with normals), on skinned instances every influence set
 * ({@link InfluenceSets}), and morph targets (position and normal displacements; a target that moves nothing is an
 * accessor without a buffer view). The mesh's {@code weights} are the first instance's default morph weights.
 * Not thread-safe.
 */
final class MeshWriter {

    private final GltfWriter doc;
    private final Map<MeshKey, Integer> written = new HashMap<>();

    MeshWriter(GltfWriter doc) {
        this.doc = doc;
    }

    /**
     * The glTF mesh of {@code part} (primitives of {@code instance}), written when first asked for.
     *
     * @param skin the skin deforming them, or {@code null} for a rigid part
     * @return the mesh index, or -1 when nothing in it draws
     * @throws IllegalArgumentException when a position is not finite or a vertex uses a joint the skin lacks
     */
    int mesh(MeshInstance instance, List<Primitive> part, Skin skin) {
        MeshKey key = new MeshKey(part, skin == null ? -1 : skin.jointCount());
        Integer known = written.get(key);
        if (known != null) {
            return known;
        }
        int index = write(instance, part, skin);
        if (index >= 0) {
            written.put(key, index);
        }
        return index;
    }

    private int write(MeshInstance instance, List<Primitive> part, Skin skin) {
        List<String> prims = new ArrayList<>();
        String where = "mesh '" + instance.name() + "'";
        for (Primitive p : part) {
            String json = doc.primitive(p, p.positions(), p.normals(), where + ": vertex",
                    (d, attributes, hasNormals) -> extras(d, p, skin, attributes, hasNormals));
            if (json != null) {
                prims.add(json);
            }
        }
        if (prims.isEmpty()) {
            return -1;
        }
        StringBuilder json = new StringBuilder("{");
        if (instance.name() != null) {
            json.append("\"name\":").append(GltfJson.string(instance.name())).append(',');
        }
        json.append("\"primitives\":[").append(String.join(",", prims)).append(']');
        if (instance.morphTargetCount() > 0) {
            json.append(",\"weights\":").append(GltfJson.floats(instance.morphWeights()));
        }
        doc.meshes.add(json.append('}').toString());
        return doc.meshes.size() - 1;
    }

    /** Tangents, influences and morph targets of {@code p}. */
    private static String extras(GltfWriter d, Primitive p, Skin skin, StringBuilder attributes, boolean hasNormals) {
        int n = p.vertexCount();
        float[] tangents = hasNormals ? GltfWriter.unitVectors(p.tangents(), 4) : null;
        if (tangents != null) {
            attributes.append(",\"TANGENT\":").append(d.positions != null ? d.snorm8(tangents, 4, n)
                    : d.accessor(new GltfWriter.FloatBlock(tangents), GltfWriter.ARRAY_BUFFER, GltfWriter.FLOAT, "VEC4",
                            n, ""));
        }
        if (skin != null) {
            InfluenceSets sets = InfluenceSets.of(p, skin.jointCount());
            int width = 4 * sets.sets();
            for (int s = 0; s < sets.sets(); s++) {
                int[] joints = slice(sets.joints(), width, 4 * s, n);
                attributes.append(",\"JOINTS_").append(s).append("\":").append(d.accessor(
                        new GltfWriter.IntBlock(joints, sets.jointWidth()), GltfWriter.ARRAY_BUFFER,
                        GltfWriter.unsignedType(sets.jointWidth()), "VEC4", n, ""));
                int weights;
                if (sets.weightWidth() == 4) {
                    float[] w = new float[4 * n];
                    for (int v = 0; v < n; v++) {
                        System.arraycopy(sets.weights(), v * width + 4 * s, w, 4 * v, 4);
                    }
                    weights = d.accessor(new GltfWriter.FloatBlock(w), GltfWriter.ARRAY_BUFFER, GltfWriter.FLOAT,
                            "VEC4", n, "");
                } else {
                    weights = d.accessor(new GltfWriter.IntBlock(slice(sets.quantizedWeights(), width, 4 * s, n),
                            sets.weightWidth()), GltfWriter.ARRAY_BUFFER, GltfWriter.unsignedType(sets.weightWidth()),
                            "VEC4", n, ",\"normalized\":true");
                }
                attributes.append(",\"WEIGHTS_").append(s).append("\":").append(weights);
            }
        }
        MorphTargets targets = p.morphTargets();
        if (targets == null) {
            return "";
        }
        List<String> list = new ArrayList<>();
        for (int t = 0; t < targets.targetCount(); t++) {
            float[] dp = GltfWriter.finite(targets.positionDeltas(t));
            if (dp != null && d.positions != null) {
                // displacements in the quantized positions' space: divided by the dequantization's scale
                float[] scaled = new float[dp.length];
                for (int i = 0; i < dp.length; i++) {
                    scaled[i] = dp[i] / d.positions.h();
                }
                dp = scaled;
            }
            String position = dp == null
                    ? "\"POSITION\":" + d.zeroAccessor("VEC3", n, ",\"min\":[0,0,0],\"max\":[0,0,0]")
                    : "\"POSITION\":" + d.vec3WithBounds(dp, n);
            float[] dn = hasNormals ? GltfWriter.finite(targets.normalDeltas(t)) : null;
            String normal = dn == null ? "" : ",\"NORMAL\":" + d.accessor(new GltfWriter.FloatBlock(dn),
                    GltfWriter.ARRAY_BUFFER, GltfWriter.FLOAT, "VEC3", n, "");
            list.add("{" + position + normal + "}");
        }
        return ",\"targets\":[" + String.join(",", list) + "]";
    }

    private static int[] slice(int[] values, int width, int from, int n) {
        int[] out = new int[4 * n];
        for (int v = 0; v < n; v++) {
            System.arraycopy(values, v * width + from, out, 4 * v, 4);
        }
        return out;
    }

    /** A list of primitives by identity (one glTF mesh per distinct list and skin size). */
    private record MeshKey(List<Primitive> primitives, int joints) {

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof MeshKey k) || k.joints != joints || k.primitives.size() != primitives.size()) {
                return false;
            }
            for (int i = 0; i < primitives.size(); i++) {
                if (k.primitives.get(i) != primitives.get(i)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int hashCode() {
            int h = joints;
            for (Primitive p : primitives) {
                h = 31 * h + System.identityHashCode(p);
            }
            return h;
        }
    }

}
