package io.posekit.ik;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.posekit.rig.Rig;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.Pose;
import java.util.List;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * Known answers of two-bone and aim IK on a leg-like rig: root, hip (start), knee (mid), ankle (end), and a head
 * joint for aiming. The hip is at (0, 2, 0), thigh and shin 1 long, the knee bent 30° forward.
 */
class IkSolverTest {

    static final int HIP = 1;
    static final int KNEE = 2;
    static final int ANKLE = 3;
    static final int HEAD = 4;

    /** The leg rig; {@code rootScale} scales the root uniformly. */
    static Rig leg(float rootScale) {
        float s30 = (float) Math.sin(Math.toRadians(15));
        float c30 = (float) Math.cos(Math.toRadians(15));
        return new Rig(new String[] {"root", "hip", "knee", "ankle", "head"}, new int[] {-1, 0, 1, 2, 0},
                new int[] {0, 1, 2, 3, 4},
                new float[] {0.5f, 0, -0.25f, 0, 2, 0, 0, -1, 0, 0, -1, 0, 0, 3, 0},
                new float[] {0, 0.3826834f, 0, 0.9238795f, 0, 0, 0, 1, s30, 0, 0, c30, 0, 0, 0, 1, 0, 0, 0, 1},
                new float[] {rootScale, rootScale, rootScale, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
    }

    private static Vector3d position(float[] model, int node) {
        return new Vector3d(model[16 * node + 12], model[16 * node + 13], model[16 * node + 14]);
    }

    private static Pose solve(Rig rig, List<IkChain> chains) {
        Pose pose = Pose.evaluate(rig, null, 0);
        new IkSolver(rig, chains).apply(pose.local(), pose.modelMatrices());
        return pose;
    }

    private static IkChain.TwoBone leg(double[] target, double[] pole, double weight) {
        return new IkChain.TwoBone(HIP, KNEE, ANKLE, target, pole, null, 1, weight, 0);
    }

    @Test
    void aReachableTargetIsReachedWithTheMidJointInThePoleSPlane() {
        for (float scale : new float[] {1, 2.5f}) {
            Rig rig = leg(scale);
            float[] before = Pose.evaluate(rig, null, 0).modelMatrices();
            Vector3d hip = position(before, HIP);
            double reach = 2 * scale;
            for (double[] dir : new double[][] {{0.3, -0.8, 0.2}, {-0.5, -0.4, 0.6}, {0.9, 0.1, -0.3}}) {
                Vector3d d = new Vector3d(dir[0], dir[1], dir[2]).normalize(0.7 * reach);
                double[] target = {hip.x + d.x, hip.y + d.y, hip.z + d.z};
                double[] pole = {0.2, 0.3, 1};
                IkSolver solver = new IkSolver(rig, List.of(leg(target, pole, 1)));
                Pose pose = Pose.evaluate(rig, null, 0);
                solver.apply(pose.local(), pose.modelMatrices());
                assertTrue(solver.reached(0));
                Vector3d ankle = position(pose.modelMatrices(), ANKLE);
                assertEquals(0, ankle.distance(target[0], target[1], target[2]), 1e-5 * scale, "end on the target");
                // the knee lies in the plane through the hip spanned by hip→target and the pole, on the pole's side
                Vector3d knee = position(pose.modelMatrices(), KNEE).sub(position(pose.modelMatrices(), HIP));
                Vector3d normal = new Vector3d(d).cross(pole[0], pole[1], pole[2]).normalize();
                assertEquals(0, knee.dot(normal), 1e-5 * scale, "knee in the pole's plane");
                Vector3d poleSide = new Vector3d(pole[0], pole[1], pole[2]);
                poleSide.sub(new Vector3d(d).normalize().mul(poleSide.dot(new Vector3d(d).normalize())));
                assertTrue(knee.dot(poleSide) > 0, "the knee bends toward the pole");
                // bone lengths kept
                assertEquals(scale, knee.length(), 1e-5 * scale);
                assertEquals(scale, ankle.distance(position(pose.modelMatrices(), KNEE)), 1e-5 * scale);
            }
        }
    }

    @Test
    void anUnreachableTargetGivesAStraightChainTowardIt() {
        Rig rig = leg(1);
        Vector3d hip = position(Pose.evaluate(rig, null, 0).modelMatrices(), HIP);
        Vector3d dir = new Vector3d(0.4, -0.6, 0.7).normalize();
        double[] target = {hip.x + 5 * dir.x, hip.y + 5 * dir.y, hip.z + 5 * dir.z};
        IkSolver solver = new IkSolver(rig, List.of(leg(target, new double[] {0, 0, 1}, 1)));
        Pose pose = Pose.evaluate(rig, null, 0);
        solver.apply(pose.local(), pose.modelMatrices());
        assertFalse(solver.reached(0));
        Vector3d knee = position(pose.modelMatrices(), KNEE).sub(hip);
        Vector3d ankle = position(pose.modelMatrices(), ANKLE).sub(hip);
        assertEquals(0, knee.distance(new Vector3d(dir).mul(1)), 1e-5);
        assertEquals(0, ankle.distance(new Vector3d(dir).mul(2)), 1e-5);
    }

    @Test
    void weightZeroIsTheIdentityAndAHalfIsHalfway() {
        Rig rig = leg(1);
        double[] target = {0.8, 0.7, 0.9};
        double[] pole = {0, 0, 1};
        Pose rest = Pose.evaluate(rig, null, 0);
        Pose none = solve(rig, List.of(leg(target, pole, 0)));
        assertArrayEquals(rest.local().rotations(), none.local().rotations(), 0f);
        assertArrayEquals(rest.modelMatrices(), none.modelMatrices(), 0f);

        Pose full = solve(rig, List.of(leg(target, pole, 1)));
        Pose half = solve(rig, List.of(leg(target, pole, 0.5)));
        for (int joint : new int[] {HIP, KNEE}) {
            Quaterniond r = quaternion(rest.local().rotations(), joint);
            Quaterniond cFull = r.conjugate(new Quaterniond()).mul(quaternion(full.local().rotations(), joint));
            Quaterniond cHalf = r.conjugate(new Quaterniond()).mul(quaternion(half.local().rotations(), joint));
            double angleFull = angle(cFull);
            assertTrue(angleFull > 0.1, "the full correction turns the joint");
            assertEquals(angleFull / 2, angle(cHalf), 1e-6, "half the angle");
            Vector3d axisFull = new Vector3d(cFull.x, cFull.y, cFull.z).normalize().mul(Math.signum(cFull.w));
            Vector3d axisHalf = new Vector3d(cHalf.x, cHalf.y, cHalf.z).normalize().mul(Math.signum(cHalf.w));
            assertEquals(0, axisFull.distance(axisHalf), 1e-5, "about the same axis");
        }
    }

    @Test
    void twoBoneJobKnownAnswerWithSoftening() {
        // start at the origin, mid at (0, -1, 0), end at (0, -2, 0) bent 0 (straight), target at distance 1.9 < 2:
        // soften 0.5 moves it to da + ds·(1 − 3⁴/(α + 3)⁴) with da = 1, ds = 1, α = 0.9
        TwoBoneIkJob job = new TwoBoneIkJob();
        job.start.identity();
        job.mid.translation(0, -1, 0);
        job.end.translation(0, -2, 0);
        job.target.set(1.9, 0, 0);
        job.pole.set(0, 1, 0);
        job.midAxis.set(0, 0, 1);
        job.soften = 0.5;
        job.run();
        assertFalse(job.reached, "as ozz: beyond soften × chain length counts as not reached");
        double expected = 1 + 1 - 81 / Math.pow(3.9, 4);
        Vector3d end = job.midCorrection.transform(new Vector3d(0, -1, 0)).add(0, -1, 0);
        job.startCorrection.transform(end);
        assertEquals(0, end.distance(expected, 0, 0), 1e-12);
    }

    @Test
    void aimPointsTheForwardAxisAtTheTarget() {
        Rig rig = leg(1);
        for (double[] target : new double[][] {{3, 4, 2}, {-1, 2.5, -3}, {0.2, 6, 0.1}}) {
            double[] forward = {0, 0, 1};
            IkSolver solver = new IkSolver(rig, List.of(new IkChain.Aim(HEAD, forward, new double[] {0, 1, 0},
                    new double[3], target, new double[] {0, 1, 0}, 1, 0)));
            Pose pose = Pose.evaluate(rig, null, 0);
            solver.apply(pose.local(), pose.modelMatrices());
            float[] m = pose.modelMatrices();
            int o = 16 * HEAD;
            Vector3d fwd = new Vector3d(m[o + 8], m[o + 9], m[o + 10]).normalize();
            Vector3d toTarget = new Vector3d(target[0], target[1], target[2]).sub(position(m, HEAD)).normalize();
            assertEquals(0, fwd.angle(toTarget), 1e-5, "forward at the target (rad)");
            // the up axis stays in the plane of the pole (y) and the aim direction
            Vector3d upAxis = new Vector3d(m[o + 4], m[o + 5], m[o + 6]);
            Vector3d normal = new Vector3d(0, 1, 0).cross(toTarget).normalize();
            assertEquals(0, upAxis.dot(normal), 1e-5);
            assertTrue(upAxis.y > 0);
        }
    }

    @Test
    void aimWithAnOffsetPutsTheTargetOnTheOffsetPointSForwardLine() {
        AimIkJob job = new AimIkJob();
        job.joint.translation(1, 1, 1).rotateY(0.4);
        job.forward.set(0, 0, 1);
        job.offset.set(0.3, 0.2, 0);
        job.target.set(2, 3, 5);
        job.run();
        assertTrue(job.reached);
        // in model space after the correction: the offset point plus s·forward passes through the target
        var corrected = new org.joml.Matrix4d(job.joint).rotate(job.correction);
        Vector3d eye = corrected.transformPosition(new Vector3d(job.offset));
        Vector3d fwd = corrected.transformDirection(new Vector3d(0, 0, 1)).normalize();
        Vector3d toTarget = new Vector3d(job.target).sub(eye).normalize();
        assertEquals(0, fwd.angle(toTarget), 1e-5);
        // a target nearer than the offset's distance from the forward line cannot be aimed at
        job.target.set(1, 1, 1.05);
        job.run();
        assertFalse(job.reached);
        assertEquals(new Quaterniond(), job.correction);
    }

    @Test
    void chainsAreCheckedAgainstTheRig() {
        Rig rig = leg(1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new IkSolver(rig,
                List.of(new IkChain.TwoBone(KNEE, HIP, ANKLE, new double[3], new double[] {0, 0, 1}, null, 1, 1, 0))));
        assertEquals("ik[0]: the end joint must be below the mid joint and the mid joint below the start joint",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new IkSolver(rig, List.of(new IkChain.Aim(HEAD,
                new double[3], new double[] {0, 1, 0}, new double[3], new double[3], new double[] {0, 1, 0}, 1, 0))));
        assertEquals("ik[0]: forward must not be zero", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new IkSolver(rig, List.of(leg(new double[3],
                new double[] {0, 0, 1}, 1.5))));
        assertEquals("ik[0]: weight must be between 0 and 1, not 1.5", e.getMessage());
    }

    private static Quaterniond quaternion(float[] r, int node) {
        return new Quaterniond(r[4 * node], r[4 * node + 1], r[4 * node + 2], r[4 * node + 3]);
    }

    private static double angle(Quaterniond q) {
        return 2 * Math.acos(Math.min(1, Math.abs(q.w)));
    }

    static LocalPose copy(LocalPose p) {
        LocalPose out = new LocalPose(p.nodeCount());
        System.arraycopy(p.translations(), 0, out.translations(), 0, p.translations().length);
        System.arraycopy(p.rotations(), 0, out.rotations(), 0, p.rotations().length);
        System.arraycopy(p.scales(), 0, out.scales(), 0, p.scales().length);
        return out;
    }
}
