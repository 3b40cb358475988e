package io.posekit.asset.x;

import static io.posekit.asset.x.XTestSupport.assertInvalid;
import static io.posekit.asset.x.XTestSupport.importBytes;
import static io.posekit.asset.x.XTestSupport.importText;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportScene;
import io.posekit.skinning.Primitive;
import org.junit.jupiter.api.Test;

/** {@code MeshVertexColors}: a ColorRGBA per listed vertex (position), carried as COLOR_0 in every container. */
class VertexColorImportTest {

    /**
     * A quad over positions 0..3 with normals indexed so that position 2 is split into two vertices, and colours:
     * position 0 listed twice (red, then blue: the last wins), 2 green and half transparent, 1 and 3 not listed.
     */
    private static void quad(XWriter w) {
        w.open("Mesh", "m");
        w.ints(4).floats(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0);
        w.ints(2, 3, 0, 1, 2, 3, 0, 2, 3);
        w.open("MeshNormals").ints(2).floats(0, 0, 1, 0, 1, 0);
        w.ints(2, 3, 0, 0, 0, 3, 1, 1, 1).close();
        w.open("MeshVertexColors").ints(3);
        w.ints(0).floats(1, 0, 0, 1).sep(";,");
        w.ints(2).floats(0, 1, 0, 0.5).sep(";,");
        w.ints(0).floats(0, 0, 1, 1).sep(";;").close();
        w.close();
    }

    @Test
    void listedVerticesTakeTheirLastColourAndUnlistedOnesAreOpaqueWhite() {
        for (byte[] file : XTestSupport.everyContainer(VertexColorImportTest::quad)) {
            ImportScene s = importBytes(file);
            Primitive p = s.meshes().getFirst().primitives().getFirst();
            assertThat(p.attributes()).containsExactly("POSITION", "NORMAL", "COLOR_0");
            // vertices (position, normal): (0,0) (1,0) (2,0) (0,1) (2,1) (3,1)
            assertThat(p.vertexCount()).isEqualTo(6);
            assertThat(p.colors()).containsExactly(
                    0, 0, 1, 1,
                    1, 1, 1, 1,
                    0, 1, 0, 0.5f,
                    0, 0, 1, 1,
                    0, 1, 0, 0.5f,
                    1, 1, 1, 1);
            assertThat(s.warnings()).containsExactly(
                    "Mesh 'm' MeshVertexColors: 2 of 4 vertices have no colour; they are opaque white");
        }
    }

    @Test
    void aSkinnedMeshKeepsItsColours() {
        XWriter w = XWriter.text();
        XTestSupport.twoJoints(w, true);
        String text = new String(w.file(), java.nio.charset.StandardCharsets.ISO_8859_1).replace("XSkinMeshHeader",
                "MeshVertexColors { 6; 0;0.1;0.2;0.3;0.4;;, 1;1;1;1;1;;, 2;0;0;0;0;;, 3;2;-1;0;1;;, 4;0.5;0.5;0.5;1;;,"
                        + " 5;0;1;0;1;;; }\nXSkinMeshHeader");
        ImportScene s = importBytes(text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        Primitive p = s.meshes().getFirst().primitives().getFirst();
        assertThat(p.influencesPerVertex()).isEqualTo(4);
        // vertex → position 0 1 2 1 3 4 2 ... as the mesh test lists them; out-of-range values kept as stored
        float[][] byPosition = {{0.1f, 0.2f, 0.3f, 0.4f}, {1, 1, 1, 1}, {0, 0, 0, 0}, {2, -1, 0, 1},
                {0.5f, 0.5f, 0.5f, 1}, {0, 1, 0, 1}};
        for (int v = 0; v < p.vertexCount(); v++) {
            float[] rgba = java.util.Arrays.copyOfRange(p.colors(), 4 * v, 4 * v + 4);
            boolean matchesAPosition = false;
            for (int q = 0; q < 6; q++) {
                float[] pos = java.util.Arrays.copyOfRange(p.positions(), 3 * v, 3 * v + 3);
                matchesAPosition |= java.util.Arrays.equals(rgba, byPosition[q]) && samePosition(pos, q);
            }
            assertThat(matchesAPosition).as("colour of vertex %d is its position's", v).isTrue();
        }
        assertThat(s.warnings()).isEmpty();
    }

    /** Whether mirrored {@code pos} is position {@code q} of the twoJoints body mesh. */
    private static boolean samePosition(float[] pos, int q) {
        float[][] positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {2, 0, 0}, {2, 1, 1}, {0, 1, 1}};
        // .x is mirrored in z: z → −z (0 stays 0 bit for bit only up to sign)
        return pos[0] == positions[q][0] && pos[1] == positions[q][1] && pos[2] == -positions[q][2];
    }

    @Test
    void aVertexIndexOutOfRangeIsInvalid() {
        assertInvalid(() -> importText("Mesh m { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;"
                        + " MeshVertexColors { 1; 3;1;0;0;1;;; } }"),
                "Mesh 'm' MeshVertexColors: entry 0 refers to vertex 3 of 3 (line 2)");
    }
}
