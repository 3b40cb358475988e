package io.posekit.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.posekit.rig.Rig;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class LocalToModelJobTest {

    private static final float S45 = (float) Math.sqrt(0.5);

    /**
     * Chain 0 → 1 → 3 with a second root (2) between them, so the parent of 3 is not its predecessor:
     * <ul>
     *   <li>0: T(1,0,0) · Rz(90°)</li>
     *   <li>1 (parent 0): T(0,2,0) · S(2,3,1)</li>
     *   <li>2 (root): T(5,0,0) · S(1,1,2)</li>
     *   <li>3 (parent 1): T(1,1,1) · Rx(90°)</li>
     * </ul>
     */
    private static Rig rig() {
        return new Rig(new String[] {"a", "b", "other", "c"}, new int[] {-1, 0, -1, 1}, new int[] {0, 1, 2, 3},
                new float[] {1, 0, 0, 0, 2, 0, 5, 0, 0, 1, 1, 1},
                new float[] {0, 0, S45, S45, 0, 0, 0, 1, 0, 0, 0, 1, S45, 0, 0, S45},
                new float[] {1, 1, 1, 2, 3, 1, 1, 1, 2, 1, 1, 1});
    }

    private static LocalToModelJob job(Rig rig, LocalPose pose, float[] out) {
        LocalToModelJob job = new LocalToModelJob();
        job.rig = rig;
        job.input = pose;
        job.output = out;
        return job;
    }

    private static float[] matrix(float[] all, int node) {
        return Arrays.copyOfRange(all, 16 * node, 16 * node + 16);
    }

    @Test
    void threeLevelChainKnownAnswer() {
        Rig rig = rig();
        LocalPose pose = new LocalPose(4);
        pose.setToRest(rig);
        float[] out = new float[16 * 4];
        LocalToModelJob job = job(rig, pose, out);
        assertThat(job.validate()).isTrue();
        job.run();
        // model(0) = T(1,0,0)·Rz: columns (0,1,0), (−1,0,0), (0,0,1); translation (1,0,0)
        assertThat(matrix(out, 0)).containsExactly(new float[] {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1},
                within(1e-6f));
        // model(1) = model(0)·T(0,2,0)·S(2,3,1): upper Rz·diag(2,3,1) = columns (0,2,0), (−3,0,0), (0,0,1);
        // translation Rz·(0,2,0) + (1,0,0) = (−1,0,0)
        float[] m1 = {0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 1, 0, -1, 0, 0, 1};
        assertThat(matrix(out, 1)).containsExactly(m1, within(1e-6f));
        // root 2: its local matrix
        assertThat(matrix(out, 2)).containsExactly(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 5, 0, 0, 1);
        // model(3) = model(1)·T(1,1,1)·Rx: upper U1·Rx = columns U1·(1,0,0) = (0,2,0), U1·(0,0,1) = (0,0,1),
        // U1·(0,−1,0) = (3,0,0); translation U1·(1,1,1) + (−1,0,0) = (−3,2,1) + (−1,0,0) = (−4,2,1)
        assertThat(matrix(out, 3)).containsExactly(new float[] {0, 2, 0, 0, 0, 0, 1, 0, 3, 0, 0, 0, -4, 2, 1, 1},
                within(1e-6f));
    }

    @Test
    void rootsAndPoseChangesAreUsedAndALargerOutputIsAllowed() {
        Rig rig = rig();
        LocalPose pose = new LocalPose(4);
        pose.setToRest(rig);
        // move the root 0 up by 10: every descendant follows, the other root does not
        pose.translations()[1] = 10;
        float[] out = new float[16 * 5];
        Arrays.fill(out, 7);
        LocalToModelJob job = job(rig, pose, out);
        job.run();
        assertThat(matrix(out, 1)).containsExactly(new float[] {0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 1, 0, -1, 10, 0, 1},
                within(1e-6f));
        assertThat(matrix(out, 3)).containsExactly(new float[] {0, 2, 0, 0, 0, 0, 1, 0, 3, 0, 0, 0, -4, 12, 1, 1},
                within(1e-6f));
        assertThat(matrix(out, 2)).containsExactly(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 5, 0, 0, 1);
        // beyond 16·n nothing is written
        assertThat(matrix(out, 4)).containsOnly(7);
    }

    @Test
    void validateRejectsInconsistentInputs() {
        Rig rig = rig();
        assertThat(job(rig, new LocalPose(4), new float[63]).validate()).isFalse();
        assertThat(job(rig, new LocalPose(3), new float[64]).validate()).isFalse();
        assertThat(job(null, new LocalPose(4), new float[64]).validate()).isFalse();
        assertThat(job(rig, null, new float[64]).validate()).isFalse();
        assertThat(job(rig, new LocalPose(4), null).validate()).isFalse();
        assertThatThrownBy(job(rig, new LocalPose(4), new float[63])::run).isInstanceOf(IllegalStateException.class);
    }
}
