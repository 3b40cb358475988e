package io.posekit.skinning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class RigidTransformJobTest {

    private static final float R5 = (float) Math.sqrt(5);

    /** Garbage, then M = T(1,2,3)·Rz(90°)·S(2,1,1) at offset 16: upper columns (0,2,0), (−1,0,0), (0,0,1). */
    private static final float[] MATRICES = {
        9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
        0, 2, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1,
    };

    private static Primitive primitive() {
        return new Primitive(PrimitiveMode.TRIANGLES, List.of("POSITION", "NORMAL", "TANGENT"),
                new float[] {1, 1, 1, 2, 0, -1},
                new float[] {1, 1, 0, 0, 0, 0},
                new float[] {1, 1, 0, -1, 0, 0, 1, 1},
                null, 0, new int[0], new float[0]);
    }

    private static RigidTransformJob job(float[] outP, float[] outN, float[] outT) {
        RigidTransformJob job = new RigidTransformJob();
        job.primitive = primitive();
        job.matrix = MATRICES;
        job.matrixOffset = 16;
        job.outPositions = outP;
        job.outNormals = outN;
        job.outTangents = outT;
        return job;
    }

    @Test
    void transformsByOneMatrixKnownAnswer() {
        float[] outP = new float[6];
        float[] outN = new float[6];
        float[] outT = new float[8];
        RigidTransformJob job = job(outP, outN, outT);
        assertThat(job.validate()).isTrue();
        job.run();
        // Rz·diag(2,1,1)·(1,1,1) = Rz·(2,1,1) = (−1,2,1), + (1,2,3) = (0,4,4)
        // Rz·diag(2,1,1)·(2,0,−1) = Rz·(4,0,−1) = (0,4,−1), + (1,2,3) = (1,6,2)
        assertThat(outP).containsExactly(new float[] {0, 4, 4, 1, 6, 2}, within(1e-6f));
        // normal matrix (Rz·D)^−T = Rz·D^−1: (1,1,0) → Rz·(0.5,1,0) = (−1,0.5,0) → (−2,1,0)/√5; zero stays zero
        assertThat(outN).containsExactly(new float[] {-2 / R5, 1 / R5, 0, 0, 0, 0}, within(1e-6f));
        // tangents by the matrix itself: (1,1,0) → Rz·(2,1,0) = (−1,2,0) → /√5, w copied; (0,0,1) → (0,0,1)
        assertThat(outT).containsExactly(new float[] {-1 / R5, 2 / R5, 0, -1, 0, 0, 1, 1}, within(1e-6f));
    }

    @Test
    void nullOutputsAreSkipped() {
        float[] outN = new float[6];
        RigidTransformJob job = job(null, outN, null);
        assertThat(job.validate()).isTrue();
        job.run();
        assertThat(outN).containsExactly(new float[] {-2 / R5, 1 / R5, 0, 0, 0, 0}, within(1e-6f));
    }

    @Test
    void validateRejectsInconsistentInputs() {
        RigidTransformJob badOffset = job(new float[6], null, null);
        badOffset.matrixOffset = 17;
        assertThat(badOffset.validate()).isFalse();
        badOffset.matrixOffset = -1;
        assertThat(badOffset.validate()).isFalse();
        assertThatThrownBy(badOffset::run).isInstanceOf(IllegalStateException.class);
        RigidTransformJob noMatrix = job(new float[6], null, null);
        noMatrix.matrix = null;
        assertThat(noMatrix.validate()).isFalse();
        assertThat(job(new float[5], null, null).validate()).isFalse();
        assertThat(job(MATRICES, null, null).validate()).isFalse();
        RigidTransformJob intoInput = job(null, null, null);
        intoInput.outPositions = intoInput.primitive.positions();
        assertThat(intoInput.validate()).isFalse();
    }
}
