package io.posekit.asset.x;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportScene;
import io.posekit.asset.MaterialGroups;
import io.posekit.skinning.Material;
import io.posekit.math.Matrices;
import io.posekit.skinning.Primitive;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the import nodes, skins and mesh instances of an {@link XDocument}, in right-handed space
 * ({@link Handedness}).
 *
 * <p><b>Nodes.</b> One per Frame in document order ({@code sourceIndex} = that order), named after it, with the
 * rest transform of its FrameTransformMatrix (identity without one) decomposed into TRS (a warning when shear
 * cannot be represented). Several top-level Frames are several roots (no synthetic root is added).
 *
 * <p><b>Meshes.</b> A Mesh inside a Frame is a mesh instance on that Frame's node; a Frame's reference
 * {@code { name }} to a named Mesh adds an instance of it there; a top-level Mesh that no Frame refers to is placed
 * on a root node of its own (identity, named after the mesh). All instances of a mesh share its primitive.
 *
 * <p><b>Skins.</b> The bones of a mesh are its SkinWeights, resolved by name to the first Frame of that name; the
 * inverse bind matrices are the offset matrices. Skinned meshes share one skin whose joints are the union of their
 * bones in order of appearance, as long as they agree on each shared bone's offset matrix; a mesh that disagrees
 * gets a skin of its own. A bone that names no Frame (an exporter that lost part of the hierarchy) is bound to a
 * static root node of that name placed at the bone's bind pose (the inverse of its offset matrix), so the vertices
 * it influences keep their bind-pose position instead of being distorted; a warning names such bones. (assimp binds
 * them to its scene root instead — the {@code $dummy_root} of the conformance data — which moves those vertices by
 * the offset matrix.) A bone whose offset matrix cannot be inverted loses its influences, with a warning.
 */
final class SceneAssembler {

    /** Offset matrices of one bone in two meshes agree when no element differs by more than this (relative). */
    static final double SAME_MATRIX = 1e-5;

    private final XDocument doc;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final List<ImportScene.Node> nodes = new ArrayList<>();
    private final List<ImportScene.Skin> skins = new ArrayList<>();
    private final List<ImportScene.MeshInstance> meshes = new ArrayList<>();
    private final Map<String, Integer> frameByName = new HashMap<>();
    private final Map<String, Integer> framesNamed = new HashMap<>();
    /** Nodes made for bones without a frame, by bone name (each with the inverse bind it stands for). */
    private final Map<String, List<Bound>> boneNodes = new HashMap<>();
    private SkinBuilder shared;
    private final XMaterials materials;
    private final List<SkinBuilder> builders = new ArrayList<>();

    private record Bound(int node, float[] inverseBind) {
    }

    SceneAssembler(XDocument doc, XMaterials materials, DecodeBudget budget, ImportWarnings warnings) {
        this.doc = doc;
        this.materials = materials;
        this.budget = budget;
        this.warnings = warnings;
    }

    /** The node index of each frame name (the first frame of that name). */
    Map<String, Integer> frameByName() {
        return frameByName;
    }

    void build() {
        for (int i = 0; i < doc.frames.size(); i++) {
            budget.checkTime();
            XDocument.Frame f = doc.frames.get(i);
            nodes.add(frameNode(f, i));
            if (f.name != null) {
                frameByName.putIfAbsent(f.name, i);
                framesNamed.merge(f.name, 1, Integer::sum);
            }
        }
        Map<String, List<XDocument.Reference>> references = references();
        for (int mi = 0; mi < doc.meshes.size(); mi++) {
            budget.checkTimeNow();
            XDocument.Mesh m = doc.meshes.get(mi);
            List<Integer> places = new ArrayList<>();
            if (m.frame >= 0) {
                places.add(m.frame);
            }
            List<XDocument.Reference> refs = m.name == null ? null : references.remove(m.name);
            if (refs != null) {
                for (XDocument.Reference r : refs) {
                    places.add(r.frame());
                }
            }
            place(m, mi, places);
        }
        for (List<XDocument.Reference> unresolved : references.values()) {
            for (XDocument.Reference r : unresolved) {
                warnings.add(r.where() + ": the reference " + XTokens.quote(r.name())
                        + " names no Mesh of the file; it is ignored");
            }
        }
        for (SkinBuilder b : builders) {
            skins.add(b.toSkin());
        }
    }

    /** Frame references by the name they refer to; a name shared by several meshes refers to the first. */
    private Map<String, List<XDocument.Reference>> references() {
        Map<String, List<XDocument.Reference>> out = new LinkedHashMap<>();
        for (XDocument.Reference r : doc.frameReferences) {
            out.computeIfAbsent(r.name(), k -> new ArrayList<>()).add(r);
        }
        return out;
    }

    private ImportScene.Node frameNode(XDocument.Frame f, int index) {
        float[] t = {0, 0, 0};
        float[] r = {0, 0, 0, 1};
        float[] s = {1, 1, 1};
        if (f.matrix != null) {
            decompose(Handedness.matrix(f.matrix, 0), t, r, s, f.where + " FrameTransformMatrix");
        }
        return new ImportScene.Node(f.name, f.parent, index, t, r, s);
    }

    /** Decomposes a right-handed matrix into TRS, warning when shear or projection cannot be represented. */
    void decompose(float[] m, float[] t, float[] r, float[] s, String what) {
        double err = Matrices.decompose(m, 0, t, 0, r, 0, s, 0);
        double largest = 1;
        for (float v : m) {
            largest = Math.max(largest, Math.abs(v));
        }
        if (!(err / largest <= 1e-4)) {
            warnings.add(what + " has shear or projection that translation/rotation/scale cannot represent"
                    + " (relative reconstruction error " + (float) (err / largest) + "); the nearest TRS is used");
        }
    }

    private void place(XDocument.Mesh m, int index, List<Integer> places) {
        MeshAssembler.Geometry g = MeshAssembler.geometry(m, budget, warnings);
        if (g.indices().length == 0) {
            warnings.add(m.where + " has no triangles; it is skipped");
            return;
        }
        int skin = -1;
        int[] boneJoints = null;
        if (!m.bones.isEmpty()) {
            SkinBuilder builder = skinFor(m);
            boneJoints = builder.lastMapping;
            // the shared builder is always the first, a mesh's own one the last added
            skin = builder == shared ? 0 : builders.size() - 1;
        }
        Primitive primitive = MeshAssembler.primitive(m, g, boneJoints, budget, warnings);
        Material[] surfaces = materials.materials(m);
        int[] perTriangle = XMaterials.triangleMaterials(m, surfaces.length, g.indices().length / 3);
        List<Primitive> primitives = perTriangle == null ? List.of(primitive)
                : MaterialGroups.split(primitive, perTriangle, surfaces, budget);
        if (places.isEmpty()) {
            // a top-level mesh nothing refers to: on a root node of its own
            nodes.add(new ImportScene.Node(m.name, -1, -1, new float[] {0, 0, 0}, new float[] {0, 0, 0, 1},
                    new float[] {1, 1, 1}));
            places.add(nodes.size() - 1);
        }
        for (int node : places) {
            String name = m.name != null && !m.name.isEmpty() ? m.name : nodes.get(node).name();
            meshes.add(new ImportScene.MeshInstance(name, node, skin, index, primitives));
        }
    }

    /** The skin builder the mesh's bones go into (with {@link SkinBuilder#lastMapping} set for them). */
    private SkinBuilder skinFor(XDocument.Mesh m) {
        int bones = m.bones.size();
        int[] boneNode = new int[bones];
        float[][] inverseBinds = new float[bones][];
        List<String> missing = new ArrayList<>();
        for (int b = 0; b < bones; b++) {
            budget.checkTime();
            XDocument.Bone bone = m.bones.get(b);
            float[] ibm = Handedness.matrix(bone.offset(), 0);
            inverseBinds[b] = ibm;
            Integer frame = frameByName.get(bone.name());
            if (frame != null) {
                int count = framesNamed.get(bone.name());
                if (count > 1) {
                    warnings.add(bone.where() + ": " + count + " frames are named " + XTokens.quote(bone.name())
                            + "; the first one is the joint");
                }
                boneNode[b] = frame;
            } else {
                boneNode[b] = boneNode(bone, ibm);
                if (boneNode[b] >= 0) {
                    missing.add(XTokens.quote(bone.name()));
                }
            }
        }
        if (!missing.isEmpty()) {
            warnings.add(m.where + ": " + (missing.size() == 1 ? "the bone " : "the bones ") + String.join(", ", missing)
                    + (missing.size() == 1 ? " names no Frame; its influences are" : " name no Frame; their influences are")
                    + " bound to a static node of the same name at the bone's bind pose");
        }
        if (shared == null) {
            shared = new SkinBuilder(null);
            builders.add(shared);
        }
        if (shared.tryAdd(boneNode, inverseBinds, false)) {
            return shared;
        }
        warnings.add(m.where + ": its offset matrices disagree with another mesh's for the same bones; it gets a"
                + " skin of its own");
        SkinBuilder own = new SkinBuilder(m.name);
        own.tryAdd(boneNode, inverseBinds, true);
        builders.add(own);
        return own;
    }

    /**
     * The static node a bone without a frame is bound to: a root at the bind pose (the inverse of the bone's offset
     * matrix), shared by the bones of that name with the same offset; −1 (influences dropped) when the offset
     * matrix cannot be inverted.
     */
    private int boneNode(XDocument.Bone bone, float[] inverseBind) {
        List<Bound> existing = boneNodes.computeIfAbsent(bone.name(), k -> new ArrayList<>());
        for (Bound b : existing) {
            budget.checkTime();
            if (same(b.inverseBind(), inverseBind)) {
                return b.node();
            }
        }
        float[] bind = new float[16];
        if (!Matrices.invert(inverseBind, 0, bind, 0)) {
            warnings.add(bone.where() + ": the bone names no Frame and its offset matrix cannot be inverted; its"
                    + " influences are dropped");
            return -1;
        }
        float[] t = new float[3];
        float[] r = new float[4];
        float[] s = new float[3];
        decompose(bind, t, r, s, bone.where() + " bind pose (inverse offset matrix)");
        nodes.add(new ImportScene.Node(bone.name(), -1, -1, t, r, s));
        existing.add(new Bound(nodes.size() - 1, inverseBind));
        return nodes.size() - 1;
    }

    static boolean same(float[] a, float[] b) {
        double largest = 1;
        double diff = 0;
        for (int i = 0; i < 16; i++) {
            largest = Math.max(largest, Math.abs(a[i]));
            diff = Math.max(diff, Math.abs(a[i] - b[i]));
        }
        return diff <= SAME_MATRIX * largest;
    }

    /** Joints (node, inverse bind) of one skin, added mesh by mesh. */
    private static final class SkinBuilder {

        private final String name;
        private final List<Integer> joints = new ArrayList<>();
        private final List<float[]> inverseBinds = new ArrayList<>();
        private final Map<Integer, Integer> byNode = new HashMap<>();
        /** For the bones of the mesh added last: their joint indices (−1 for dropped bones). */
        int[] lastMapping;

        SkinBuilder(String name) {
            this.name = name;
        }

        /**
         * Adds the bones of one mesh, reusing joints of the same node with the same inverse bind. When a node is
         * already a joint with a different inverse bind: returns false, adding nothing, or with {@code separate}
         * adds it as another joint.
         */
        boolean tryAdd(int[] boneNode, float[][] ibms, boolean separate) {
            int[] mapping = new int[boneNode.length];
            Map<Integer, Integer> added = new HashMap<>();
            int next = joints.size();
            List<Integer> newNodes = new ArrayList<>();
            List<float[]> newIbms = new ArrayList<>();
            for (int b = 0; b < boneNode.length; b++) {
                int node = boneNode[b];
                if (node < 0) {
                    mapping[b] = -1;
                    continue;
                }
                Integer j = byNode.get(node);
                if (j == null) {
                    j = added.get(node);
                }
                if (j != null) {
                    float[] known = j < joints.size() ? inverseBinds.get(j) : newIbms.get(j - joints.size());
                    if (same(known, ibms[b])) {
                        mapping[b] = j;
                        continue;
                    }
                    if (!separate) {
                        return false;
                    }
                }
                added.putIfAbsent(node, next);
                newNodes.add(node);
                newIbms.add(ibms[b]);
                mapping[b] = next++;
            }
            for (int i = 0; i < newNodes.size(); i++) {
                byNode.putIfAbsent(newNodes.get(i), joints.size());
                joints.add(newNodes.get(i));
                inverseBinds.add(newIbms.get(i));
            }
            lastMapping = mapping;
            return true;
        }

        ImportScene.Skin toSkin() {
            int[] j = new int[joints.size()];
            float[] ibm = new float[16 * joints.size()];
            for (int i = 0; i < j.length; i++) {
                j[i] = joints.get(i);
                System.arraycopy(inverseBinds.get(i), 0, ibm, 16 * i, 16);
            }
            return new ImportScene.Skin(name, j, ibm);
        }
    }

    List<ImportScene.Node> nodes() {
        return nodes;
    }

    List<ImportScene.Skin> skins() {
        return skins;
    }

    List<ImportScene.MeshInstance> meshes() {
        return meshes;
    }

    /** @throws ImportException (invalid) when the file has nothing a scene can be made of */
    void requireContent(String file) {
        if (nodes.isEmpty()) {
            throw ImportException.invalid(file + " holds no Frame and no Mesh with triangles: there is nothing to import");
        }
    }
}
