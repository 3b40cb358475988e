package io.posekit.motion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.posekit.clip.Clip;
import io.posekit.clip.Track;
import io.posekit.rig.Rig;
import io.posekit.sampling.Pose;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** In-place clips of {@link RootMotionTest}'s walker: the motion moves to the armature, the hips stay in place. */
class InPlaceClipTest {

    @Test
    void theNewClipPosesTheModelAsTheOriginalWithTheHipsInPlaceUnderTheMovingTopNode() {
        Rig rig = RootMotionTest.walker();
        Clip walk = RootMotionTest.walk(true);
        InPlaceClip.Result made = InPlaceClip.make(rig, walk, RootMotionTest.HIPS,
                EnumSet.of(RootMotionComponent.HORIZONTAL, RootMotionComponent.YAW), 30, "Walk (in place)");
        assertEquals(0, made.top());
        assertEquals(31, made.keys(), "30 fps over 1 s and the key at ½ s (on the grid)");
        Clip clip = made.clip();
        assertEquals("Walk (in place)", clip.name());
        assertEquals(1, clip.duration());
        // at every key: the model matrices of the hips and below (nodes 1–3) as the original's
        Track key = clip.tracks().stream().filter(tr -> tr.node() == 0).findFirst().orElseThrow();
        for (float t : key.times()) {
            assertArrayEquals(below(Pose.evaluate(rig, walk, t)), below(Pose.evaluate(rig, clip, t)), 2e-5f, "t = " + t);
        }
        // between keys the linear keys stay close (the turn is 1° per key)
        for (double t = 0.01; t < 1; t += 0.0333) {
            assertArrayEquals(below(Pose.evaluate(rig, walk, t)), below(Pose.evaluate(rig, clip, t)), 2e-4f, "t = " + t);
        }
        // the hips' local translation no longer moves horizontally: in place under the armature
        ClipRootMotion motion = ClipRootMotion.of(rig, walk, RootMotionTest.HIPS, EnumSet.of(
                RootMotionComponent.HORIZONTAL, RootMotionComponent.YAW));
        for (double t : new double[] {0, 0.5, 1}) {
            float[] hips = Pose.evaluate(rig, clip, t).local().translations();
            assertEquals(0, hips[3 * RootMotionTest.HIPS], 1e-5);
            assertEquals(0, hips[3 * RootMotionTest.HIPS + 2], 1e-5);
            Pose inPlace = Pose.evaluate(rig, walk, t);
            motion.extractor().extract(inPlace.local(), inPlace.modelMatrices(), new RigidMotion());
            assertArrayEquals(new float[] {inPlace.local().translations()[3], inPlace.local().translations()[4],
                inPlace.local().translations()[5]}, new float[] {hips[3], hips[4], hips[5]}, 1e-5f);
        }
        // the hips' other tracks and other nodes' tracks are kept; the top node has its new tracks
        long topTracks = clip.tracks().stream().filter(tr -> tr.node() == 0).count();
        assertEquals(2, topTracks);
        Track top = clip.tracks().stream().filter(tr -> tr.node() == 0).findFirst().orElseThrow();
        // the armature (at (3, 0, −1)) carried 2 along model x by the end
        assertEquals(3 + 2, top.values()[top.values().length - 3], 1e-4);
    }

    /** The model matrices of the hips and the nodes below them. */
    private static float[] below(Pose pose) {
        return java.util.Arrays.copyOfRange(pose.modelMatrices(), 16, pose.modelMatrices().length);
    }

    @Test
    void aRootJointThatIsASceneRootHasNothingToCarryItsMotion() {
        Rig rig = RootMotionTest.walker();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InPlaceClip.make(rig,
                RootMotionTest.walk(false), 0, EnumSet.of(RootMotionComponent.HORIZONTAL), 30, "x"));
        assertEquals("the root joint 'Armature' is a scene root: no node above it can carry the motion", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> InPlaceClip.make(rig, RootMotionTest.walk(false), 1,
                EnumSet.of(RootMotionComponent.HORIZONTAL), 1e9, "x"));
    }
}
