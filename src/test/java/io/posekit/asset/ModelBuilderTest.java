package io.posekit.asset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.skinning.MorphTargets;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelBuilderTest {

    private static ImportScene.Node node(String name, int parent, int source) {
        return new ImportScene.Node(name, parent, source, new float[] {source, 0, 0}, null, null);
    }

    private static Primitive skinnedTriangle(int joint) {
        return new Primitive(PrimitiveMode.TRIANGLES, List.of("POSITION", "JOINTS_0", "WEIGHTS_0"),
                new float[9], null, null, null, 4, new int[] {joint, 0, 0, 0, joint, 0, 0, 0, joint, 0, 0, 0},
                new float[] {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});
    }

    @Test
    void ordersNodesParentFirstDepthFirstAndRemapsEveryReference() {
        // file order: child listed before its parent, two roots
        List<ImportScene.Node> nodes = List.of(
                node("hand", 2, 0), // 0
                node("root", -1, 1), // 1
                node("arm", 1, 2), // 2
                node("other", -1, 3)); // 3
        ImportScene scene = new ImportScene(nodes,
                List.of(new ImportScene.Skin("skin", new int[] {2, 0}, null)),
                List.of(new ImportScene.MeshInstance("m", 3, 0, 0, List.of(skinnedTriangle(1)))),
                List.of(new ImportScene.Clip(null, List.of(new Track(0, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3,
                        new float[] {0, 2}, new float[6])))),
                List.of());
        Model model = ModelBuilder.build(AssetFormat.GLTF, scene);
        assertThat(model.rig().names()).containsExactly("root", "arm", "hand", "other");
        assertThat(model.rig().parents()).containsExactly(-1, 0, 1, -1);
        assertThat(model.rig().sourceIndex(2)).isEqualTo(0);
        assertThat(model.rig().restTranslations()[3 * 2]).isEqualTo(0f); // hand's own translation (source 0)
        assertThat(model.rig().restRotations()).containsExactly(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1);
        assertThat(model.skins().getFirst().jointNodes()).containsExactly(1, 2);
        assertThat(model.skins().getFirst().inverseBindMatrices()).hasSize(32);
        assertThat(model.skins().getFirst().inverseBindMatrices()[15]).isEqualTo(1f);
        assertThat(model.meshes().getFirst().node()).isEqualTo(3);
        assertThat(model.clips().getFirst().name()).isEqualTo("animation_0");
        assertThat(model.clips().getFirst().duration()).isEqualTo(2.0);
        assertThat(model.clips().getFirst().tracks().getFirst().node()).isEqualTo(2);
    }

    @Test
    void rejectsCyclesAndDanglingReferences() {
        List<ImportScene.Node> cycle = List.of(node("a", 1, 0), node("b", 0, 1));
        assertThatThrownBy(() -> ModelBuilder.build(AssetFormat.GLTF, new ImportScene(cycle, List.of(), List.of(), List.of(), List.of())))
                .isInstanceOf(ImportException.class)
                .hasMessage("the node hierarchy has a cycle through node 0 ('a')");
        List<ImportScene.Node> one = List.of(node("a", -1, 0));
        assertThatThrownBy(() -> ModelBuilder.build(AssetFormat.GLTF, new ImportScene(one,
                List.of(new ImportScene.Skin(null, new int[] {5}, null)), List.of(), List.of(), List.of())))
                .hasMessage("skin 0: joint 0 refers to node 5, which is not in the scene");
    }

    @Test
    void rejectsJointIndicesBeyondTheSkin() {
        List<ImportScene.Node> one = List.of(node("a", -1, 0));
        ImportScene scene = new ImportScene(one, List.of(new ImportScene.Skin(null, new int[] {0}, null)),
                List.of(new ImportScene.MeshInstance("m", 0, 0, 4, List.of(skinnedTriangle(3)))), List.of(), List.of());
        assertThatThrownBy(() -> ModelBuilder.build(AssetFormat.GLTF, scene))
                .hasMessage("mesh 4 primitive 0: joint index 3 is out of range for skin 0 with 1 joints");
    }

    @Test
    void rejectsNonFiniteVertexAttributesAndInverseBinds() {
        // found by the upload fuzzer: a bit flip in a glTF buffer made a normal NaN, and skinned normals were
        // answered as "NaN"; importers check positions, not every attribute, so the builder checks all of them
        List<ImportScene.Node> one = List.of(node("a", -1, 0));
        float[] normals = new float[9];
        normals[4] = Float.NaN;
        Primitive nanNormal = new Primitive(PrimitiveMode.TRIANGLES, List.of("POSITION", "NORMAL"), new float[9], normals,
                null, null, 0, new int[0], new float[0]);
        assertThatThrownBy(() -> ModelBuilder.build(AssetFormat.GLTF, new ImportScene(one, List.of(),
                List.of(new ImportScene.MeshInstance("m", 0, -1, 2, List.of(nanNormal))), List.of(), List.of())))
                .isInstanceOf(ImportException.class)
                .hasMessage("mesh 2 primitive 0: the normal of vertex 1 is not finite");
        float[] tangents = new float[12];
        tangents[11] = Float.NEGATIVE_INFINITY;
        Primitive infTangent = new Primitive(PrimitiveMode.TRIANGLES, List.of("POSITION", "TANGENT"), new float[9], null,
                tangents, null, 0, new int[0], new float[0]);
        assertThatThrownBy(() -> ModelBuilder.build(AssetFormat.GLTF, new ImportScene(one, List.of(),
                List.of(new ImportScene.MeshInstance("m", 0, -1, 2, List.of(infTangent))), List.of(), List.of())))
                .hasMessage("mesh 2 primitive 0: the tangent of vertex 2 is not finite");
        // an inverse bind an importer computed by inverting a joint scaled to almost nothing
        float[] ibm = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, Float.POSITIVE_INFINITY, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
            0, 0, 0, 0, 1};
        List<ImportScene.Node> two = List.of(node("a", -1, 0), node("b", 0, 1));
        assertThatThrownBy(() -> ModelBuilder.build(AssetFormat.IQM, new ImportScene(two,
                List.of(new ImportScene.Skin("s", new int[] {0, 1}, ibm)), List.of(), List.of(), List.of())))
                .hasMessage("skin 0: the inverse bind matrix of joint 1 is not finite");
    }

    @Test
    void normalisesRestRotationsAndWarns() {
        ImportScene.Node n = new ImportScene.Node("a", -1, 0, null, new float[] {0, 0, 2, 0}, null);
        Model model = ModelBuilder.build(AssetFormat.GLTF, new ImportScene(List.of(n), List.of(), List.of(), List.of(), List.of()));
        assertThat(model.rig().restRotations()).containsExactly(0, 0, 1, 0);
        assertThat(model.rig().restScales()).containsExactly(1, 1, 1);
        assertThat(model.warnings()).containsExactly("node 0 ('a') rotation is not a unit quaternion (length 2.0); normalised");
    }

    @Test
    void usesNearlyUnitRotationsAsStoredAndNormalisesBrokenKeys() {
        ImportScene.Node n = new ImportScene.Node("a", -1, 0, null, new float[] {0, 0, 0.707f, 0.707f}, null);
        float[] keys = {0, 0, 0.707f, 0.707f, 0, 0, 0, 3};
        Track rotation = new Track(0, TrackProperty.ROTATION, Interpolation.LINEAR, 4, new float[] {0, 1}, keys);
        Model model = ModelBuilder.build(AssetFormat.GLTF, new ImportScene(List.of(n), List.of(), List.of(),
                List.of(new ImportScene.Clip("spin", List.of(rotation))), List.of()));
        // length 0.99985: within the unit tolerance, kept bit for bit (as the spec's slerp and three.js use it)
        assertThat(model.rig().restRotations()).containsExactly(0, 0, 0.707f, 0.707f);
        float[] values = model.clips().getFirst().tracks().getFirst().values();
        assertThat(values).containsExactly(0, 0, 0.707f, 0.707f, 0, 0, 0, 1);
        assertThat(keys[7]).as("the decoded array, possibly shared, is not modified").isEqualTo(3f);
        assertThat(model.warnings()).containsExactly("clip 'spin': 1 rotation keys of node 0 are not unit quaternions; normalised");
    }

    @Test
    void keepsTheLastOfTwoTracksOnTheSameTarget() {
        List<ImportScene.Node> one = List.of(node("a", -1, 0));
        Track first = new Track(0, TrackProperty.SCALE, Interpolation.STEP, 3, new float[] {0}, new float[] {1, 1, 1});
        Track second = new Track(0, TrackProperty.SCALE, Interpolation.STEP, 3, new float[] {0}, new float[] {2, 2, 2});
        Model model = ModelBuilder.build(AssetFormat.GLTF, new ImportScene(one, List.of(), List.of(),
                List.of(new ImportScene.Clip("c", List.of(first, second))), List.of()));
        assertThat(model.clips().getFirst().tracks()).hasSize(1);
        assertThat(model.clips().getFirst().tracks().getFirst().values()).containsExactly(2, 2, 2);
        assertThat(model.warnings()).containsExactly("clip 'c': node 0 has two scale tracks; the last one is used");
    }

    private static Primitive morphedPoint(int targets) {
        return new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), new float[3], null, null, null, 0, new int[0],
                new float[0]).withMorphTargets(new MorphTargets(1, new float[targets][], null));
    }

    private static ImportScene morphScene(List<Primitive> primitives, float[] weights, Track... tracks) {
        return new ImportScene(List.of(node("a", -1, 0), node("b", 0, 1)), List.of(),
                List.of(new ImportScene.MeshInstance("m", 1, -1, 4, primitives, weights)),
                List.of(new ImportScene.Clip("c", List.of(tracks))), List.of());
    }

    @Test
    void checksMorphTargetCountsDefaultWeightsAndWeightsTracks() {
        Track weights = new Track(1, TrackProperty.WEIGHTS, Interpolation.LINEAR, 2, new float[] {0}, new float[2]);
        Model model = ModelBuilder.build(AssetFormat.GLTF, morphScene(List.of(morphedPoint(2), morphedPoint(2)),
                new float[] {0.5f, 1}, weights));
        assertThat(model.meshes().getFirst().morphWeights()).containsExactly(0.5f, 1);
        assertThat(model.meshes().getFirst().morphTargetCount()).isEqualTo(2);
        assertThat(ModelBuilder.build(AssetFormat.GLTF, morphScene(List.of(morphedPoint(2)), null)).meshes().getFirst()
                .morphWeights()).containsExactly(0, 0);
        assertThatThrownBy(() -> ModelBuilder.build(AssetFormat.GLTF, morphScene(List.of(morphedPoint(2),
                morphedPoint(1)), null))).isInstanceOf(ImportException.class)
                .hasMessage("mesh 4 primitive 1 has 1 morph targets but primitive 0 has 2");
        assertThatThrownBy(() -> ModelBuilder.build(AssetFormat.GLTF, morphScene(List.of(morphedPoint(2)),
                new float[] {1}))).hasMessage("mesh 4 has 1 default morph weights but 2 morph targets");
        assertThatThrownBy(() -> ModelBuilder.build(AssetFormat.GLTF, morphScene(List.of(morphedPoint(2)),
                new float[] {1, Float.NaN}))).hasMessage("mesh 4: default morph weight 1 is not finite");
        Track three = new Track(1, TrackProperty.WEIGHTS, Interpolation.STEP, 3, new float[] {0}, new float[3]);
        assertThatThrownBy(() -> ModelBuilder.build(AssetFormat.GLTF, morphScene(List.of(morphedPoint(2)), null,
                three))).hasMessage("clip 'c': the weights track of node 1 ('b') has 3 weights per key but mesh 4 on "
                        + "that node has 2 morph targets");
    }
}
