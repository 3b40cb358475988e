package io.posekit.api.body;

import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.Primitive;
import io.posekit.store.AssetRepository;
import io.posekit.store.StoredAsset;
import java.util.ArrayList;
import java.util.List;

/**
 * What an asset holds: its nodes (parent-first: {@code parent < index}, roots −1; {@code sourceIndex} = the
 * node's index in the file), skins (joints as node indices, in the skin's order), mesh instances, clips
 * (duration in seconds = the largest key time) and import warnings. A mesh instance reports its number of morph
 * targets and its default morph weights (used when no clip animates them).
 */
public record AssetSummary(String id, String name, String format, long sizeBytes, List<NodeInfo> nodes,
        List<SkinInfo> skins, List<MeshInfo> meshes, List<ClipInfo> clips, List<String> warnings) {

    record NodeInfo(int index, String name, int parent, Integer sourceIndex) {
    }

    record SkinInfo(int index, String name, int[] joints) {
    }

    record MeshInfo(int index, String name, int node, Integer skin, List<PrimitiveInfo> primitives, int morphTargets,
            float[] morphWeights) {
    }

    record PrimitiveInfo(String mode, int vertexCount, int indexCount, List<String> attributes) {
    }

    /**
     * @param sceneStart seconds of the file's scene time at clip time 0 (FBX: the take's start; COLLADA: the
     *     {@code <animation_clip>}'s {@code start}; 0 for formats without a scene time of their own)
     * @param sceneEnd {@code sceneStart + duration}
     */
    record ClipInfo(int index, String name, double duration, int channels, double sceneStart, double sceneEnd) {
    }

    /** The summary, named as the store's manifest names the asset. */
    public static AssetSummary of(AssetRepository.Loaded loaded) {
        return of(loaded, loaded.meta().name());
    }

    /** The summary, named {@code name} (as the caller's tenant uploaded it). */
    public static AssetSummary of(AssetRepository.Loaded loaded, String name) {
        StoredAsset meta = loaded.meta();
        Model model = loaded.model();
        Rig rig = model.rig();
        List<NodeInfo> nodes = new ArrayList<>(rig.nodeCount());
        for (int i = 0; i < rig.nodeCount(); i++) {
            nodes.add(new NodeInfo(i, rig.name(i), rig.parent(i), rig.sourceIndex(i) < 0 ? null : rig.sourceIndex(i)));
        }
        List<SkinInfo> skins = new ArrayList<>();
        for (int s = 0; s < model.skins().size(); s++) {
            Skin skin = model.skins().get(s);
            skins.add(new SkinInfo(s, skin.name(), skin.jointNodes().clone()));
        }
        List<MeshInfo> meshes = new ArrayList<>();
        for (int m = 0; m < model.meshes().size(); m++) {
            MeshInstance mesh = model.meshes().get(m);
            List<PrimitiveInfo> prims = new ArrayList<>();
            for (Primitive p : mesh.primitives()) {
                prims.add(new PrimitiveInfo(p.mode().wireName(), p.vertexCount(), p.indexCount(), p.attributes()));
            }
            meshes.add(new MeshInfo(m, mesh.name(), mesh.node(), mesh.skinned() ? mesh.skin() : null, prims,
                    mesh.morphTargetCount(), mesh.morphWeights().clone()));
        }
        List<ClipInfo> clips = new ArrayList<>();
        for (int c = 0; c < model.clips().size(); c++) {
            Clip clip = model.clips().get(c);
            clips.add(new ClipInfo(c, clip.name(), clip.duration(), clip.channelCount(), clip.sceneStart(),
                    clip.sceneEnd()));
        }
        return new AssetSummary(meta.id(), name, meta.format(), meta.sizeBytes(), nodes, skins, meshes, clips,
                model.warnings());
    }
}
