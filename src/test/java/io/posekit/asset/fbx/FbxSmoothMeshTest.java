package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxSceneFixture.leaf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportWarnings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A mesh the FBX displays smooth (Maya's smooth mesh preview: {@code Smoothness}, {@code PreviewDivisionLevels},
 * {@code BoundaryRule}, {@code LayerElementEdgeCrease}) is subdivided at import; the cage is kept when the file shows
 * the cage, a deformer reaches it, or the vertex limit would be passed.
 */
class FbxSmoothMeshTest {

    private static final double[] CUBE = {
        -0.5, -0.5, 0.5, 0.5, -0.5, 0.5, -0.5, 0.5, 0.5, 0.5, 0.5, 0.5,
        -0.5, 0.5, -0.5, 0.5, 0.5, -0.5, -0.5, -0.5, -0.5, 0.5, -0.5, -0.5};
    /** Maya's cube as its FBX export writes it. */
    private static final int[] CUBE_PVI = {0, 1, 3, ~2, 2, 3, 5, ~4, 4, 5, 7, ~6, 6, 7, 1, ~0, 1, 7, 5, ~3, 6, 0, 2, ~4};

    private static FbxScene.FbxObject geometry(long smoothness, long levels, FbxNode... more) {
        List<FbxNode> children = new ArrayList<>();
        children.add(leaf("Smoothness", smoothness));
        children.add(leaf("PreviewDivisionLevels", levels));
        children.add(leaf("RenderDivisionLevels", levels));
        children.add(leaf("BoundaryRule", 1L));
        children.add(leaf("Vertices", (Object) CUBE));
        children.add(leaf("PolygonVertexIndex", (Object) CUBE_PVI));
        children.addAll(List.of(more));
        FbxNode record = new FbxNode("Geometry", List.of(7L, "g\0\1Geometry", "Mesh"), children);
        return new FbxScene.FbxObject(7, "Geometry", "g", "Mesh", record, 0);
    }

    private static boolean hasPoint(FbxGeometry.Mesh m, double x, double y, double z) {
        float[] p = m.positions();
        for (int i = 0; i < p.length; i += 3) {
            if (Math.abs(p[i] - x) < 1e-6 && Math.abs(p[i + 1] - y) < 1e-6 && Math.abs(p[i + 2] - z) < 1e-6) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aCubeDisplayedSmoothIsSubdividedAsMayaShowsIt() {
        ImportWarnings warnings = new ImportWarnings();
        FbxGeometry.Mesh m = FbxGeometry.read(geometry(3, 1), null, ImportLimits.DEFAULT.newBudget(), warnings);

        assertThat(m.vertexCount()).isEqualTo(26);
        assertThat(m.controlPointCount()).isEqualTo(26);
        assertThat(m.indices()).hasSize(3 * 48);
        double v = 5.0 / 18;
        assertThat(hasPoint(m, v, v, v)).isTrue();
        assertThat(hasPoint(m, 0, 0.375, 0.375)).isTrue();
        assertThat(hasPoint(m, 0.5, 0, 0)).isTrue();
        // smooth normals are generated: at the vertex point (v, v, v) along the diagonal
        assertThat(m.attributes()).containsExactly("POSITION", "NORMAL");
        for (int i = 0; i < m.vertexCount(); i++) {
            if (Math.abs(m.positions()[3 * i] - v) < 1e-6 && Math.abs(m.positions()[3 * i + 1] - v) < 1e-6
                    && Math.abs(m.positions()[3 * i + 2] - v) < 1e-6) {
                assertThat(m.normals()[3 * i]).isCloseTo((float) (1 / Math.sqrt(3)), within(1e-6f));
            }
        }
        assertThat(warnings.list()).anyMatch(w -> w.contains("displayed smooth: subdivided 1 time(s)"));
    }

    @Test
    void aCubeShownAsItsHullKeepsItsCage() {
        FbxGeometry.Mesh m = FbxGeometry.read(geometry(1, 1), null, ImportLimits.DEFAULT.newBudget(),
                new ImportWarnings());
        assertThat(m.vertexCount()).isEqualTo(8);
        assertThat(m.indices()).hasSize(3 * 12);
    }

    @Test
    void edgeCreasesFromTheEdgeListKeepTheTopFaceSharp() {
        // the top face (y = 0.5) is polygon 1, corners 4..7; the Edges list names each edge by its first corner
        FbxNode crease = new FbxNode("LayerElementEdgeCrease", List.of(0L), List.of(
                leaf("MappingInformationType", "ByEdge"), leaf("ReferenceInformationType", "Direct"),
                leaf("EdgeCrease", (Object) new double[] {1, 1, 1, 1})));
        FbxGeometry.Mesh m = FbxGeometry.read(geometry(3, 1, leaf("Edges", (Object) new int[] {4, 5, 6, 7}), crease),
                null, ImportLimits.DEFAULT.newBudget(), new ImportWarnings());
        // a top corner has two creased edges: 3/4 of itself and 1/8 of each neighbour along the crease
        assertThat(hasPoint(m, 0.375, 0.5, 0.375)).isTrue();
        assertThat(hasPoint(m, 0, 0.5, 0.5)).isTrue(); // a creased edge's point is its midpoint
        double v = 5.0 / 18;
        assertThat(hasPoint(m, v, -v, v)).isTrue(); // the bottom is smooth as before
    }

    @Test
    void aDeformedMeshKeepsItsCageWithAWarning() {
        ImportWarnings warnings = new ImportWarnings();
        FbxGeometry.Mesh m = FbxGeometry.read(geometry(3, 2), null, true, true, ImportLimits.DEFAULT.newBudget(),
                warnings);
        assertThat(m.vertexCount()).isEqualTo(8);
        assertThat(warnings.list()).anyMatch(w -> w.contains("a skin or blend shape deforms it; its cage is kept"));
    }

    @Test
    void smoothingOffKeepsEveryCage() {
        ImportWarnings warnings = new ImportWarnings();
        FbxGeometry.Mesh m = FbxGeometry.read(geometry(3, 2), null, false, false, ImportLimits.DEFAULT.newBudget(),
                warnings);
        assertThat(m.vertexCount()).isEqualTo(8);
        assertThat(warnings.list()).noneMatch(w -> w.contains("smooth"));
    }

    @Test
    void levelsThatWouldPassTheVertexLimitKeepTheCageBeforeAllocating() {
        ImportLimits d = ImportLimits.DEFAULT;
        // level 1 makes at most 6 + 48 = 54 vertices, level 2 at most 24 + 192 = 216
        ImportLimits limits = new ImportLimits(d.maxDecodedBytes(), d.maxNodes(), d.maxJointsPerSkin(), 100,
                d.maxInfluencesPerVertex(), d.maxKeysPerTrack(), d.maxClips(), d.maxXmlDepth(), d.maxXmlElements(),
                d.maxZipEntries(), d.maxZipBytes(), d.maxZipRatio(), Duration.ofSeconds(10));
        ImportWarnings warnings = new ImportWarnings();
        DecodeBudget budget = limits.newBudget();
        FbxGeometry.Mesh m = FbxGeometry.read(geometry(3, 2), null, budget, warnings);
        assertThat(m.vertexCount()).isEqualTo(8);
        assertThat(warnings.list()).anyMatch(w -> w.contains("level 2 would make up to 216 vertices")
                && w.contains("its cage is kept"));

        FbxGeometry.Mesh once = FbxGeometry.read(geometry(3, 1), null, limits.newBudget(), new ImportWarnings());
        assertThat(once.vertexCount()).isEqualTo(26);
    }

    @Test
    void moreLevelsThanTheCapAreCappedWithAWarning() {
        ImportWarnings warnings = new ImportWarnings();
        FbxGeometry.Mesh m = FbxGeometry.read(geometry(3, 9), null, ImportLimits.DEFAULT.newBudget(), warnings);
        // four levels of a cube: 6 × 4⁴ quads, 6 × 4⁴ + 2 vertices
        assertThat(m.vertexCount()).isEqualTo(6 * 256 + 2);
        assertThat(warnings.list()).anyMatch(w -> w.contains("PreviewDivisionLevels 9 is subdivided 4 times"));
    }
}
