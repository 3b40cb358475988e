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
 * <p>{@link #kind()} says where the map came from, and so which way the model faces; {@link #bones()} maps bone name
 * → node (a rig node index in a {@link Model}, an {@link ImportScene} node index in a scene), in the file's order,
 * no node twice.
 */
public final class HumanoidMap {

    private final Kind kind;
    private final Map<String, Integer> bones;
    /** The inverse of {@link #bones}: node → bone. */
    private final Map<Integer, String> nodes;

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

    /**
     * A map of {@code kind} naming {@code bones}.
     *
     * @throws IllegalArgumentException when a node is two bones
     */
    public HumanoidMap(Kind kind, Map<String, Integer> bones) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.bones = Collections.unmodifiableMap(new LinkedHashMap<>(bones));
        Map<Integer, String> inverse = new java.util.HashMap<>();
        for (Map.Entry<String, Integer> e : bones.entrySet()) {
            if (inverse.putIfAbsent(e.getValue(), e.getKey()) != null) {
                throw new IllegalArgumentException("node " + e.getValue() + " is two bones");
            }
        }
        this.nodes = Collections.unmodifiableMap(inverse);
    }

    /** Where the map came from. */
    public Kind kind() {
        return kind;
    }

    /** Bone name → node, in the file's order. */
    public Map<String, Integer> bones() {
        return bones;
    }

    /** Whether the model's front is −Z (VRM 0.x) rather than glTF's +Z. */
    public boolean facesMinusZ() {
        return kind == Kind.VRM0;
    }

    /** The bone node {@code node} is, or {@code null}. */
    public String boneOf(int node) {
        return nodes.get(node);
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

    @Override
    public boolean equals(Object o) {
        return o instanceof HumanoidMap h && h.kind == kind && h.bones.equals(bones);
    }

    @Override
    public int hashCode() {
        return 31 * kind.hashCode() + bones.hashCode();
    }

    @Override
    public String toString() {
        return kind.label() + " humanoid " + bones;
    }
}
