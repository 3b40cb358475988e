package io.posekit.asset.collada;

import static io.posekit.asset.collada.ColladaTestSupport.assertInvalid;
import static io.posekit.asset.collada.ColladaTestSupport.build;
import static io.posekit.asset.collada.ColladaTestSupport.failure;
import static io.posekit.asset.collada.ColladaTestSupport.importDae;
import static io.posekit.asset.collada.ColladaTestSupport.node;
import static io.posekit.asset.collada.DaeBuilder.floats;
import static io.posekit.asset.collada.DaeBuilder.matrices;
import static io.posekit.asset.collada.DaeBuilder.names;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportScene;
import io.posekit.skinning.Primitive;
import org.junit.jupiter.api.Test;

/** Skin controllers: bind shape, inverse binds, influences, weight sums and joint resolution. */
class SkinImportTest {

    private static final String IDENTITY = "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1";

    /** Identity inverse binds for {@code n} joints. */
    private static double[] identities(int n) {
        double[] m = new double[16 * n];
        for (int k = 0; k < n; k++) {
            for (int i = 0; i < 4; i++) {
                m[16 * k + 5 * i] = 1;
            }
        }
        return m;
    }

    /**
     * A skin controller {@code ctrl} (name Armature) on the quad geometry {@code g} (4 control vertices).
     *
     * @param arrayTag Name_array or IDREF_array
     * @param weights the WEIGHT source values
     * @param vcount influences per control vertex
     * @param v (joint, weight index) pairs
     */
    private static String controller(String bindShape, String arrayTag, String[] joints, double[] ibms, double[] weights,
            String vcount, String v) {
        return "<controller id=\"ctrl\" name=\"Armature\"><skin source=\"#g\">"
                + (bindShape == null ? "" : "<bind_shape_matrix>" + bindShape + "</bind_shape_matrix>")
                + names("ctrl-joints", arrayTag, "JOINT", joints)
                + matrices("ctrl-ibm", ibms)
                + floats("ctrl-weights", "W", weights)
                + "<joints><input semantic=\"JOINT\" source=\"#ctrl-joints\"/>"
                + "<input semantic=\"INV_BIND_MATRIX\" source=\"#ctrl-ibm\"/></joints>"
                + "<vertex_weights count=\"" + vcount.split(" ").length + "\">"
                + "<input semantic=\"JOINT\" source=\"#ctrl-joints\" offset=\"0\"/>"
                + "<input semantic=\"WEIGHT\" source=\"#ctrl-weights\" offset=\"1\"/>"
                + "<vcount>" + vcount + "</vcount><v>" + v + "</v></vertex_weights></skin></controller>";
    }

    /** Quad geometry g, an armature with joints j0..j5 (sid s0.., name J0..; joints are named by sid), and the skinned node. */
    private static DaeBuilder scene(String controller, String instance) {
        StringBuilder joints = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            joints.append("<node id=\"j").append(i).append("\" sid=\"s").append(i).append("\" name=\"J").append(i)
                    .append("\" type=\"JOINT\"><translate>0 ").append(i).append(" 0</translate></node>");
        }
        return new DaeBuilder().geometry("g", "Quad", DaeBuilder.quadMesh("g")).controller(controller)
                .node("<node id=\"arm\" name=\"Armature\">" + joints + "</node>")
                .node("<node id=\"skinned\" name=\"Skinned\">" + instance + "</node>");
    }

    private static final String INSTANCE = "<instance_controller url=\"#ctrl\"><skeleton>#arm</skeleton></instance_controller>";

    /** Each of the 4 control vertices bound fully to joint 0. */
    private static String simple(String bindShape, String[] joints, double[] ibms) {
        return controller(bindShape, "Name_array", joints, ibms, new double[] {1}, "1 1 1 1", "0 0 0 0 0 0 0 0");
    }

    @Test
    void bindShapeIsFoldedIntoTheInverseBinds() {
        // BSM = T(1,0,0); IBM0 = Rz(90°); IBM1 = T(0,0,−2), all written row-major
        String bsm = "1 0 0 1  0 1 0 0  0 0 1 0  0 0 0 1";
        double[] ibms = {0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -2, 0, 0, 0, 1};
        ImportScene s = importDae(scene(simple(bsm, new String[] {"s0", "s1"}, ibms), INSTANCE));
        assertThat(s.skins()).singleElement().satisfies(skin -> {
            assertThat(skin.name()).isEqualTo("Armature");
            assertThat(skin.joints()).containsExactly(node(s, "s0"), node(s, "s1"));
            // joints are named by the sid skins refer to them by; plain nodes by their name
            assertThat(s.nodes().get(skin.joints()[0]).name()).isEqualTo("s0");
            assertThat(s.nodes()).extracting(ImportScene.Node::name).contains("Armature", "Skinned").doesNotContain("J0");
            // IBM0 · BSM = Rz(90°) · T(1,0,0): the translation is rotated onto +Y (BSM · IBM0 would keep it on +X)
            // IBM1 · BSM = T(1,0,−2); column-major
            assertThat(skin.inverseBindMatrices()).containsExactly(new float[] {
                0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1,
                1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, -2, 1}, within(1e-7f));
        });
        ImportScene.MeshInstance mesh = s.meshes().getFirst();
        assertThat(mesh.skin()).isZero();
        assertThat(mesh.name()).isEqualTo("Quad");
        assertThat(mesh.node()).isEqualTo(node(s, "Skinned"));
        // positions stay in mesh space, exactly as stored
        assertThat(mesh.primitives().getFirst().positions()).containsExactly(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0);
        assertThat(s.warnings()).isEmpty();
        build(scene(simple(bsm, new String[] {"s0", "s1"}, ibms), INSTANCE));
    }

    @Test
    void sixInfluencesAreKeptInFileOrderAndPaddedToEightSlots() {
        String[] joints = {"s0", "s1", "s2", "s3", "s4", "s5"};
        double[] weights = {0.1, 0.2, 1, 0.5};
        // v0: joints 0..5 with 0.1 0.1 0.2 0.2 0.2 0.2; v1: joint 1; v2: joints 3 and 2 at 0.5; v3: joint 5
        String v = "0 0 1 0 2 1 3 1 4 1 5 1  1 2  3 3 2 3  5 2";
        ImportScene s = importDae(scene(controller(IDENTITY, "Name_array", joints, identities(6), weights,
                "6 1 2 1", v), INSTANCE));
        Primitive p = s.meshes().getFirst().primitives().getFirst();
        assertThat(p.influencesPerVertex()).isEqualTo(8);
        assertThat(p.influenceSets()).isEqualTo(2);
        assertThat(p.attributes()).containsExactly("POSITION", "NORMAL", "JOINTS_0", "WEIGHTS_0", "JOINTS_1", "WEIGHTS_1");
        assertThat(p.joints()).containsExactly(
                0, 1, 2, 3, 4, 5, 0, 0,
                1, 0, 0, 0, 0, 0, 0, 0,
                3, 2, 0, 0, 0, 0, 0, 0,
                5, 0, 0, 0, 0, 0, 0, 0);
        assertThat(p.weights()).containsExactly(
                0.1f, 0.1f, 0.2f, 0.2f, 0.2f, 0.2f, 0, 0,
                1, 0, 0, 0, 0, 0, 0, 0,
                0.5f, 0.5f, 0, 0, 0, 0, 0, 0,
                1, 0, 0, 0, 0, 0, 0, 0);
        assertThat(s.warnings()).isEmpty();
        assertThat(build(scene(controller(IDENTITY, "Name_array", joints, identities(6), weights, "6 1 2 1", v), INSTANCE))
                .meshes()).hasSize(1);
    }

    @Test
    void weightsAreNotRenormalisedButOddSumsAreReportedOncePerSkin() {
        double[] weights = {0.971, 1, 0.25};
        // v0: 0.971 (off), v1: 1, v2: 0.25 + 0.25 (off), v3: 1
        String v = "0 0  0 1  0 2 1 2  1 1";
        ImportScene s = importDae(scene(controller(null, "Name_array", new String[] {"s0", "s1"}, identities(2), weights,
                "1 1 2 1", v), INSTANCE));
        assertThat(s.warnings()).containsExactly("skin 'ctrl': 2 of 4 vertices have weights that do not sum to 1 "
                + "(0.5–1); they are normalised when skinning");
        Primitive p = s.meshes().getFirst().primitives().getFirst();
        assertThat(p.influencesPerVertex()).isEqualTo(4);
        assertThat(p.weights()).containsExactly(0.971f, 0, 0, 0, 1, 0, 0, 0, 0.25f, 0.25f, 0, 0, 1, 0, 0, 0);
    }

    @Test
    void bindShapeInfluencesAreSkipped() {
        String v = "0 0  0 0 -1 0  0 0  0 0";
        ImportScene s = importDae(scene(controller(null, "Name_array", new String[] {"s0"}, identities(1),
                new double[] {1}, "1 2 1 1", v), INSTANCE));
        assertThat(s.warnings()).containsExactly(
                "skin 'ctrl': 1 influence binds to the bind shape (joint index -1); it is ignored");
        assertThat(s.meshes().getFirst().primitives().getFirst().influencesPerVertex()).isEqualTo(4);
    }

    @Test
    void moreThan64InfluencesAreTooLarge() {
        StringBuilder v = new StringBuilder();
        for (int i = 0; i < 65; i++) {
            v.append("0 0 ");
        }
        ImportException e = failure(() -> importDae(scene(controller(null, "Name_array", new String[] {"s0"},
                identities(1), new double[] {1}, "65 1 1 1", v + "0 0 0 0 0 0"), INSTANCE)));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo("skin 'ctrl': control vertex 0 has 65 joint influences; the limit is 64"
                + " (posekit.limits.influences-per-vertex)");
    }

    @Test
    void influenceIndicesAreChecked() {
        assertInvalid(() -> importDae(scene(controller(null, "Name_array", new String[] {"s0"}, identities(1),
                new double[] {1}, "1 1 1 1", "0 0 0 0 1 0 0 0"), INSTANCE)),
                "skin 'ctrl' <vertex_weights>: joint index 1 is out of range for source 'ctrl-joints' with 1 joints");
        assertInvalid(() -> importDae(scene(controller(null, "Name_array", new String[] {"s0"}, identities(1),
                new double[] {1}, "1 1 1 1", "0 0 0 0 0 5 0 0"), INSTANCE)),
                "skin 'ctrl' <vertex_weights>: weight index 5 is out of range for source 'ctrl-weights' with 1 elements");
        assertInvalid(() -> importDae(scene(controller(null, "Name_array", new String[] {"s0"}, identities(1),
                new double[] {1}, "1 1 1", "0 0 0 0 0 0"), INSTANCE)),
                "skin 'ctrl': geometry 'g' polylist 0 uses position 3 but <vertex_weights> has 3 entries");
        assertInvalid(() -> importDae(scene(controller(null, "Name_array", new String[] {"s0"}, identities(1),
                new double[] {1}, "1 1 2 1", "0 0 0 0 0 0 0 0"), INSTANCE)),
                "skin 'ctrl' <vertex_weights>: <vcount> adds up to 5 influences (10 indices) but <v> has 8 indices");
        assertInvalid(() -> importDae(scene(controller(null, "Name_array", new String[] {"s0", "s1"}, identities(1),
                new double[] {1}, "1 1 1 1", "0 0 0 0 0 0 0 0"), INSTANCE)),
                "skin 'ctrl': INV_BIND_MATRIX source 'ctrl-ibm' has 1 matrices but there are 2 joints");
    }

    @Test
    void jointsResolveBySidThenIdThenName() {
        // "j1" is node j1's id but also node j4's sid: the sid wins
        String nodes = "<node id=\"root\">"
                + "<node id=\"j1\" sid=\"a\" name=\"First\"/>"
                + "<node id=\"j4\" sid=\"j1\" name=\"Second\"/>"
                + "<node id=\"j5\" name=\"Third\"/>"
                + "</node>";
        String ctrl = simple(null, new String[] {"j1", "j5", "Third", "a"}, identities(4));
        DaeBuilder b = new DaeBuilder().geometry("g", "Quad", DaeBuilder.quadMesh("g")).controller(ctrl).node(nodes)
                .node("<node id=\"skinned\"><instance_controller url=\"#ctrl\"><skeleton>#root</skeleton></instance_controller></node>");
        ImportScene s = importDae(b);
        assertThat(s.skins().getFirst().joints())
                .containsExactly(node(s, "Second"), node(s, "Third"), node(s, "Third"), node(s, "First"));
    }

    @Test
    void idrefJointsResolveByNodeId() {
        String ctrl = controller(null, "IDREF_array", new String[] {"j3", "j0"}, identities(2), new double[] {1},
                "1 1 1 1", "0 0 0 0 1 0 1 0");
        ImportScene s = importDae(scene(ctrl, INSTANCE));
        assertThat(s.skins().getFirst().joints()).containsExactly(node(s, "s3"), node(s, "s0"));
        // an IDREF is a node id, never a sid or a name
        String bySid = controller(null, "IDREF_array", new String[] {"s3"}, identities(1), new double[] {1},
                "1 1 1 1", "0 0 0 0 0 0 0 0");
        assertInvalid(() -> importDae(scene(bySid, INSTANCE)),
                "skin 'ctrl': joint 0 's3' matches no node's id under <skeleton> '#arm'");
    }

    @Test
    void skeletonRootsScopeTheLookupAndEachInstanceGetsItsOwnSkin() {
        String ctrl = simple(null, new String[] {"bone"}, identities(1));
        DaeBuilder b = new DaeBuilder().geometry("g", "Quad", DaeBuilder.quadMesh("g")).controller(ctrl)
                .node("<node id=\"a\"><node id=\"a-bone\" sid=\"bone\" name=\"A bone\"/></node>")
                .node("<node id=\"b\"><node id=\"b-bone\" sid=\"bone\" name=\"B bone\"/></node>")
                .node("<node id=\"first\"><instance_controller url=\"#ctrl\"><skeleton>#b</skeleton></instance_controller>"
                        + "<instance_controller url=\"#ctrl\"/></node>");
        ImportScene s = importDae(b);
        assertThat(s.skins()).hasSize(2);
        assertThat(s.skins().get(0).joints()).containsExactly(node(s, "B bone"));
        // without a skeleton every node is searched, in document order
        assertThat(s.skins().get(1).joints()).containsExactly(node(s, "A bone"));
        assertThat(s.meshes()).extracting(ImportScene.MeshInstance::skin).containsExactly(0, 1);
        assertThat(s.meshes().get(1).primitives()).isSameAs(s.meshes().get(0).primitives());
        assertThat(build(b).skins()).hasSize(2);
    }

    @Test
    void unresolvableJointsAndSkeletonsAreReported() {
        String ctrl = simple(null, new String[] {"s0", "nope"}, identities(2));
        assertInvalid(() -> importDae(scene(ctrl, INSTANCE)),
                "skin 'ctrl': joint 1 'nope' matches no node's sid, id or name under <skeleton> '#arm'");
        ImportScene s = importDae(scene(simple(null, new String[] {"s0"}, identities(1)),
                "<instance_controller url=\"#ctrl\"><skeleton>#ghost</skeleton></instance_controller>"));
        assertThat(s.warnings()).containsExactly(
                "skin 'ctrl': <skeleton> '#ghost' is not a node of the scene; joints are looked up among all nodes");
        assertThat(s.skins().getFirst().joints()).containsExactly(node(s, "s0"));
    }

    @Test
    void aSkinOverAMorphCarriesTheMorphTargets() {
        // the only target is the base itself: NORMALIZED displacements are all zero
        String morph = "<controller id=\"morph\"><morph source=\"#g\" method=\"NORMALIZED\">"
                + names("morph-targets", "IDREF_array", "IDREF", "g") + floats("morph-weights", "W", 0.5)
                + "<targets><input semantic=\"MORPH_TARGET\" source=\"#morph-targets\"/>"
                + "<input semantic=\"MORPH_WEIGHT\" source=\"#morph-weights\"/></targets></morph></controller>";
        String skin = simple(null, new String[] {"s0"}, identities(1)).replace("<skin source=\"#g\">", "<skin source=\"#morph\">");
        ImportScene s = importDae(scene(skin + morph, INSTANCE));
        assertThat(s.meshes()).singleElement().satisfies(m -> {
            assertThat(m.skin()).isZero();
            assertThat(m.morphWeights()).containsExactly(0.5f);
            Primitive p = m.primitives().getFirst();
            assertThat(p.influencesPerVertex()).isEqualTo(4);
            assertThat(p.morphTargetCount()).isEqualTo(1);
            assertThat(p.morphTargets().positionDeltas(0)).containsOnly(0f).hasSize(12);
        });
        assertThat(s.warnings()).isEmpty();
        ImportScene rigid = importDae(scene(skin + morph, "<instance_controller url=\"#morph\"/>"));
        assertThat(rigid.meshes()).singleElement().satisfies(m -> {
            assertThat(m.skin()).isEqualTo(-1);
            assertThat(m.primitives().getFirst().morphTargetCount()).isEqualTo(1);
        });
        assertThat(rigid.skins()).isEmpty();
    }
}
