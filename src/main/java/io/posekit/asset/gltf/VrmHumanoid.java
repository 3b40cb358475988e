package io.posekit.asset.gltf;

import io.posekit.asset.HumanoidMap;
import io.posekit.asset.ImportWarnings;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Reads the humanoid bone map of a VRM avatar or animation from the glTF root's {@code extensions}: VRM 1.0
 * ({@code VRMC_vrm.humanoid.humanBones}, an object {@code {boneName: {node}}}), a VRM animation
 * ({@code VRMC_vrm_animation.humanoid.humanBones}, the same shape) or VRM 0.x ({@code VRM.humanoid.humanBones}, an
 * array of {@code {bone, node}}). Lenient, as the map is optional to posekit: an entry that is not an object, has
 * no integer node, names a node the file lacks or that was not imported, or repeats a bone or a node is skipped
 * with a warning; a map left empty is none. Stateless.
 */
final class VrmHumanoid {

    static final String VRM0 = "VRM";
    static final String VRM1 = "VRMC_vrm";
    static final String VRMA = "VRMC_vrm_animation";

    /** VRM 0.x thumb bones and their VRM 1.0 names (0.x's proximal is 1.0's metacarpal, and so on). */
    private static final Map<String, String> VRM0_THUMBS = Map.of(
            "leftThumbProximal", "leftThumbMetacarpal", "leftThumbIntermediate", "leftThumbProximal",
            "rightThumbProximal", "rightThumbMetacarpal", "rightThumbIntermediate", "rightThumbProximal");

    private VrmHumanoid() {
    }

    /**
     * The map the document declares (nodes as imported indices through {@code importIndex}), or {@code null}. When a
     * file carries several, VRM 1.0 wins over VRM 0.x, and an avatar's map over an animation's.
     */
    static HumanoidMap read(JsonNode root, int[] importIndex, ImportWarnings warnings) {
        JsonNode extensions = root.get("extensions");
        if (extensions == null || !extensions.isObject()) {
            return null;
        }
        for (String name : new String[] {VRM1, VRM0, VRMA}) {
            JsonNode ext = extensions.get(name);
            if (ext == null || !ext.isObject()) {
                continue;
            }
            JsonNode bones = ext.path("humanoid").path("humanBones");
            HumanoidMap.Kind kind = name.equals(VRM0) ? HumanoidMap.Kind.VRM0
                    : name.equals(VRM1) ? HumanoidMap.Kind.VRM1 : HumanoidMap.Kind.VRMA;
            Map<String, Integer> map = new LinkedHashMap<>();
            String where = "extensions." + name + ".humanoid.humanBones";
            if (kind == HumanoidMap.Kind.VRM0 && bones.isArray()) {
                int i = 0;
                for (JsonNode entry : bones) {
                    JsonNode bone = entry.get("bone");
                    String boneName = bone != null && bone.isString() ? bone.stringValue() : null;
                    if (boneName != null) {
                        boneName = VRM0_THUMBS.getOrDefault(boneName, boneName);
                    }
                    add(map, boneName, entry.get("node"), importIndex, where + "[" + i++ + "]", warnings);
                }
            } else if (kind != HumanoidMap.Kind.VRM0 && bones.isObject()) {
                for (Map.Entry<String, JsonNode> e : bones.properties()) {
                    add(map, e.getKey(), e.getValue().get("node"), importIndex, where + "." + Json.shorten(e.getKey(), 40),
                            warnings);
                }
            } else {
                warnings.add(where + " is not " + (kind == HumanoidMap.Kind.VRM0 ? "an array" : "an object")
                        + "; the humanoid bone map is ignored");
                continue;
            }
            if (!map.isEmpty()) {
                return new HumanoidMap(kind, map);
            }
        }
        return null;
    }

    private static void add(Map<String, Integer> map, String bone, JsonNode node, int[] importIndex, String where,
            ImportWarnings warnings) {
        if (bone == null || bone.isEmpty() || node == null || !node.canConvertToInt() || !node.isIntegralNumber()) {
            warnings.add(where + " has no bone name and integer node; skipped");
            return;
        }
        int n = node.intValue();
        if (n < 0 || n >= importIndex.length || importIndex[n] < 0) {
            warnings.add(where + " names node " + n + ", which the import does not have; skipped");
            return;
        }
        if (map.containsKey(bone) || map.containsValue(importIndex[n])) {
            warnings.add(where + " repeats bone '" + Json.shorten(bone, 40) + "' or node " + n + "; skipped");
            return;
        }
        map.put(bone, importIndex[n]);
    }
}
