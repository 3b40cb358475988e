package io.posekit.asset.collada;

import static io.posekit.asset.collada.ColladaTestSupport.importDae;
import static io.posekit.asset.collada.DaeBuilder.floats;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportScene;
import io.posekit.skinning.Primitive;
import org.junit.jupiter.api.Test;

/** {@code <input semantic="COLOR">}: RGB or RGBA per polygon corner, part of the vertex tuple, as COLOR_0. */
class VertexColorImportTest {

    /** A quad (two triangles over positions 0 1 2 / 0 2 3) with colour source {@code colors} at offset 1. */
    private static Primitive quad(String colors, String p, String set0, String extra) {
        String mesh = floats("c-positions", "XYZ", 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0) + colors + extra
                + "<vertices id=\"c-vertices\"><input semantic=\"POSITION\" source=\"#c-positions\"/></vertices>"
                + "<triangles count=\"2\"><input semantic=\"VERTEX\" source=\"#c-vertices\" offset=\"0\"/>"
                + "<input semantic=\"COLOR\" source=\"#c-colors\" offset=\"1\"" + set0 + "/>"
                + "<p>" + p + "</p></triangles>";
        ImportScene s = importDae(new DaeBuilder().geometry("c", "C", mesh)
                .node("<node id=\"n\"><instance_geometry url=\"#c\"/></node>"));
        assertThat(s.warnings()).isEmpty();
        return s.meshes().getFirst().primitives().getFirst();
    }

    @Test
    void rgbColoursGetAlphaOneAndSplitACornerSharedWithAnotherColour() {
        // position 0 and 2 are used twice: 0 with the same colour both times (one vertex), 2 with two colours (two)
        Primitive p = quad(floats("c-colors", "RGB", 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.25, 0.5, 0.75),
                "0 0  1 1  2 2   0 0  2 3  3 1", "", "");
        assertThat(p.attributes()).containsExactly("POSITION", "COLOR_0");
        assertThat(p.vertexCount()).isEqualTo(5);
        assertThat(p.indices()).containsExactly(0, 1, 2, 0, 3, 4);
        assertThat(p.positions()).containsExactly(0, 0, 0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1, 0);
        assertThat(p.colors()).containsExactly(
                1, 0, 0, 1,
                0, 1, 0, 1,
                0, 0, 1, 1,
                0.25f, 0.5f, 0.75f, 1,
                0, 1, 0, 1);
    }

    @Test
    void rgbaColoursOfTheLowestSetAreCarriedAsStored() {
        String colors = floats("c-colors", "RGBA", 0.1, 0.2, 0.3, 0.4, 1, 1, 1, 0, 2, -0.5, 0, 1);
        String otherSet = floats("c-other", "RGB", 9, 9, 9);
        String p = "0 0 0  1 1 0  2 2 0   0 0 0  2 2 0  3 1 0";
        String mesh = floats("c-positions", "XYZ", 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0) + colors + otherSet
                + "<vertices id=\"c-vertices\"><input semantic=\"POSITION\" source=\"#c-positions\"/></vertices>"
                + "<triangles count=\"2\"><input semantic=\"VERTEX\" source=\"#c-vertices\" offset=\"0\"/>"
                + "<input semantic=\"COLOR\" source=\"#c-other\" offset=\"2\" set=\"3\"/>"
                + "<input semantic=\"COLOR\" source=\"#c-colors\" offset=\"1\" set=\"2\"/>"
                + "<p>" + p + "</p></triangles>";
        ImportScene s = importDae(new DaeBuilder().geometry("c", "C", mesh)
                .node("<node id=\"n\"><instance_geometry url=\"#c\"/></node>"));
        Primitive prim = s.meshes().getFirst().primitives().getFirst();
        assertThat(s.warnings()).isEmpty();
        assertThat(prim.attributes()).containsExactly("POSITION", "COLOR_0", "COLOR_1");
        assertThat(prim.vertexCount()).isEqualTo(4);
        // values outside 0–1 are kept as stored, as the glTF importer keeps them
        assertThat(prim.colors()).containsExactly(
                0.1f, 0.2f, 0.3f, 0.4f,
                1, 1, 1, 0,
                2, -0.5f, 0, 1,
                1, 1, 1, 0);
    }

    @Test
    void aColourSourceWithFewerThanThreeComponentsIsDroppedWithAWarning() {
        // (a non-finite colour cannot reach the mesh: float_array values are rejected as INF/NaN or overflow)
        String mesh = floats("c-positions", "XYZ", 0, 0, 0, 1, 0, 0, 1, 1, 0) + floats("c-narrow", "RG", 1, 0)
                + "<vertices id=\"c-vertices\"><input semantic=\"POSITION\" source=\"#c-positions\"/></vertices>"
                + "<triangles count=\"1\"><input semantic=\"VERTEX\" source=\"#c-vertices\" offset=\"0\"/>"
                + "<input semantic=\"COLOR\" source=\"#c-narrow\" offset=\"1\"/><p>0 0 1 0 2 0</p></triangles>";
        ImportScene s = importDae(new DaeBuilder().geometry("c", "C", mesh)
                .node("<node id=\"n\"><instance_geometry url=\"#c\"/></node>"));
        assertThat(s.meshes().getFirst().primitives().getFirst().colors()).isNull();
        assertThat(s.warnings()).containsExactly("geometry 'c' triangles 0: COLOR source 'c-narrow' is not a"
                + " float_array source with 3 (RGB) or 4 (RGBA) components; the colours are not carried");
    }

    @Test
    void aSkinnedPrimitiveKeepsItsColours() {
        String skin = "<controller id=\"ctrl\"><skin source=\"#g\">"
                + DaeBuilder.names("ctrl-joints", "Name_array", "JOINT", "s0")
                + DaeBuilder.matrices("ctrl-ibm", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
                + floats("ctrl-w", "W", 1)
                + "<joints><input semantic=\"JOINT\" source=\"#ctrl-joints\"/>"
                + "<input semantic=\"INV_BIND_MATRIX\" source=\"#ctrl-ibm\"/></joints>"
                + "<vertex_weights count=\"3\"><input semantic=\"JOINT\" source=\"#ctrl-joints\" offset=\"0\"/>"
                + "<input semantic=\"WEIGHT\" source=\"#ctrl-w\" offset=\"1\"/><vcount>1 1 1</vcount>"
                + "<v>0 0 0 0 0 0</v></vertex_weights></skin></controller>";
        String mesh = floats("g-positions", "XYZ", 0, 0, 0, 1, 0, 0, 1, 1, 0)
                + floats("g-colors", "RGBA", 0.5, 0.25, 0.125, 1)
                + "<vertices id=\"g-vertices\"><input semantic=\"POSITION\" source=\"#g-positions\"/></vertices>"
                + "<triangles count=\"1\"><input semantic=\"VERTEX\" source=\"#g-vertices\" offset=\"0\"/>"
                + "<input semantic=\"COLOR\" source=\"#g-colors\" offset=\"1\"/><p>0 0 1 0 2 0</p></triangles>";
        ImportScene s = importDae(new DaeBuilder().geometry("g", "G", mesh).controller(skin)
                .node("<node id=\"s0\" sid=\"s0\" type=\"JOINT\"/>")
                .node("<node id=\"n\"><instance_controller url=\"#ctrl\"><skeleton>#s0</skeleton>"
                        + "</instance_controller></node>"));
        Primitive p = s.meshes().getFirst().primitives().getFirst();
        assertThat(p.influencesPerVertex()).isEqualTo(4);
        assertThat(p.colors()).containsExactly(0.5f, 0.25f, 0.125f, 1, 0.5f, 0.25f, 0.125f, 1, 0.5f, 0.25f, 0.125f, 1);
    }
}
