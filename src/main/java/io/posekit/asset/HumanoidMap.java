package io.posekit.asset;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A humanoid bone map a file declares: which node is which humanoid bone, as VRM avatars ({@code .vrm}: VRM 0.x's
 * {@code extensions.VRM.humanoid.humanBones[] {bone, node}}, VRM 1.0's
 * {@code extensions.VRMC_vrm.humanoid.humanBones {name: {node}}}) and VRM animations ({@code .vrma}:
 * {@code extensions.VRMC_vrm_animation.humanoid.humanBones}) carry it. Bone names are VRM 1.0's (Unity's humanoid
 * bones in lower camel case: {@code hips}, {@code spine}, {@code chest}, {@code upperChest}, {@code leftUpperArm}, …);
 * VRM 0.x's thumb names are translated to 1.0's ({@code thumbProximal → thumbMetacarpal},
 * {@code thumbIntermediate → thumbProximal}). Immutable.
 *
 * @param kind where the map came from, which also says which way the model faces
 * @param bones bone name → node (a rig node index in a {@link Model}, an {@link ImportScene} node index in a scene),
 *     in the file's order; no node twice
 */
public record HumanoidMap(Kind kind, Map<String, Integer> bones) {

    /** The extension the map came from. */
    public enum Kind {
        /** VRM 0.x ({@code VRM}): the model faces −Z (rotated 180° about Y from glTF's +Z front). */
        VRM0("VRM 0.x"),
        /** VRM 1.0 ({@code VRMC_vrm}): the model faces +Z, as glTF. */
        VRM1("VRM 1.0"),
        /** VRM animation ({@code VRMC_vrm_animation}): VRM 1.0's conventions, +Z front. */
        VRMA("VRM animation");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        /** {@code VRM 0.x}, {@code VRM 1.0} or {@code VRM animation}. */
        public String label() {
            return label;
        }
    }

    public HumanoidMap {
        Objects.requireNonNull(kind, "kind");
        bones = Collections.unmodifiableMap(new LinkedHashMap<>(bones));
    }

    /** Whether the model's front is −Z (VRM 0.x) rather than glTF's +Z. */
    public boolean facesMinusZ() {
        return kind == Kind.VRM0;
    }

    /** The bone node {@code node} is, or {@code null}. */
    public String boneOf(int node) {
        for (Map.Entry<String, Integer> e : bones.entrySet()) {
            if (e.getValue() == node) {
                return e.getKey();
            }
        }
        return null;
    }

    /** The same map with every node renumbered through {@code newIndex} (entries mapping to −1 dropped). */
    public HumanoidMap renumbered(int[] newIndex) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> e : bones.entrySet()) {
            int i = e.getValue();
            if (i >= 0 && i < newIndex.length && newIndex[i] >= 0) {
                out.put(e.getKey(), newIndex[i]);
            }
        }
        return new HumanoidMap(kind, out);
    }
}
