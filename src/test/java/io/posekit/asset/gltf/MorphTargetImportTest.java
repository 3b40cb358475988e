package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.GltfBuilder.FLOAT;
import static io.posekit.asset.gltf.GltfBuilder.UNSIGNED_SHORT;
import static io.posekit.asset.gltf.GltfBuilder.attributes;
import static io.posekit.asset.gltf.GltfBuilder.le;
import static io.posekit.asset.gltf.GltfTestSupport.assertInvalid;
import static io.posekit.asset.gltf.GltfTestSupport.importGlb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.asset.ModelBuilder;
import io.posekit.clip.Clip;
import io.posekit.sampling.MorphWeights;
import io.posekit.sampling.Pose;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.MeshPoser;
import io.posekit.skinning.PosedPrimitive;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.VertexAttribute;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * glTF morph targets end to end (import, model, weights sampling, posing) with known answers: targets with
 * sparse and quantized accessors, mesh and node default weights, weights channels of every interpolation, morph
 * before skinning, and every rejection.
 */
class MorphTargetImportTest {

    private static final Set<VertexAttribute> POSITIONS_AND_NORMALS = EnumSet.of(VertexAttribute.POSITION,
            VertexAttribute.NORMAL);

    /**
     * A triangle (0,0,0), (1,0,0), (0,1,0) with normals +Z on node 0 ({@code tri}); target 0 = (0,0,2) for every
     * vertex with NORMAL deltas (1,0,0), target 1 = (4,0,0) on vertex 1 only.
     */
    private static GltfBuilder triangle() {
        GltfBuilder b = new GltfBuilder();
        int pos = b.addFloatAccessor(new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
        int nrm = b.addFloatAccessor(new float[] {0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3");
        int d0 = b.addFloatAccessor(new float[] {0, 0, 2, 0, 0, 2, 0, 0, 2}, "VEC3");
        int n0 = b.addFloatAccessor(new float[] {1, 0, 0, 1, 0, 0, 1, 0, 0}, "VEC3");
        int d1 = b.addFloatAccessor(new float[] {0, 0, 0, 4, 0, 0, 0, 0, 0}, "VEC3");
        int mesh = b.mesh("tri").primitive(attributes("POSITION", pos, "NORMAL", nrm))
                .morphTarget(0, attributes("POSITION", d0, "NORMAL", n0)).morphTarget(0, attributes("POSITION", d1))
                .index();
        b.addScene("s", b.node("tri").mesh(mesh).index());
        return b;
    }

    private static Model model(GltfBuilder b) {
        return ModelBuilder.build(AssetFormat.GLTF, importGlb(b.toGlb()));
    }

    /** Posed primitive 0 of mesh instance {@code mesh} at {@code clip}/{@code time}, weights and pose sampled. */
    private static PosedPrimitive pose(Model model, int mesh, String clip, double time) {
        Clip c = clip == null ? null : model.clips().get(model.findClip(clip).orElseThrow());
        Pose pose = Pose.evaluate(model.rig(), c, time);
        MorphWeights weights = MorphWeights.evaluate(model.meshes(), c, time);
        MeshInstance m = model.meshes().get(mesh);
        float[] skinning = m.skinned() ? MeshPoser.skinningMatrices(model.skins().get(m.skin()), pose.modelMatrices())
                : null;
        return MeshPoser.pose(m, weights.weights(mesh), skinning, pose.modelMatrices(), POSITIONS_AND_NORMALS)
                .getFirst();
    }

    @Test
    void meshDefaultWeightsMorphTheRestPose() {
        GltfBuilder b = triangle();
        b.set("meshes", 0, "weights", new float[] {0.5f, 0.25f});
        Model model = model(b);
        assertThat(model.meshes().getFirst().morphWeights()).containsExactly(0.5f, 0.25f);
        assertThat(model.warnings()).isEmpty();
        PosedPrimitive p = pose(model, 0, null, 0);
        // p0 + 0.5·(0,0,2) + 0.25·Δ1 (vertex 1: (4,0,0))
        assertThat(p.positions()).containsExactly(0, 0, 1, 2, 0, 1, 0, 1, 1);
        // n0 + 0.5·(1,0,0) = (0.5,0,1), normalised
        float n = (float) (1 / Math.sqrt(1.25));
        assertThat(p.normals()).containsExactly(new float[] {0.5f * n, 0, n, 0.5f * n, 0, n, 0.5f * n, 0, n},
                within(1e-7f));
        Primitive prim = model.meshes().getFirst().primitives().getFirst();
        assertThat(prim.morphTargets().normalDeltas(1)).isNull();
        // the bind shape itself is untouched
        assertThat(prim.positions()).containsExactly(0, 0, 0, 1, 0, 0, 0, 1, 0);
    }

    @Test
    void withoutWeightsTheTargetsRestAtZero() {
        Model model = model(triangle());
        assertThat(model.meshes().getFirst().morphWeights()).containsExactly(0, 0);
        assertThat(pose(model, 0, null, 0).positions()).containsExactly(0, 0, 0, 1, 0, 0, 0, 1, 0);
    }

    @Test
    void nodeWeightsOverrideMeshWeights() {
        GltfBuilder b = triangle();
        b.set("meshes", 0, "weights", new float[] {0.5f, 0.25f});
        int second = b.node("second").mesh(0).translation(10, 0, 0).index();
        b.set("nodes", second, "weights", new float[] {0, 1});
        b.set("scenes", 0, "nodes", new int[] {0, second});
        Model model = model(b);
        assertThat(model.meshes().get(0).morphWeights()).containsExactly(0.5f, 0.25f);
        assertThat(model.meshes().get(1).morphWeights()).containsExactly(0, 1);
        assertThat(pose(model, 1, null, 0).positions()).containsExactly(10, 0, 0, 15, 0, 0, 10, 1, 0);
    }

    @Test
    void sparseAndQuantizedTargetAccessors() {
        GltfBuilder b = new GltfBuilder();
        int pos = b.addFloatAccessor(new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
        // target 0: no buffer view, sparse (0,0,3) at vertex 2 only
        int indices = b.addBufferView(le().u16(2).toArray());
        int values = b.addBufferView(le().f32(0, 0, 3).toArray());
        int sparse = b.accessor(FLOAT, "VEC3", 3).sparse(1, indices, 0, UNSIGNED_SHORT, values, 0).index();
        // target 1: normalized shorts, 32767 = 1, −32767 = −1
        int quantized = b.addIntAccessor(new int[] {32767, 0, 0, 0, -32767, 0, 0, 0, 0}, GltfBuilder.SHORT, "VEC3",
                true);
        int mesh = b.mesh("m").primitive(attributes("POSITION", pos)).morphTarget(0, attributes("POSITION", sparse))
                .morphTarget(0, attributes("POSITION", quantized)).index();
        b.addScene("s", b.node("n").mesh(mesh).index());
        b.set("meshes", mesh, "weights", new float[] {1, 0.5f});
        Model model = model(b);
        Primitive prim = model.meshes().getFirst().primitives().getFirst();
        assertThat(prim.morphTargets().positionDeltas(0)).containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 3);
        assertThat(prim.morphTargets().positionDeltas(1)).containsExactly(1, 0, 0, 0, -1, 0, 0, 0, 0);
        assertThat(pose(model, 0, null, 0).positions()).containsExactly(0.5f, 0, 0, 1, -0.5f, 0, 0, 1, 3);
    }

    @Test
    void weightsChannelsDriveTheWeightsWithEveryInterpolation() {
        GltfBuilder b = triangle();
        b.set("meshes", 0, "weights", new float[] {0.5f, 0.25f});
        b.animation("linear").track(0, "weights", "LINEAR", new float[] {0, 1}, new float[] {0, 0, 1, 0});
        b.animation("step").track(0, "weights", "STEP", new float[] {0, 1}, new float[] {0, 1, 1, 0});
        // keys at 0 and 2 s: values (0,0) → (1,0), out-tangent of key 0 (1,0), in-tangent of key 1 (0,0)
        b.animation("cubic").track(0, "weights", "CUBICSPLINE", new float[] {0, 2},
                new float[] {9, 9, 0, 0, 1, 0, 0, 0, 1, 0, 9, 9});
        Model model = model(b);
        // LINEAR halfway between (0,0) and (1,0): 0.5·Δ0 = (0,0,1) everywhere
        assertThat(pose(model, 0, "linear", 0.5).positions()).containsExactly(0, 0, 1, 1, 0, 1, 0, 1, 1);
        // STEP holds key 0 (0,1) until t = 1: vertex 1 moves by (4,0,0)
        assertThat(pose(model, 0, "step", 0.75).positions()).containsExactly(0, 0, 0, 5, 0, 0, 0, 1, 0);
        // CUBICSPLINE at t = 1 (s = 0.5, td = 2): w0 = 0.5·0 + 0.25·1 + 0.5·1 − 0.25·0 = 0.75 → z = 1.5
        assertThat(pose(model, 0, "cubic", 1).positions()).containsExactly(new float[] {0, 0, 1.5f, 1, 0, 1.5f, 0, 1,
            1.5f}, within(1e-6f));
        // no clip: the mesh defaults
        assertThat(pose(model, 0, null, 0.5).positions()).containsExactly(0, 0, 1, 2, 0, 1, 0, 1, 1);
    }

    @Test
    void morphTargetsApplyBeforeSkinning() {
        Model model = model(GltfBuilder.morphedTwoBoneStrip());
        MeshInstance strip = model.meshes().getFirst();
        assertThat(strip.morphWeights()).containsExactly(0, 0.5f);
        // Bend at 1.5 s (no weights track: defaults (0, 0.5), i.e. z + 0.5), see SamplingApiTest for the skinning
        double cos = Math.cos(Math.toRadians(67.5));
        double sin = Math.sin(Math.toRadians(67.5));
        PosedPrimitive bent = pose(model, 0, "Bend", 1.5);
        // vertex 0 (−0.5,0,0) + (0,0,0.5), Root only → (−0.5,0.5,0.5)
        assertVertex(bent.positions(), 0, -0.5, 0.5, 0.5);
        // vertex 4 (−0.5,2,0) + (0,0,0.5), Tip only → Rz(67.5°)·(−0.5,1,0.5) + (0,1.5,0)
        assertVertex(bent.positions(), 4, -0.5 * cos - sin, -0.5 * sin + cos + 1.5, 0.5);
        // Morph at 0.5 s: weights (0.5, 0) → x + 0.5 in the bind pose; normals (0.5,0,1) normalised
        PosedPrimitive morphed = pose(model, 0, "Morph", 0.5);
        assertVertex(morphed.positions(), 0, 0, 0, 0);
        assertVertex(morphed.positions(), 5, 1, 2, 0);
        double n = 1 / Math.sqrt(1.25);
        assertVertex(morphed.normals(), 3, 0.5 * n, 0, n);
        // weights (1, 0) with the bend: vertex 4 (0.5,2,0), Tip only → Rz·(0.5,1,0) + (0,1.5,0)
        Pose pose = Pose.evaluate(model.rig(), model.clips().getFirst(), 1.5);
        float[] skinning = MeshPoser.skinningMatrices(model.skins().getFirst(), pose.modelMatrices());
        PosedPrimitive both = MeshPoser.pose(strip, new float[] {1, 0}, skinning, pose.modelMatrices(),
                POSITIONS_AND_NORMALS).getFirst();
        assertVertex(both.positions(), 4, 0.5 * cos - sin, 0.5 * sin + cos + 1.5, 0);
    }

    @Test
    void unappliedTargetAttributesAreReportedOncePerMesh() {
        GltfBuilder b = triangle();
        int tangent = b.addFloatAccessor(new float[9], "VEC3");
        ((tools.jackson.databind.node.ObjectNode) b.json().get("meshes").get(0).get("primitives").get(0).get("targets")
                .get(1)).put("TANGENT", tangent);
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.warnings()).containsExactly("mesh 0: morph target attributes TANGENT are not applied");
    }

    @Test
    void targetAccessorsMustHaveOneElementPerVertex() {
        GltfBuilder b = triangle();
        int shortDelta = b.addFloatAccessor(new float[] {0, 0, 0, 1, 1, 1}, "VEC3");
        ((tools.jackson.databind.node.ObjectNode) b.json().get("meshes").get(0).get("primitives").get(0).get("targets")
                .get(1)).put("POSITION", shortDelta);
        assertInvalid(() -> importGlb(b.toGlb()), "mesh 0 primitive 0 morph target 1: POSITION accessor "
                + shortDelta + " has 2 elements but the primitive has 3 vertices");
    }

    @Test
    void defaultWeightsMustMatchTheTargetCount() {
        GltfBuilder b = triangle();
        b.set("meshes", 0, "weights", new float[] {0.5f, 0.25f, 1});
        assertInvalid(() -> importGlb(b.toGlb()), "mesh 0: weights must have 2 numbers, not 3");
        GltfBuilder c = triangle();
        c.set("nodes", 0, "weights", new float[] {1});
        assertInvalid(() -> importGlb(c.toGlb()), "node 0: weights must have 2 numbers, not 1");
    }

    @Test
    void allPrimitivesOfAMeshHaveTheSameNumberOfTargets() {
        GltfBuilder b = triangle();
        ((tools.jackson.databind.node.ArrayNode) b.json().get("meshes").get(0).get("primitives"))
                .addObject().putObject("attributes").put("POSITION", 0);
        assertInvalid(() -> importGlb(b.toGlb()), "mesh 0 primitive 1 has 0 morph targets but primitive 0 has 2 "
                + "(all primitives of a mesh must have the same number)");
    }

    @Test
    void weightsTracksMustHaveOneComponentPerTarget() {
        GltfBuilder b = triangle();
        b.animation("w").track(0, "weights", "LINEAR", new float[] {0, 1}, new float[] {0, 0, 0, 1, 1, 1});
        ImportScene scene = importGlb(b.toGlb());
        assertInvalid(() -> ModelBuilder.build(AssetFormat.GLTF, scene), "clip 'w': the weights track of node 0 "
                + "('tri') has 3 weights per key but mesh 0 on that node has 2 morph targets");
    }

    @Test
    void weightsTracksOfNodesWithoutTargetsAreIgnoredWithAWarning() {
        GltfBuilder b = triangle();
        int empty = b.node("empty").index();
        b.set("scenes", 0, "nodes", new int[] {0, empty});
        b.animation("w").track(empty, "weights", "LINEAR", new float[] {0, 1}, new float[] {0, 1});
        Model model = model(b);
        assertThat(model.warnings()).containsExactly(
                "clip 'w': node 1 ('empty') has a weights track but no mesh with morph targets; the track is ignored");
        assertThat(pose(model, 0, "w", 1).positions()).containsExactly(0, 0, 0, 1, 0, 0, 0, 1, 0);
    }

    @Test
    void nonFiniteWeightKeysAreRejected() {
        GltfBuilder b = triangle();
        b.animation("w").track(0, "weights", "LINEAR", new float[] {0}, new float[] {Float.NaN, 0});
        assertInvalid(() -> importGlb(b.toGlb()), "animation 0 sampler 0: output accessor 6 value 0 is not finite");
    }

    private static void assertVertex(float[] flat, int v, double x, double y, double z) {
        assertThat(new float[] {flat[3 * v], flat[3 * v + 1], flat[3 * v + 2]})
                .containsExactly(new float[] {(float) x, (float) y, (float) z}, within(1e-6f));
    }
}
