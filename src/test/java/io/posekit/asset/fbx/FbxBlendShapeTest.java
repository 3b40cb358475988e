package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxSceneFixture.assertInvalid;
import static io.posekit.asset.fbx.FbxSceneFixture.leaf;
import static io.posekit.asset.fbx.FbxSceneFixture.node;
import static io.posekit.asset.fbx.FbxSceneFixture.p;
import static io.posekit.asset.fbx.FbxSceneFixture.props;
import static io.posekit.asset.fbx.FbxSceneFixture.vec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.sampling.MorphWeights;
import io.posekit.skinning.MorphTargets;
import io.posekit.skinning.Primitive;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * FBX blend shapes: {@code BlendShape} → {@code BlendShapeChannel} → {@code Shape} as morph targets (sparse position
 * and normal deltas, in-between shapes by {@code FullWeights}), {@code DeformPercent} as default weights and its
 * curves as a weights track.
 */
class FbxBlendShapeTest {

    private static final long TPS = FbxScene.TICKS_PER_SECOND;
    /** Control points of a unit square in z = 0 (0..3) and a fifth point (4). */
    private static final double[] SQUARE = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 2, 0, 0};
    /** A quad (0 1 2 3) and a triangle (1 4 2). */
    private static final int[] QUAD_AND_TRIANGLE = {0, 1, 2, ~3, 1, 4, ~2};

    private static FbxNode shape(String name, long id, int[] indexes, double[] deltas, double[] normals) {
        List<FbxNode> children = new java.util.ArrayList<>(List.of(leaf("Version", 100),
                leaf("Indexes", (Object) indexes), leaf("Vertices", (Object) deltas)));
        if (normals != null) {
            children.add(leaf("Normals", (Object) normals));
        }
        return new FbxNode("Geometry", List.of(id, FbxSceneFixture.name(name, "Geometry"), "Shape"), children);
    }

    /**
     * Geometry 10 on Model 1 with BlendShape 20 and channels: 'raise' (21, DeformPercent 25) with Shape 30 lifting
     * control point 2 by z = 1; 'grow' (22) with two in-between shapes 31 (at 50 %: point 4 x + 1) and 32 (at 100 %:
     * point 4 x + 3, point 0 y − 1).
     */
    static FbxSceneFixture face() {
        FbxSceneFixture f = new FbxSceneFixture()
                .geometry(10, "face", SQUARE, QUAD_AND_TRIANGLE)
                .model(1, "face", "Mesh").oo(1, 0).oo(10, 1)
                .object("Deformer", 20, "shapes", "BlendShape").oo(20, 10)
                .object("Deformer", 21, "raise", "BlendShapeChannel", leaf("Version", 100),
                        leaf("DeformPercent", 25.0), leaf("FullWeights", (Object) new double[] {100}))
                .oo(21, 20)
                .object("Deformer", 22, "grow", "BlendShapeChannel", leaf("Version", 100),
                        leaf("FullWeights", (Object) new double[] {50, 100}))
                .oo(22, 20);
        add(f, shape("raise", 30, new int[] {2}, new double[] {0, 0, 1}, new double[] {0, 0.5, 0})).oo(30, 21);
        add(f, shape("growHalf", 31, new int[] {4}, new double[] {1, 0, 0}, null)).oo(31, 22);
        add(f, shape("growFull", 32, new int[] {4, 0}, new double[] {3, 0, 0, 0, -1, 0}, null)).oo(32, 22);
        return f;
    }

    private static FbxSceneFixture add(FbxSceneFixture f, FbxNode object) {
        return f.rawObject(object.name(), object.properties(), object.children().toArray(FbxNode[]::new));
    }

    @Test
    void shapesAreMorphTargetsOfEveryVertexSplitFromTheirControlPoints() {
        ImportScene s = face().importScene();
        ImportScene.MeshInstance mesh = s.meshes().getFirst();
        Primitive p = mesh.primitives().getFirst();
        // vertices: control points 0 1 2 3 4 (no normals or UVs split them)
        assertThat(p.vertexCount()).isEqualTo(5);
        MorphTargets t = p.morphTargets();
        assertThat(t.targetCount()).isEqualTo(3);
        assertThat(t.positionDeltas(0)).containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0);
        assertThat(t.positionDeltas(1)).containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0);
        assertThat(t.positionDeltas(2)).containsExactly(0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0);
        assertThat(t.normalDeltas(0)).containsExactly(0, 0, 0, 0, 0, 0, 0, 0.5f, 0, 0, 0, 0, 0, 0, 0);
        assertThat(t.normalDeltas(1)).isNull();
        // DeformPercent 25 → 0.25; 'grow' at 0
        assertThat(mesh.morphWeights()).containsExactly(0.25f, 0, 0);
        assertThat(s.warnings()).hasSize(1); // the GlobalSettings line only
    }

    @Test
    void inBetweenShapesShareTheChannelsWeight() {
        FbxBlendShapes.Channel grow = new FbxBlendShapes.Channel(null, 1, new double[] {50, 100}, 0);
        float[] w = new float[3];
        double[][] expected = {{0, 0}, {0.5, 0}, {1, 0}, {0.5, 0.5}, {0, 1}, {-0.4, 1.4}, {-0.5, 0}};
        double[] percents = {0, 25, 50, 75, 100, 120, -25};
        for (int i = 0; i < percents.length; i++) {
            grow.weights(percents[i], w);
            assertThat(w).as("%s %%", percents[i]).containsExactly(new float[] {0, (float) expected[i][0],
                    (float) expected[i][1]}, within(1e-6f));
        }
        // one shape: percent / its full weight (extrapolating either way)
        FbxBlendShapes.Channel one = new FbxBlendShapes.Channel(null, 0, new double[] {80}, 0);
        one.weights(100, w);
        assertThat(w[0]).isEqualTo(1.25f);
    }

    @Test
    void deformPercentCurvesAreAWeightsTrackSampledByTheRuntime() {
        FbxSceneFixture f = face()
                .object("AnimationStack", 50, "Talk", "", props(p("LocalStart", 0L), p("LocalStop", 2 * TPS)))
                .object("AnimationLayer", 51, "Base", "").oo(51, 50)
                .object("AnimationCurveNode", 52, "DeformPercent", "", props(p("d|DeformPercent", 0.0)))
                .oo(52, 51).op(52, 22, "DeformPercent");
        f.rawObject("AnimationCurve", List.of(53L, "\0\1AnimCurve", ""), linearCurve(new double[] {0, 2},
                new double[] {0, 100})).op(53, 52, "d|DeformPercent");
        ImportScene s = f.importScene();
        Track track = s.clips().getFirst().tracks().getFirst();
        assertThat(track.property()).isEqualTo(TrackProperty.WEIGHTS);
        assertThat(track.node()).isEqualTo(FbxSceneFixture.node(s, "face"));
        assertThat(track.interpolation()).isEqualTo(Interpolation.LINEAR);
        assertThat(track.components()).isEqualTo(3);
        // keyed at the curve's keys and where it crosses 50 %, the in-between shape; 'raise' holds its DeformPercent
        assertThat(track.times()).containsExactly(0, 1, 2);
        assertThat(track.values()).containsExactly(0.25f, 0, 0, 0.25f, 1, 0, 0.25f, 0, 1);

        Model model = f.build();
        Clip talk = model.clips().getFirst();
        // 0.5 s: 25 % of 'grow' is half its first in-between shape; 1.5 s: 75 %, the two shapes half each
        MorphWeights quarter = MorphWeights.evaluate(model.meshes(), talk, 0.5);
        assertThat(quarter.weights(0)).containsExactly(new float[] {0.25f, 0.5f, 0}, within(1e-6f));
        MorphWeights threeQuarters = MorphWeights.evaluate(model.meshes(), talk, 1.5);
        assertThat(threeQuarters.weights(0)).containsExactly(new float[] {0.25f, 0.5f, 0.5f}, within(1e-6f));
    }

    @Test
    void cubicCurvesAreKeyedAcrossEachSegment() {
        FbxSceneFixture f = face()
                .object("AnimationStack", 50, "Talk", "")
                .object("AnimationLayer", 51, "Base", "").oo(51, 50)
                .object("AnimationCurveNode", 52, "DeformPercent", "").oo(52, 51).op(52, 21, "DeformPercent");
        // one cubic segment with flat (user, zero) tangents: 0 → 100 over 1 s, an ease in and out
        FbxNode[] cubic = node("AnimationCurve", List.of(), leaf("Default", 0.0), leaf("KeyVer", 4008),
                leaf("KeyTime", (Object) new long[] {0, TPS}), leaf("KeyValueFloat", (Object) new float[] {0, 100}),
                leaf("KeyAttrFlags", (Object) new int[] {FbxCurves.CUBIC | FbxCurves.TANGENT_USER}),
                leaf("KeyAttrDataFloat", (Object) new float[] {0, 0, 0, 0}),
                leaf("KeyAttrRefCount", (Object) new int[] {2})).children().toArray(FbxNode[]::new);
        f.rawObject("AnimationCurve", List.of(53L, "\0\1AnimCurve", ""), cubic).op(53, 52, "d|DeformPercent");
        Track track = f.importScene().clips().getFirst().tracks().getFirst();
        assertThat(track.times()).containsExactly(0, 0.125f, 0.25f, 0.375f, 0.5f, 0.625f, 0.75f, 0.875f, 1);
        // mid-segment the ease curve is at half; early it lags the straight line
        assertThat(track.values()[3 * 4]).isCloseTo(0.5f, within(1e-5f));
        assertThat(track.values()[3]).isLessThan(0.125f);
    }

    @Test
    void theGeometricTransformTurnsTheDeltas() {
        // Model 'face' with a geometric scale of 2 and a geometric translation (which deltas ignore)
        ImportScene s = oneShape(List.of(vec("GeometricScaling", 2, 2, 2), vec("GeometricTranslation", 5, 5, 5)),
                leaf("Indexes", (Object) new int[] {2}), leaf("Vertices", (Object) new double[] {0, 0, 1}))
                .importScene();
        assertThat(s.meshes().getFirst().primitives().getFirst().morphTargets().positionDeltas(0))
                .containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Model 'face' (with {@code modelProperties}) whose geometry has one blend shape channel 'raise' with the shape
     * {@code raise} (id 30).
     */
    private static FbxSceneFixture oneShape(List<FbxNode> modelProperties, FbxNode... shapeChildren) {
        return new FbxSceneFixture()
                .geometry(10, "face", SQUARE, QUAD_AND_TRIANGLE)
                .model(1, "face", "Mesh", modelProperties.toArray(FbxNode[]::new)).oo(1, 0).oo(10, 1)
                .object("Deformer", 20, "shapes", "BlendShape").oo(20, 10)
                .object("Deformer", 21, "raise", "BlendShapeChannel").oo(21, 20)
                .rawObject("Geometry", List.of(30L, FbxSceneFixture.name("raise", "Geometry"), "Shape"), shapeChildren)
                .oo(30, 21);
    }

    @Test
    void malformedShapesAreInvalid() {
        FbxSceneFixture outOfRange = oneShape(List.of(), leaf("Indexes", (Object) new int[] {1, 900}),
                leaf("Vertices", (Object) new double[6]));
        assertInvalid(outOfRange::importScene, "Geometry 'raise': Indexes[1] = 900 is out of range for the 5 control"
                + " points of Geometry 'face'");
        FbxSceneFixture short_ = oneShape(List.of(), leaf("Indexes", (Object) new int[] {1, 2}), leaf("Vertices", (Object) new double[5]));
        assertInvalid(short_::importScene, "Geometry 'raise': Vertices holds 5 numbers for 2 Indexes (3 each are"
                + " needed)");
        FbxSceneFixture noVertices = oneShape(List.of(), leaf("Indexes", (Object) new int[] {1}));
        assertInvalid(noVertices::importScene, "Geometry 'raise' (a blend shape of Geometry 'face') needs Indexes and"
                + " Vertices");
    }

    private static FbxNode[] linearCurve(double[] seconds, double[] values) {
        long[] ticks = new long[seconds.length];
        float[] v = new float[values.length];
        for (int i = 0; i < ticks.length; i++) {
            ticks[i] = Math.round(seconds[i] * TPS);
            v[i] = (float) values[i];
        }
        return new FbxNode[] {leaf("Default", 0.0), leaf("KeyVer", 4008), leaf("KeyTime", (Object) ticks),
            leaf("KeyValueFloat", (Object) v), leaf("KeyAttrFlags", (Object) new int[] {FbxCurves.LINEAR}),
            leaf("KeyAttrDataFloat", (Object) new float[4]), leaf("KeyAttrRefCount", (Object) new int[] {seconds.length})};
    }
}
