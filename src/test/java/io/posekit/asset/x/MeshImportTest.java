package io.posekit.asset.x;

import static io.posekit.asset.x.XTestSupport.assertInvalid;
import static io.posekit.asset.x.XTestSupport.importBytes;
import static io.posekit.asset.x.XTestSupport.importText;
import static io.posekit.asset.x.XTestSupport.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.asset.ModelBuilder;
import io.posekit.sampling.Pose;
import io.posekit.skinning.MeshPoser;
import io.posekit.skinning.Primitive;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Meshes: vertex splitting, triangulation and winding, normals, and skins with every influence. */
class MeshImportTest {

    private static Primitive body(ImportScene s) {
        return s.meshes().getFirst().primitives().getFirst();
    }

    /**
     * The fixture's faces (0,1,2) (1,3,4,2) (0,2,4,5,1) with normals indexed (0,0,0) (0,0,1,1) (2,2,2,2,2): walking
     * the corners in file order, the distinct (position, normal) pairs are (0,0) (1,0) (2,0) (3,0) (4,1) (2,1) (0,2)
     * (2,2) (4,2) (5,2) (1,2), so 11 vertices.
     */
    @Test
    void verticesAreDistinctPositionNormalPairsInFirstAppearanceOrder() {
        Primitive p = body(importBytes(XTestSupport.twoJointsText()));
        assertThat(p.vertexCount()).isEqualTo(11);
        // positions (file) 0 (0,0,0) 1 (1,0,0) 2 (1,1,0) 3 (2,0,0) 4 (2,1,1) 5 (0,1,1), z mirrored
        float[][] position = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {2, 0, 0}, {2, 1, -1}, {0, 1, -1}};
        int[] positionOf = {0, 1, 2, 3, 4, 2, 0, 2, 4, 5, 1};
        // normals (file) 0 (0,0,1) 1 (0,1,0) 2 (1,0,0), z mirrored
        float[][] normal = {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}};
        int[] normalOf = {0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2};
        for (int v = 0; v < 11; v++) {
            assertThat(Arrays.copyOfRange(p.positions(), 3 * v, 3 * v + 3)).as("position of vertex %d", v)
                    .containsExactly(position[positionOf[v]]);
            assertThat(Arrays.copyOfRange(p.normals(), 3 * v, 3 * v + 3)).as("normal of vertex %d", v)
                    .containsExactly(normal[normalOf[v]]);
        }
    }

    /** Faces fanned from their first corner with the corner order reversed (the mirror turns the winding). */
    @Test
    void facesOfThreeFourAndFiveCornersAreFannedWithReversedWinding() {
        Primitive p = body(importBytes(XTestSupport.twoJointsText()));
        // face 0 corners v0 v1 v2; face 1 v1 v3 v4 v5; face 2 v6 v7 v8 v9 v10
        assertThat(p.indices()).containsExactly(
                0, 2, 1,
                1, 4, 3, 1, 5, 4,
                6, 8, 7, 6, 9, 8, 6, 10, 9);
    }

    @Test
    void attributesNameWhatTheMeshHas() {
        Primitive p = body(importBytes(XTestSupport.twoJointsText()));
        assertThat(p.attributes()).containsExactly("POSITION", "NORMAL", "TEXCOORD_0", "JOINTS_0", "WEIGHTS_0");
        // the first MeshTextureCoords per vertex through its position index, (u, v) as stored (top-left origin, as glTF)
        assertThat(p.texcoords()).containsExactly(0, 0, 1, 0, 1, 1, 0, 1, 0.5f, 0.5f, 1, 1, 0, 0, 1, 1, 0.5f, 0.5f,
                0.25f, 0.75f, 1, 0);
        Primitive rigid = body(importText("Mesh m { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;; }"));
        assertThat(rigid.attributes()).containsExactly("POSITION");
        assertThat(rigid.normals()).isNull();
        assertThat(rigid.influencesPerVertex()).isZero();
    }

    @Test
    void everyMeshTextureCoordsIsATexcoordSetInFileOrder() {
        ImportScene s = importText("Mesh m { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;"
                + " MeshTextureCoords { 3; 0.0;0.0;, 1.0;0.0;, 0.0;1.0;; }"
                + " MeshTextureCoords { 3; 0.5;0.5;, 0.25;0.75;, 1.0;1.0;; } }");
        Primitive p = body(s);
        assertThat(p.attributes()).containsExactly("POSITION", "TEXCOORD_0", "TEXCOORD_1");
        assertThat(p.texcoordSets()).hasSize(2);
        assertThat(p.texcoordSets().get(0)).containsExactly(0, 0, 1, 0, 0, 1);
        assertThat(p.texcoordSets().get(1)).containsExactly(0.5f, 0.5f, 0.25f, 0.75f, 1, 1);
        assertThat(s.warnings()).isEmpty();
    }

    @Test
    void withoutNormalsAVertexIsAPositionAndUnusedPositionsAreLeftOut() {
        Primitive p = body(importText("""
                Mesh m {
                  5; 0.0;0.0;0.0;, 9.0;9.0;9.0;, 1.0;0.0;0.0;, 1.0;1.0;0.0;, 0.0;1.0;0.0;;
                  2; 3;0,2,3;, 3;0,3,4;;
                }
                """));
        assertThat(p.vertexCount()).isEqualTo(4);
        assertThat(p.positions()).containsExactly(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0);
        assertThat(p.indices()).containsExactly(0, 2, 1, 0, 3, 2);
    }

    @Test
    void facesWithFewerThanThreeCornersAreDroppedWithAWarning() {
        ImportScene s = importText("Mesh m { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 3; 3;0,1,2;, 2;0,1;, 1;2;; }");
        assertThat(body(s).indices()).containsExactly(0, 2, 1);
        assertThat(s.warnings()).containsExactly("Mesh 'm': 2 faces have fewer than 3 corners and are dropped");
    }

    /** Influences belong to positions: every vertex split from position 2 carries Root 0.5 and Child 0.5. */
    @Test
    void influencesOfAPositionAreCarriedToEveryVertexSplitFromIt() {
        ImportScene s = importBytes(XTestSupport.twoJointsText());
        Primitive p = body(s);
        assertThat(p.influencesPerVertex()).isEqualTo(4);
        ImportScene.Skin skin = s.skins().get(s.meshes().getFirst().skin());
        assertThat(skin.joints()).containsExactly(node(s, "Root"), node(s, "Child"));
        for (int v : new int[] {2, 5, 7}) {
            assertThat(Arrays.copyOfRange(p.joints(), 4 * v, 4 * v + 4)).as("joints of vertex %d", v).containsExactly(0, 1, 0, 0);
            assertThat(Arrays.copyOfRange(p.weights(), 4 * v, 4 * v + 4)).as("weights of vertex %d", v)
                    .containsExactly(0.5f, 0.5f, 0, 0);
        }
        // position 0 has Root only
        assertThat(Arrays.copyOfRange(p.weights(), 0, 4)).containsExactly(1, 0, 0, 0);
    }

    /** The offset matrices are the inverse binds, mirrored like every matrix: S·M·S. */
    @Test
    void inverseBindsAreTheMirroredOffsetMatrices() {
        ImportScene s = importBytes(XTestSupport.twoJointsText());
        ImportScene.Skin skin = s.skins().getFirst();
        assertThat(Arrays.copyOfRange(skin.inverseBindMatrices(), 0, 16))
                .containsExactly(0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 4, 5, -6, 1);
        assertThat(Arrays.copyOfRange(skin.inverseBindMatrices(), 16, 32))
                .containsExactly(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0, 1);
    }

    @Test
    void everyInfluenceIsKeptInSlotsOfFour() {
        StringBuilder doc = new StringBuilder("Frame R {\n");
        for (int b = 0; b < 5; b++) {
            doc.append("Frame B").append(b).append(" { }\n");
        }
        doc.append("Mesh m { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;\n");
        for (int b = 0; b < 5; b++) {
            doc.append("SkinWeights { \"B").append(b).append("\"; 2; 0,").append(b == 4 ? 2 : 1).append("; 0.2,0.5;")
                    .append(" 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;; }\n");
        }
        doc.append("} }\n");
        Primitive p = body(importText(doc.toString()));
        // position 0 has all five bones: 8 slots, in SkinWeights order, padded with weight 0
        assertThat(p.influencesPerVertex()).isEqualTo(8);
        assertThat(Arrays.copyOfRange(p.joints(), 0, 8)).containsExactly(0, 1, 2, 3, 4, 0, 0, 0);
        assertThat(Arrays.copyOfRange(p.weights(), 0, 8)).containsExactly(0.2f, 0.2f, 0.2f, 0.2f, 0.2f, 0, 0, 0);
        assertThat(p.attributes()).endsWith("JOINTS_0", "WEIGHTS_0", "JOINTS_1", "WEIGHTS_1");
        // vertex 1 is position 1 (vertices are numbered by first appearance): bones B0–B3
        assertThat(Arrays.copyOfRange(p.weights(), 8, 16)).containsExactly(0.5f, 0.5f, 0.5f, 0.5f, 0, 0, 0, 0);
    }

    @Test
    void skinnedMeshesShareOneSkinWhenTheyAgreeOnTheirBones() {
        String identity = "1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;;";
        String shifted = "1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,-1.0,0.0,1.0;;";
        ImportScene s = importText("""
                Frame A { Frame B { } }
                Frame M1 { Mesh one { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;
                  SkinWeights { "A"; 1; 0; 1.0; %1$s }
                  SkinWeights { "B"; 1; 1; 1.0; %2$s } } }
                Frame M2 { Mesh two { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;
                  SkinWeights { "B"; 1; 0; 1.0; %2$s }
                  SkinWeights { "A"; 1; 1; 1.0; %1$s } } }
                Frame M3 { Mesh three { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;
                  SkinWeights { "A"; 1; 0; 1.0; %2$s } } }
                """.formatted(identity, shifted));
        assertThat(s.skins()).hasSize(2);
        assertThat(s.skins().get(0).joints()).containsExactly(node(s, "A"), node(s, "B"));
        assertThat(s.meshes()).extracting(ImportScene.MeshInstance::skin).containsExactly(0, 0, 1);
        // mesh two names B first: its joint indices map onto the shared skin's order
        Primitive two = s.meshes().get(1).primitives().getFirst();
        assertThat(two.joints()[0]).isEqualTo(1);
        assertThat(s.skins().get(1).name()).isEqualTo("three");
        assertThat(s.warnings()).contains("Mesh 'three': its offset matrices disagree with another mesh's for the"
                + " same bones; it gets a skin of its own");
        // vertices no SkinWeights names are reported
        assertThat(s.warnings()).contains("Mesh 'one': 1 of 3 vertices have no skin weight; they follow the joint in their"
                + " first influence slot");
    }

    /**
     * A bone that names no Frame is bound to a static root node of its name at its bind pose (the inverse offset
     * matrix), so the skinning matrix of that joint is the identity and the vertices it influences stay where they
     * are bound (assimp binds such bones to its scene root with the offset matrix as skinning matrix instead).
     */
    @Test
    void aBoneWithoutFrameIsBoundToAStaticNodeAtItsBindPose() {
        ImportScene s = importText("""
                Frame A { }
                Mesh m { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;
                  SkinWeights { "A"; 1; 0; 1.0; 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;; }
                  SkinWeights { "Lost"; 2; 1,2; 1.0,1.0; 0.0,1.0,0.0,0.0,-1.0,0.0,0.0,0.0,0.0,0.0,1.0,0.0,2.0,3.0,4.0,1.0;; }
                }
                """);
        int lost = node(s, "Lost");
        assertThat(s.nodes().get(lost).parent()).isEqualTo(-1);
        assertThat(s.nodes().get(lost).sourceIndex()).isEqualTo(-1);
        assertThat(s.skins().getFirst().joints()).containsExactly(node(s, "A"), lost);
        assertThat(s.warnings()).contains("Mesh 'm': the bone 'Lost' names no Frame; its influences are bound to a static"
                + " node of the same name at the bone's bind pose");
        Model model = ModelBuilder.build(AssetFormat.X, s);
        float[] skinning = MeshPoser.skinningMatrices(model.skins().getFirst(), Pose.evaluate(model.rig(), null, 0).modelMatrices());
        float[] identity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        for (int i = 0; i < 16; i++) {
            assertThat(skinning[16 + i]).as("skinning matrix of Lost, element %d", i).isCloseTo(identity[i], within(1e-6f));
        }
    }

    @Test
    void aBoneWithoutFrameAndASingularOffsetLosesItsInfluences() {
        ImportScene s = importText("""
                Frame A { }
                Mesh m { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;
                  SkinWeights { "A"; 3; 0,1,2; 1.0,1.0,1.0; 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;; }
                  SkinWeights { "Flat"; 1; 1; 0.5; 0.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;; }
                }
                """);
        assertThat(s.skins().getFirst().joints()).containsExactly(node(s, "A"));
        assertThat(body(s).influencesPerVertex()).isEqualTo(4);
        assertThat(s.warnings()).containsExactly("Mesh 'm' SkinWeights 'Flat': the bone names no Frame and its offset"
                + " matrix cannot be inverted; its influences are dropped");
    }

    @Test
    void indicesAreCheckedAgainstWhatTheyIndex() {
        assertInvalid(() -> importText("Mesh body { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,3;; }"),
                "Mesh 'body': face 0 refers to vertex 3 of 3 (line 2)");
        assertInvalid(() -> importText("Mesh body { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;\n"
                + " MeshNormals { 1; 0.0;0.0;1.0;; 1; 3;0,0,1;; } }"),
                "Mesh 'body' MeshNormals: face 0 refers to normal 1 of 1 (line 3)");
        assertInvalid(() -> importText("Mesh body { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;\n"
                + " MeshNormals { 1; 0.0;0.0;1.0;; 2; 3;0,0,0;, 3;0,0,0;; } }"),
                "Mesh 'body' MeshNormals has 2 faces but the mesh has 1 (line 3)");
        assertInvalid(() -> importText("Mesh body { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;\n"
                + " MeshNormals { 1; 0.0;0.0;1.0;; 1; 4;0,0,0,0;; } }"),
                "Mesh 'body' MeshNormals: face 0 has 4 indices but the mesh's face 0 has 3 (line 3)");
        assertInvalid(() -> importText("Mesh body { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;\n"
                + " MeshTextureCoords { 2; 0.0;0.0;, 1.0;1.0;; } }"),
                "Mesh 'body' MeshTextureCoords has 2 coordinates but the mesh has 3 vertices (line 3)");
        assertInvalid(() -> importText("Mesh body { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;\n"
                + " SkinWeights { \"A\"; 2; 0,7; 1.0,1.0;"
                + " 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;; } }"),
                "Mesh 'body' SkinWeights 'A': weight 1 refers to vertex 7 of 3 (line 3)");
    }

    @Test
    void theSkinnedFixtureBuildsIntoAModel() {
        Model m = XTestSupport.build(XTestSupport.twoJointsText());
        assertThat(m.format()).isEqualTo(AssetFormat.X);
        assertThat(m.meshes()).hasSize(1);
        assertThat(m.skins().getFirst().jointCount()).isEqualTo(2);
        assertThat(m.warnings()).isEmpty();
    }
}
