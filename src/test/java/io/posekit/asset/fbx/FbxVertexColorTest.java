package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxSceneFixture.leaf;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.ImportWarnings;
import io.posekit.skinning.Primitive;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code LayerElementColor}: RGBA per corner, control point, polygon or all alike; part of the vertex key. */
class FbxVertexColorTest {

    /** Control points of a unit square in z = 0 (0..3) and a fifth point (4). */
    private static final double[] SQUARE = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 2, 0, 0};
    /** A quad (0 1 2 3) and a triangle (1 4 2): corners 0..6. */
    private static final int[] QUAD_AND_TRIANGLE = {0, 1, 2, ~3, 1, 4, ~2};

    /** A colour layer as the SDK writes it: {@code Colors}, and {@code ColorIndex} when indexed. */
    static FbxNode colors(String mapping, String reference, double[] data, int[] index) {
        List<FbxNode> children = new ArrayList<>();
        children.add(leaf("Version", 101));
        children.add(leaf("Name", "Col"));
        children.add(leaf("MappingInformationType", mapping));
        children.add(leaf("ReferenceInformationType", reference));
        children.add(leaf("Colors", (Object) data));
        if (index != null) {
            children.add(leaf("ColorIndex", (Object) index));
        }
        return new FbxNode("LayerElementColor", List.of(0), children);
    }

    private static FbxGeometry.Mesh read(ImportWarnings warnings, FbxNode... layers) {
        List<FbxNode> children = new ArrayList<>();
        children.add(leaf("Vertices", (Object) SQUARE));
        children.add(leaf("PolygonVertexIndex", (Object) QUAD_AND_TRIANGLE));
        children.addAll(List.of(layers));
        FbxNode record = new FbxNode("Geometry", List.of(7L, "g\0\1Geometry", "Mesh"), children);
        FbxScene.FbxObject g = new FbxScene.FbxObject(7, "Geometry", "g", "Mesh", record, 0);
        return FbxGeometry.read(g, null, ImportLimits.DEFAULT.newBudget(), warnings);
    }

    @Test
    void indexedCornerColoursSplitAControlPointWithTwoColours() {
        ImportWarnings w = new ImportWarnings();
        // corner 4 (control point 1 in the triangle) is green and half transparent, every other corner red
        FbxGeometry.Mesh m = read(w, colors("ByPolygonVertex", "IndexToDirect", new double[] {1, 0, 0, 1, 0, 1, 0, 0.5},
                new int[] {0, 0, 0, 0, 1, 0, 0}));
        assertThat(w.list()).isEmpty();
        assertThat(m.attributes()).containsExactly("POSITION", "COLOR_0");
        assertThat(m.controlPoints()).containsExactly(0, 1, 2, 3, 1, 4);
        assertThat(m.indices()).containsExactly(0, 1, 2, 0, 2, 3, 4, 5, 2);
        assertThat(m.colors()).containsExactly(
                1, 0, 0, 1,
                1, 0, 0, 1,
                1, 0, 0, 1,
                1, 0, 0, 1,
                0, 1, 0, 0.5f,
                1, 0, 0, 1);
    }

    @Test
    void controlPointPolygonAndAllSameMappingsGiveEachVertexItsColour() {
        ImportWarnings w = new ImportWarnings();
        double[] perPoint = {0.1, 0.2, 0.3, 0.4, 1, 1, 1, 1, 0, 0, 0, 0, 0.5, 0.5, 0.5, 1, 2, -1, 0.25, 1};
        FbxGeometry.Mesh byPoint = read(w, colors("ByControlPoint", "Direct", perPoint, null));
        assertThat(byPoint.controlPoints()).containsExactly(0, 1, 2, 3, 4);
        // kept as stored, outside 0–1 too (as glTF's COLOR_0)
        assertThat(byPoint.colors()).containsExactly(0.1f, 0.2f, 0.3f, 0.4f, 1, 1, 1, 1, 0, 0, 0, 0, 0.5f, 0.5f, 0.5f, 1,
                2, -1, 0.25f, 1);

        FbxGeometry.Mesh byPolygon = read(w, colors("ByPolygon", "Direct", new double[] {1, 0, 0, 1, 0, 0, 1, 1}, null));
        // the triangle's corners at control points 1 and 2 are blue: split from the quad's red ones
        assertThat(byPolygon.controlPoints()).containsExactly(0, 1, 2, 3, 1, 4, 2);
        assertThat(byPolygon.colors()).containsExactly(1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1,
                0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1);

        FbxGeometry.Mesh allSame = read(w, colors("AllSame", "Direct", new double[] {0.25, 0.5, 0.75, 1}, null));
        assertThat(allSame.vertexCount()).isEqualTo(5);
        assertThat(allSame.colors()).containsExactly(0.25f, 0.5f, 0.75f, 1, 0.25f, 0.5f, 0.75f, 1, 0.25f, 0.5f, 0.75f, 1,
                0.25f, 0.5f, 0.75f, 1, 0.25f, 0.5f, 0.75f, 1);
        assertThat(w.list()).isEmpty();
    }

    @Test
    void aNonFiniteColourDropsTheColoursWithAWarning() {
        ImportWarnings w = new ImportWarnings();
        FbxGeometry.Mesh m = read(w, colors("AllSame", "Direct", new double[] {1, Double.NaN, 0, 1}, null));
        assertThat(m.colors()).isNull();
        assertThat(m.positions()).hasSize(15);
        assertThat(w.list()).containsExactly("Geometry 'g': COLOR_0 of vertex 0 is not finite; the colours are not"
                + " carried");
    }

    @Test
    void indexedColoursWithoutColorIndexAndAmbiguousCountsAreRefused() {
        FbxSceneFixture.assertInvalid(() -> read(new ImportWarnings(),
                colors("ByPolygonVertex", "IndexToDirect", new double[] {1, 0, 0, 1}, null)),
                "Geometry 'g': LayerElementColor 0 is IndexToDirect but has no 'ColorIndex' array, and its 1 elements"
                        + " of 'Colors' are not one per polygon vertex (7)");
    }

    /**
     * 3ds Max writes colour layers {@code ByVertice} + {@code IndexToDirect} without a {@code ColorIndex} (assimp's
     * test model has 24 colours for 24 control points): one colour per control point is plainly direct, as assimp and
     * ufbx read it.
     */
    @Test
    void max3dsIndexToDirectColoursWithoutColorIndexAreDirectWhenOnePerControlPoint() {
        ImportWarnings w = new ImportWarnings();
        double[] perPoint = {0.1, 0.2, 0.3, 0.4, 1, 1, 1, 1, 0, 0, 0, 0, 0.5, 0.5, 0.5, 1, 2, -1, 0.25, 1};
        FbxGeometry.Mesh m = read(w, colors("ByVertice", "IndexToDirect", perPoint, null));
        assertThat(m.controlPoints()).containsExactly(0, 1, 2, 3, 4);
        assertThat(m.colors()).containsExactly(0.1f, 0.2f, 0.3f, 0.4f, 1, 1, 1, 1, 0, 0, 0, 0, 0.5f, 0.5f, 0.5f, 1,
                2, -1, 0.25f, 1);
        assertThat(w.list()).containsExactly("Geometry 'g': LayerElementColor 0 is IndexToDirect but has no"
                + " 'ColorIndex' array; its 5 elements, one per control point, are read as Direct");
    }

    @Test
    void theImportedPrimitiveCarriesTheColours() {
        ImportScene s = new FbxSceneFixture()
                .geometry(10, "quad", SQUARE, new int[] {0, 1, 2, ~3},
                        colors("ByControlPoint", "Direct", new double[] {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0,
                                0, 0, 0, 0}, null))
                .model(1, "a", "Mesh").oo(1, 0).oo(10, 1)
                .importScene();
        Primitive p = s.meshes().getFirst().primitives().getFirst();
        assertThat(p.attributes()).containsExactly("POSITION", "COLOR_0");
        assertThat(p.colors()).containsExactly(1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0);
    }
}
