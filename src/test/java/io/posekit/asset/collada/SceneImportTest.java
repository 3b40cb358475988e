package io.posekit.asset.collada;

import static io.posekit.asset.collada.ColladaTestSupport.HALF;
import static io.posekit.asset.collada.ColladaTestSupport.assertInvalid;
import static io.posekit.asset.collada.ColladaTestSupport.build;
import static io.posekit.asset.collada.ColladaTestSupport.importDae;
import static io.posekit.asset.collada.ColladaTestSupport.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.sampling.Pose;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The visual scene: synthetic root with axis/unit conversion, names, order, transform elements, instances. */
class SceneImportTest {

    private static final float EPS = 1e-6f;

    /** The rest TRS of a single top-level node whose content is {@code content}. */
    private static ImportScene.Node single(String content) {
        ImportScene scene = importDae(new DaeBuilder().node("<node id=\"n\">" + content + "</node>"));
        assertThat(scene.nodes()).hasSize(2);
        return scene.nodes().get(1);
    }

    private static void assertTrs(ImportScene.Node n, float[] t, float[] r, float[] s) {
        assertThat(n.translation()).containsExactly(t, within(EPS));
        assertThat(n.rotation()).containsExactly(r, within(EPS));
        assertThat(n.scale()).containsExactly(s, within(EPS));
    }

    private static final float[] ZERO = {0, 0, 0};
    private static final float[] IDENTITY = {0, 0, 0, 1};
    private static final float[] ONES = {1, 1, 1};
    private static final float[] Z90 = {0, 0, HALF, HALF};

    @Test
    void translateRotateAndScaleAlone() {
        assertTrs(single("<translate>1 2 3</translate>"), new float[] {1, 2, 3}, IDENTITY, ONES);
        assertTrs(single("<rotate>0 0 1 90</rotate>"), ZERO, Z90, ONES);
        assertTrs(single("<rotate>0 0 2 90</rotate>"), ZERO, Z90, ONES); // the axis is normalised
        assertTrs(single("<scale>2 3 4</scale>"), ZERO, IDENTITY, new float[] {2, 3, 4});
    }

    @Test
    void elementsComposeInDocumentOrder() {
        // T(1,0,0) · Rz(90) · S(2): translation stays (1,0,0)
        assertTrs(single("<translate>1 0 0</translate><rotate>0 0 1 90</rotate><scale>2 2 2</scale>"),
                new float[] {1, 0, 0}, Z90, new float[] {2, 2, 2});
        // Rz(90) · T(1,0,0): the translation is rotated onto +Y
        assertTrs(single("<rotate>0 0 1 90</rotate><translate>1 0 0</translate>"), new float[] {0, 1, 0}, Z90, ONES);
        // Rx(90) · Rz(90) = quaternion product qx · qz = (½, −½, ½, ½); in the other order it would be (½, ½, ½, ½)
        assertTrs(single("<rotate>1 0 0 90</rotate><rotate>0 0 1 90</rotate>"), ZERO,
                new float[] {0.5f, -0.5f, 0.5f, 0.5f}, ONES);
    }

    @Test
    void matrixIsRowMajor() {
        // rows: [0 -1 0 5] [1 0 0 6] [0 0 1 7] [0 0 0 1] = T(5,6,7) · Rz(+90)
        assertTrs(single("<matrix>0 -1 0 5  1 0 0 6  0 0 1 7  0 0 0 1</matrix>"), new float[] {5, 6, 7}, Z90, ONES);
        // and composes with the other elements in order: T(1,0,0) · M
        assertTrs(single("<translate>1 0 0</translate><matrix>0 -1 0 5 1 0 0 6 0 0 1 7 0 0 0 1</matrix>"),
                new float[] {6, 6, 7}, Z90, ONES);
    }

    @Test
    void lookatPlacesAnObjectLookingDownItsMinusZ() {
        // at (0,0,5) looking at the origin with +Y up: no rotation
        assertTrs(single("<lookat>0 0 5  0 0 0  0 1 0</lookat>"), new float[] {0, 0, 5}, IDENTITY, ONES);
        // at (5,0,0) looking at the origin: −Z must point along −X, i.e. Ry(+90°)
        assertTrs(single("<lookat>5 0 0  0 0 0  0 1 0</lookat>"), new float[] {5, 0, 0},
                new float[] {0, HALF, 0, HALF}, ONES);
    }

    @Test
    void skewMatrixKnownAnswers() {
        double[] m = new double[16];
        // shear along +X by tan(45°) per unit of Y: x' = x + y
        assertThat(TransformMath.matrix(TransformElement.Kind.SKEW, new double[] {45, 0, 1, 0, 1, 0, 0}, m)).isTrue();
        assertThat(m).containsExactly(new double[] {1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, within(1e-12));
        // rotation axis (1,1,0) is 45° from the translation axis +X; skewing it by 15° more turns it to 60° from +Y:
        // α = tan 60° − tan 45° = √3 − 1
        assertThat(TransformMath.matrix(TransformElement.Kind.SKEW, new double[] {15, 1, 1, 0, 1, 0, 0}, m)).isTrue();
        assertThat(m).containsExactly(new double[] {1, 0, 0, 0, Math.sqrt(3) - 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1},
                within(1e-12));
        // parallel axes: degenerate, identity
        assertThat(TransformMath.matrix(TransformElement.Kind.SKEW, new double[] {30, 1, 0, 0, 2, 0, 0}, m)).isFalse();
        assertThat(m).containsExactly(new double[] {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, within(0.0));
    }

    @Test
    void shearIsWarnedOncePerNode() {
        ImportScene scene = importDae(new DaeBuilder().node("<node id=\"sheared\"><skew>45 0 1 0 1 0 0</skew></node>"));
        assertThat(scene.warnings()).singleElement().asString().startsWith(
                "node 'sheared': its transform has shear that translation/rotation/scale cannot represent");
        ImportScene clean = importDae(new DaeBuilder().node("<node id=\"n\"><rotate>1 0 0 33</rotate><scale>1 2 3</scale></node>"));
        assertThat(clean.warnings()).isEmpty();
    }

    @Test
    void badTransformValuesAreRejected() {
        assertInvalid(() -> importDae(new DaeBuilder().node("<node id=\"n\"><translate>1 2</translate></node>")),
                "node 'n': <translate> needs 3 numbers, not 2");
        assertInvalid(() -> importDae(new DaeBuilder().node("<node id=\"n\"><scale>1 INF 1</scale></node>")),
                "node 'n': <scale> value 1 (INF) is not finite");
        assertInvalid(() -> importDae(new DaeBuilder().node("<node id=\"n\"><rotate>1 0 0 1e999</rotate></node>")),
                "node 'n': <rotate> value 3 (1e999) is not finite");
        assertInvalid(() -> importDae(new DaeBuilder().node("<node id=\"n\"><translate>1 2 0x3</translate></node>")),
                "node 'n': <translate> value 2 (0x3) is not a number");
    }

    /**
     * 3ds Max's COLLADA exporter under a decimal-comma locale writes {@code <translate>-7,589569 -14,885468
     * 0,000000</translate>} (assimp's test models): where the number of values is known and the whitespace tokens
     * number exactly that, the commas are decimal commas.
     */
    @Test
    void max3dsDecimalCommasAreReadWhereTheCountMakesThemUnambiguous() {
        assertTrs(single("<translate>-7,589569 -14,885468 0,000000</translate>"),
                new float[] {-7.589569f, -14.885468f, 0}, IDENTITY, ONES);
        assertTrs(single("<scale>2,5 1 1,5e1</scale>"), ZERO, IDENTITY, new float[] {2.5f, 1, 15});
        // six numbers written with commas as separators are not three decimals, nor are two tokens three numbers
        assertInvalid(() -> importDae(new DaeBuilder().node("<node id=\"n\"><translate>1,2,3</translate></node>")),
                "node 'n': <translate> needs 3 numbers, not 1");
        assertInvalid(() -> importDae(new DaeBuilder().node("<node id=\"n\"><translate>1 2,5 3,</translate></node>")),
                "node 'n': <translate> value 2 (3,) is not a number");
        // a float_array's count: 3 tokens for count 3 are decimals; 2 tokens for count 4 are not
        assertThat(Tokens.floats("0,5 -1,25 3", 3, "float_array 'a'", io.posekit.asset.ImportLimits.DEFAULT.newBudget()))
                .containsExactly(0.5f, -1.25f, 3f);
        assertInvalid(() -> Tokens.floats("0,5 1", 4, "float_array 'a'", io.posekit.asset.ImportLimits.DEFAULT.newBudget()),
                "float_array 'a' value 0 (0,5) is not a number");
    }

    @Test
    void transformValuesBeyondTheFloatRangeAreRejected() {
        // found by the upload fuzzer: an animated node's unanimated parameters became constant curves, and 1e308
        // as a float is infinite (an internal error, not a precise 422)
        DaeBuilder animated = new DaeBuilder()
                .node("<node id=\"n\"><rotate sid=\"r\">0 0 1 0</rotate><scale>1e308 1 1</scale></node>")
                .animation(DaeBuilder.linear("a", "n/r.ANGLE", new double[] {0, 1}, 1, 0, 90));
        assertInvalid(() -> importDae(animated), "node 'n': <scale> value 0 (1e308) is beyond the range of a float");
        assertInvalid(() -> importDae(new DaeBuilder().node("<node id=\"n\"><translate>0 3.5e38 0</translate></node>")),
                "node 'n': <translate> value 1 (3.5e38) is beyond the range of a float");
        ImportScene huge = importDae(new DaeBuilder().unit("1e300").node("<node id=\"n\"/>"));
        assertThat(huge.warnings()).containsExactly("<unit> meter '1e300' is not a positive number; 1 is used");
        assertThat(huge.nodes().getFirst().scale()).containsExactly(1, 1, 1);
    }

    @Test
    void syntheticRootConvertsZUpToYUp() {
        ImportScene scene = importDae(new DaeBuilder().upAxis("Z_UP").node("<node id=\"a\"/>"));
        ImportScene.Node root = scene.nodes().getFirst();
        assertThat(root.name()).isEqualTo("Scene");
        assertThat(root.parent()).isEqualTo(-1);
        assertThat(root.sourceIndex()).isEqualTo(-1);
        assertTrs(root, ZERO, new float[] {-HALF, 0, 0, HALF}, ONES);
        assertThat(scene.nodes().get(1).parent()).isZero();
    }

    @Test
    void syntheticRootConvertsXUpAndYUp() {
        assertTrs(importDae(new DaeBuilder().upAxis("X_UP")).nodes().getFirst(), ZERO, new float[] {0, 0, HALF, HALF}, ONES);
        assertTrs(importDae(new DaeBuilder().upAxis("Y_UP")).nodes().getFirst(), ZERO, IDENTITY, ONES);
        assertTrs(importDae(new DaeBuilder()).nodes().getFirst(), ZERO, IDENTITY, ONES);
        ImportScene odd = importDae(new DaeBuilder().upAxis("W_UP"));
        assertThat(odd.warnings()).containsExactly("<up_axis> 'W_UP' is not X_UP, Y_UP or Z_UP; Y_UP is used");
    }

    @Test
    void unitMeterScalesTheRoot() {
        ImportScene.Node root = importDae(new DaeBuilder().upAxis("Z_UP").unit("0.01")).nodes().getFirst();
        assertTrs(root, ZERO, new float[] {-HALF, 0, 0, HALF}, new float[] {0.01f, 0.01f, 0.01f});
        ImportScene bad = importDae(new DaeBuilder().unit("-2"));
        assertThat(bad.nodes().getFirst().scale()).containsExactly(1, 1, 1);
        assertThat(bad.warnings()).containsExactly("<unit> meter '-2' is not a positive number; 1 is used");
        // a Z-up centimetre file: a node at native (0, 0, 100) ends up 1 m above the origin in model space
        Model model = build(new DaeBuilder().upAxis("Z_UP").unit("0.01")
                .node("<node id=\"n\"><translate>0 0 100</translate></node>"));
        float[] world = Pose.evaluate(model.rig(), null, 0).modelMatrices();
        int n = model.rig().indexOf("n");
        assertThat(new float[] {world[16 * n + 12], world[16 * n + 13], world[16 * n + 14]})
                .containsExactly(new float[] {0, 1, 0}, within(1e-6f));
    }

    @Test
    void namesParentsAndSourceIndices() {
        ImportScene scene = importDae(new DaeBuilder().scene("vs", null)
                .node("<node id=\"a\" name=\"A\"><node sid=\"only-sid\"><node/></node></node>")
                .node("<node id=\"b\"/>"));
        assertThat(scene.nodes()).extracting(ImportScene.Node::name).containsExactly("vs", "A", "only-sid", null, "b");
        assertThat(scene.nodes()).extracting(ImportScene.Node::parent).containsExactly(-1, 0, 1, 2, 0);
        assertThat(scene.nodes()).extracting(ImportScene.Node::sourceIndex).containsExactly(-1, 0, 1, 2, 3);
        assertThat(scene.warnings()).isEmpty();
    }

    @Test
    void instanceNodeInstantiatesLibrarySubtrees() {
        DaeBuilder b = new DaeBuilder()
                .libraryNode("<node id=\"lib\" name=\"Lib\"><translate>1 0 0</translate><node name=\"LibChild\"/></node>")
                .node("<node id=\"a\" name=\"A\"><instance_node url=\"#lib\"/><node name=\"A2\"/><instance_node url=\"#lib\"/></node>");
        ImportScene scene = importDae(b);
        assertThat(scene.nodes()).extracting(ImportScene.Node::name)
                .containsExactly("Scene", "A", "Lib", "LibChild", "A2", "Lib", "LibChild");
        assertThat(scene.nodes()).extracting(ImportScene.Node::parent).containsExactly(-1, 0, 1, 2, 1, 1, 5);
        assertThat(scene.nodes()).extracting(ImportScene.Node::sourceIndex).containsExactly(-1, 0, -1, -1, 1, -1, -1);
        assertThat(scene.nodes().get(5).translation()).containsExactly(1, 0, 0);
        assertThat(build(b).rig().nodeCount()).isEqualTo(7);
    }

    @Test
    void instanceNodeCyclesAreRejected() {
        DaeBuilder b = new DaeBuilder()
                .libraryNode("<node id=\"x\"><node id=\"y\"><instance_node url=\"#x\"/></node></node>")
                .node("<node id=\"a\"><instance_node url=\"#x\"/></node>");
        assertInvalid(() -> importDae(b),
                "node 'y': <instance_node> '#x' instantiates a node that contains it (an instantiation cycle)");
        DaeBuilder self = new DaeBuilder().node("<node id=\"a\"><instance_node url=\"#a\"/></node>");
        assertInvalid(() -> importDae(self),
                "node 'a': <instance_node> '#a' instantiates a node that contains it (an instantiation cycle)");
    }

    @Test
    void exponentialInstantiationHitsTheNodeLimit() {
        DaeBuilder b = new DaeBuilder();
        b.libraryNode("<node id=\"l0\"/>");
        for (int i = 1; i <= 30; i++) {
            b.libraryNode("<node id=\"l" + i + "\"><instance_node url=\"#l" + (i - 1) + "\"/><instance_node url=\"#l"
                    + (i - 1) + "\"/></node>");
        }
        b.node("<node id=\"top\"><instance_node url=\"#l30\"/></node>");
        var e = ColladaTestSupport.failure(() -> importDae(b));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo("the scene has more than 100000 nodes; the limit is 100000 (posekit.limits.nodes)");
    }

    @Test
    void visualSceneSelection() {
        String xml = new DaeBuilder().node("<node id=\"a\"/>").toXml()
                .replace("<scene><instance_visual_scene url=\"#Scene\"/></scene>", "");
        assertThat(importDae(xml).nodes()).hasSize(2);
        String missing = new DaeBuilder().toXml().replace("url=\"#Scene\"", "url=\"#Nope\"");
        assertInvalid(() -> importDae(missing), "<instance_visual_scene> url '#Nope' is not a <visual_scene> in this file");
        String none = "<COLLADA xmlns=\"" + ColladaDocument.NAMESPACE_14 + "\" version=\"1.4.1\"><asset/></COLLADA>";
        assertInvalid(() -> importDae(none), "the file has no <visual_scene>");
    }

    @Test
    void rigidMeshInstancesShareDecodedPrimitives() {
        DaeBuilder b = new DaeBuilder().geometry("quad", "Quad", DaeBuilder.quadMesh("quad"))
                .geometry("unnamed", null, DaeBuilder.quadMesh("unnamed"))
                .node("<node id=\"a\" name=\"A\"><instance_geometry url=\"#quad\"/></node>")
                .node("<node id=\"b\" name=\"B\"><instance_geometry url=\"#quad\"/><instance_geometry url=\"#unnamed\"/></node>")
                .node("<node id=\"c\"><instance_geometry url=\"#missing\"/></node>");
        ImportScene scene = importDae(b);
        List<ImportScene.MeshInstance> meshes = scene.meshes();
        assertThat(meshes).extracting(ImportScene.MeshInstance::name).containsExactly("Quad", "Quad", "B");
        assertThat(meshes).extracting(ImportScene.MeshInstance::node).containsExactly(1, 2, 2);
        assertThat(meshes).extracting(ImportScene.MeshInstance::skin).containsExactly(-1, -1, -1);
        assertThat(meshes).extracting(ImportScene.MeshInstance::sourceMesh).containsExactly(0, 0, 1);
        assertThat(meshes.get(1).primitives()).isSameAs(meshes.get(0).primitives());
        assertThat(scene.warnings()).containsExactly(
                "node 'c': <instance_geometry> url '#missing' is not a <geometry> in this file; skipped");
        assertThat(build(b).meshes()).hasSize(3);
        assertThat(node(scene, "B")).isEqualTo(2);
    }
}
