package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxSceneFixture.assertInvalid;
import static io.posekit.asset.fbx.FbxSceneFixture.assertMatrix;
import static io.posekit.asset.fbx.FbxSceneFixture.leaf;
import static io.posekit.asset.fbx.FbxSceneFixture.node;
import static io.posekit.asset.fbx.FbxSceneFixture.restWorld;
import static io.posekit.asset.fbx.FbxSceneFixture.rows;
import static io.posekit.asset.fbx.FbxSceneFixture.toDouble;
import static io.posekit.asset.fbx.FbxSceneFixture.vec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.skinning.Primitive;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Skins: clusters → joints, inverse binds from {@code Transform} (and the fallbacks), every influence (6 per control
 * point kept), weights as stored with their sums reported, unweighted control points, bind-pose checks and bad data.
 */
class FbxSkinTest {

    /** A triangle's control points and a fourth point. */
    private static final double[] POINTS = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
    private static final int BONES = 6;
    /** The mesh node's world: translation (0, 0, 5), uniform scale 2. */
    private static final double[] MESH_WORLD = rows(2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 5, 0, 0, 0, 1);

    /** Bone i's world: translation (i, 0, 0). */
    private static double[] boneWorld(int i) {
        return FbxTransform.translation(new double[] {i, 0, 0});
    }

    /** An FBX array of a column-major matrix. */
    private static double[] fbx(double[] columnMajor) {
        return columnMajor.clone();
    }

    /** A cluster record with the given children. */
    private static FbxNode[] cluster(int[] indexes, double[] weights, double[] transform, double[] link) {
        List<FbxNode> children = new ArrayList<>();
        children.add(leaf("Version", 100));
        if (indexes != null) {
            children.add(leaf("Indexes", (Object) indexes));
            children.add(leaf("Weights", (Object) weights));
        }
        if (transform != null) {
            children.add(leaf("Transform", (Object) fbx(transform)));
        }
        if (link != null) {
            children.add(leaf("TransformLink", (Object) fbx(link)));
        }
        return children.toArray(FbxNode[]::new);
    }

    /**
     * A mesh (Model 1 under the root, world {@link #MESH_WORLD}, geometry 10: two triangles over 4 control points) and
     * six bones (Models 11.., chained under a root Null 2, bone i at world (i, 0, 0)) bound by skin 100 with clusters
     * 200.. whose Transform is the Blender/SDK bone-space value {@code TransformLink⁻¹ · meshWorld}. Control point 0 is
     * weighted by all six bones (1/6 each), the others by bone 0 alone (weight 1) unless {@code weights} says otherwise.
     */
    private static FbxSceneFixture scene(boolean weightPoint3) {
        return scene(weightPoint3, 0);
    }

    /** {@link #scene(boolean)} with the mesh node moved {@code meshX} along X after the bind. */
    private static FbxSceneFixture scene(boolean weightPoint3, double meshX) {
        FbxSceneFixture f = new FbxSceneFixture()
                .geometry(10, "body", POINTS, new int[] {0, 1, ~2, 1, 3, ~2})
                .model(1, "mesh", "Mesh", vec("Lcl Translation", meshX, 0, 5), vec("Lcl Scaling", 2, 2, 2)).oo(1, 0)
                .oo(10, 1)
                .model(2, "armature", "Null").oo(2, 0)
                .object("Deformer", 100, "Armature", "Skin").oo(100, 10);
        for (int i = 0; i < BONES; i++) {
            f.model(11 + i, "bone" + i, 2, vec("Lcl Translation", i, 0, 0));
            int[] indexes = i == 0 ? (weightPoint3 ? new int[] {0, 1, 2, 3} : new int[] {0, 1, 2}) : new int[] {0};
            double[] weights = i == 0 ? (weightPoint3 ? new double[] {1 / 6.0, 1, 1, 1} : new double[] {1 / 6.0, 1, 1})
                    : new double[] {1 / 6.0};
            double[] link = boneWorld(i);
            double[] transform = FbxTransform.times(FbxTransform.invertAffine(link), MESH_WORLD);
            f.object("Deformer", 200 + i, "cluster" + i, "Cluster", cluster(indexes, weights, transform, link))
                    .oo(200 + i, 100).oo(11 + i, 200 + i);
        }
        return f;
    }

    @Test
    void clustersGiveTheJointsTheirInverseBindsAndEveryInfluence() {
        ImportScene s = scene(true).importScene();
        assertThat(s.skins()).hasSize(1);
        ImportScene.Skin skin = s.skins().getFirst();
        assertThat(skin.name()).isEqualTo("Armature");
        int[] expectedJoints = new int[BONES];
        for (int i = 0; i < BONES; i++) {
            expectedJoints[i] = node(s, "bone" + i);
        }
        assertThat(skin.joints()).containsExactly(expectedJoints);
        // inverse bind = the stored Transform: skinning = world(bone) · Transform = the mesh's world at rest
        for (int i = 0; i < BONES; i++) {
            assertMatrix(toDouble(skin.inverseBindMatrices(), 16 * i),
                    FbxTransform.times(FbxTransform.invertAffine(boneWorld(i)), MESH_WORLD), 1e-6);
            assertMatrix(FbxTransform.times(restWorld(s, node(s, "bone" + i)), toDouble(skin.inverseBindMatrices(), 16 * i)),
                    MESH_WORLD, 1e-5);
        }
        ImportScene.MeshInstance mesh = s.meshes().getFirst();
        assertThat(mesh.skin()).isEqualTo(0);
        assertThat(mesh.node()).isEqualTo(node(s, "mesh"));
        Primitive p = mesh.primitives().getFirst();
        // six influences on control point 0: two sets of four slots
        assertThat(p.influencesPerVertex()).isEqualTo(8);
        assertThat(p.attributes()).containsExactly("POSITION", "JOINTS_0", "WEIGHTS_0", "JOINTS_1", "WEIGHTS_1");
        int v0 = 0;
        assertThat(java.util.Arrays.copyOfRange(p.joints(), 8 * v0, 8 * v0 + 8)).containsExactly(0, 1, 2, 3, 4, 5, 0, 0);
        assertThat(java.util.Arrays.copyOfRange(p.weights(), 8 * v0, 8 * v0 + 8)).containsExactly(
                new float[] {1 / 6f, 1 / 6f, 1 / 6f, 1 / 6f, 1 / 6f, 1 / 6f, 0, 0}, within(1e-7f));
        // every other vertex: bone 0 alone
        for (int v = 1; v < p.vertexCount(); v++) {
            assertThat(p.joints()[8 * v]).isEqualTo(0);
            assertThat(p.weights()[8 * v]).isEqualTo(1);
        }
        assertThat(s.warnings()).noneMatch(w -> w.contains("skin"));
        // and the builder accepts it
        Model model = scene(true).build();
        assertThat(model.skins().getFirst().jointCount()).isEqualTo(BONES);
    }

    /** The header record of a file whose {@code SceneInfo} names {@code application} as the original application. */
    private static FbxNode writtenBy(String application) {
        return new FbxNode("FBXHeaderExtension", List.of(), List.of(new FbxNode("SceneInfo",
                List.of("GlobalInfo\0\1SceneInfo", "UserData"), List.of(new FbxNode("Properties70", List.of(),
                        List.of(leaf("P", "Original|ApplicationName", "KString", "", "", application)))))));
    }

    /**
     * Maya shows a skinned mesh whose node moved after the bind moved by that motion (ufbx's tests check Maya's OBJ so,
     * {@code maya_transformed_skin}): the mesh node here sits 3 along X from where the clusters bound it, so every
     * skinning matrix at rest is T(3,0,0) · the mesh's bind world; a file from another tool keeps glTF's rule (the mesh
     * node plays no part).
     */
    @Test
    void mayaSkinsCarryTheirMeshNodesMotionSinceTheBind() {
        double[] moved = FbxTransform.times(FbxTransform.translation(new double[] {3, 0, 0}), MESH_WORLD);
        Model maya = scene(true, 3).top(writtenBy("Maya")).build();
        assertThat(maya.skins().getFirst().carrier()).isEqualTo(maya.meshes().getFirst().node());
        Model max = scene(true, 3).top(writtenBy("3ds Max")).build();
        assertThat(max.skins().getFirst().carrier()).isEqualTo(-1);
        for (int i = 0; i < BONES; i++) {
            assertMatrix(toDouble(skinning(maya), 16 * i), moved, 1e-5);
            assertMatrix(toDouble(skinning(max), 16 * i), MESH_WORLD, 1e-5);
        }
        // not moved since the bind: the same as without carrying
        Model still = scene(true, 0).top(writtenBy("Maya")).build();
        assertMatrix(toDouble(skinning(still), 0), MESH_WORLD, 1e-5);
    }

    /** The rest pose's skinning matrices of the model's first skin. */
    private static float[] skinning(Model model) {
        return io.posekit.skinning.MeshPoser.skinningMatrices(model.skins().getFirst(),
                io.posekit.sampling.Pose.evaluate(model.rig(), null, 0).modelMatrices());
    }

    @Test
    void influencesReachEveryVertexSplitFromAControlPoint() {
        // normals split control points 1 and 2 between the two triangles
        double[] n = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, -1, 0, 0, -1, 0, 0, -1};
        ImportScene split = splitScene(n).importScene();
        Primitive p = split.meshes().getFirst().primitives().getFirst();
        assertThat(p.vertexCount()).isEqualTo(6);
        // vertices 3 and 5 are control points 1 and 2 again, with their weights 0.5 and 0.75
        assertThat(p.weights()[4 * 1]).isEqualTo(0.5f);
        assertThat(p.weights()[4 * 3]).isEqualTo(0.5f);
        assertThat(p.weights()[4 * 2]).isEqualTo(0.75f);
        assertThat(p.weights()[4 * 5]).isEqualTo(0.75f);
    }

    private static FbxSceneFixture splitScene(double[] normals) {
        FbxSceneFixture f = new FbxSceneFixture()
                .geometry(10, "body", POINTS, new int[] {0, 1, ~2, 1, 3, ~2}, FbxSceneFixture.layer("LayerElementNormal",
                        "ByPolygonVertex", "Direct", "Normals", normals, null))
                .model(1, "mesh", "Mesh").oo(1, 0).oo(10, 1)
                .object("Deformer", 100, "Armature", "Skin").oo(100, 10)
                .model(11, "bone0", 0);
        return f.object("Deformer", 200, "cluster0", "Cluster", cluster(new int[] {0, 1, 2, 3}, new double[] {1, 0.5, 0.75, 1},
                FbxTransform.identity(), FbxTransform.identity())).oo(200, 100).oo(11, 200);
    }

    @Test
    void aSkinnedPrimitiveCarriesItsVertexColours() {
        FbxSceneFixture f = new FbxSceneFixture()
                .geometry(10, "body", POINTS, new int[] {0, 1, ~2}, FbxVertexColorTest.colors("AllSame", "Direct",
                        new double[] {0.5, 0.25, 0.125, 1}, null))
                .model(1, "mesh", "Mesh").oo(1, 0).oo(10, 1)
                .object("Deformer", 100, "Armature", "Skin").oo(100, 10)
                .model(11, "bone0", 0)
                .object("Deformer", 200, "cluster0", "Cluster", cluster(new int[] {0, 1, 2}, new double[] {1, 1, 1},
                        FbxTransform.identity(), FbxTransform.identity())).oo(200, 100).oo(11, 200);
        Primitive p = f.importScene().meshes().getFirst().primitives().getFirst();
        assertThat(p.influencesPerVertex()).isEqualTo(4);
        assertThat(p.colors()).containsExactly(0.5f, 0.25f, 0.125f, 1, 0.5f, 0.25f, 0.125f, 1, 0.5f, 0.25f, 0.125f, 1);
    }

    @Test
    void weightsThatDoNotSumToOneAreKeptAndReported() {
        FbxSceneFixture f = new FbxSceneFixture()
                .geometry(10, "body", POINTS, new int[] {0, 1, ~2})
                .model(1, "mesh", "Mesh").oo(1, 0).oo(10, 1)
                .object("Deformer", 100, "Armature", "Skin").oo(100, 10)
                .model(11, "a", 0).model(12, "b", 0)
                .object("Deformer", 200, "ca", "Cluster", cluster(new int[] {0, 1, 2}, new double[] {0.5, 0.25, 1},
                        FbxTransform.identity(), FbxTransform.identity())).oo(200, 100).oo(11, 200)
                .object("Deformer", 201, "cb", "Cluster", cluster(new int[] {0, 1}, new double[] {0.25, 0.25},
                        FbxTransform.identity(), FbxTransform.identity())).oo(201, 100).oo(12, 201);
        ImportScene s = f.importScene();
        Primitive p = s.meshes().getFirst().primitives().getFirst();
        assertThat(p.influencesPerVertex()).isEqualTo(4);
        assertThat(java.util.Arrays.copyOfRange(p.weights(), 0, 4)).containsExactly(0.5f, 0.25f, 0, 0);
        assertThat(s.warnings()).contains("skin 'Armature' of Geometry 'body': the weights of 2 control point(s) do not sum"
                + " to 1 (from 0.5 to 0.75); they are normalised when skinning (link mode Normalize)");
    }

    @Test
    void unweightedControlPointsFollowTheMeshNode() {
        ImportScene s = scene(false).importScene();
        ImportScene.Skin skin = s.skins().getFirst();
        // one extra joint: the mesh's own node, with the identity inverse bind
        assertThat(skin.joints()).hasSize(BONES + 1);
        assertThat(skin.joints()[BONES]).isEqualTo(node(s, "mesh"));
        assertMatrix(toDouble(skin.inverseBindMatrices(), 16 * BONES), FbxTransform.identity(), 0);
        Primitive p = s.meshes().getFirst().primitives().getFirst();
        int v3 = 3;
        assertThat(p.joints()[8 * v3]).isEqualTo(BONES);
        assertThat(p.weights()[8 * v3]).isEqualTo(1);
        assertThat(s.warnings()).contains("skin 'Armature' of Geometry 'body': 1 control point(s) have no cluster weights;"
                + " they follow the mesh's node rigidly (bound to it as an extra joint)");
    }

    @Test
    void aMissingTransformIsDerivedFromTheLinkAndTheMeshBindPose() {
        double[] meshBind = FbxTransform.translation(new double[] {0, 0, 7});
        FbxSceneFixture f = new FbxSceneFixture()
                .geometry(10, "body", POINTS, new int[] {0, 1, ~2})
                .model(1, "mesh", "Mesh").oo(1, 0).oo(10, 1)
                .object("Deformer", 100, "Armature", "Skin").oo(100, 10)
                .model(11, "a", 0, vec("Lcl Translation", 3, 0, 0))
                .object("Deformer", 200, "ca", "Cluster", cluster(new int[] {0, 1, 2}, new double[] {1, 1, 1}, null,
                        boneWorld(3))).oo(200, 100).oo(11, 200)
                .object("Pose", 300, "bind", "BindPose", leaf("Type", "BindPose"),
                        FbxSceneFixture.node("PoseNode", List.of(), leaf("Node", 1L), leaf("Matrix", (Object) meshBind)));
        ImportScene s = f.importScene();
        assertMatrix(toDouble(s.skins().getFirst().inverseBindMatrices(), 0),
                FbxTransform.times(FbxTransform.invertAffine(boneWorld(3)), meshBind), 1e-6);
        assertThat(s.warnings()).contains("skin 'Armature' of Geometry 'body' cluster 'ca' has no Transform; its inverse"
                + " bind is TransformLink⁻¹ · the mesh's BindPose matrix");
    }

    @Test
    void aMissingLinkComesFromTheBonesBindPose() {
        double[] boneBind = FbxTransform.translation(new double[] {4, 0, 0});
        FbxSceneFixture f = new FbxSceneFixture()
                .geometry(10, "body", POINTS, new int[] {0, 1, ~2})
                .model(1, "mesh", "Mesh").oo(1, 0).oo(10, 1)
                .object("Deformer", 100, "Armature", "Skin").oo(100, 10)
                .model(11, "a", 0, vec("Lcl Translation", 3, 0, 0))
                .object("Deformer", 200, "ca", "Cluster", cluster(new int[] {0, 1, 2}, new double[] {1, 1, 1}, null, null))
                .oo(200, 100).oo(11, 200)
                .object("Pose", 300, "bind", "BindPose",
                        FbxSceneFixture.node("PoseNode", List.of(), leaf("Node", 11L), leaf("Matrix", (Object) boneBind)));
        ImportScene s = f.importScene();
        // TransformLink⁻¹ from the bone's bind pose, the mesh's rest world (identity) as its bind
        assertMatrix(toDouble(s.skins().getFirst().inverseBindMatrices(), 0),
                FbxTransform.translation(new double[] {-4, 0, 0}), 1e-6);
    }

    @Test
    void bindPosesThatDisagreeWithTheClustersAreReported() {
        FbxSceneFixture f = new FbxSceneFixture()
                .geometry(10, "body", POINTS, new int[] {0, 1, ~2})
                .model(1, "mesh", "Mesh").oo(1, 0).oo(10, 1)
                .object("Deformer", 100, "Armature", "Skin").oo(100, 10)
                .model(11, "a", 0)
                // the mesh was bound at (0, 0, 1): TransformLink · Transform ≠ its rest world
                .object("Deformer", 200, "ca", "Cluster", cluster(new int[] {0, 1, 2}, new double[] {1, 1, 1},
                        FbxTransform.translation(new double[] {0, 0, 1}), FbxTransform.identity()))
                .oo(200, 100).oo(11, 200)
                .object("Pose", 300, "bind", "BindPose", FbxSceneFixture.node("PoseNode", List.of(), leaf("Node", 11L),
                        leaf("Matrix", (Object) FbxTransform.translation(new double[] {0, 2, 0}))));
        ImportScene s = f.importScene();
        assertThat(s.warnings()).contains(
                "skin 'Armature' of Geometry 'body': the TransformLink of 1 cluster(s) differs from the bone's BindPose"
                        + " matrix; TransformLink is used",
                "skin 'Armature' of Geometry 'body': the mesh's bind matrix (TransformLink · Transform, cluster 'ca')"
                        + " differs from the rest transform of Model 'mesh' (relative 1.0); the clusters' bind is used,"
                        + " as FBX defines it");
        // the inverse bind is still the stored Transform
        assertMatrix(toDouble(s.skins().getFirst().inverseBindMatrices(), 0),
                FbxTransform.translation(new double[] {0, 0, 1}), 0);
    }

    @Test
    void clustersWithoutABoneAreDropped() {
        FbxSceneFixture f = new FbxSceneFixture()
                .geometry(10, "body", POINTS, new int[] {0, 1, ~2})
                .model(1, "mesh", "Mesh").oo(1, 0).oo(10, 1)
                .object("Deformer", 100, "Armature", "Skin").oo(100, 10)
                .model(11, "a", 0)
                .object("Deformer", 200, "ca", "Cluster", cluster(new int[] {0, 1, 2}, new double[] {1, 1, 1},
                        FbxTransform.identity(), FbxTransform.identity())).oo(200, 100).oo(11, 200)
                .object("Deformer", 201, "orphan", "Cluster", cluster(new int[] {0}, new double[] {1},
                        FbxTransform.identity(), FbxTransform.identity())).oo(201, 100);
        ImportScene s = f.importScene();
        assertThat(s.skins().getFirst().joints()).containsExactly(node(s, "a"));
        assertThat(s.warnings()).contains("skin 'Armature' of Geometry 'body': 1 cluster(s) are linked to no Model of the"
                + " scene; their weights are dropped");
    }

    private static FbxSceneFixture oneCluster(FbxNode... clusterChildren) {
        return new FbxSceneFixture()
                .geometry(10, "body", POINTS, new int[] {0, 1, ~2})
                .model(1, "mesh", "Mesh").oo(1, 0).oo(10, 1)
                .object("Deformer", 100, "Armature", "Skin").oo(100, 10)
                .model(11, "a", 0)
                .object("Deformer", 200, "ca", "Cluster", clusterChildren).oo(200, 100).oo(11, 200);
    }

    @Test
    void badClusterDataIsRejected() {
        assertInvalid(() -> oneCluster(cluster(new int[] {0, 4}, new double[] {1, 1}, FbxTransform.identity(),
                FbxTransform.identity())).importScene(), "skin 'Armature' of Geometry 'body' cluster 'ca': Indexes[1] = 4"
                + " is out of range for the 4 control points of Geometry 'body'");
        assertInvalid(() -> oneCluster(cluster(new int[] {0, -1}, new double[] {1, 1}, FbxTransform.identity(),
                FbxTransform.identity())).importScene(), "skin 'Armature' of Geometry 'body' cluster 'ca': Indexes[1] = -1"
                + " is out of range for the 4 control points of Geometry 'body'");
        assertInvalid(() -> oneCluster(cluster(new int[] {0, 1}, new double[] {1}, FbxTransform.identity(),
                FbxTransform.identity())).importScene(),
                "skin 'Armature' of Geometry 'body' cluster 'ca': Indexes has 2 entries but Weights 1");
        assertInvalid(() -> oneCluster(leaf("Indexes", (Object) new int[] {0}), leaf("Weights", (Object) new double[] {1}),
                leaf("Transform", (Object) new double[15])).importScene(),
                "skin 'Armature' of Geometry 'body' cluster 'ca': Transform has 15 numbers, not 16");
        assertInvalid(() -> oneCluster(leaf("Indexes", (Object) new int[] {0})).importScene(),
                "skin 'Armature' of Geometry 'body' cluster 'ca' has Indexes but no Weights");
        assertInvalid(() -> oneCluster(cluster(new int[] {0}, new double[] {Double.NaN}, FbxTransform.identity(),
                FbxTransform.identity())).importScene(), "skin 'Armature' of Geometry 'body' cluster 'ca': Weights[0] is"
                + " not finite");
    }
}
