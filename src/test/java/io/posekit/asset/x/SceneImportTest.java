package io.posekit.asset.x;

import static io.posekit.asset.x.XTestSupport.HALF;
import static io.posekit.asset.x.XTestSupport.importBytes;
import static io.posekit.asset.x.XTestSupport.importText;
import static io.posekit.asset.x.XTestSupport.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.ImportScene;
import io.posekit.math.Matrices;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** Frames, their rest transforms in right-handed space, and where meshes are placed. */
class SceneImportTest {

    private static final Offset<Float> EPS = within(1e-6f);

    @Test
    void framesBecomeNodesInDocumentOrderWithTheirParents() {
        ImportScene s = importBytes(XTestSupport.twoJointsText());
        assertThat(s.nodes()).extracting(ImportScene.Node::name).containsExactly("Root", "Child");
        assertThat(s.nodes()).extracting(ImportScene.Node::parent).containsExactly(-1, 0);
        assertThat(s.nodes()).extracting(ImportScene.Node::sourceIndex).containsExactly(0, 1);
        assertThat(s.warnings()).isEmpty();
    }

    /**
     * Root's matrix is written for row vectors: rows (0,1,0,0) (−1,0,0,0) (0,0,1,0) (1,2,3,1), D3DX's RotationZ(+90°)
     * then a translation by (1,2,3): it takes (1,0,0) to (0,1,0) + (1,2,3). Read in order the 16 values are the
     * column-major matrix for column vectors; mirrored (z → −z) the rotation about z keeps its angle and the
     * translation becomes (1,2,−3).
     */
    @Test
    void frameTransformMatrixIsRowMajorForRowVectorsMirroredInZ() {
        ImportScene s = importBytes(XTestSupport.twoJointsText());
        ImportScene.Node root = s.nodes().get(node(s, "Root"));
        assertThat(root.translation()).containsExactly(new float[] {1, 2, -3}, EPS);
        assertThat(root.rotation()).containsExactly(new float[] {0, 0, HALF, HALF}, EPS);
        assertThat(root.scale()).containsExactly(new float[] {1, 1, 1}, EPS);
        ImportScene.Node child = s.nodes().get(node(s, "Child"));
        assertThat(child.translation()).containsExactly(new float[] {0, 2, 0}, EPS);
        assertThat(child.rotation()).containsExactly(new float[] {0, 0, 0, 1}, EPS);
    }

    /**
     * For a general matrix (rotation, non-uniform scale, translation): a point p taken through the file's matrix the
     * DirectX way ({@code p' = p·M}, row vector) and then mirrored lands where posekit's node transform takes the
     * mirrored p.
     */
    @Test
    void theNodeTransformActsOnMirroredPointsAsTheFileMatrixOnRowVectors() {
        double a = Math.toRadians(30);
        double b = Math.toRadians(-50);
        // row-vector matrix: scale (2, 3, 0.5), then RotationY(a) then RotationX(b), then translation (4, −5, 6)
        double[][] scale = {{2, 0, 0}, {0, 3, 0}, {0, 0, 0.5}};
        double[][] ry = {{Math.cos(a), 0, -Math.sin(a)}, {0, 1, 0}, {Math.sin(a), 0, Math.cos(a)}};
        double[][] rx = {{1, 0, 0}, {0, Math.cos(b), Math.sin(b)}, {0, -Math.sin(b), Math.cos(b)}};
        double[][] m3 = mul(mul(scale, ry), rx);
        double[] t = {4, -5, 6};
        StringBuilder values = new StringBuilder();
        for (int r = 0; r < 4; r++) {
            for (int c = 0; c < 4; c++) {
                double v = r < 3 ? (c < 3 ? m3[r][c] : 0) : (c < 3 ? t[c] : 1);
                values.append(r + c == 0 ? "" : ",").append(String.format(java.util.Locale.ROOT, "%.9f", v));
            }
        }
        ImportScene s = importText("Frame F {\n FrameTransformMatrix {\n " + values + ";;\n }\n}\n");
        ImportScene.Node f = s.nodes().getFirst();
        double[] ours = new double[16];
        Matrices.composeTrs(f.translation(), 0, f.rotation(), 0, f.scale(), 0, ours, 0);
        double[][] points = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.3, -2, 1.5}};
        for (double[] p : points) {
            double[] image = new double[3];
            for (int c = 0; c < 3; c++) {
                image[c] = p[0] * m3[0][c] + p[1] * m3[1][c] + p[2] * m3[2][c] + t[c];
            }
            double[] q = {p[0], p[1], -p[2]};
            for (int r = 0; r < 3; r++) {
                double v = ours[r] * q[0] + ours[4 + r] * q[1] + ours[8 + r] * q[2] + ours[12 + r];
                double expected = r == 2 ? -image[2] : image[r];
                assertThat(v).as("point %s component %d", java.util.Arrays.toString(p), r).isCloseTo(expected, within(1e-5));
            }
        }
    }

    @Test
    void rotationAboutXIsMirroredToTheOppositeAngle() {
        // D3DX RotationX(+90°) for row vectors: y → z
        ImportScene s = importText("Frame F { FrameTransformMatrix { 1.0,0.0,0.0,0.0, 0.0,0.0,1.0,0.0, 0.0,-1.0,0.0,0.0,"
                + " 0.0,0.0,0.0,1.0;; } }");
        assertThat(s.nodes().getFirst().rotation()).containsExactly(new float[] {-HALF, 0, 0, HALF}, EPS);
    }

    @Test
    void aFrameWithoutMatrixIsTheIdentityAndSeveralTopLevelFramesAreSeveralRoots() {
        ImportScene s = importText("""
                Frame A { Frame A1 { } }
                Frame B { }
                Frame { }
                """);
        assertThat(s.nodes()).extracting(ImportScene.Node::name).containsExactly("A", "A1", "B", null);
        assertThat(s.nodes()).extracting(ImportScene.Node::parent).containsExactly(-1, 0, -1, -1);
        assertThat(s.nodes().get(2).translation()).containsExactly(0, 0, 0);
        assertThat(s.nodes().get(2).rotation()).containsExactly(0, 0, 0, 1);
    }

    @Test
    void templatesCommentsGuidsAndUnknownObjectsAreSkipped() {
        ImportScene s = importText("""
                // a comment
                # another
                template Vector {
                 <3d82ab5e-62da-11cf-ab39-0020af71e433>
                 FLOAT x; FLOAT y; FLOAT z;
                }
                template Frame { <3d82ab46-62da-11cf-ab39-0020af71e433> [...] }
                Header { 1; 0; 1; }
                KeyValuePair { "File"; "C:\\\\models\\\\{odd}.max"; }
                Frame Root <3d82ab46-62da-11cf-ab39-0020af71e433> {
                  ObjectMatrixComment object { 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;; }
                  FrameTransformMatrix relative { 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,5.0,0.0,0.0,1.0;; }
                  UnknownThing { Nested { 1; } { SomeRef } }
                }
                """);
        assertThat(s.nodes()).hasSize(1);
        assertThat(s.nodes().getFirst().translation()).containsExactly(5, 0, 0);
    }

    @Test
    void aTopLevelMeshNothingRefersToGetsARootNodeOfItsOwn() {
        ImportScene s = importText("""
                Frame F { }
                Mesh Loose { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;; }
                """);
        assertThat(s.nodes()).extracting(ImportScene.Node::name).containsExactly("F", "Loose");
        assertThat(s.nodes().get(1).parent()).isEqualTo(-1);
        assertThat(s.nodes().get(1).sourceIndex()).isEqualTo(-1);
        assertThat(s.meshes()).singleElement().satisfies(m -> {
            assertThat(m.node()).isEqualTo(1);
            assertThat(m.name()).isEqualTo("Loose");
            assertThat(m.sourceMesh()).isZero();
            assertThat(m.skin()).isEqualTo(-1);
        });
    }

    @Test
    void aFrameReferringToANamedMeshInstancesItThere() {
        ImportScene s = importText("""
                Mesh Shared { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;; }
                Frame A { { Shared } }
                Frame B { FrameTransformMatrix { 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,9.0,1.0;; } { Shared } }
                Frame C { { Nothing } }
                """);
        assertThat(s.nodes()).extracting(ImportScene.Node::name).containsExactly("A", "B", "C");
        assertThat(s.meshes()).extracting(ImportScene.MeshInstance::node).containsExactly(0, 1);
        assertThat(s.meshes().get(0).primitives().getFirst()).isSameAs(s.meshes().get(1).primitives().getFirst());
        assertThat(s.warnings()).containsExactly("Frame 'C' at line 5: the reference 'Nothing' names no Mesh of the file;"
                + " it is ignored");
    }

    @Test
    void aMeshInAFrameIsPlacedOnThatFrameAndNamedAfterItselfOrTheFrame() {
        ImportScene s = importText("""
                Frame Outer { Frame Inner {
                  Mesh { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;; }
                  Mesh named { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;; }
                } }
                """);
        assertThat(s.meshes()).extracting(ImportScene.MeshInstance::node).containsExactly(1, 1);
        assertThat(s.meshes()).extracting(ImportScene.MeshInstance::name).containsExactly("Inner", "named");
        assertThat(s.meshes()).extracting(ImportScene.MeshInstance::sourceMesh).containsExactly(0, 1);
    }

    @Test
    void aShearedMatrixIsDecomposedToTheNearestTrsWithAWarning() {
        ImportScene s = importText("Frame S { FrameTransformMatrix { 1.0,0.0,0.0,0.0, 1.0,1.0,0.0,0.0, 0.0,0.0,1.0,0.0,"
                + " 0.0,0.0,0.0,1.0;; } }");
        assertThat(s.warnings()).singleElement().asString()
                .startsWith("Frame 'S' FrameTransformMatrix has shear or projection that translation/rotation/scale cannot"
                        + " represent");
    }

    private static double[][] mul(double[][] a, double[][] b) {
        double[][] out = new double[3][3];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                for (int k = 0; k < 3; k++) {
                    out[r][c] += a[r][k] * b[k][c];
                }
            }
        }
        return out;
    }
}
