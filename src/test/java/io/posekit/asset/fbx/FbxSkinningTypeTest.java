package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxSceneFixture.assertInvalid;
import static io.posekit.asset.fbx.FbxSceneFixture.leaf;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.skinning.Primitive;
import java.util.ArrayList;
import java.util.List;
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
