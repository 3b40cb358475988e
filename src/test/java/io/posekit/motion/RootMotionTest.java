package io.posekit.motion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.rig.Rig;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.LoopMode;
import io.posekit.sampling.Pose;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * Root-motion extraction and accumulation, known answers: a walker whose hips, under a turned and uniformly scaled
 * armature node (as Mixamo's), move forward, bob and turn over a one-second clip.
 */
class RootMotionTest {

    static final int HIPS = 1;

    /** Armature (turned 90° about y, scale 0.5) → Hips → Spine, LeftUpLeg. */
    static Rig walker() {
        float h = (float) Math.sqrt(0.5);
        return new Rig(new String[] {"Armature", "Hips", "Spine", "LeftUpLeg"}, new int[] {-1, 0, 1, 1},
                new int[] {0, 1, 2, 3}, new float[] {3, 0, -1, 0, 2, 0, 0, 0.2f, 0, 0.2f, -0.1f, 0},
                new float[] {0, h, 0, h, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, new float[] {0.5f, 0.5f, 0.5f, 1, 1, 1,
                    1, 1, 1, 1, 1, 1});
    }

    /**
     * Hips (armature space) from (0, 2, 0) to (0, 2, 4) over one second, bobbing up 0.2 at ½ s, turning 30° about y
     * and leaning 10° about x by the end; {@code turn} false: no rotation at all.
     */
    static Clip walk(boolean turn) {
        float[] times = {0, 0.5f, 1};
        Track t = new Track(HIPS, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, times,
                new float[] {0, 2, 0, 0, 2.2f, 2, 0, 2, 4});
        Quaterniond end = new Quaterniond().rotateY(turn ? Math.toRadians(30) : 0).rotateX(turn ? Math.toRadians(10) : 0);
        Quaterniond mid = new Quaterniond().slerp(end, 0.5);
        Track r = new Track(HIPS, TrackProperty.ROTATION, Interpolation.LINEAR, 4, times, new float[] {0, 0, 0, 1,
            (float) mid.x, (float) mid.y, (float) mid.z, (float) mid.w, (float) end.x, (float) end.y, (float) end.z,
            (float) end.w});
        return Clip.of("Walk", List.of(t, r));
    }

    private static Vector3d position(float[] m, int node) {
        return new Vector3d(m[16 * node + 12], m[16 * node + 13], m[16 * node + 14]);
    }

    @Test
    void extractionThenReapplicationIsTheOriginalPoseAtEverySample() {
        Rig rig = walker();
        Clip clip = walk(true);
        List<Set<RootMotionComponent>> sets = List.of(EnumSet.of(RootMotionComponent.HORIZONTAL),
                EnumSet.of(RootMotionComponent.HORIZONTAL, RootMotionComponent.YAW),
                EnumSet.of(RootMotionComponent.VERTICAL, RootMotionComponent.ROTATION),
                EnumSet.allOf(RootMotionComponent.class));
        for (Set<RootMotionComponent> components : sets) {
            ClipRootMotion motion = ClipRootMotion.of(rig, clip, HIPS, components);
            RigidMotion d = new RigidMotion();
            for (int i = 0; i <= 40; i++) {
                double t = i / 40.0;
                Pose original = Pose.evaluate(rig, clip, t);
                Pose pose = Pose.evaluate(rig, clip, t);
                motion.extractor().extract(pose.local(), pose.modelMatrices(), d);
                // in place: D⁻¹ applied to the root's model transform, so D · inPlace = original for the root
                Vector3d inPlace = position(pose.modelMatrices(), HIPS);
                Vector3d back = d.rotation.transform(new Vector3d(inPlace)).add(d.translation);
                assertEquals(0, back.distance(position(original.modelMatrices(), HIPS)), 1e-5, components + " t=" + t);
                motion.extractor().reapply(pose.local(), pose.modelMatrices(), d);
                assertArrayEquals(original.local().translations(), pose.local().translations(), 1e-5f);
                assertArrayEquals(original.local().rotations(), pose.local().rotations(), 1e-6f);
                assertArrayEquals(original.modelMatrices(), pose.modelMatrices(), 1e-5f);
            }
        }
    }

    @Test
    void theRootStaysInPlaceInTheExtractedComponents() {
        Rig rig = walker();
        Clip clip = walk(true);
        ClipRootMotion motion = ClipRootMotion.of(rig, clip, HIPS,
                EnumSet.of(RootMotionComponent.HORIZONTAL, RootMotionComponent.YAW));
        Vector3d start = position(Pose.evaluate(rig, clip, 0).modelMatrices(), HIPS);
        RigidMotion d = new RigidMotion();
        for (double t : new double[] {0.25, 0.5, 1}) {
            Pose original = Pose.evaluate(rig, clip, t);
            Pose pose = Pose.evaluate(rig, clip, t);
            motion.extractor().extract(pose.local(), pose.modelMatrices(), d);
            Vector3d p = position(pose.modelMatrices(), HIPS);
            Vector3d o = position(original.modelMatrices(), HIPS);
            assertEquals(start.x, p.x, 1e-5);
            assertEquals(start.z, p.z, 1e-5);
            assertEquals(o.y, p.y, 1e-5, "the bob stays in the pose");
            // the motion's translation is the horizontal displacement (plus the turn about the start point)
            Quaterniond yaw = new Quaterniond(d.rotation);
            assertEquals(0, yaw.x, 1e-12);
            assertEquals(0, yaw.z, 1e-12);
        }
        // at the end: the armature turns the clip's +z by 90° about y into model +x, scaled by ½: 4 → 2 along x
        Pose end = Pose.evaluate(rig, clip, 1);
        motion.extractor().motion(end.modelMatrices(), d);
        Vector3d moved = d.rotation.transform(new Vector3d(start)).add(d.translation);
        assertEquals(0, moved.distance(start.x + 2, start.y, start.z), 1e-5);
        assertEquals(Math.toRadians(30), 2 * Math.atan2(d.rotation.y, d.rotation.w), 1e-5, "the 30° turn is the yaw");
    }

    @Test
    void motionAccumulatedOverNLoopsIsNTimesOneLoop() {
        Rig rig = walker();
        Clip clip = walk(false);
        ClipRootMotion motion = ClipRootMotion.of(rig, clip, HIPS, EnumSet.of(RootMotionComponent.HORIZONTAL));
        RigidMotion loop = motion.loopMotion();
        assertEquals(0, loop.translation.distance(2, 0, 0), 1e-5, "one loop: 4 armature units, ×½, along model x");
        RigidMotion cycle = new RigidMotion();
        RigidMotion total = new RigidMotion();
        for (int n : new int[] {1, 2, 3, 7, 100}) {
            for (double r : new double[] {0, 0.25, 0.75}) {
                double time = n * clip.duration() + r;
                long loops = motion.loops(LoopMode.REPEAT, time);
                assertEquals(n, loops);
                Pose pose = Pose.evaluate(rig, clip, LoopMode.REPEAT.localTime(time, clip.duration()));
                motion.extractor().extract(pose.local(), pose.modelMatrices(), cycle);
                motion.accumulate(loops, cycle, total);
                Vector3d expected = new Vector3d(loop.translation).mul(n).add(cycle.translation);
                assertEquals(0, total.translation.distance(expected), 1e-9 * n, "N × one loop + the cycle's part");
                assertEquals(2 * n + 2 * r, total.translation.x, 1e-4);
            }
        }
        // played backwards, loops count down
        assertEquals(-2, motion.loops(LoopMode.REPEAT, -1.5));
        assertEquals(0, motion.loops(LoopMode.CLAMP, 5));
    }

    @Test
    void turningLoopsComposeAsRigidMotions() {
        Rig rig = walker();
        Clip clip = walk(true);
        ClipRootMotion motion = ClipRootMotion.of(rig, clip, HIPS,
                EnumSet.of(RootMotionComponent.HORIZONTAL, RootMotionComponent.YAW));
        RigidMotion loop = motion.loopMotion();
        RigidMotion sequential = new RigidMotion().identity();
        RigidMotion powered = new RigidMotion();
        for (int n = 1; n <= 12; n++) {
            sequential.mul(sequential, loop);
            powered.power(loop, n);
            assertEquals(0, powered.translation.distance(sequential.translation), 1e-9);
            assertEquals(0, powered.rotation.difference(sequential.rotation, new Quaterniond()).angle(), 1e-6);
        }
        // twelve 30° turns are a full circle: back to the start heading and place
        assertEquals(0, Math.min(powered.rotation.angle(), 2 * Math.PI - powered.rotation.angle()), 1e-5);
        assertEquals(0, powered.translation.length(), 1e-4);
        // the inverse: −n loops undo n
        RigidMotion undo = new RigidMotion().mul(new RigidMotion().power(loop, -5), new RigidMotion().power(loop, 5));
        assertEquals(0, undo.translation.length(), 1e-6);
    }
}
