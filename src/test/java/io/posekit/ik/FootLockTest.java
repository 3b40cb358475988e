package io.posekit.ik;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.posekit.rig.Rig;
import io.posekit.sampling.Pose;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Foot-lock planning on made-up ankle tracks of {@link IkSolverTest}'s leg (hip at y = 2, leg length 2). */
class FootLockTest {

    private static final FootLock.Leg LEG = new FootLock.Leg(IkSolverTest.HIP, IkSolverTest.KNEE, IkSolverTest.ANKLE);

    /** Frames at 10 fps; the hip at (0, 1.9, z) and the ankle at (x, y, z) given per frame. */
    private static FootLock plan(double[] ankle, double[] hipZ, FootLock.Settings settings) {
        int frames = hipZ.length;
        double[] times = new double[frames];
        double[] hip = new double[3 * frames];
        for (int f = 0; f < frames; f++) {
            times[f] = f / 10.0;
            hip[3 * f + 1] = 1.9;
            hip[3 * f + 2] = hipZ[f];
        }
        return FootLock.plan(IkSolverTest.leg(1), List.of(LEG), times, new double[][] {hip}, new double[][] {ankle},
                settings);
    }

    @Test
    void slowLowFramesArePlantedAndPinnedWhereTheyPlant() {
        // the ankle creeps 0.01 per frame (0.1/s) on the ground for 5 frames, then lifts off fast, then lands
        double[] ankle = {0, 0, 0, 0, 0, 0.01, 0, 0, 0.02, 0, 0, 0.03, 0, 0, 0.04, 0, 0.5, 0.4, 0, 0.9, 0.8, 0, 0.3,
            1.2, 0, 0, 1.6, 0, 0, 1.61};
        double[] hipZ = {0, 0.01, 0.02, 0.03, 0.04, 0.4, 0.8, 1.2, 1.6, 1.61};
        FootLock lock = plan(ankle, hipZ, new FootLock.Settings(null, null, 0.0));
        assertEquals(0.2, lock.height(0), 1e-6, "0.1 × the leg's rest length 2");
        assertEquals(1.0, lock.speed(0), 1e-6, "0.5 × 2 per second");
        // frame 8 lands, but its neighbours (the last of the swing, and 9) make it fast; 9 (one-sided) is slow
        boolean[] expected = {true, true, true, true, false, false, false, false, false, true};
        for (int f = 0; f < expected.length; f++) {
            assertEquals(expected[f], lock.planted(0, f), "frame " + f);
        }
        assertEquals(0, lock.lockedAt(0, 3));
        assertEquals(-1, lock.lockedAt(0, 5));
        assertEquals(9, lock.lockedAt(0, 9));
    }

    @Test
    void aPinnedPointOutOfReachReplantsTheFoot() {
        // planted all along, but the hip walks away 0.5 per frame: from frame 4 the first point is > 2 away
        int frames = 8;
        double[] ankle = new double[3 * frames];
        double[] hipZ = new double[frames];
        for (int f = 0; f < frames; f++) {
            hipZ[f] = 0.5 * f;
            ankle[3 * f + 2] = 0.5 * f;
        }
        FootLock lock = plan(ankle, hipZ, new FootLock.Settings(0.1, 100.0, 0.0));
        // from the hip at (0, 1.9, z) the first point (0, 0, 0) is √(3.61 + z²): in reach at z = 0.5, not at 1
        assertEquals(0, lock.lockedAt(0, 0));
        assertEquals(0, lock.lockedAt(0, 1));
        assertEquals(2, lock.lockedAt(0, 2), "the hip moved away: a new lock at frame 2");
        assertEquals(2, lock.lockedAt(0, 3));
    }

    @Test
    void applyingPutsTheAnkleOnThePinnedPoint() {
        Rig rig = IkSolverTest.leg(1);
        Pose pose = Pose.evaluate(rig, null, 0);
        float[] m = pose.modelMatrices();
        int h = 16 * IkSolverTest.HIP;
        double[] hip = {m[h + 12], m[h + 13], m[h + 14]};
        double[] pinned = {hip[0] + 0.3, 0.3, hip[2] - 0.2}; // 1.7 below the hip, a little aside: in reach
        FootLock lock = FootLock.plan(rig, List.of(LEG), new double[] {0}, new double[][] {hip},
                new double[][] {pinned}, new FootLock.Settings(1.0, 1.0, 0.0));
        assertTrue(lock.planted(0, 0));
        lock.apply(0, new IkSolver(rig, List.of()), pose.local(), m);
        int a = 16 * IkSolverTest.ANKLE;
        assertArrayEquals(new float[] {(float) pinned[0], (float) pinned[1], (float) pinned[2]},
                new float[] {m[a + 12], m[a + 13], m[a + 14]}, 2e-6f);
    }

    @Test
    void negativeSettingsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plan(new double[3],
                new double[1], new FootLock.Settings(-1.0, null, null)));
        assertEquals("footLock.height must be a finite number ≥ 0, not -1.0", e.getMessage());
    }
}
