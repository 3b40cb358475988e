package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxSceneFixture.assertMatrix;
import static io.posekit.asset.fbx.FbxSceneFixture.node;
import static io.posekit.asset.fbx.FbxSceneFixture.p;
import static io.posekit.asset.fbx.FbxSceneFixture.restMatrix;
import static io.posekit.asset.fbx.FbxSceneFixture.restWorld;
import static io.posekit.asset.fbx.FbxSceneFixture.rows;
import static io.posekit.asset.fbx.FbxSceneFixture.vec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.ImportScene;
import io.posekit.asset.ImportWarnings;
import io.posekit.clip.Curve;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.NodeTransformEvaluator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The FBX transform chain {@code T · Roff · Rp · Rpre · R · Rpost⁻¹ · Rp⁻¹ · Soff · Sp · S · Sp⁻¹}: each element on its
 * own against a matrix worked out by hand, the six Euler orders, the inherit types, RotationActive, and the animated
 * element stack against the rest matrix.
 */
class FbxTransformTest {

    private static final double EPS = 1e-6;

    /** The rest matrix of a single root Model with the given properties. */
    private static double[] local(FbxNode... properties) {
        ImportScene s = new FbxSceneFixture().model(1, "n", 0, properties).importScene();
        return restMatrix(s, node(s, "n"));
    }

    /** Rotation about X by {@code d} degrees, rows written out. */
    private static double[] rx(double d) {
        double c = Math.cos(Math.toRadians(d));
        double s = Math.sin(Math.toRadians(d));
        return rows(1, 0, 0, 0, 0, c, -s, 0, 0, s, c, 0, 0, 0, 0, 1);
    }

    private static double[] ry(double d) {
        double c = Math.cos(Math.toRadians(d));
        double s = Math.sin(Math.toRadians(d));
        return rows(c, 0, s, 0, 0, 1, 0, 0, -s, 0, c, 0, 0, 0, 0, 1);
    }

    private static double[] rz(double d) {
        double c = Math.cos(Math.toRadians(d));
        double s = Math.sin(Math.toRadians(d));
        return rows(c, -s, 0, 0, s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
    }

    @Test
    void translationRotationAndScalingAlone() {
        assertMatrix(local(vec("Lcl Translation", 1, 2, 3)), rows(1, 0, 0, 1, 0, 1, 0, 2, 0, 0, 1, 3, 0, 0, 0, 1), EPS);
        assertMatrix(local(vec("Lcl Rotation", 30, 0, 0)), rx(30), EPS);
        assertMatrix(local(vec("Lcl Rotation", 0, 30, 0)), ry(30), EPS);
        assertMatrix(local(vec("Lcl Rotation", 0, 0, 30)), rz(30), EPS);
        assertMatrix(local(vec("Lcl Scaling", 2, 3, 4)), rows(2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1), EPS);
        // T · R · S: the scale acts first, then the rotation, then the translation
        assertMatrix(local(vec("Lcl Translation", 1, 2, 3), vec("Lcl Rotation", 0, 0, 90), vec("Lcl Scaling", 2, 1, 1)),
                rows(0, -1, 0, 1, 2, 0, 0, 2, 0, 0, 1, 3, 0, 0, 0, 1), EPS);
    }

    /**
     * (90°, 90°, 90°) in each order: applying the axes in the named order (first letter first) to the basis vectors
     * by hand — Rx(90°): y → z, z → −y; Ry(90°): z → x, x → −z; Rz(90°): x → y, y → −x.
     */
    @ParameterizedTest(name = "RotationOrder {0} ({1})")
    @CsvSource({
        "0, XYZ, 0,0,1, 0,1,0, -1,0,0",
        "1, XZY, 0,1,0, 1,0,0, 0,0,-1",
        "2, YZX, 0,-1,0, 1,0,0, 0,0,1",
        "3, YXZ, -1,0,0, 0,0,1, 0,1,0",
        "4, ZXY, 1,0,0, 0,0,-1, 0,1,0",
        "5, ZYX, 0,0,1, 0,-1,0, 1,0,0"})
    void eachRotationOrderAppliesItsAxesInTheNamedOrder(int order, String name, double a, double b, double c, double d,
            double e, double f, double g, double h, double i) {
        double[] expected = rows(a, b, c, 0, d, e, f, 0, g, h, i, 0, 0, 0, 0, 1);
        assertMatrix(FbxTransform.euler(new double[] {90, 90, 90}, order), expected, 1e-12);
        assertThat(FbxTransform.orderName(order)).isEqualTo(name);
        assertMatrix(local(p("RotationOrder", order), vec("Lcl Rotation", 90, 90, 90)), expected, EPS);
    }

    @Test
    void eulerXyzIsRzRyRxForArbitraryAngles() {
        double[] expected = FbxTransform.times(rz(40), FbxTransform.times(ry(-25), rx(70)));
        assertMatrix(FbxTransform.euler(new double[] {70, -25, 40}, 0), expected, 1e-12);
        // ZYX is the reverse product
        double[] zyx = FbxTransform.times(rx(70), FbxTransform.times(ry(-25), rz(40)));
        assertMatrix(FbxTransform.euler(new double[] {70, -25, 40}, 5), zyx, 1e-12);
    }

    @Test
    void rotationOffsetTranslatesWithoutRotating() {
        assertMatrix(local(vec("Lcl Translation", 1, 0, 0), vec("RotationOffset", 0, 5, 0), vec("Lcl Rotation", 0, 0, 90)),
                rows(0, -1, 0, 1, 1, 0, 0, 5, 0, 0, 1, 0, 0, 0, 0, 1), EPS);
    }

    @Test
    void rotationPivotIsTheCentreOfRotation() {
        // Rp · Rz(90) · Rp⁻¹ with Rp = (1, 0, 0): the origin goes to (1, 0, 0) + Rz(90)·(−1, 0, 0) = (1, −1, 0)
        assertMatrix(local(vec("RotationPivot", 1, 0, 0), vec("Lcl Rotation", 0, 0, 90)),
                rows(0, -1, 0, 1, 1, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 1), EPS);
    }

    @Test
    void preRotationIsAppliedAfterTheRotation() {
        // Rpre · R = Rz(90) · Rx(90): x → x → y, y → z → z, z → −y → x
        assertMatrix(local(vec("PreRotation", 0, 0, 90), vec("Lcl Rotation", 90, 0, 0)),
                rows(0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1), EPS);
    }

    @Test
    void postRotationIsInvertedAndAppliedFirst() {
        // R · Rpost⁻¹ = Rx(90) · Rz(−90): x → −y → −z, y → x → x, z → z → −y
        assertMatrix(local(vec("PostRotation", 0, 0, 90), vec("Lcl Rotation", 90, 0, 0)),
                rows(0, 1, 0, 0, 0, 0, -1, 0, -1, 0, 0, 0, 0, 0, 0, 1), EPS);
    }

    @Test
    void preAndPostRotationsAreAlwaysXyzWhateverTheRotationOrder() {
        // PreRotation (90, 90, 0) is Ry(90) · Rx(90) even for a ZYX node (whose own rotation is zero here)
        assertMatrix(local(p("RotationOrder", 5), vec("PreRotation", 90, 90, 0)),
                FbxTransform.times(ry(90), rx(90)), EPS);
        assertMatrix(local(p("RotationOrder", 5), vec("PostRotation", 90, 90, 0)),
                FbxTransform.transpose3(FbxTransform.times(ry(90), rx(90))), EPS);
    }

    @Test
    void scalingOffsetIsAppliedBeforeTheRotation() {
        // R · Soff: the offset (0, 2, 0) turns with the node's rotation to (−2, 0, 0)
        assertMatrix(local(vec("Lcl Rotation", 0, 0, 90), vec("ScalingOffset", 0, 2, 0)),
                rows(0, -1, 0, -2, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1), EPS);
    }

    @Test
    void scalingPivotIsTheCentreOfScaling() {
        // Sp · S · Sp⁻¹ with Sp = (1, 0, 0), S = (2, 1, 1): the origin goes to (1, 0, 0) − (2, 0, 0) = (−1, 0, 0)
        assertMatrix(local(vec("ScalingPivot", 1, 0, 0), vec("Lcl Scaling", 2, 1, 1)),
                rows(2, 0, 0, -1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1), EPS);
    }

    @Test
    void theWholeChainIsTheProductOfItsElements() {
        double[] t = {1, 2, 3};
        double[] roff = {0.5, 0, 0};
        double[] rp = {0, 1, 0};
        double[] soff = {0, 0, 0.25};
        double[] sp = {1, 1, 0};
        double[] expected = FbxTransform.translation(t);
        for (double[] m : List.of(FbxTransform.translation(roff), FbxTransform.translation(rp), rx(10),
                FbxTransform.times(rz(30), FbxTransform.times(ry(20), rx(15))), FbxTransform.transpose3(ry(-5)),
                FbxTransform.translation(FbxTransform.negate(rp)), FbxTransform.translation(soff),
                FbxTransform.translation(sp), FbxTransform.scale(new double[] {2, 3, 4}),
                FbxTransform.translation(FbxTransform.negate(sp)))) {
            expected = FbxTransform.times(expected, m);
        }
        assertMatrix(local(vec("Lcl Translation", 1, 2, 3), vec("RotationOffset", 0.5, 0, 0), vec("RotationPivot", 0, 1, 0),
                vec("PreRotation", 10, 0, 0), vec("Lcl Rotation", 15, 20, 30), vec("PostRotation", 0, -5, 0),
                vec("ScalingOffset", 0, 0, 0.25), vec("ScalingPivot", 1, 1, 0), vec("Lcl Scaling", 2, 3, 4)), expected, 1e-5);
    }

    @Test
    void rotationActiveZeroIgnoresPreAndPostRotationAndTheOrder() {
        FbxSceneFixture f = new FbxSceneFixture().model(1, "n", 0, p("RotationActive", 0), vec("PreRotation", 0, 0, 90),
                p("RotationOrder", 5), vec("Lcl Rotation", 70, -25, 40));
        ImportScene s = f.importScene();
        assertMatrix(restMatrix(s, 0), FbxTransform.euler(new double[] {70, -25, 40}, 0), EPS);
        assertThat(s.warnings()).contains("Model 'n': RotationActive is 0, so its PreRotation, PostRotation and"
                + " RotationOrder ZYX are not applied (FBX SDK semantics)");
        // a template saying 0 counts too; a file saying nothing is active
        ImportScene templated = new FbxSceneFixture().modelTemplate(p("RotationActive", 0))
                .model(1, "n", 0, vec("PreRotation", 0, 0, 90)).importScene();
        assertMatrix(restMatrix(templated, 0), FbxTransform.identity(), EPS);
        assertMatrix(local(vec("PreRotation", 0, 0, 90)), rz(90), EPS);
    }

    /**
     * {@code RotationSpaceForLimitOnly} 1: the pre- and post-rotation and the order serve the rotation limits alone,
     * and the FBX SDK evaluates the node as if inactive, even with {@code RotationActive} 1 (its OBJ exports of ufbx's
     * {@code casegen_rotation_space}, every order); 0 leaves an active node as it is.
     */
    @Test
    void rotationSpaceForLimitOnlyIgnoresPreAndPostRotationAndTheOrder() {
        ImportScene s = new FbxSceneFixture().model(1, "n", 0, p("RotationActive", 1),
                p("RotationSpaceForLimitOnly", 1), vec("PreRotation", 0, 0, 90), vec("PostRotation", 30, 0, 0),
                p("RotationOrder", 1), vec("Lcl Rotation", 70, -25, 40)).importScene();
        assertMatrix(restMatrix(s, 0), FbxTransform.euler(new double[] {70, -25, 40}, 0), EPS);
        assertThat(s.warnings()).contains("Model 'n': RotationSpaceForLimitOnly is 1, so its PreRotation, PostRotation"
                + " and RotationOrder XZY are not applied (FBX SDK semantics)");
        ImportScene used = new FbxSceneFixture().model(1, "n", 0, p("RotationActive", 1),
                p("RotationSpaceForLimitOnly", 0), vec("PreRotation", 0, 0, 90)).importScene();
        assertMatrix(restMatrix(used, 0), rz(90), EPS);
    }

    @Test
    void sphericXyzIsReadAsXyzWithAWarning() {
        ImportScene s = new FbxSceneFixture().model(1, "n", 0, p("RotationOrder", 6), vec("Lcl Rotation", 10, 20, 30))
                .importScene();
        assertMatrix(restMatrix(s, 0), FbxTransform.euler(new double[] {10, 20, 30}, 0), EPS);
        assertThat(s.warnings()).contains("Model 'n': RotationOrder eSphericXYZ is not supported; XYZ is used");
    }

    @Test
    void inheritTypeRSrsIsThePlainProductEvenUnderNonUniformScale() {
        ImportScene s = new FbxSceneFixture()
                .model(1, "parent", 0, p("InheritType", 1), vec("Lcl Scaling", 2, 1, 1))
                .model(2, "child", 1, p("InheritType", 1), vec("Lcl Translation", 1, 0, 0), vec("Lcl Rotation", 0, 0, 90))
                .importScene();
        // world = S(2,1,1) · T(1,0,0) · Rz(90): the child's x axis (along parent y) keeps length 1, its y axis doubles
        assertMatrix(restWorld(s, node(s, "child")), rows(0, -2, 0, 2, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1), EPS);
        assertThat(s.warnings()).noneMatch(w -> w.contains("InheritType"));
    }

    @Test
    void inheritTypeRrSsUnderAUniformScaleIsThePlainProduct() {
        ImportScene s = new FbxSceneFixture()
                .model(1, "parent", 0, vec("Lcl Scaling", 3, 3, 3))
                .model(2, "child", 1, p("InheritType", 0), vec("Lcl Translation", 1, 0, 0), vec("Lcl Rotation", 0, 0, 90))
                .importScene();
        assertMatrix(restWorld(s, node(s, "child")), rows(0, -3, 0, 3, 3, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1), EPS);
        assertThat(s.warnings()).noneMatch(w -> w.contains("InheritType"));
    }

    @Test
    void inheritTypeRrSsUnderANonUniformScaleIsWarned() {
        // RrSs would give the child R(parent) · R(child) · S(parent) · S(child): axes (2, 1, 1) after the child's 90°
        // rotation, i.e. shear-free here but different from the plain product, which TRS nodes compose
        ImportScene s = new FbxSceneFixture()
                .model(1, "parent", 0, vec("Lcl Scaling", 2, 1, 1))
                .model(2, "child", 1, vec("Lcl Rotation", 0, 0, 90))
                .importScene();
        assertThat(s.warnings()).contains("Model 'child' has InheritType 0 (RrSs) under a non-uniformly scaled parent,"
                + " which needs shear that translation/rotation/scale cannot hold; it is composed as the plain product"
                + " (RSrs)");
    }

    @Test
    void inheritTypeRrsDoesNotInheritTheParentsOwnScale() {
        ImportScene s = new FbxSceneFixture()
                .model(1, "parent", 0, vec("Lcl Scaling", 2, 2, 2))
                .model(2, "child", 1, p("InheritType", 2), vec("Lcl Translation", 1, 0, 0), vec("Lcl Rotation", 0, 0, 90))
                .importScene();
        // the translation is still scaled by the parent (world position (2, 0, 0)), the rotation and scale are not
        assertMatrix(restWorld(s, node(s, "child")), rows(0, -1, 0, 2, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1), EPS);
        ImportScene.Node child = s.nodes().get(node(s, "child"));
        assertThat(child.scale()).containsExactly(new float[] {0.5f, 0.5f, 0.5f}, within(1e-6f));
        assertThat(child.translation()).containsExactly(new float[] {1, 0, 0}, within(1e-6f));
    }

    @Test
    void inheritTypeRrsUnderANonUniformScaleUsesItsGeometricMean() {
        ImportScene s = new FbxSceneFixture()
                .model(1, "parent", 0, vec("Lcl Scaling", 1, 2, 4))
                .model(2, "child", 1, p("InheritType", 2))
                .importScene();
        assertThat(s.nodes().get(node(s, "child")).scale()).containsExactly(new float[] {0.5f, 0.5f, 0.5f}, within(1e-6f));
        assertThat(s.warnings()).contains("Model 'child' has InheritType 2 (Rrs) under a non-uniformly scaled parent; the"
                + " parent's scale is compensated by its geometric mean (shear cannot be represented)");
    }

    @Test
    void theAnimatedElementStackEvaluatesTheSameChain() {
        FbxSceneFixture f = new FbxSceneFixture().model(1, "n", 0, vec("Lcl Translation", 1, 2, 3),
                vec("RotationOffset", 0.5, 0, 0), vec("RotationPivot", 0, 1, 0), vec("PreRotation", 10, 0, 0),
                vec("Lcl Rotation", 15, 20, 30), vec("PostRotation", 0, -5, 0), p("RotationOrder", 3),
                vec("ScalingOffset", 0, 0, 0.25), vec("ScalingPivot", 1, 1, 0), vec("Lcl Scaling", 2, 3, 4));
        FbxScene scene = FbxScene.of(f.root(), 7400, io.posekit.asset.ImportLimits.DEFAULT.newBudget(), new ImportWarnings());
        FbxTransform.Data d = FbxTransform.read(scene.properties(scene.objects("Model").getFirst()), "n",
                new ImportWarnings());
        // angles animated on two axes: at t = 0.5 the chain with x = 15 + 0.5·10, y = 20 − 0.5·40
        Curve[] t = {Curve.constant(1), Curve.constant(2), Curve.constant(3)};
        Curve[] r = {Curve.linear(new float[] {0, 1}, new float[] {15, 25}), Curve.linear(new float[] {0, 1}, new float[] {20, -20}),
            Curve.constant(30)};
        Curve[] sc = {Curve.constant(2), Curve.constant(3), Curve.constant(4)};
        NodeTransformTrack track = new NodeTransformTrack(0, FbxTransform.elements(d, t, r, sc, 1, "n"));
        LocalPose pose = new LocalPose(1);
        new NodeTransformEvaluator().evaluate(track, 0.5, pose);
        double[] evaluated = new double[16];
        io.posekit.math.Matrices.composeTrs(pose.translations(), 0, pose.rotations(), 0, pose.scales(), 0, evaluated, 0);
        assertMatrix(evaluated, FbxTransform.local(d, new double[] {1, 2, 3}, new double[] {20, 0, 30},
                new double[] {2, 3, 4}), 1e-5);
        // constant parts are folded into matrices; the rotation is one element per animated axis (z is constant 30)
        assertThat(track.elements()).hasSize(8);
        assertThat(track.elements().get(0)).isInstanceOf(NodeTransformTrack.Translate.class);
        assertThat(track.elements().get(1)).isInstanceOf(NodeTransformTrack.Matrix.class);
        // YXZ: R = Rz · Rx · Ry
        assertThat(track.elements().subList(2, 5)).extracting(e -> ((NodeTransformTrack.Rotate) e).axisZ() == 1 ? "z"
                : ((NodeTransformTrack.Rotate) e).axisX() == 1 ? "x" : "y").containsExactly("z", "x", "y");
    }

    @Test
    void theGeometricTransformIsItsOwnMatrix() {
        FbxTransform.Data d = new FbxTransform.Data(FbxTransform.ZERO, FbxTransform.ZERO, FbxTransform.ONE,
                FbxTransform.ZERO, FbxTransform.ZERO, FbxTransform.ZERO, FbxTransform.ZERO, 0, FbxTransform.ZERO,
                FbxTransform.ZERO, 1, new double[] {1, 0, 0}, new double[] {0, 0, 90}, new double[] {2, 2, 2});
        assertMatrix(FbxTransform.geometric(d), rows(0, -2, 0, 1, 2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1), EPS);
        FbxTransform.Data none = new FbxTransform.Data(FbxTransform.ZERO, FbxTransform.ZERO, FbxTransform.ONE,
                FbxTransform.ZERO, FbxTransform.ZERO, FbxTransform.ZERO, FbxTransform.ZERO, 0, FbxTransform.ZERO,
                FbxTransform.ZERO, 1, FbxTransform.ZERO, FbxTransform.ZERO, FbxTransform.ONE);
        assertThat(FbxTransform.geometric(none)).isNull();
    }

    @Test
    void invertAffineUndoesTheMatrix() {
        double[] m = FbxTransform.local(new FbxTransform.Data(new double[] {1, 2, 3}, new double[] {10, 20, 30},
                new double[] {2, 3, 4}, FbxTransform.ZERO, FbxTransform.ZERO, FbxTransform.ZERO, FbxTransform.ZERO, 0,
                FbxTransform.ZERO, FbxTransform.ZERO, 1, FbxTransform.ZERO, FbxTransform.ZERO, FbxTransform.ONE));
        assertMatrix(FbxTransform.times(m, FbxTransform.invertAffine(m)), FbxTransform.identity(), 1e-12);
        assertThat(FbxTransform.invertAffine(FbxTransform.scale(new double[] {1, 0, 1}))).isNull();
    }
}
