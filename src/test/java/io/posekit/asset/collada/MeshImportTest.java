package io.posekit.asset.collada;

import static io.posekit.asset.collada.ColladaTestSupport.assertInvalid;
import static io.posekit.asset.collada.ColladaTestSupport.build;
import static io.posekit.asset.collada.ColladaTestSupport.importDae;
import static io.posekit.asset.collada.DaeBuilder.floats;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import org.junit.jupiter.api.Test;

/** Geometry: primitive types, de-indexing, triangulation, attributes and every bounds check. */
class MeshImportTest {

    /** Four positions of a unit square and two normals (+Z, −Z) of geometry {@code g}. */
    private static final String SOURCES = floats("g-positions", "XYZ", 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0)
            + floats("g-normals", "XYZ", 0, 0, 1, 0, 0, -1)
            + "<vertices id=\"g-vertices\"><input semantic=\"POSITION\" source=\"#g-positions\"/></vertices>";
    private static final String VERTEX = "<input semantic=\"VERTEX\" source=\"#g-vertices\" offset=\"0\"/>";
    private static final String NORMAL = "<input semantic=\"NORMAL\" source=\"#g-normals\" offset=\"1\"/>";

    /** The scene of geometry {@code g} with mesh content {@code primitives} (after the sources), placed once. */
    private static ImportScene scene(String primitives) {
        return importDae(new DaeBuilder().geometry("g", "G", SOURCES + primitives)
                .node("<node id=\"n\"><instance_geometry url=\"#g\"/></node>"));
    }

    private static Primitive only(String primitives) {
        ImportScene s = scene(primitives);
        assertThat(s.meshes()).hasSize(1);
        assertThat(s.meshes().getFirst().primitives()).hasSize(1);
        return s.meshes().getFirst().primitives().getFirst();
    }

    @Test
    void trianglesAreDeindexedIntoUniqueTuplesInOrderOfFirstAppearance() {
        Primitive p = only("<triangles count=\"3\">" + VERTEX + NORMAL
                + "<p>0 0 1 0 2 0  0 0 2 0 3 0  2 1 1 1 0 1</p></triangles>");
        assertThat(p.mode()).isEqualTo(PrimitiveMode.TRIANGLES);
        // tuples (position, normal): (0,0) (1,0) (2,0) (3,0) (2,1) (1,1) (0,1)
        assertThat(p.vertexCount()).isEqualTo(7);
        assertThat(p.indices()).containsExactly(0, 1, 2, 0, 2, 3, 4, 5, 6);
        assertThat(p.positions()).containsExactly(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0);
        assertThat(p.normals()).containsExactly(0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, -1, 0, 0, -1, 0, 0, -1);
        assertThat(p.tangents()).isNull();
        assertThat(p.influencesPerVertex()).isZero();
        assertThat(p.attributes()).containsExactly("POSITION", "NORMAL");
    }

    @Test
    void polylistPolygonsAreFanTriangulatedFromTheirFirstCorner() {
        String five = floats("f-positions", "XYZ", 0, 0, 0, 1, 0, 0, 2, 1, 0, 1, 2, 0, 0, 1, 0)
                + "<vertices id=\"f-vertices\"><input semantic=\"POSITION\" source=\"#f-positions\"/></vertices>";
        String vertex = "<input semantic=\"VERTEX\" source=\"#f-vertices\" offset=\"0\"/>";
        DaeBuilder b = new DaeBuilder()
                .geometry("f", null, five + "<polylist count=\"2\">" + vertex + "<vcount>4 3</vcount><p>0 1 2 3 3 2 4</p></polylist>"
                        + "<polylist count=\"1\">" + vertex + "<vcount>5</vcount><p>4 3 2 1 0</p></polylist>")
                .node("<node id=\"n\"><instance_geometry url=\"#f\"/></node>");
        ImportScene s = importDae(b);
        Primitive quadAndTriangle = s.meshes().getFirst().primitives().get(0);
        assertThat(quadAndTriangle.indices()).containsExactly(0, 1, 2, 0, 2, 3, 3, 2, 4);
        assertThat(quadAndTriangle.vertexCount()).isEqualTo(5);
        Primitive pentagon = s.meshes().getFirst().primitives().get(1);
        // unique vertices in order of appearance: positions 4 3 2 1 0
        assertThat(pentagon.positions()).containsExactly(0, 1, 0, 1, 2, 0, 2, 1, 0, 1, 0, 0, 0, 0, 0);
        assertThat(pentagon.indices()).containsExactly(0, 1, 2, 0, 2, 3, 0, 3, 4);
        assertThat(s.meshes().getFirst().name()).isEqualTo("n"); // no geometry name: the node's
    }

    @Test
    void polygonsUseOnePPerPolygonAndOnlyTheOuterRingOfHoles() {
        ImportScene s = scene("<polygons count=\"2\">" + VERTEX + NORMAL + "<p>0 0 1 0 2 0</p>"
                + "<ph><p>0 0 2 0 3 0</p><h>1 0 1 0 1 0</h></ph></polygons>");
        Primitive p = s.meshes().getFirst().primitives().getFirst();
        assertThat(p.indices()).containsExactly(0, 1, 2, 0, 2, 3);
        assertThat(s.warnings()).containsExactly(
                "geometry 'g' polygons 0: 1 polygon has holes (<ph>); only the outer rings are used");
    }

    @Test
    void trifansAndTristrips() {
        String five = floats("f-positions", "XYZ", 0, 0, 0, 1, 0, 0, 2, 1, 0, 1, 2, 0, 0, 1, 0)
                + "<vertices id=\"f-vertices\"><input semantic=\"POSITION\" source=\"#f-positions\"/></vertices>";
        String vertex = "<input semantic=\"VERTEX\" source=\"#f-vertices\" offset=\"0\"/>";
        ImportScene s = importDae(new DaeBuilder()
                .geometry("f", null, five + "<trifans count=\"1\">" + vertex + "<p>0 1 2 3 4</p></trifans>"
                        + "<tristrips count=\"2\">" + vertex + "<p>0 1 2 3 4</p><p>4 3 2</p></tristrips>")
                .node("<node id=\"n\"><instance_geometry url=\"#f\"/></node>"));
        assertThat(s.meshes().getFirst().primitives().get(0).indices()).containsExactly(0, 1, 2, 0, 2, 3, 0, 3, 4);
        // strips keep their winding: (0,1,2) (1,3,2) (2,3,4), then the second strip's (4,3,2)
        assertThat(s.meshes().getFirst().primitives().get(1).indices()).containsExactly(0, 1, 2, 1, 3, 2, 2, 3, 4, 4, 3, 2);
    }

    @Test
    void degeneratePolygonsAndLinesAreSkippedWithWarnings() {
        ImportScene s = scene("<polylist count=\"3\">" + VERTEX + "<vcount>2 3 1</vcount><p>0 1 0 1 2 3</p></polylist>"
                + "<lines count=\"1\">" + VERTEX + "<p>0 1</p></lines>");
        assertThat(s.meshes().getFirst().primitives()).singleElement()
                .satisfies(p -> assertThat(p.indices()).containsExactly(0, 1, 2));
        assertThat(s.warnings()).containsExactly(
                "geometry 'g' polylist 0: 2 polygons with fewer than 3 corners are skipped",
                "geometry 'g' lines 1: line primitives are not supported; skipped");
        ImportScene onlyLines = scene("<linestrips count=\"1\">" + VERTEX + "<p>0 1 2</p></linestrips>");
        assertThat(onlyLines.meshes()).isEmpty();
        assertThat(onlyLines.warnings()).containsExactly(
                "geometry 'g' linestrips 0: line primitives are not supported; skipped",
                "node 'n': geometry 'g' has no triangles to place; skipped");
    }

    @Test
    void texcoordsSplitVerticesAndTangentsTakeTheirHandednessFromTheBinormal() {
        String sources = floats("t-positions", "XYZ", 0, 0, 0, 1, 0, 0, 0, 1, 0)
                + floats("t-normals", "XYZ", 0, 0, 1, 0, 0, 1, 0, 0, 1)
                + floats("t-uv", "ST", 0, 0, 1, 0, 0, 1, 0.5, 0.5)
                + floats("t-tangents", "XYZ", 1, 0, 0)
                + floats("t-binormals", "XYZ", 0, -1, 0, 0, 1, 0)
                + "<vertices id=\"t-vertices\"><input semantic=\"POSITION\" source=\"#t-positions\"/>"
                + "<input semantic=\"NORMAL\" source=\"#t-normals\"/></vertices>";
        String triangles = "<triangles count=\"2\"><input semantic=\"VERTEX\" source=\"#t-vertices\" offset=\"0\"/>"
                + "<input semantic=\"TEXCOORD\" source=\"#t-uv\" offset=\"1\" set=\"1\"/>"
                + "<input semantic=\"TEXTANGENT\" source=\"#t-tangents\" offset=\"2\" set=\"1\"/>"
                + "<input semantic=\"TEXBINORMAL\" source=\"#t-binormals\" offset=\"3\" set=\"1\"/>"
                + "<p>0 0 0 0  1 1 0 0  2 2 0 0   0 3 0 1  1 1 0 1  2 2 0 1</p></triangles>";
        ImportScene s = importDae(new DaeBuilder().geometry("t", "T", sources + triangles)
                .node("<node id=\"n\"><instance_geometry url=\"#t\"/></node>"));
        Primitive p = s.meshes().getFirst().primitives().getFirst();
        assertThat(p.attributes()).containsExactly("POSITION", "NORMAL", "TANGENT", "TEXCOORD_0");
        // (0,3,0,1) differs from (0,0,0,0) in texcoord and binormal; (1,1,0,1) from (1,1,0,0) only in binormal
        assertThat(p.vertexCount()).isEqualTo(6);
        assertThat(p.indices()).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(p.normals()).containsExactly(0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1);
        // cross(N, T) = +Y: binormal −Y gives w = −1, +Y gives w = +1
        assertThat(p.tangents()).containsExactly(1, 0, 0, -1, 1, 0, 0, -1, 1, 0, 0, -1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1);
    }

    @Test
    void positionsAreKeptExactlyAsFloat32() {
        String sources = "<source id=\"e-positions\"><float_array id=\"e-positions-array\" count=\"9\">"
                + "0.1 0.2 0.3 1e-7 -2.5E+3 3.4028235e38 0 0 0.333333333333</float_array><technique_common>"
                + "<accessor source=\"#e-positions-array\" count=\"3\" stride=\"3\"><param name=\"X\" type=\"float\"/>"
                + "<param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/></accessor></technique_common></source>"
                + "<vertices id=\"e-vertices\"><input semantic=\"POSITION\" source=\"#e-positions\"/></vertices>";
        ImportScene s = importDae(new DaeBuilder().geometry("e", null, sources + "<triangles count=\"1\">"
                + "<input semantic=\"VERTEX\" source=\"#e-vertices\" offset=\"0\"/><p>0 1 2</p></triangles>")
                .node("<node id=\"n\"><instance_geometry url=\"#e\"/></node>"));
        assertThat(s.meshes().getFirst().primitives().getFirst().positions())
                .containsExactly(0.1f, 0.2f, 0.3f, 1e-7f, -2500f, Float.MAX_VALUE, 0, 0, 0.333333333333f);
    }

    @Test
    void accessorParamsSelectComponentsAndUnnamedOnesAreSkipped() {
        // stride 4: X, (unnamed), Y, Z
        String sources = "<source id=\"k-positions\"><float_array id=\"k-arr\" count=\"13\">9 1 99 2 3 4 99 5 6 7 99 8 9"
                + "</float_array><technique_common><accessor source=\"#k-arr\" count=\"3\" stride=\"4\" offset=\"1\">"
                + "<param name=\"X\" type=\"float\"/><param type=\"float\"/><param name=\"Y\" type=\"float\"/>"
                + "<param name=\"Z\" type=\"float\"/></accessor></technique_common></source>"
                + "<vertices id=\"k-vertices\"><input semantic=\"POSITION\" source=\"#k-positions\"/></vertices>";
        ImportScene s = importDae(new DaeBuilder().geometry("k", null, sources + "<triangles count=\"1\">"
                + "<input semantic=\"VERTEX\" source=\"#k-vertices\" offset=\"0\"/><p>0 1 2</p></triangles>")
                .node("<node id=\"n\"><instance_geometry url=\"#k\"/></node>"));
        assertThat(s.meshes().getFirst().primitives().getFirst().positions()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9);
    }

    @Test
    void everyIndexIsCheckedAgainstItsSource() {
        String normals24 = floats("Cube-normals", "XYZ", new double[72]);
        String positions = floats("Cube-positions", "XYZ", 0, 0, 0, 1, 0, 0, 1, 1, 0)
                + "<vertices id=\"Cube-vertices\"><input semantic=\"POSITION\" source=\"#Cube-positions\"/></vertices>";
        DaeBuilder b = new DaeBuilder().geometry("Cube-mesh", "Cube", positions + normals24
                + "<polylist count=\"1\"><input semantic=\"VERTEX\" source=\"#Cube-vertices\" offset=\"0\"/>"
                + "<input semantic=\"NORMAL\" source=\"#Cube-normals\" offset=\"1\"/>"
                + "<vcount>3</vcount><p>0 0 1 913 2 0</p></polylist>")
                .node("<node id=\"n\"><instance_geometry url=\"#Cube-mesh\"/></node>");
        assertInvalid(() -> importDae(b), "geometry 'Cube-mesh' polylist 0: NORMAL index 913 is out of range for "
                + "source 'Cube-normals' with 24 elements");
        assertInvalid(() -> scene("<triangles count=\"1\">" + VERTEX + "<p>0 1 4</p></triangles>"),
                "geometry 'g' triangles 0: VERTEX index 4 is out of range for source 'g-positions' with 4 elements");
        assertInvalid(() -> scene("<triangles count=\"1\">" + VERTEX + "<p>0 -1 2</p></triangles>"),
                "geometry 'g' triangles 0: VERTEX index -1 is out of range for source 'g-positions' with 4 elements");
    }

    @Test
    void primitiveStructureIsChecked() {
        assertInvalid(() -> scene("<polylist count=\"2\">" + VERTEX + "<vcount>4 3</vcount><p>0 1 2 3 0 1</p></polylist>"),
                "geometry 'g' polylist 0: <vcount> adds up to 7 corners but <p> has 6");
        assertInvalid(() -> scene("<triangles count=\"1\">" + VERTEX + NORMAL + "<p>0 0 1 0 2</p></triangles>"),
                "geometry 'g' triangles 0: <p> has 5 indices, not a multiple of the 2 per corner its inputs' offsets need");
        assertInvalid(() -> scene("<triangles count=\"1\">" + VERTEX + "<p>0 1 2 3</p></triangles>"),
                "geometry 'g' triangles 0: <p> has 4 corners, not a multiple of 3");
        assertInvalid(() -> scene("<triangles count=\"1\">" + VERTEX + "<p>0 1 two</p></triangles>"),
                "geometry 'g' triangles 0 <p> value 2 (two) is not an integer");
        assertInvalid(() -> scene("<triangles count=\"1\"><input semantic=\"NORMAL\" source=\"#g-normals\" offset=\"0\"/>"
                + "<p>0 1 1</p></triangles>"), "geometry 'g' triangles 0 has no POSITION input (through VERTEX)");
        assertInvalid(() -> scene("<triangles count=\"1\"><input semantic=\"VERTEX\" source=\"#nowhere\" offset=\"0\"/>"
                + "<p>0 1 2</p></triangles>"), "geometry 'g' triangles 0: VERTEX source '#nowhere' is not a <vertices> in this file");
    }

    @Test
    void arraysAndAccessorsAreChecked() {
        String shortArray = "<source id=\"s-positions\"><float_array id=\"s-arr\" count=\"12\">0 0 0 1 0 0 1 1 0 0 1"
                + "</float_array><technique_common><accessor source=\"#s-arr\" count=\"4\" stride=\"3\">"
                + "<param name=\"X\"/><param name=\"Y\"/><param name=\"Z\"/></accessor></technique_common></source>";
        assertInvalid(() -> importDae(meshWith(shortArray)), "float_array 's-arr' has count 12 but only 11 values");
        String overrun = shortArray.replace("count=\"12\">0 0 0 1 0 0 1 1 0 0 1", "count=\"12\">0 0 0 1 0 0 1 1 0 0 1 0")
                .replace("count=\"4\"", "count=\"5\"");
        assertInvalid(() -> importDae(meshWith(overrun)),
                "source 's-positions': accessor count 5 × stride 3 + offset 0 = 15 values exceed float_array 's-arr' with 12");
        String nan = shortArray.replace("1 1 0 0 1<", "1 NaN 0 0 1 0<");
        assertInvalid(() -> importDae(meshWith(nan)), "float_array 's-arr' value 7 (NaN) is not finite");
        String huge = shortArray.replace("1 1 0 0 1<", "1 1e39 0 0 1 0<");
        assertInvalid(() -> importDae(meshWith(huge)), "float_array 's-arr' value 7 (1e39) is not finite");
        String extra = shortArray.replace("1 1 0 0 1<", "1 1 0 0 1 0 7 7<");
        assertThat(importDae(meshWith(extra)).warnings())
                .containsExactly("float_array 's-arr' has 14 values but count 12; the extra ones are ignored");
    }

    @Test
    void countsAreChargedToTheDecodeBudgetBeforeAnythingIsAllocated() {
        String lying = "<source id=\"s-positions\"><float_array id=\"s-arr\" count=\"2000000000\">0 0 0 1 0 0 1 1 0"
                + "</float_array><technique_common><accessor source=\"#s-arr\" count=\"3\" stride=\"3\">"
                + "<param name=\"X\"/><param name=\"Y\"/><param name=\"Z\"/></accessor></technique_common></source>";
        ImportException e = ColladaTestSupport.failure(() -> importDae(meshWith(lying)));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo("float_array 's-arr' needs 8000000000 bytes, which takes the import past "
                + "its limit of 1073741824 decoded bytes (posekit.limits.decoded-bytes)");
        // a small budget stops an honest file too, with the same precise 413
        ImportLimits tiny = new ImportLimits(100, 1000, 10, 1000, 10);
        ImportException small = ColladaTestSupport.failure(() ->
                ColladaTestSupport.importBytes(scene0().toBytes(), tiny));
        assertThat(small.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(small.getMessage()).contains("takes the import past its limit of 100 decoded bytes");
    }

    private static DaeBuilder scene0() {
        return new DaeBuilder().geometry("g", "G", SOURCES + "<triangles count=\"2\">" + VERTEX + NORMAL
                + "<p>0 0 1 0 2 0 0 0 2 0 3 0</p></triangles>").node("<node id=\"n\"><instance_geometry url=\"#g\"/></node>");
    }

    private static DaeBuilder meshWith(String positionSource) {
        return new DaeBuilder().geometry("s", null, positionSource
                + "<vertices id=\"s-vertices\"><input semantic=\"POSITION\" source=\"#s-positions\"/></vertices>"
                + "<triangles count=\"1\"><input semantic=\"VERTEX\" source=\"#s-vertices\" offset=\"0\"/><p>0 1 2</p></triangles>")
                .node("<node id=\"n\"><instance_geometry url=\"#s\"/></node>");
    }

    @Test
    void geometriesWithoutMeshAreSkipped() {
        DaeBuilder b = new DaeBuilder().rawGeometry("<geometry id=\"spline\"><spline/></geometry>")
                .node("<node id=\"n\"><instance_geometry url=\"#spline\"/></node>");
        ImportScene s = importDae(b);
        assertThat(s.meshes()).isEmpty();
        assertThat(s.warnings()).containsExactly(
                "geometry 'spline' has no <mesh> (convex_mesh, spline and brep are not supported); it is skipped",
                "node 'n': geometry 'spline' has no triangles to place; skipped");
        assertThat(build(b).meshes()).isEmpty();
    }
}
