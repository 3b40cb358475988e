package io.posekit.asset.md5;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.NamedMaterials;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportScene;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the import nodes, skin and mesh instances of an MD5 model.
 *
 * <p>Node 0 is a synthetic root (named after the file, {@code sourceIndex} −1) that rotates −90° about X: MD5 is
 * Z-up, and the root turns it into the Y-up scene space assimp gives MD5 models ({@code <MD5_Root>}'s
 * transform), which the conformance data is expressed in. Its model space is therefore
 * {@code Rx(−90°) · (MD5 model space)}. Import node {@code j + 1} is joint {@code j}, named as in the file, its
 * parent's node (or the root) as parent, and as rest transform its bind pose relative to its parent: MD5 stores
 * joints in model space, so {@code t = R(q_parent)⁻¹ · (p − p_parent)} and {@code r = q_parent⁻¹ · q} (in double).
 *
 * <p>One skin over all joints in file order; inverse bind matrix {@code j} is the inverse of joint {@code j}'s MD5
 * model-space bind matrix {@code T(p)·R(q)}, so skinning matrices map the bind-shape positions (MD5 model space)
 * to posekit's model space.
 *
 * <p>One mesh instance per {@code mesh} block (named after its shader, on the root node), one triangle primitive
 * of its vertices in file order. Bind-shape positions are {@code Σ bias · (p_joint + R(q_joint) · position)} over
 * the vertex's weights; every weight becomes an influence (k = 4·⌈max weights per vertex / 4⌉ slots) with its bias
 * as stored. Triangles {@code (a, b, c)} are stored as {@code (a, c, b)}: MD5 front faces are clockwise, glTF's
 * counter-clockwise (assimp swaps them too). MD5 has no normals.
 */
final class Md5SceneBuilder {

    /** Rx(−90°): MD5 Z-up to the Y-up scene space. */
    static final float[] ROOT_ROTATION = {(float) -Math.sqrt(0.5), 0, 0, (float) Math.sqrt(0.5)};

    private final List<ImportScene.Node> nodes = new ArrayList<>();
    private final List<ImportScene.Skin> skins = new ArrayList<>();
    private final List<ImportScene.MeshInstance> meshes = new ArrayList<>();
    private final Map<String, Integer> nodeByName = new HashMap<>();

    private Md5SceneBuilder(String rootName) {
        nodes.add(new ImportScene.Node(rootName, -1, -1, new float[] {0, 0, 0}, ROOT_ROTATION.clone(),
                new float[] {1, 1, 1}));
    }

    /** The scene of an {@code .md5mesh}: joints, skin and meshes. */
    static Md5SceneBuilder ofMesh(Md5MeshFile file, String fileName, String rootName, NamedMaterials materials,
            DecodeBudget budget, ImportWarnings warnings) {
        Md5SceneBuilder scene = new Md5SceneBuilder(rootName);
        List<Md5MeshFile.Joint> joints = file.joints();
        int n = joints.size();
        budget.charge(n, 16 * 4 + 64, "joints");
        float[] ibm = new float[16 * n];
        for (int j = 0; j < n; j++) {
            Md5MeshFile.Joint joint = joints.get(j);
            double[] t;
            double[] r;
            if (joint.parent() < 0) {
                t = joint.position();
                r = joint.orientation();
            } else {
                Md5MeshFile.Joint parent = joints.get(joint.parent());
                double[] inverse = Md5Math.conjugate(parent.orientation());
                t = Md5Math.rotate(inverse, joint.position()[0] - parent.position()[0],
                        joint.position()[1] - parent.position()[1], joint.position()[2] - parent.position()[2]);
                r = Md5Math.normalize(Md5Math.multiply(inverse, joint.orientation()));
            }
            scene.addJoint(joint.name(), joint.parent(), j, t, r, warnings);
            Md5Math.inverseRigid(joint.orientation(), joint.position(), ibm, 16 * j);
        }
        if (n > 0) {
            int[] skinJoints = new int[n];
            for (int j = 0; j < n; j++) {
                skinJoints[j] = j + 1;
            }
            scene.skins.add(new ImportScene.Skin(null, skinJoints, ibm));
        }
        for (int m = 0; m < file.meshes().size(); m++) {
            scene.meshes.add(mesh(file, fileName, m, n > 0, materials, budget, warnings));
        }
        return scene;
    }

    /** The rig of an {@code .md5anim} uploaded without its mesh: its hierarchy at the baseframe, no meshes. */
    static Md5SceneBuilder ofAnim(Md5AnimFile anim, String rootName, DecodeBudget budget, ImportWarnings warnings) {
        Md5SceneBuilder scene = new Md5SceneBuilder(rootName);
        budget.charge(anim.joints().size(), 64, "joints");
        for (int j = 0; j < anim.joints().size(); j++) {
            double[] t = {anim.base(j, 0), anim.base(j, 1), anim.base(j, 2)};
            double[] r = Md5Math.orientation(anim.base(j, 3), anim.base(j, 4), anim.base(j, 5));
            scene.addJoint(anim.joints().get(j).name(), anim.joints().get(j).parent(), j, t, r, warnings);
        }
        warnings.add(anim.fileName() + " was uploaded without its .md5mesh: the rig is its hierarchy at the baseframe,"
                + " without meshes or skins");
        return scene;
    }

    private void addJoint(String name, int parent, int index, double[] t, double[] r, ImportWarnings warnings) {
        int node = nodes.size();
        nodes.add(new ImportScene.Node(name, parent < 0 ? 0 : parent + 1, index, Md5Math.toFloats(t),
                Md5Math.toFloats(r), new float[] {1, 1, 1}));
        if (nodeByName.putIfAbsent(name, node) != null) {
            warnings.add("joint name '" + Md5Lexer.shorten(name) + "' is used twice; animations drive the first");
        }
    }

    private static ImportScene.MeshInstance mesh(Md5MeshFile file, String fileName, int index, boolean skinned,
            NamedMaterials materials, DecodeBudget budget, ImportWarnings warnings) {
        Md5MeshFile.Mesh mesh = file.meshes().get(index);
        String where = fileName + " mesh " + index;
        int n = mesh.vertexCount();
        int maxWeights = 0;
        for (int v = 0; v < n; v++) {
            maxWeights = Math.max(maxWeights, mesh.weightCount()[v]);
        }
        int k = skinned ? 4 * ((maxWeights + 3) / 4) : 0;
        if ((long) n * Math.max(k, 3) > Integer.MAX_VALUE - 16) {
            throw ImportException.tooLarge(where + ": " + n + " vertices × " + k + " influence slots do not fit in one array");
        }
        budget.charge(3L * n + 2L * n * k, 4, where + " vertices");
        float[] positions = new float[3 * n];
        int[] joints = new int[n * k];
        float[] weights = new float[n * k];
        int unweighted = 0;
        List<Md5MeshFile.Joint> skeleton = file.joints();
        for (int v = 0; v < n; v++) {
            budget.checkTime();
            double x = 0;
            double y = 0;
            double z = 0;
            int first = mesh.firstWeight()[v];
            int count = mesh.weightCount()[v];
            if (count == 0) {
                unweighted++;
            }
            for (int i = 0; i < count; i++) {
                int w = first + i;
                Md5MeshFile.Joint joint = skeleton.get(mesh.weightJoint()[w]);
                double bias = mesh.weightBias()[w];
                double[] p = Md5Math.rotate(joint.orientation(), mesh.weightPosition()[3 * w],
                        mesh.weightPosition()[3 * w + 1], mesh.weightPosition()[3 * w + 2]);
                x += bias * (joint.position()[0] + p[0]);
                y += bias * (joint.position()[1] + p[1]);
                z += bias * (joint.position()[2] + p[2]);
                if (k > 0) {
                    joints[v * k + i] = mesh.weightJoint()[w];
                    weights[v * k + i] = mesh.weightBias()[w];
                }
            }
            positions[3 * v] = (float) x;
            positions[3 * v + 1] = (float) y;
            positions[3 * v + 2] = (float) z;
            if (!Float.isFinite(positions[3 * v]) || !Float.isFinite(positions[3 * v + 1])
                    || !Float.isFinite(positions[3 * v + 2])) {
                throw ImportException.invalid(where + " vert " + v + ": its bind position overflows");
            }
        }
        if (unweighted > 0) {
            warnings.add(where + ": " + unweighted + (unweighted == 1 ? " vertex has" : " vertices have")
                    + " no weights; placed at the origin");
        }
        int[] triangles = mesh.triangles();
        budget.charge(triangles.length, 4, where + " indices");
        int[] indices = new int[triangles.length];
        for (int t = 0; t + 2 < triangles.length; t += 3) {
            indices[t] = triangles[t];
            indices[t + 1] = triangles[t + 2];
            indices[t + 2] = triangles[t + 1];
        }
        List<String> attributes = new ArrayList<>(List.of("POSITION", "TEXCOORD_0"));
        for (int s = 0; s < k / 4; s++) {
            attributes.add("JOINTS_" + s);
            attributes.add("WEIGHTS_" + s);
        }
        Primitive primitive;
        try {
            primitive = new Primitive(PrimitiveMode.TRIANGLES, attributes, positions, null, null, indices, k, joints,
                    weights, mesh.texcoords(), materials.forName(mesh.shader(), "shader"));
        } catch (IllegalArgumentException e) {
            throw ImportException.invalid(where + ": " + e.getMessage());
        }
        return new ImportScene.MeshInstance(mesh.shader(), 0, k > 0 ? 0 : -1, index, List.of(primitive));
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

    /** The import node of the joint named {@code name} (the first such joint), or {@code null}. */
    Integer nodeOf(String name) {
        return nodeByName.get(name);
    }

    /** The import node's parent node. */
    int parentOf(int node) {
        return nodes.get(node).parent();
    }
}
