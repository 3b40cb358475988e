package io.posekit.asset.x;

import java.util.ArrayList;
import java.util.List;

/**
 * The data objects of a {@code .x} document that posekit uses, exactly as stored in the file: DirectX's
 * left-handed coordinates, matrices in file order (for row vectors, so read in order they are the column-major
 * matrix for column vectors), quaternions as {@code (w, x, y, z)}, times in ticks. {@link SceneAssembler} converts.
 */
final class XDocument {

    /** Frames in document order (depth-first), each knowing its parent's index. */
    final List<Frame> frames = new ArrayList<>();
    /** Every Mesh in document order, in a Frame or at the top level. */
    final List<Mesh> meshes = new ArrayList<>();
    /** {@code { name }} references inside Frames (instances of named meshes). */
    final List<Reference> frameReferences = new ArrayList<>();
    final List<AnimationSet> animationSets = new ArrayList<>();
    /** Top-level Material objects (which MeshMaterialLists may refer to by name), in document order. */
    final List<Material> materials = new ArrayList<>();
    /** The value of AnimTicksPerSecond, or −1 when the file has none. */
    long ticksPerSecond = -1;

    /** A Frame: a node of the hierarchy. */
    static final class Frame {
        final String name;
        final int parent;
        final String where;
        /** The FrameTransformMatrix's 16 values in file order, or {@code null} (identity). */
        float[] matrix;

        Frame(String name, int parent, String where) {
            this.name = name;
            this.parent = parent;
            this.where = where;
        }
    }

    /** A {@code { name }} reference in a Frame. */
    record Reference(int frame, String name, String where) {
    }

    /** A Mesh with its sub-objects. */
    static final class Mesh {
        final String name;
        final String where;
        /** The Frame it is in, or −1 for a top-level Mesh. */
        final int frame;
        /** 3 per vertex. */
        float[] positions;
        /** Face f has the indices {@code faceIndices[faceStart[f] .. faceStart[f+1])}. */
        int[] faceStart;
        int[] faceIndices;
        /** MeshNormals: 3 per normal, or {@code null}. */
        float[] normals;
        /** MeshNormals face indices, parallel to {@link #faceIndices}, or {@code null}. */
        int[] normalIndices;
        /** Every MeshTextureCoords in file order: 2 per position each (u, v; top-left origin, as glTF). */
        final List<float[]> texcoordSets = new ArrayList<>();
        /** The first MeshVertexColors: 4 per position (RGBA as read), or {@code null}. */
        float[] colors;
        final List<Bone> bones = new ArrayList<>();
        /** The MeshMaterialList, or {@code null}. */
        MaterialList materialList;

        Mesh(String name, String where, int frame) {
            this.name = name;
            this.where = where;
            this.frame = frame;
        }

        int vertexCount() {
            return positions.length / 3;
        }

        int faceCount() {
            return faceStart.length - 1;
        }
    }

    /**
     * A Material object.
     *
     * @param name its name, or {@code null}
     * @param faceColor RGBA as read
     * @param power the specular exponent
     * @param specular RGB
     * @param emissive RGB
     * @param textureFile the TextureFilename, or {@code null}
     * @param where for messages
     */
    record Material(String name, float[] faceColor, float power, float[] specular, float[] emissive,
            String textureFile, String where) {
    }

    /**
     * A MeshMaterialList: the material of every face and the materials, each given in place or as a reference to a
     * top-level Material by name.
     *
     * @param faceMaterials per listed face, an index into {@code materials} (a list shorter than the faces repeats
     *     its last entry)
     * @param materials per material, the Material, or {@code null} where a reference names it
     * @param references per material, the name a reference gives, or {@code null} where it is in place
     */
    record MaterialList(int[] faceMaterials, List<Material> materials, List<String> references, String where) {
    }

    /**
     * A SkinWeights object.
     *
     * @param name the bone (frame) name
     * @param vertices mesh vertex (position) indices
     * @param weights one per vertex index
     * @param offset the offset matrix (mesh space to bone space, the inverse bind), 16 values in file order
     * @param where for messages
     */
    record Bone(String name, int[] vertices, float[] weights, float[] offset, String where) {
    }

    /** An AnimationSet: one clip. */
    record AnimationSet(String name, List<Animation> animations, String where) {
    }

    /** An Animation: the keys of one frame. */
    static final class Animation {
        final String name;
        final String where;
        /** The frame name of its {@code { name }} reference, or {@code null}. */
        String target;
        final List<Keys> keys = new ArrayList<>();

        Animation(String name, String where) {
            this.name = name;
            this.where = where;
        }
    }

    /**
     * An AnimationKey.
     *
     * @param type 0 rotation, 1 scale, 2 position, 3 or 4 matrix
     * @param ticks key times in ticks, non-decreasing
     * @param values per key 4 (rotation, {@code w x y z}), 3 (scale, position) or 16 (matrix, file order)
     * @param where for messages
     */
    record Keys(int type, long[] ticks, float[] values, String where) {

        static final int ROTATION = 0;
        static final int SCALE = 1;
        static final int POSITION = 2;

        boolean isMatrix() {
            return type == 3 || type == 4;
        }

        static int components(int type) {
            return switch (type) {
                case ROTATION -> 4;
                case SCALE, POSITION -> 3;
                default -> 16;
            };
        }
    }
}
