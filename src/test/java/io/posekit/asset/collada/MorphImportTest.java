package io.posekit.asset.collada;

import static io.posekit.asset.collada.ColladaTestSupport.assertInvalid;
import static io.posekit.asset.collada.ColladaTestSupport.build;
import static io.posekit.asset.collada.ColladaTestSupport.importDae;
import static io.posekit.asset.collada.DaeBuilder.floats;
import static io.posekit.asset.collada.DaeBuilder.matrices;
import static io.posekit.asset.collada.DaeBuilder.names;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.Model;
import io.posekit.sampling.Pose;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.MeshPoser;
import io.posekit.skinning.PosedPrimitive;
import io.posekit.skinning.VertexAttribute;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/**
 * COLLADA {@code <morph>} controllers with known answers: NORMALIZED ({@code (1 − Σw)·base + Σ w·target}) and
 * RELATIVE ({@code base + Σ w·target}), instanced directly and as the source of a skin, and every rejection.
 */
class MorphImportTest {

    /** A quad like {@link DaeBuilder#quadMesh} with the given 4 positions and one normal. */
    private static String quad(String id, double[] positions, double... normal) {
        return floats(id + "-positions", "XYZ", positions)
                + floats(id + "-normals", "XYZ", normal)
                + "<vertices id=\"" + id + "-vertices\"><input semantic=\"POSITION\" source=\"#" + id + "-positions\"/></vertices>"
                + "<polylist count=\"1\"><input semantic=\"VERTEX\" source=\"#" + id + "-vertices\" offset=\"0\"/>"
                + "<input semantic=\"NORMAL\" source=\"#" + id + "-normals\" offset=\"1\"/>"
                + "<vcount>4</vcount><p>0 0 1 0 2 0 3 0</p></polylist>";
    }

    private static final double[] BASE = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};

    static String morph(String method, String targets, double... weights) {
        return "<controller id=\"morph\" name=\"Face\"><morph source=\"#g\"" + (method == null ? "" : " method=\"" + method + "\"") + ">"
                + names("morph-targets", "IDREF_array", "IDREF", targets.split(" "))
                + floats("morph-weights", "W", weights)
                + "<targets><input semantic=\"MORPH_TARGET\" source=\"#morph-targets\"/>"
                + "<input semantic=\"MORPH_WEIGHT\" source=\"#morph-weights\"/></targets></morph></controller>";
    }

    /**
     * Base quad g; for NORMALIZED, targets are whole shapes: t1 = base lifted to z = 2 with normal (0,1,1), t2 = base
     * with vertex 1 at (3,0,0). For RELATIVE they are offsets: r1 = (0,0,2) everywhere with normal (0,1,0), r2 =
     * (2,0,0) at vertex 1.
     */
    static DaeBuilder scene(String controller, String instance) {
        return new DaeBuilder().geometry("g", "Base", quad("g", BASE, 0, 0, 1))
                .geometry("t1", null, quad("t1", new double[] {0, 0, 2, 1, 0, 2, 1, 1, 2, 0, 1, 2}, 0, 1, 1))
                .geometry("t2", null, quad("t2", new double[] {0, 0, 0, 3, 0, 0, 1, 1, 0, 0, 1, 0}, 0, 0, 1))
                .geometry("r1", null, quad("r1", new double[] {0, 0, 2, 0, 0, 2, 0, 0, 2, 0, 0, 2}, 0, 1, 0))
                .geometry("r2", null, quad("r2", new double[] {0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0}, 0, 0, 0))
                .controller(controller)
                .node("<node id=\"arm\" name=\"Armature\"><node id=\"j0\" sid=\"s0\" type=\"JOINT\">"
                        + "<translate>0 0 5</translate></node></node>")
                .node("<node id=\"face\" name=\"FaceNode\">" + instance + "</node>");
    }

    static final String INSTANCE = "<instance_controller url=\"#morph\"/>";

    /** A skin over the morph: every vertex bound to joint s0 (node j0, at T(0, 0, 5)). */
    static final String SKIN_OVER_MORPH = "<controller id=\"ctrl\" name=\"Armature\"><skin source=\"#morph\">"
            + names("ctrl-joints", "Name_array", "JOINT", "s0")
            + matrices("ctrl-ibm", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
            + floats("ctrl-weights", "W", 1)
            + "<joints><input semantic=\"JOINT\" source=\"#ctrl-joints\"/>"
            + "<input semantic=\"INV_BIND_MATRIX\" source=\"#ctrl-ibm\"/></joints>"
            + "<vertex_weights count=\"4\"><input semantic=\"JOINT\" source=\"#ctrl-joints\" offset=\"0\"/>"
            + "<input semantic=\"WEIGHT\" source=\"#ctrl-weights\" offset=\"1\"/>"
            + "<vcount>1 1 1 1</vcount><v>0 0 0 0 0 0 0 0</v></vertex_weights></skin></controller>";

    private static PosedPrimitive pose(Model model) {
        MeshInstance mesh = model.meshes().getFirst();
        Pose pose = Pose.evaluate(model.rig(), null, 0);
        float[] skinning = mesh.skinned() ? MeshPoser.skinningMatrices(model.skins().get(mesh.skin()),
                pose.modelMatrices()) : null;
        return MeshPoser.pose(mesh, mesh.morphWeights(), skinning, pose.modelMatrices(),
                EnumSet.of(VertexAttribute.POSITION, VertexAttribute.NORMAL)).getFirst();
    }

    @Test
    void normalizedTargetsBlendWholeShapes() {
        Model model = build(scene(morph("NORMALIZED", "t1 t2", 0.5, 0.25), INSTANCE));
        MeshInstance mesh = model.meshes().getFirst();
        assertThat(mesh.name()).isEqualTo("Base");
        assertThat(mesh.skinned()).isFalse();
        assertThat(mesh.morphWeights()).containsExactly(0.5f, 0.25f);
        assertThat(model.warnings()).isEmpty();
        // (1 − 0.75)·base + 0.5·t1 + 0.25·t2 = base + 0.5·(0,0,2) + 0.25·(t2 − base)
        PosedPrimitive p = pose(model);
        assertThat(p.positions()).containsExactly(0, 0, 1, 1.5f, 0, 1, 1, 1, 1, 0, 1, 1);
        // normals: (0,0,1) + 0.5·((0,1,1) − (0,0,1)) = (0,0.5,1), normalised
        float n = (float) (1 / Math.sqrt(1.25));
        assertThat(p.normals()).containsExactly(new float[] {0, 0.5f * n, n, 0, 0.5f * n, n, 0, 0.5f * n, n,
            0, 0.5f * n, n}, within(1e-7f));
        // the default method is NORMALIZED
        assertThat(pose(build(scene(morph(null, "t1 t2", 0.5, 0.25), INSTANCE))).positions())
                .containsExactly(p.positions());
    }

    @Test
    void relativeTargetsAreOffsets() {
        Model model = build(scene(morph("RELATIVE", "r1 r2", 0.5, 0.25), INSTANCE));
        PosedPrimitive p = pose(model);
        // base + 0.5·r1 + 0.25·r2
        assertThat(p.positions()).containsExactly(0, 0, 1, 1.5f, 0, 1, 1, 1, 1, 0, 1, 1);
        float n = (float) (1 / Math.sqrt(1.25));
        assertThat(p.normals()).containsExactly(new float[] {0, 0.5f * n, n, 0, 0.5f * n, n, 0, 0.5f * n, n,
            0, 0.5f * n, n}, within(1e-7f));
    }

    @Test
    void aSkinOverAMorphMorphsThenSkins() {
        Model model = build(scene(SKIN_OVER_MORPH + morph("NORMALIZED", "t1 t2", 0.5, 0.25),
                "<instance_controller url=\"#ctrl\"><skeleton>#arm</skeleton></instance_controller>"));
        MeshInstance mesh = model.meshes().getFirst();
        assertThat(mesh.skinned()).isTrue();
        assertThat(mesh.morphWeights()).containsExactly(0.5f, 0.25f);
        assertThat(mesh.primitives().getFirst().influencesPerVertex()).isEqualTo(4);
        // morphed as above, then joint s0 at T(0,0,5) with an identity inverse bind
        assertThat(pose(model).positions()).containsExactly(0, 0, 6, 1.5f, 0, 6, 1, 1, 6, 0, 1, 6);
    }

    @Test
    void targetsMustMatchTheBaseGeometry() {
        DaeBuilder b = scene(morph("NORMALIZED", "t1 tri", 0.5, 0.25), INSTANCE)
                .geometry("tri", null, floats("tri-positions", "XYZ", 0, 0, 0, 1, 0, 0, 0, 1, 0)
                        + "<vertices id=\"tri-vertices\"><input semantic=\"POSITION\" source=\"#tri-positions\"/></vertices>"
                        + "<triangles count=\"1\"><input semantic=\"VERTEX\" source=\"#tri-vertices\" offset=\"0\"/>"
                        + "<p>0 1 2</p></triangles>");
        assertInvalid(() -> importDae(b), "morph 'morph' target 1: geometry 'tri' triangles 0 has 3 vertices but "
                + "geometry 'g' polylist 0 of the base has 4");
        assertInvalid(() -> importDae(scene(morph("NORMALIZED", "t1 t2", 0.5), INSTANCE)),
                "morph 'morph': 2 targets but the MORPH_WEIGHT source 'morph-weights' has 1 weights");
        assertInvalid(() -> importDae(scene(morph("NORMALIZED", "t1 nothing", 0.5, 0.5), INSTANCE)),
                "morph 'morph' target 1: 'nothing' is not a <geometry> in this file");
        assertInvalid(() -> importDae(scene(morph("ADDITIVE", "t1 t2", 0.5, 0.5), INSTANCE)),
                "morph 'morph': method 'ADDITIVE' is not NORMALIZED or RELATIVE");
    }
}
