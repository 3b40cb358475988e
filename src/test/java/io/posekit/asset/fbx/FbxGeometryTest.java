package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxSceneFixture.assertInvalid;
import static io.posekit.asset.fbx.FbxSceneFixture.layer;
import static io.posekit.asset.fbx.FbxSceneFixture.leaf;
import static io.posekit.asset.fbx.FbxSceneFixture.vec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.ImportWarnings;
import io.posekit.skinning.Primitive;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Geometry: polygons and their triangulation, the layer element mapping and reference modes, de-indexing into unique
 * (control point, normal, UV) vertices, bounds checks, the geometric transform and mesh instances.
 */
class FbxGeometryTest {

    /** Control points of a unit square in z = 0 (0..3) and a fifth point (4). */
    private static final double[] SQUARE = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 2, 0, 0};
    /** A quad (0 1 2 3) and a triangle (1 4 2). */
    private static final int[] QUAD_AND_TRIANGLE = {0, 1, 2, ~3, 1, 4, ~2};

    private static FbxGeometry.Mesh read(double[] vertices, int[] pvi, FbxNode... layers) {
        return read(new ImportWarnings(), vertices, pvi, layers);
    }

    private static FbxGeometry.Mesh read(ImportWarnings warnings, double[] vertices, int[] pvi, FbxNode... layers) {
        List<FbxNode> children = new ArrayList<>();
        children.add(leaf("Vertices", (Object) vertices));
        children.add(leaf("PolygonVertexIndex", (Object) pvi));
        children.addAll(List.of(layers));
        FbxNode record = new FbxNode("Geometry", List.of(7L, "g\0\1Geometry", "Mesh"), children);
        FbxScene.FbxObject g = new FbxScene.FbxObject(7, "Geometry", "g", "Mesh", record, 0);
        return FbxGeometry.read(g, null, ImportLimits.DEFAULT.newBudget(), warnings);
    }

    private static FbxNode normals(String mapping, String reference, double[] data, int[] index) {
        return layer("LayerElementNormal", mapping, reference, "Normals", data, index);
    }

    private static FbxNode uvs(String mapping, String reference, double[] data, int[] index) {
        return layer("LayerElementUV", mapping, reference, "UV", data, index);
    }

    @Test
    void polygonsAreFanTriangulatedOverTheirControlPoints() {
        FbxGeometry.Mesh m = read(SQUARE, QUAD_AND_TRIANGLE);
        assertThat(m.controlPoints()).containsExactly(0, 1, 2, 3, 4);
        assertThat(m.indices()).containsExactly(0, 1, 2, 0, 2, 3, 1, 4, 2);
        assertThat(m.positions()).containsExactly(new float[] {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 2, 0, 0}, within(0f));
        assertThat(m.normals()).isNull();
        assertThat(m.attributes()).containsExactly("POSITION");
    }

    @Test
    void aPentagonBecomesAFanOfThreeTriangles() {
        FbxGeometry.Mesh m = read(SQUARE, new int[] {0, 1, 4, 2, ~3});
        assertThat(m.indices()).containsExactly(0, 1, 2, 0, 2, 3, 0, 3, 4);
        assertThat(m.controlPoints()).containsExactly(0, 1, 4, 2, 3);
    }

    @Test
    void byPolygonVertexNormalsSplitControlPointsWithDifferentNormals() {
        // the quad faces +z, the triangle −z: control points 1 and 2 get two vertices each
        double[] n = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, -1, 0, 0, -1, 0, 0, -1};
        FbxGeometry.Mesh m = read(SQUARE, QUAD_AND_TRIANGLE, normals("ByPolygonVertex", "Direct", n, null));
        assertThat(m.controlPoints()).containsExactly(0, 1, 2, 3, 1, 4, 2);
        assertThat(m.indices()).containsExactly(0, 1, 2, 0, 2, 3, 4, 5, 6);
        assertThat(m.normals()).containsExactly(new float[] {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, -1, 0, 0, -1, 0, 0,
            -1}, within(0f));
        assertThat(m.attributes()).containsExactly("POSITION", "NORMAL");
    }

    @Test
    void equalCornersAreOneVertex() {
        double[] n = new double[21];
        for (int i = 2; i < 21; i += 3) {
            n[i] = 1;
        }
        FbxGeometry.Mesh m = read(SQUARE, QUAD_AND_TRIANGLE, normals("ByPolygonVertex", "Direct", n, null));
        assertThat(m.vertexCount()).isEqualTo(5);
    }

    @Test
    void byControlPointNormalsFollowTheControlPoints() {
        double[] n = {1, 0, 0, 0, 1, 0, 0, 0, 1, -1, 0, 0, 0, -1, 0};
        FbxGeometry.Mesh m = read(SQUARE, QUAD_AND_TRIANGLE, normals("ByControlPoint", "Direct", n, null));
        assertThat(m.vertexCount()).isEqualTo(5);
        assertThat(m.normals()).containsExactly(new float[] {1, 0, 0, 0, 1, 0, 0, 0, 1, -1, 0, 0, 0, -1, 0}, within(0f));
        // the older name of the same mapping
        FbxGeometry.Mesh vertice = read(SQUARE, QUAD_AND_TRIANGLE, normals("ByVertice", "Direct", n, null));
        assertThat(vertice.normals()).containsExactly(m.normals(), within(0f));
    }

    @Test
    void indexToDirectLooksTheValuesUp() {
        double[] n = {0, 0, 1, 0, 0, -1};
        int[] index = {0, 0, 0, 0, 1, 1, 1};
        FbxGeometry.Mesh m = read(SQUARE, QUAD_AND_TRIANGLE, normals("ByPolygonVertex", "IndexToDirect", n, index));
        assertThat(m.vertexCount()).isEqualTo(7);
        assertThat(m.normals()[3 * 4 + 2]).isEqualTo(-1);
    }

    @Test
    void byPolygonAndAllSameMappings() {
        FbxGeometry.Mesh byPolygon = read(SQUARE, QUAD_AND_TRIANGLE,
                normals("ByPolygon", "Direct", new double[] {0, 0, 1, 0, 0, -1}, null));
        assertThat(byPolygon.vertexCount()).isEqualTo(7);
        assertThat(byPolygon.normals()[3 * 6 + 2]).isEqualTo(-1);
        FbxGeometry.Mesh allSame = read(SQUARE, QUAD_AND_TRIANGLE,
                normals("AllSame", "Direct", new double[] {0, 1, 0}, null));
        assertThat(allSame.vertexCount()).isEqualTo(5);
        assertThat(allSame.normals()[3 * 4 + 1]).isEqualTo(1);
    }

    @Test
    void texCoordsSplitVerticesToo() {
        // one seam: control point 2 has UV (1, 1) in the quad and (0, 0) in the triangle
        double[] uv = {0, 0, 1, 1};
        int[] index = {0, 0, 1, 0, 0, 0, 0};
        FbxGeometry.Mesh m = read(SQUARE, QUAD_AND_TRIANGLE, uvs("ByPolygonVertex", "IndexToDirect", uv, index));
        assertThat(m.controlPoints()).containsExactly(0, 1, 2, 3, 4, 2);
        assertThat(m.indices()).containsExactly(0, 1, 2, 0, 2, 3, 1, 4, 5);
        assertThat(m.attributes()).containsExactly("POSITION", "TEXCOORD_0");
        // per vertex its corner's UV, V flipped to glTF's v = 1 − V
        assertThat(m.texcoords()).containsExactly(0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1);
    }

    @Test
    void everyUvLayerIsASetAndPartOfTheVertexKey() {
        // layer 0 puts every corner at (0, 0); layer 1 gives corner 4 (control point 1 of the triangle) its own UV
        FbxGeometry.Mesh m = read(SQUARE, QUAD_AND_TRIANGLE, uvs("AllSame", "Direct", new double[] {0, 0}, null),
                uvs("ByPolygonVertex", "IndexToDirect", new double[] {0.25, 0.5, 1, 1}, new int[] {0, 0, 0, 0, 1, 0, 0}));
        assertThat(m.attributes()).containsExactly("POSITION", "TEXCOORD_0", "TEXCOORD_1");
        assertThat(m.controlPoints()).containsExactly(0, 1, 2, 3, 1, 4);
        assertThat(m.texcoordSets()).hasSize(2);
        assertThat(m.texcoordSets().get(0)).containsExactly(0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1);
        assertThat(m.texcoordSets().get(1)).containsExactly(0.25f, 0.5f, 0.25f, 0.5f, 0.25f, 0.5f, 0.25f, 0.5f, 1, 0,
                0.25f, 0.5f);
        assertThat(m.furtherTexcoords()).containsExactly(m.texcoordSets().get(1));
    }

    @Test
    void unsupportedMappingsAreIgnoredWithAWarning() {
        ImportWarnings w = new ImportWarnings();
        FbxGeometry.Mesh m = read(w, SQUARE, QUAD_AND_TRIANGLE, normals("ByEdge", "Direct", new double[] {0, 0, 1}, null));
        assertThat(m.normals()).isNull();
        assertThat(w.list()).containsExactly("Geometry 'g': LayerElementNormal 0 has MappingInformationType 'ByEdge',"
                + " which is not supported; ignored");
    }

    @Test
    void pointsAndLinesAreSkippedAndAnUnterminatedPolygonIsClosed() {
        ImportWarnings w = new ImportWarnings();
        FbxGeometry.Mesh m = read(w, SQUARE, new int[] {0, ~1, 1, 2, 3});
        assertThat(m.indices()).containsExactly(0, 1, 2);
        assertThat(m.controlPoints()).containsExactly(1, 2, 3);
        assertThat(w.list()).containsExactly(
                "Geometry 'g': PolygonVertexIndex does not end its last polygon (no negative index); it is closed",
                "Geometry 'g': 1 polygon(s) with fewer than 3 corners (points, lines) are ignored");
        ImportWarnings none = new ImportWarnings();
        assertThat(read(none, SQUARE, new int[] {0, ~1})).isNull();
        assertThat(none.list()).contains("Geometry 'g' has no polygons with 3 or more corners; it is not placed");
    }

    @Test
    void badIndicesAreRejectedNamingTheGeometryAndTheIndex() {
        assertInvalid(() -> read(SQUARE, new int[] {0, 1, ~5}),
                "Geometry 'g': PolygonVertexIndex[2] = -6 refers to control point 5, out of range for 5 control points");
        assertInvalid(() -> read(SQUARE, new int[] {0, 9, ~2}),
                "Geometry 'g': PolygonVertexIndex[1] = 9 refers to control point 9, out of range for 5 control points");
        assertInvalid(() -> read(SQUARE, QUAD_AND_TRIANGLE,
                normals("ByPolygonVertex", "IndexToDirect", new double[] {0, 0, 1}, new int[] {0, 0, 0, 0, 0, 3, 0})),
                "Geometry 'g': LayerElementNormal 0 index 5 = 3 is out of range for 1 elements of 'Normals'");
        assertInvalid(() -> read(SQUARE, QUAD_AND_TRIANGLE,
                normals("ByPolygonVertex", "IndexToDirect", new double[] {0, 0, 1}, new int[] {0, 0, 0})),
                "Geometry 'g': LayerElementNormal 0 has 3 indices, but polygon vertex 3 needs index 3");
        assertInvalid(() -> read(SQUARE, QUAD_AND_TRIANGLE,
                normals("ByPolygonVertex", "Direct", new double[] {0, 0, 1, 0, 0, 1}, null)),
                "Geometry 'g': LayerElementNormal 0 'Normals' holds 2 elements, but polygon vertex 2 needs element 2");
        assertInvalid(() -> read(SQUARE, QUAD_AND_TRIANGLE,
                uvs("ByControlPoint", "Direct", new double[] {0, 0, 1, 1, 0, 1, 1, 0}, null)),
                "Geometry 'g': LayerElementUV 0 'UV' holds 4 elements, but control point 4 needs element 4");
        assertInvalid(() -> read(new double[] {0, 0, 0, 1}, new int[] {0, 0, ~0}),
                "Geometry 'g': Vertices holds 4 numbers, not a multiple of 3");
        assertInvalid(() -> read(SQUARE, QUAD_AND_TRIANGLE,
                normals("ByPolygonVertex", "IndexToDirect", new double[] {0, 0, 1}, null)),
                "Geometry 'g': LayerElementNormal 0 is IndexToDirect but has no 'NormalsIndex' array, and its 1"
                        + " elements of 'Normals' are not one per polygon vertex (7)");
    }

    /** A quad on a Model with a geometric transform, and a child Model. */
    private static FbxSceneFixture geometricScene() {
        return new FbxSceneFixture()
                .geometry(10, "quad", SQUARE, new int[] {0, 1, 2, ~3},
                        normals("AllSame", "Direct", new double[] {1, 0, 1}, null))
                .model(1, "mesh", "Mesh", vec("Lcl Translation", 10, 0, 0), vec("GeometricTranslation", 0, 0, 5),
                        vec("GeometricScaling", 2, 1, 1))
                .oo(1, 0).oo(10, 1)
                .model(2, "child", 1, vec("Lcl Translation", 1, 0, 0));
    }

    @Test
    void theGeometricTransformIsAppliedToTheVerticesOnly() {
        ImportScene s = geometricScene().importScene();
        assertThat(s.meshes()).hasSize(1);
        Primitive p = s.meshes().getFirst().primitives().getFirst();
        // G = T(0,0,5) · S(2,1,1)
        assertThat(p.positions()).containsExactly(new float[] {0, 0, 5, 2, 0, 5, 2, 1, 5, 0, 1, 5}, within(1e-6f));
        // normals by the inverse transpose, renormalised: (1, 0, 1) → (0.5, 0, 1) / |…|
        float k = (float) (1 / Math.sqrt(1.25));
        assertThat(p.normals()).startsWith(new float[] {0.5f * k, 0, k}, within(1e-6f));
        // the child is not moved by it
        ImportScene.Node child = s.nodes().get(FbxSceneFixture.node(s, "child"));
        assertThat(child.translation()).containsExactly(new float[] {1, 0, 0}, within(0f));
        assertThat(s.warnings()).contains("Model 'mesh': its geometric transform (GeometricTranslation/Rotation/Scaling)"
                + " is applied to the vertices of Geometry 'quad'");
    }

    @Test
    void meshesAreInstancedOnTheirModels() {
        ImportScene s = new FbxSceneFixture()
                .object("Geometry", 99, "line", "Line")
                .geometry(10, "quad", SQUARE, new int[] {0, 1, 2, ~3})
                .model(1, "a", "Mesh").oo(1, 0).oo(10, 1)
                .model(2, "b", "Mesh").oo(2, 1).oo(10, 2)
                .model(3, "c", "Null").oo(3, 0).oo(99, 3)
                .importScene();
        assertThat(s.meshes()).extracting(ImportScene.MeshInstance::name).containsExactly("a", "b");
        assertThat(s.meshes()).extracting(ImportScene.MeshInstance::node).containsExactly(0, 1);
        assertThat(s.meshes()).extracting(ImportScene.MeshInstance::skin).containsExactly(-1, -1);
        assertThat(s.meshes()).extracting(ImportScene.MeshInstance::sourceMesh).containsExactly(1, 1);
        // one geometry: one primitive, shared
        assertThat(s.meshes().get(0).primitives().getFirst()).isSameAs(s.meshes().get(1).primitives().getFirst());
        assertThat(s.warnings()).contains("Model 'c': Geometry 'line' of type 'Line' is not a polygon mesh; ignored");
    }

    @Test
    void aBlendShapeWithoutChannelsGivesNoMorphTargets() {
        ImportScene s = new FbxSceneFixture()
                .geometry(10, "quad", SQUARE, new int[] {0, 1, 2, ~3})
                .object("Deformer", 20, "morph", "BlendShape")
                .model(1, "a", "Mesh").oo(1, 0).oo(10, 1).oo(20, 10)
                .importScene();
        assertThat(s.meshes()).hasSize(1);
        assertThat(s.meshes().getFirst().primitives().getFirst().morphTargets()).isNull();
        assertThat(s.meshes().getFirst().morphWeights()).isNull();
    }
}
