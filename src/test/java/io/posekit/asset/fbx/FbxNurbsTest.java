package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxSceneFixture.leaf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NURBS surfaces ({@code NurbsSurface} geometry, Maya's) tessellated as ufbx's {@code ufbx_tessellate_nurbs_surface}
 * does with the file's {@code Step}: known surfaces at known parameters.
 */
class FbxNurbsTest {

    /** A {@code NurbsSurface} geometry record (7.x shape: arrays) with the given data. */
    private static FbxScene.FbxObject surface(int orderU, int orderV, int countU, int countV, int stepU, int stepV,
            String formU, String formV, double[] points, double[] knotsU, double[] knotsV, FbxNode... more) {
        List<FbxNode> children = new ArrayList<>(List.of(leaf("Type", "NurbsSurface"),
                leaf("NurbsSurfaceOrder", orderU, orderV), leaf("Dimensions", countU, countV),
                leaf("Step", stepU, stepV), leaf("Form", formU, formV), leaf("Points", (Object) points),
                leaf("KnotVectorU", (Object) knotsU), leaf("KnotVectorV", (Object) knotsV)));
        children.addAll(List.of(more));
        return new FbxScene.FbxObject(7, "Geometry", "s", "NurbsSurface", new FbxNode("Geometry", List.of(), children),
                0);
    }

    private static FbxGeometry.Mesh tessellate(FbxScene.FbxObject s, ImportWarnings warnings) {
        return FbxNurbs.tessellate(s, null, ImportLimits.DEFAULT.newBudget(), warnings);
    }

    private static void assertPosition(FbxGeometry.Mesh m, int vertex, double x, double y, double z) {
        float[] p = m.positions();
        assertThat(new double[] {p[3 * vertex], p[3 * vertex + 1], p[3 * vertex + 2]})
                .containsExactly(new double[] {x, y, z}, within(1e-6));
    }

    /**
     * Order 2 × 2 (bilinear) over the square 0…2 × 0…2, Step 2 × 2: a 3 × 3 grid at every unit, U fastest, two
     * triangles per cell, normals along ∂u × ∂v (+Z here), UVs the parameters with v flipped.
     */
    @Test
    void aBilinearPatchSampledTwicePerSpanIsItsUnitGrid() {
        double[] points = {0, 0, 0, 1, 2, 0, 0, 1, 0, 2, 0, 1, 2, 2, 0, 1};
        FbxGeometry.Mesh m = tessellate(surface(2, 2, 2, 2, 2, 2, "Open", "Open", points, new double[] {0, 0, 1, 1},
                new double[] {0, 0, 1, 1}), new ImportWarnings());
        assertThat(m.vertexCount()).isEqualTo(9);
        for (int row = 0; row < 3; row++) {
            for (int col = 0; col < 3; col++) {
                assertPosition(m, 3 * row + col, col, row, 0);
            }
        }
        assertThat(m.indices()).hasSize(4 * 6);
        for (int i = 0; i < 9; i++) {
            assertThat(new float[] {m.normals()[3 * i], m.normals()[3 * i + 1], m.normals()[3 * i + 2]})
                    .containsExactly(0, 0, 1);
        }
        // the first cell's triangles wind counter-clockwise seen from +Z
        int a = m.indices()[0];
        int b = m.indices()[1];
        int c = m.indices()[2];
        float[] p = m.positions();
        double cross = (p[3 * b] - p[3 * a]) * (p[3 * c + 1] - p[3 * a + 1])
                - (p[3 * b + 1] - p[3 * a + 1]) * (p[3 * c] - p[3 * a]);
        assertThat(cross).isPositive();
        assertThat(m.texcoords()).containsExactly(0, 1, 0.5f, 1, 1, 1, 0, 0.5f, 0.5f, 0.5f, 1, 0.5f, 0, 0, 0.5f, 0, 1, 0);
    }

    /**
     * A rational quadratic in U — (1, 0), (1, 1) with weight √2/2, (0, 1) — is the exact quarter circle: at u = ½
     * (Step 2) the point is (√2/2, √2/2), which a non-rational evaluation (or premultiplied coordinates) misses.
     */
    @Test
    void rationalWeightsMakeTheExactQuarterCircle() {
        double w = Math.sqrt(0.5);
        double[] points = {1, 0, 0, 1, 1, 1, 0, w, 0, 1, 0, 1, 1, 0, 1, 1, 1, 1, 1, w, 0, 1, 1, 1};
        FbxGeometry.Mesh m = tessellate(surface(3, 2, 3, 2, 2, 1, "Open", "Open", points,
                new double[] {0, 0, 0, 1, 1, 1}, new double[] {0, 0, 1, 1}), new ImportWarnings());
        assertThat(m.vertexCount()).isEqualTo(6);
        assertPosition(m, 0, 1, 0, 0);
        assertPosition(m, 1, w, w, 0);
        assertPosition(m, 2, 0, 1, 0);
        assertPosition(m, 4, w, w, 1);
    }

    /**
     * A cubic with an interior knot (0,0,0,0,½,1,1,1,1), five control points: at u = ¼, ½, ¾ the basis is (⅛, 19/32,
     * ¼, 1/32, 0), (0, ¼, ½, ¼, 0), (0, 1/32, ¼, 19/32, ⅛). With x at the knot averages (0, ⅙, ½, ⅚, 1) x(u) = u
     * (linear precision); y = (0, 0, 1, 0, 0) gives ¼, ½, ¼. Step 2 samples each of the two spans twice.
     */
    @Test
    void aCubicWithAnInteriorKnotIsSampledPerSpanAtItsBasisValues() {
        double[] xs = {0, 1.0 / 6, 0.5, 5.0 / 6, 1};
        double[] ys = {0, 0, 1, 0, 0};
        double[] points = new double[4 * 10];
        for (int row = 0; row < 2; row++) {
            for (int i = 0; i < 5; i++) {
                int at = 4 * (5 * row + i);
                points[at] = xs[i];
                points[at + 1] = ys[i];
                points[at + 2] = row;
                points[at + 3] = 1;
            }
        }
        FbxGeometry.Mesh m = tessellate(surface(4, 2, 5, 2, 2, 3, "Open", "Open", points,
                new double[] {0, 0, 0, 0, 0.5, 1, 1, 1, 1}, new double[] {0, 0, 1, 1}), new ImportWarnings());
        assertThat(m.vertexCount()).isEqualTo(5 * 4);
        double[] expectedY = {0, 0.25, 0.5, 0.25, 0};
        for (int col = 0; col < 5; col++) {
            assertPosition(m, col, 0.25 * col, expectedY[col], 0);
            assertPosition(m, 5 + col, 0.25 * col, expectedY[col], 1.0 / 3);
        }
    }

    /**
     * A periodic direction: order 2 over four corners of a square with the periodic knot vector 0…6 (count + 2·order
     * − 1 knots, one control point wrapped), Step 1: the samples walk the corners and the last one is the first
     * again, so the loop closes exactly.
     */
    @Test
    void aPeriodicDirectionWrapsItsControlPointsAndClosesItsSeam() {
        double[][] corners = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
        double[] points = new double[4 * 8];
        for (int row = 0; row < 2; row++) {
            for (int i = 0; i < 4; i++) {
                int at = 4 * (4 * row + i);
                points[at] = corners[i][0];
                points[at + 1] = corners[i][1];
                points[at + 2] = row;
                points[at + 3] = 1;
            }
        }
        FbxGeometry.Mesh m = tessellate(surface(2, 2, 4, 2, 1, 1, "Periodic", "Open", points,
                new double[] {0, 1, 2, 3, 4, 5, 6}, new double[] {0, 0, 1, 1}), new ImportWarnings());
        assertThat(m.vertexCount()).isEqualTo(10);
        for (int i = 0; i < 5; i++) {
            double[] c = corners[i % 4];
            assertPosition(m, i, c[0], c[1], 0);
        }
        // the seam's two columns share one normal (the average across it)
        assertThat(new float[] {m.normals()[0], m.normals()[1], m.normals()[2]})
                .containsExactly(m.normals()[12], m.normals()[13], m.normals()[14]);
        // UVs keep the parameter: the closing column is at u = 5, not 1
        assertThat(m.texcoords()[8]).isEqualTo(5f);
    }

    /** {@code FlipNormals: 1} turns winding and normals around. */
    @Test
    void flipNormalsTurnsWindingAndNormals() {
        double[] points = {0, 0, 0, 1, 2, 0, 0, 1, 0, 2, 0, 1, 2, 2, 0, 1};
        FbxGeometry.Mesh m = tessellate(surface(2, 2, 2, 2, 1, 1, "Open", "Open", points, new double[] {0, 0, 1, 1},
                new double[] {0, 0, 1, 1}, leaf("FlipNormals", 1)), new ImportWarnings());
        assertThat(m.normals()).containsExactly(0, 0, -1, 0, 0, -1, 0, 0, -1, 0, 0, -1);
        float[] p = m.positions();
        int a = m.indices()[0];
        int b = m.indices()[1];
        int c = m.indices()[2];
        double cross = (p[3 * b] - p[3 * a]) * (p[3 * c + 1] - p[3 * a + 1])
                - (p[3 * b + 1] - p[3 * a + 1]) * (p[3 * c] - p[3 * a]);
        assertThat(cross).isNegative();
    }

    /** Order 8 over 4 points (ufbx's {@code synthetic_nurbs_invalid}): not a surface; skipped, warned. */
    @Test
    void knotsThatDoNotFitTheControlPointsSkipTheSurfaceWithAWarning() {
        ImportWarnings warnings = new ImportWarnings();
        double[] points = new double[4 * 16];
        FbxGeometry.Mesh m = tessellate(surface(8, 4, 4, 4, 4, 4, "Open", "Open", points,
                new double[] {0, 0, 0, 0, 1, 1, 1, 1}, new double[] {0, 0, 1, 1, 1, 1}), warnings);
        assertThat(m).isNull();
        assertThat(warnings.list()).contains("Geometry 's' (NURBS U): order 8 needs at least that many control points"
                + " (it has 4); it is not placed");
    }

    @Test
    void absurdOrdersAndGridsAreRefusedBeforeAllocating() {
        ImportException order = catchThrowableOfType(ImportException.class, () -> tessellate(surface(33, 2, 33, 2, 1,
                1, "Open", "Open", new double[4 * 66], new double[66], new double[] {0, 0, 1, 1}), new ImportWarnings()));
        assertThat(order).hasMessageContaining("its NURBS order 33 is above the 32 posekit evaluates");
        assertThat(order.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);

        ImportLimits d = ImportLimits.DEFAULT;
        ImportLimits limits = new ImportLimits(d.maxDecodedBytes(), d.maxNodes(), d.maxJointsPerSkin(), 100,
                d.maxInfluencesPerVertex(), d.maxKeysPerTrack(), d.maxClips(), d.maxXmlDepth(), d.maxXmlElements(),
                d.maxZipEntries(), d.maxZipBytes(), d.maxZipRatio(), Duration.ofSeconds(10));
        DecodeBudget budget = limits.newBudget();
        double[] points = {0, 0, 0, 1, 2, 0, 0, 1, 0, 2, 0, 1, 2, 2, 0, 1};
        // Step 1000 × 1000 on one span each: 1001² samples
        ImportException grid = catchThrowableOfType(ImportException.class, () -> FbxNurbs.tessellate(surface(2, 2, 2,
                2, 1000, 1000, "Open", "Open", points, new double[] {0, 0, 1, 1}, new double[] {0, 0, 1, 1}), null,
                budget, new ImportWarnings()));
        assertThat(grid).hasMessage("Geometry 's' (a NURBS surface tessellated 1000 × 1000 per span) has 1002001"
                + " vertices; the limit is 100 (posekit.limits.vertices)");
        assertThat(budget.used()).isZero();
    }

    /**
     * The whole path from an FBX 6.1 ASCII file as Maya writes it: the surface is its own {@code Geometry} object
     * connected to the Model, its {@code Points} and knots plain number lists; the Model's mesh is the tessellation
     * with the Model's material.
     */
    @Test
    void mayaFbx61NurbsSurfaceBecomesTheModelsMesh() {
        String text = """
                ; FBX 6.1.0 project file
                FBXHeaderExtension:  {
                	FBXHeaderVersion: 1003
                	FBXVersion: 6100
                }
                Objects:  {
                	Model: "Model::nurbsPlane1", "NurbsSurface" {
                		Version: 232
                		Properties60:  {
                			Property: "Lcl Translation", "Lcl Translation", "A+",10,0,0
                		}
                	}
                	Geometry: "Geometry::nurbsPlane1_ncl1_1", "NurbsSurface" {
                		Type: "NurbsSurface"
                		NurbsSurfaceVersion: 100
                		NurbsSurfaceOrder: 2,2
                		Dimensions: 2,2
                		Step: 2,2
                		Form: "Open", "Open"
                		Points: 0,0,0,1,2,0,0,1,0,2,0,1
                		,2,2,0,1
                		KnotVectorU: 0,0,1,1
                		KnotVectorV: 0,0,1,1
                	}
                	Material: "Material::lambert1", "" {
                		Version: 102
                		ShadingModel: "lambert"
                		Properties60:  {
                			Property: "DiffuseColor", "ColorRGB", "",0.25,0.5,1
                		}
                	}
                }
                Connections:  {
                	Connect: "OO", "Model::nurbsPlane1", "Model::Scene"
                	Connect: "OO", "Geometry::nurbsPlane1_ncl1_1", "Model::nurbsPlane1"
                	Connect: "OO", "Material::lambert1", "Model::nurbsPlane1"
                }
                """;
        SourceFile f = new SourceFile("nurbs.fbx", text.getBytes(StandardCharsets.UTF_8));
        ImportScene s = new FbxImporter().read(f, new SourceFiles(List.of(f)), ImportLimits.DEFAULT);
        assertThat(s.meshes()).singleElement().satisfies(mesh -> {
            assertThat(mesh.name()).isEqualTo("nurbsPlane1");
            assertThat(mesh.skin()).isEqualTo(-1);
            assertThat(mesh.primitives()).singleElement().satisfies(p -> {
                assertThat(p.positions()).containsExactly(0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0, 0, 2, 0,
                        1, 2, 0, 2, 2, 0);
                assertThat(p.material().name()).isEqualTo("lambert1");
            });
        });
        assertThat(s.warnings()).noneMatch(w -> w.contains("not a polygon mesh"));
    }
}
