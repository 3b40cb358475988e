package io.posekit.asset;

import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Track;
import io.posekit.skinning.Primitive;
import java.util.List;

/**
 * The format-neutral import tree an importer emits: nodes in the file's own order with parent links,
 * skins, mesh instances and clips referring to nodes by their position in {@link #nodes()}. The
 * {@link ModelBuilder} turns it into the runtime {@link Model} (parent-first rig, indices remapped,
 * defaults filled in, everything validated).
 *
 * @param nodes the scene-graph nodes
 * @param skins the skins
 * @param meshes the mesh instances
 * @param clips the animations
 * @param warnings things the importer accepted but the user should know (reported in the summary)
 * @param humanoid the humanoid bone map the file declares (nodes as indices into {@code nodes}), or {@code null}
 * @param space the axes and unit the file declares for its model space ({@link ModelSpace#GLTF} when it declares
 *     none or the importer converts to it)
 */
public record ImportScene(List<Node> nodes, List<Skin> skins, List<MeshInstance> meshes, List<Clip> clips,
        List<String> warnings, HumanoidMap humanoid, ModelSpace space) {

    public ImportScene {
        java.util.Objects.requireNonNull(space, "space");
        nodes = List.copyOf(nodes);
        skins = List.copyOf(skins);
        meshes = List.copyOf(meshes);
        clips = List.copyOf(clips);
        warnings = List.copyOf(warnings);
    }

    /** A scene in glTF's space. */
    public ImportScene(List<Node> nodes, List<Skin> skins, List<MeshInstance> meshes, List<Clip> clips,
            List<String> warnings, HumanoidMap humanoid) {
        this(nodes, skins, meshes, clips, warnings, humanoid, ModelSpace.GLTF);
    }

    /** A scene without a humanoid bone map, in glTF's space. */
    public ImportScene(List<Node> nodes, List<Skin> skins, List<MeshInstance> meshes, List<Clip> clips,
            List<String> warnings) {
        this(nodes, skins, meshes, clips, warnings, null, ModelSpace.GLTF);
    }

    /**
     * A node with its rest local transform.
     *
     * @param name the node's name, or {@code null}
     * @param parent index in {@link ImportScene#nodes()} of the parent, {@code -1} for a root
     * @param sourceIndex the node's index in the file (glTF node index), or {@code -1}
     * @param translation 3 floats
     * @param rotation quaternion {@code [x,y,z,w]} (normalised by the builder)
     * @param scale 3 floats
     */
    public record Node(String name, int parent, int sourceIndex, float[] translation, float[] rotation, float[] scale) {
    }

    /**
     * A skin.
     *
     * @param name the skin's name, or {@code null}
     * @param joints node indices (into {@link ImportScene#nodes()}) of the joints, in the skin's order
     * @param inverseBindMatrices 16 floats per joint, column-major, or {@code null} for identities
     * @param carrier the node (index into {@link ImportScene#nodes()}) whose motion since the bind moves the skinned
     *     mesh, as Maya shows it ({@link io.posekit.rig.Skin#carrier()}), or -1 (glTF's skins)
     * @param carrierBindInverse the inverse of the carrier's world matrix at the bind, 16 floats column-major, or
     *     {@code null} without a carrier
     */
    public record Skin(String name, int[] joints, float[] inverseBindMatrices, int carrier, float[] carrierBindInverse) {

        /** A skin not carried by its mesh's node (as glTF's). */
        public Skin(String name, int[] joints, float[] inverseBindMatrices) {
            this(name, joints, inverseBindMatrices, -1, null);
        }
    }

    /**
     * A placement of a mesh on a node.
     *
     * @param name the mesh's name, or {@code null}
     * @param node node index (into {@link ImportScene#nodes()}) of the carrying node
     * @param skin skin index, or {@code -1}
     * @param sourceMesh the mesh's index in the file, or {@code -1}
     * @param primitives the mesh's primitives (joint indices refer to the skin's joints)
     * @param morphWeights default morph target weights of this placement (glTF: {@code node.weights}, else
     *     {@code mesh.weights}; COLLADA: the {@code MORPH_WEIGHT} source), or {@code null} for zeros
     */
    public record MeshInstance(String name, int node, int skin, int sourceMesh, List<Primitive> primitives,
            float[] morphWeights) {

        /** A placement with zero default morph weights. */
        public MeshInstance(String name, int node, int skin, int sourceMesh, List<Primitive> primitives) {
            this(name, node, skin, sourceMesh, primitives, null);
        }
    }

    /**
     * An animation.
     *
     * @param name the clip's name, or {@code null} (the builder names it {@code animation_{index}})
     * @param tracks keyframe tracks whose {@link Track#node()} is an index into {@link ImportScene#nodes()}
     * @param nodeTransforms curve-driven transform stacks whose {@link NodeTransformTrack#node()} is an index into
     *     {@link ImportScene#nodes()}; a node driven here has no translation, rotation or scale track
     * @param duration the clip's length in seconds when the file states it (a COLLADA {@code <animation_clip>}'s
     *     {@code end − start}, its keys already shifted to start at 0), or {@code null} for the largest key time
     * @param sceneStart seconds of the file's scene time at clip time 0 (an FBX take's start, a COLLADA clip's
     *     {@code start}; 0 where the format has none)
     */
    public record Clip(String name, List<Track> tracks, List<NodeTransformTrack> nodeTransforms, Double duration,
            double sceneStart) {

        public Clip {
            tracks = List.copyOf(tracks);
            nodeTransforms = List.copyOf(nodeTransforms);
        }

        /** A clip starting at scene time 0. */
        public Clip(String name, List<Track> tracks, List<NodeTransformTrack> nodeTransforms, Double duration) {
            this(name, tracks, nodeTransforms, duration, 0);
        }

        /** A clip of keyframe tracks only, lasting until its last key. */
        public Clip(String name, List<Track> tracks) {
            this(name, tracks, List.of(), null);
        }
    }
}
