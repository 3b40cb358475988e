package io.posekit.asset;

import io.posekit.clip.Clip;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import io.posekit.skinning.MeshInstance;
import java.util.List;
import java.util.Optional;

/**
 * The format-neutral runtime model of one imported asset: its rig (all scene nodes, parent-first), skins,
 * mesh instances and clips, plus the warnings raised while importing. Built once per upload by
 * {@link ModelBuilder}; immutable and shared by all requests.
 *
 * <p>Model space is the space of the scene root: the file's own, whose axes and unit {@code space} declares (FBX's
 * {@code GlobalSettings}; glTF's metres and Y-up for every other format, COLLADA's being converted at import).
 *
 * @param format the source format
 * @param rig the node hierarchy and rest pose
 * @param skins skins, in file order
 * @param meshes mesh instances, in node order
 * @param clips clips, in file order
 * @param warnings import warnings
 * @param humanoid the humanoid bone map the file declares (VRM, VRMA; bone → rig node), or {@code null}
 * @param space the axes and unit of model space and its conversion to glTF's ({@link ModelSpace#GLTF} when the file
 *     declares none)
 */
public record Model(AssetFormat format, Rig rig, List<Skin> skins, List<MeshInstance> meshes, List<Clip> clips,
        List<String> warnings, HumanoidMap humanoid, ModelSpace space) {

    public Model {
        java.util.Objects.requireNonNull(space, "space");
        skins = List.copyOf(skins);
        meshes = List.copyOf(meshes);
        clips = List.copyOf(clips);
        warnings = List.copyOf(warnings);
    }

    /** A model in glTF's space ({@link ModelSpace#GLTF}). */
    public Model(AssetFormat format, Rig rig, List<Skin> skins, List<MeshInstance> meshes, List<Clip> clips,
            List<String> warnings, HumanoidMap humanoid) {
        this(format, rig, skins, meshes, clips, warnings, humanoid, ModelSpace.GLTF);
    }

    /** A model without a humanoid bone map, in glTF's space. */
    public Model(AssetFormat format, Rig rig, List<Skin> skins, List<MeshInstance> meshes, List<Clip> clips,
            List<String> warnings) {
        this(format, rig, skins, meshes, clips, warnings, null, ModelSpace.GLTF);
    }

    /**
     * Finds a clip by name, or else by index when {@code nameOrIndex} is a decimal number.
     *
     * @return the clip's index
     */
    public Optional<Integer> findClip(String nameOrIndex) {
        for (int i = 0; i < clips.size(); i++) {
            if (clips.get(i).name().equals(nameOrIndex)) {
                return Optional.of(i);
            }
        }
        if (!nameOrIndex.isEmpty() && nameOrIndex.length() < 10 && nameOrIndex.chars().allMatch(Character::isDigit)) {
            int index = Integer.parseInt(nameOrIndex);
            if (index < clips.size()) {
                return Optional.of(index);
            }
        }
        return Optional.empty();
    }

    /** Approximate heap footprint in bytes (shared primitives and materials counted once), for cache weighing. */
    public long footprintBytes() {
        long bytes = 256 + rig.footprintBytes();
        for (Skin s : skins) {
            bytes += s.footprintBytes();
        }
        java.util.Set<Object> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (MeshInstance m : meshes) {
            bytes += 64;
            for (var p : m.primitives()) {
                if (seen.add(p)) {
                    bytes += p.footprintBytes();
                }
                if (p.material() != null && seen.add(p.material())) {
                    bytes += p.material().footprintBytes();
                }
            }
        }
        for (Clip c : clips) {
            bytes += c.footprintBytes();
        }
        for (String w : warnings) {
            bytes += 40 + 2L * w.length();
        }
        return bytes;
    }
}
