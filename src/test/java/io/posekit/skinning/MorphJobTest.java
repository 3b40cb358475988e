package io.posekit.skinning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Morph targets applied in mesh space, alone and before skinning or the rigid transform, with known answers. */
class MorphJobTest {

    /** A triangle (0,0,0), (1,0,0), (0,1,0), normals +Z. */
    private static Primitive triangle(int influences, int[] joints, float[] weights) {
        return new Primitive(PrimitiveMode.TRIANGLES, List.of("POSITION", "NORMAL"),
                new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0},
                new float[] {0, 0, 1, 0, 0, 1, 0, 0, 1}, null, null, influences, joints, weights);
    }

    /** Target 0 lifts every vertex by (0,0,2) and tilts normals by (1,0,0); target 1 moves vertex 1 by (4,0,0). */
    private static MorphTargets twoTargets() {
        return new MorphTargets(3,
                new float[][] {{0, 0, 2, 0, 0, 2, 0, 0, 2}, {0, 0, 0, 4, 0, 0, 0, 0, 0}},
                new float[][] {{1, 0, 0, 1, 0, 0, 1, 0, 0}, null});
    }

    private static Primitive morphedTriangle() {
        return triangle(0, new int[0], new float[0]).withMorphTargets(twoTargets());
    }

    @Test
    void weightedDeltasAreAddedToTheBindShape() {
        MorphJob job = new MorphJob();
        job.primitive = morphedTriangle();
        job.weights = new float[] {0.5f, 0.25f};
        job.outPositions = new float[9];
        job.outNormals = new float[9];
        assertThat(job.validate()).isTrue();
        job.run();
        // p = p0 + 0.5·Δ0 + 0.25·Δ1
        assertThat(job.outPositions).containsExactly(0, 0, 1, 2, 0, 1, 0, 1, 1);
        // n = n0 + 0.5·Δn0 (target 1 has no normal deltas); not renormalised
        assertThat(job.outNormals).containsExactly(0.5f, 0, 1, 0.5f, 0, 1, 0.5f, 0, 1);
    }

    @Test
    void zeroWeightsGiveTheBindShapeAndNegativeWeightsSubtract() {
        MorphJob job = new MorphJob();
        job.primitive = morphedTriangle();
        job.weights = new float[] {0, 0};
        job.outPositions = new float[9];
        job.run();
        assertThat(job.outPositions).containsExactly(0, 0, 0, 1, 0, 0, 0, 1, 0);
        job.weights = new float[] {-1, 1};
        job.run();
        assertThat(job.outPositions).containsExactly(0, 0, -2, 5, 0, -2, 0, 1, -2);
    }

    @Test
    void validationRejectsMissingTargetsFewWeightsAndAliasing() {
        MorphJob job = new MorphJob();
        job.primitive = morphedTriangle();
        job.weights = new float[] {1};
        job.outPositions = new float[9];
        assertThat(job.validate()).as("one weight for two targets").isFalse();
        job.weights = new float[] {1, 0};
        assertThat(job.validate()).isTrue();
        job.outPositions = job.primitive.positions();
        assertThat(job.validate()).as("writing into the bind shape").isFalse();
        job.outPositions = job.primitive.morphTargets().positionDeltas(0);
        assertThat(job.validate()).as("writing into a target").isFalse();
        job.outPositions = new float[8];
        assertThat(job.validate()).as("short output").isFalse();
        job.outPositions = new float[9];
        job.primitive = triangle(0, new int[0], new float[0]);
        assertThat(job.validate()).as("no morph targets").isFalse();
        assertThatThrownBy(job::run).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void targetsAreCheckedAgainstTheVertexCount() {
        assertThatThrownBy(() -> new MorphTargets(3, new float[][] {{0, 0, 0}}, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("morph target 0 position deltas hold 3 floats, not 3 × 3");
        assertThatThrownBy(() -> new MorphTargets(3, new float[0][], null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> triangle(0, new int[0], new float[0]).withMorphTargets(
                new MorphTargets(2, new float[][] {null}, null))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MeshInstance("m", 0, -1, 0, List.of(morphedTriangle()), new float[] {1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("1 default morph weights for 2 morph targets");
        assertThat(new MeshInstance("m", 0, -1, 0, List.of(morphedTriangle())).morphWeights()).containsExactly(0, 0);
    }

    @Test
    void meshPoserMorphsBeforeTheRigidTransform() {
        // node 0 at T(10,0,0)
        float[] model = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1};
        MeshInstance mesh = new MeshInstance("m", 0, -1, 0, List.of(morphedTriangle()), new float[] {0.5f, 0.25f});
        PosedPrimitive p = MeshPoser.pose(mesh, null, model, Set.of(VertexAttribute.POSITION, VertexAttribute.NORMAL))
                .getFirst();
        assertThat(p.positions()).containsExactly(10, 0, 1, 12, 0, 1, 10, 1, 1);
        float n = (float) (1 / Math.sqrt(1.25));
        assertThat(p.normals()).containsExactly(new float[] {0.5f * n, 0, n, 0.5f * n, 0, n, 0.5f * n, 0, n},
                within(1e-7f));
        // explicit weights override the defaults; all-zero weights skip morphing
        PosedPrimitive none = MeshPoser.pose(mesh, new float[] {0, 0}, null, model, Set.of(VertexAttribute.POSITION))
                .getFirst();
        assertThat(none.positions()).containsExactly(10, 0, 0, 11, 0, 0, 10, 1, 0);
    }

    @Test
    void meshPoserMorphsBeforeSkinning() {
        // every vertex bound to joint 0 with weight 1; skinning matrix = Rz(90°) then T(0,0,5)
        int[] joints = new int[12];
        float[] weights = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
        Primitive prim = triangle(4, joints, weights).withMorphTargets(twoTargets());
        MeshInstance mesh = new MeshInstance("m", 0, 0, 0, List.of(prim), new float[] {0.5f, 0.25f});
        float[] skinning = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 5, 1};
        PosedPrimitive p = MeshPoser.pose(mesh, mesh.morphWeights(), skinning, new float[16],
                Set.of(VertexAttribute.POSITION, VertexAttribute.NORMAL)).getFirst();
        // morphed (0,0,1), (2,0,1), (0,1,1) → Rz(90°): (x,y,z) → (−y,x,z), + (0,0,5)
        assertThat(p.positions()).containsExactly(0, 0, 6, 0, 2, 6, -1, 0, 6);
        float n = (float) (1 / Math.sqrt(1.25));
        // morphed normal (0.5,0,1) → (0,0.5,1), normalised
        assertThat(p.normals()).containsExactly(new float[] {0, 0.5f * n, n, 0, 0.5f * n, n, 0, 0.5f * n, n},
                within(1e-7f));
    }
}
