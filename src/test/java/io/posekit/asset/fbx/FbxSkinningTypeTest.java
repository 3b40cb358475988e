package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxSceneFixture.assertInvalid;
import static io.posekit.asset.fbx.FbxSceneFixture.leaf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.sampling.Pose;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.MeshPoser;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.SkinningMethod;
import io.posekit.skinning.VertexAttribute;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A skin's {@code SkinningType} and Maya's {@code BlendWeights}, read into each vertex's share of dual-quaternion
 * skinning ({@link Primitive#dualQuaternionWeights()}), as ufbx reads {@code skinning_method} and
 * {@code dq_vertices}/{@code dq_weights}: Maya writes the blend per control point, beside the skin's own
 * {@code Indexes}.
 */
class FbxSkinningTypeTest {

    /** A triangle's control points and a fourth point. */
    private static final double[] POINTS = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
    /** Per polygon vertex normals that split control points 1 and 2: vertices 3 and 5 are points 1 and 2 again. */
    private static final double[] NORMALS = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, -1, 0, 0, -1, 0, 0, -1};

    /** Two triangles over 4 points, one bone weighting all of them, the skin with {@code skinChildren}. */
    private static FbxSceneFixture scene(FbxNode... skinChildren) {
        List<FbxNode> cluster = new ArrayList<>();
        cluster.add(leaf("Version", 100));
        cluster.add(leaf("Indexes", (Object) new int[] {0, 1, 2, 3}));
        cluster.add(leaf("Weights", (Object) new double[] {1, 1, 1, 1}));
        cluster.add(leaf("Transform", (Object) FbxTransform.identity()));
        cluster.add(leaf("TransformLink", (Object) FbxTransform.identity()));
        return new FbxSceneFixture()
                .geometry(10, "body", POINTS, new int[] {0, 1, ~2, 1, 3, ~2}, FbxSceneFixture.layer(
                        "LayerElementNormal", "ByPolygonVertex", "Direct", "Normals", NORMALS, null))
                .model(1, "mesh", "Mesh").oo(1, 0).oo(10, 1)
                .object("Deformer", 100, "Armature", "Skin", skinChildren).oo(100, 10)
                .model(11, "bone0", 0)
                .object("Deformer", 200, "cluster0", "Cluster", cluster.toArray(FbxNode[]::new))
                .oo(200, 100).oo(11, 200);
    }

    private static Primitive primitive(ImportScene s) {
        return s.meshes().getFirst().primitives().getFirst();
    }

    @Test
    void linearRigidAndNoTypeAreLinear() {
        assertThat(primitive(scene().importScene()).dualQuaternionWeights()).isNull();
        assertThat(primitive(scene(leaf("SkinningType", "Linear")).importScene()).dualQuaternionWeights()).isNull();
        ImportScene rigid = scene(leaf("SkinningType", "Rigid")).importScene();
        assertThat(primitive(rigid).dualQuaternionWeights()).isNull();
        assertThat(rigid.warnings()).noneMatch(w -> w.contains("SkinningType"));
    }

    @Test
    void dualQuaternionIsOneForEveryVertex() {
        ImportScene s = scene(leaf("Version", 101), leaf("SkinningType", "DualQuaternion")).importScene();
        Primitive p = primitive(s);
        assertThat(p.vertexCount()).isEqualTo(6);
        assertThat(p.dualQuaternionWeights()).containsExactly(1, 1, 1, 1, 1, 1);
        assertThat(p.dualQuaternionOnly()).isTrue();
        assertThat(s.warnings()).noneMatch(w -> w.contains("SkinningType"));
        // and the model keeps them through the material split
        Model model = scene(leaf("SkinningType", "DualQuaternion")).build();
        assertThat(model.meshes().getFirst().primitives().getFirst().dualQuaternionOnly()).isTrue();
    }

    /**
     * Blend: control points 0, 1 and 3 listed with 0.25, 0.5 and 1, point 2 not listed (0); vertices 0..5 are points
     * 0, 1, 2, 1, 3, 2.
     */
    @Test
    void blendTakesEachControlPointsBlendWeight() {
        Primitive p = primitive(scene(leaf("SkinningType", "Blend"), leaf("Indexes", (Object) new int[] {0, 1, 3}),
                leaf("BlendWeights", (Object) new double[] {0.25, 0.5, 1})).importScene());
        assertThat(p.dualQuaternionWeights()).containsExactly(0.25f, 0.5f, 0, 0.5f, 1, 0);
        assertThat(p.dualQuaternionOnly()).isFalse();
        // BlendIndexes, where a writer names it so, is read the same way
        Primitive named = primitive(scene(leaf("SkinningType", "Blend"),
                leaf("BlendIndexes", (Object) new int[] {2}), leaf("BlendWeights", (Object) new double[] {0.75}))
                .importScene());
        assertThat(named.dualQuaternionWeights()).containsExactly(0, 0, 0.75f, 0, 0, 0.75f);
        // no lists: every vertex linear, but still a blended skin
        assertThat(primitive(scene(leaf("SkinningType", "Blend")).importScene()).dualQuaternionWeights())
                .containsExactly(0, 0, 0, 0, 0, 0);
    }

    @Test
    void blendWeightsOutsideTheUnitIntervalAreClampedAndAnUnknownTypeIsLinear() {
        ImportScene s = scene(leaf("SkinningType", "Blend"), leaf("Indexes", (Object) new int[] {0, 1}),
                leaf("BlendWeights", (Object) new double[] {-0.5, 1.5})).importScene();
        assertThat(primitive(s).dualQuaternionWeights()).containsExactly(0, 1, 0, 1, 0, 0);
        assertThat(s.warnings()).contains("skin 'Armature' of Geometry 'body': 2 BlendWeights outside [0, 1] are"
                + " clamped");
        ImportScene odd = scene(leaf("SkinningType", "Spherical")).importScene();
        assertThat(primitive(odd).dualQuaternionWeights()).isNull();
        assertThat(odd.warnings()).contains("skin 'Armature' of Geometry 'body': SkinningType Spherical is not known;"
                + " it is skinned linearly");
    }

    /**
     * End to end: one vertex (1, 0, 0) weighted half to a bone at rest and half to a bone turned 90° about Z since
     * the bind. Posed meshes skin it as the file asks — (√½, √½, 0) for {@code DualQuaternion}, (0.5, 0.5, 0) for
     * {@code Linear}, their mean for {@code Blend} 0.5 — and the caller's explicit choice still rules.
     */
    @Test
    void posedMeshesSkinAsTheFileAsks() {
        double h = Math.sqrt(0.5);
        assertPosed(turned(leaf("SkinningType", "DualQuaternion")), SkinningMethod.AUTHORED, h, h);
        assertPosed(turned(leaf("SkinningType", "Linear")), SkinningMethod.AUTHORED, 0.5, 0.5);
        assertPosed(turned(leaf("SkinningType", "Blend"), leaf("Indexes", (Object) new int[] {0}),
                leaf("BlendWeights", (Object) new double[] {0.5})), SkinningMethod.AUTHORED, (0.5 + h) / 2,
                (0.5 + h) / 2);
        assertPosed(turned(leaf("SkinningType", "DualQuaternion")), SkinningMethod.LINEAR, 0.5, 0.5);
        assertPosed(turned(leaf("SkinningType", "Linear")), SkinningMethod.DUAL_QUATERNION, h, h);
    }

    /** A one-triangle mesh whose point 0 is (1, 0, 0), weighted 0.5 to bone0 (at rest) and 0.5 to bone1 (Rz 90°). */
    private static Model turned(FbxNode... skinChildren) {
        FbxSceneFixture f = new FbxSceneFixture()
                .geometry(10, "body", new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, new int[] {0, 1, ~2})
                .model(1, "mesh", "Mesh").oo(1, 0).oo(10, 1)
                .object("Deformer", 100, "Armature", "Skin", skinChildren).oo(100, 10)
                .model(11, "bone0", 0)
                .model(12, "bone1", 0, FbxSceneFixture.vec("Lcl Rotation", 0, 0, 90));
        for (int b = 0; b < 2; b++) {
            f.object("Deformer", 200 + b, "cluster" + b, "Cluster", leaf("Version", 100),
                    leaf("Indexes", (Object) new int[] {0, 1, 2}), leaf("Weights", (Object) new double[] {0.5, 0.5, 0.5}),
                    leaf("Transform", (Object) FbxTransform.identity()),
                    leaf("TransformLink", (Object) FbxTransform.identity())).oo(200 + b, 100).oo(11 + b, 200 + b);
        }
        return f.build();
    }

    private static void assertPosed(Model model, SkinningMethod method, double x, double y) {
        MeshInstance mesh = model.meshes().getFirst();
        float[] world = Pose.evaluate(model.rig(), null, 0).modelMatrices();
        float[] skinning = MeshPoser.skinningMatrices(model.skins().get(mesh.skin()), world);
        float[] p = MeshPoser.pose(mesh, null, skinning, world, Set.of(VertexAttribute.POSITION), method).getFirst()
                .positions();
        int v = 0;
        while (p.length > 3 * v && mesh.primitives().getFirst().positions()[3 * v] != 1) {
            v++;
        }
        assertThat(p[3 * v]).isCloseTo((float) x, within(1e-6f));
        assertThat(p[3 * v + 1]).isCloseTo((float) y, within(1e-6f));
        assertThat(p[3 * v + 2]).isCloseTo(0f, within(1e-6f));
        if (method == SkinningMethod.AUTHORED) {
            // the default overload, as posed.glb and render.png pose
            float[] d = MeshPoser.pose(mesh, skinning, world, Set.of(VertexAttribute.POSITION)).getFirst().positions();
            assertThat(d).containsExactly(p);
        }
    }

    @Test
    void badBlendListsAreRefused() {
        assertInvalid(() -> scene(leaf("SkinningType", "Blend"), leaf("Indexes", (Object) new int[] {0, 1}),
                leaf("BlendWeights", (Object) new double[] {1})).importScene(),
                "skin 'Armature' of Geometry 'body': its blend Indexes has 2 entries but BlendWeights 1");
        assertInvalid(() -> scene(leaf("SkinningType", "Blend"), leaf("Indexes", (Object) new int[] {4}),
                leaf("BlendWeights", (Object) new double[] {1})).importScene(),
                "skin 'Armature' of Geometry 'body': blend Indexes[0] = 4 is out of range for 4 control points");
        assertInvalid(() -> scene(leaf("SkinningType", "Blend"), leaf("Indexes", (Object) new int[] {0}),
                leaf("BlendWeights", (Object) new double[] {Double.NaN})).importScene(),
                "skin 'Armature' of Geometry 'body': BlendWeights[0] is not finite");
    }
}
