package io.posekit.asset.bvh;

import static io.posekit.asset.bvh.BvhTestSupport.HALF;
import static io.posekit.asset.bvh.BvhTestSupport.build;
import static io.posekit.asset.bvh.BvhTestSupport.importBvh;
import static io.posekit.asset.bvh.BvhTestSupport.node;
import static io.posekit.asset.bvh.BvhTestSupport.track;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.math.Quaternions;
import io.posekit.sampling.Pose;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * MOTION: key times, translation keys (offset + position channels), rotation keys composed from the rotation
 * channels in their listed order, and the poses they give. Expected quaternions and matrices are worked out by hand
 * in the comments; the generic order test checks against rotation matrices multiplied independently.
 */
class MotionImportTest {

    /**
     * ZXY (the CMU order) with position channels on the root, a child and an end site. Keys every 0.5 s.
     *
     * <ul>
     *   <li>frame 0: Hips at OFFSET + (0, 0, 0), no rotation;</li>
     *   <li>frame 1: Hips at (1, 2, 3) + (10, 20, 30); Rz(90)·Rx(0)·Ry(90): x → −z, y → −x, z → y, the quaternion
     *       (−½, ½, ½, ½) (120° about (−1, 1, 1));</li>
     *   <li>frame 2: Hips Rx(90) = (√½, 0, 0, √½); Chest Rz(90) = (0, 0, √½, √½).</li>
     * </ul>
     */
    static final String ZXY = """
            HIERARCHY
            ROOT Hips
            {
            \tOFFSET 1 2 3
            \tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
            \tJOINT Chest
            \t{
            \t\tOFFSET 0 10 0
            \t\tCHANNELS 3 Zrotation Xrotation Yrotation
            \t\tEnd Site
            \t\t{
            \t\t\tOFFSET 0 5 0
            \t\t}
            \t}
            }
            MOTION
            Frames: 3
            Frame Time: 0.5
            0 0 0 0 0 0 0 0 0
            10 20 30 90 0 90 0 0 0
            0 0 0 0 90 0 90 0 0
            """;

    /**
     * XYZ and YXZ on two roots with the same values: Rx(90)·Ry(90) = (½, ½, ½, ½) maps x → y; Ry(90)·Rx(90) =
     * (½, ½, −½, ½) maps x → −z. Frame time 0.04 s.
     */
    static final String TWO_ROOTS = """
            HIERARCHY
            ROOT A
            {
            \tOFFSET 0 0 0
            \tCHANNELS 3 Xrotation Yrotation Zrotation
            \tEnd Site
            \t{
            \t\tOFFSET 1 0 0
            \t}
            }
            ROOT B
            {
            \tOFFSET 5 0 0
            \tCHANNELS 3 Yrotation Xrotation Zrotation
            \tEnd Site
            \t{
            \t\tOFFSET 1 0 0
            \t}
            }
            MOTION
            Frames: 2
            Frame Time: 0.04
            0 0 0 0 0 0
            90 90 0 90 90 0
            """;

    @Test
    void framesAreLinearKeysAtMultiplesOfTheFrameTime() {
        ImportScene s = importBvh(ZXY);
        ImportScene.Clip clip = s.clips().getFirst();
        assertThat(clip.name()).isEqualTo("animation");
        assertThat(clip.duration()).isEqualTo(1.0);
        assertThat(clip.tracks()).hasSize(3).allSatisfy(t -> {
            assertThat(t.interpolation()).isEqualTo(Interpolation.LINEAR);
            assertThat(t.times()).containsExactly(0f, 0.5f, 1f);
        });
        Model model = build(ZXY);
        assertThat(model.clips()).extracting(Clip::name).containsExactly("animation");
        assertThat(model.clips().getFirst().duration()).isEqualTo(1.0);
    }

    @Test
    void keyTimesAreComputedInDoubleAndStoredAsFloatLikeEveryKeyTime() {
        ImportScene s = importBvh(TWO_ROOTS.replace("Frame Time: 0.04", "Frame Time: .0083333")
                .replace("90 90 0 90 90 0\n", "90 90 0 90 90 0\n1 1 1 1 1 1\n2 2 2 2 2 2\n").replace("Frames: 2", "Frames: 4"));
        Track t = s.clips().getFirst().tracks().getFirst();
        assertThat(t.times()).containsExactly(0f, (float) 0.0083333, (float) (2 * 0.0083333), (float) (3 * 0.0083333));
        assertThat(s.clips().getFirst().duration()).isEqualTo((double) (float) (3 * 0.0083333));
    }

    @Test
    void positionChannelsAreAddedToTheOffset() {
        ImportScene s = importBvh(ZXY);
        Track hips = track(s, node(s, "Hips"), TrackProperty.TRANSLATION);
        assertThat(hips.values()).containsExactly(1, 2, 3, 11, 22, 33, 1, 2, 3);
    }

    @Test
    void onlyJointsWithPositionChannelsGetTranslationTracks() {
        ImportScene s = importBvh(ZXY);
        assertThat(track(s, node(s, "Chest"), TrackProperty.TRANSLATION)).isNull();
        assertThat(track(s, node(s, "Chest"), TrackProperty.ROTATION)).isNotNull();
        assertThat(track(s, node(s, "Chest_end"), TrackProperty.ROTATION)).isNull();
        assertThat(s.clips().getFirst().tracks()).noneMatch(t -> t.property() == TrackProperty.SCALE);
    }

    @Test
    void aMissingPositionAxisKeepsTheOffset() {
        ImportScene s = importBvh("""
                HIERARCHY
                ROOT R
                {
                  OFFSET 1 2 3
                  CHANNELS 2 Yposition Zrotation
                }
                MOTION
                Frames: 1
                Frame Time: 1
                5 90
                """);
        assertThat(track(s, 0, TrackProperty.TRANSLATION).values()).containsExactly(1, 7, 3);
        assertThat(track(s, 0, TrackProperty.ROTATION).values()).containsExactly(new float[] {0, 0, HALF, HALF}, within(1e-7f));
        assertThat(s.clips().getFirst().duration()).isZero();
    }

    @Test
    void zxyRotationsComposeInListedOrder() {
        ImportScene s = importBvh(ZXY);
        float[] hips = track(s, node(s, "Hips"), TrackProperty.ROTATION).values();
        assertThat(hips).containsExactly(new float[] {0, 0, 0, 1, -0.5f, 0.5f, 0.5f, 0.5f, HALF, 0, 0, HALF}, within(1e-7f));
        float[] chest = track(s, node(s, "Chest"), TrackProperty.ROTATION).values();
        assertThat(chest).containsExactly(new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, HALF, HALF}, within(1e-7f));
    }

    @Test
    void xyzAndYxzOrdersDiffer() {
        ImportScene s = importBvh(TWO_ROOTS);
        assertThat(track(s, node(s, "A"), TrackProperty.ROTATION).values())
                .containsExactly(new float[] {0, 0, 0, 1, 0.5f, 0.5f, 0.5f, 0.5f}, within(1e-7f));
        assertThat(track(s, node(s, "B"), TrackProperty.ROTATION).values())
                .containsExactly(new float[] {0, 0, 0, 1, 0.5f, 0.5f, -0.5f, 0.5f}, within(1e-7f));
        assertThat(s.clips().getFirst().tracks().getFirst().times()).containsExactly(0f, 0.04f);
        assertThat(s.clips().getFirst().duration()).isEqualTo((double) 0.04f);
    }

    @Test
    void posesAtKeysHaveTheHandDerivedModelMatrices() {
        Model model = build(ZXY);
        int hips = model.rig().indexOf("Hips");
        int end = model.rig().indexOf("Chest_end");
        Pose p = Pose.evaluate(model.rig(), model.clips().getFirst(), 0.5);
        // Hips: columns are the images of x, y, z: (0,0,−1), (−1,0,0), (0,1,0); translation (11, 22, 33)
        assertMatrix(p.modelMatrices(), hips, 0, 0, -1, 0, -1, 0, 0, 0, 0, 1, 0, 0, 11, 22, 33, 1);
        // the end site is (0, 15, 0) from Hips in Hips' frame, and y → −x: (11 − 15, 22, 33)
        assertMatrix(p.modelMatrices(), end, 0, 0, -1, 0, -1, 0, 0, 0, 0, 1, 0, 0, -4, 22, 33, 1);

        // t = 1: Hips Rx(90) (y → z, z → −y) at (1, 2, 3); Chest Rz(90) (x → y, y → −x); end site (0, 5, 0) from
        // Chest: Rx·Rz·(0, 5, 0) = Rx·(−5, 0, 0) = (−5, 0, 0), Chest at (1, 2, 3) + Rx·(0, 10, 0) = (1, 2, 13)
        p = Pose.evaluate(model.rig(), model.clips().getFirst(), 1.0);
        assertMatrix(p.modelMatrices(), hips, 1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 1, 2, 3, 1);
        // Rx(90)·Rz(90): x → Rx(y) = z, y → Rx(−x) = −x, z → Rx(z) = −y
        assertMatrix(p.modelMatrices(), end, 0, 0, 1, 0, -1, 0, 0, 0, 0, -1, 0, 0, -4, 2, 13, 1);
    }

    @Test
    void posesBetweenKeysLerpTranslationsAndSlerpRotations() {
        Model model = build(ZXY);
        int hips = model.rig().indexOf("Hips");
        Pose p = Pose.evaluate(model.rig(), model.clips().getFirst(), 0.25);
        float[] t = Arrays.copyOfRange(p.local().translations(), 3 * hips, 3 * hips + 3);
        assertThat(t).containsExactly(new float[] {6, 12, 18}, within(1e-6f));
        // halfway from identity to 120° about (−1, 1, 1)/√3: 60°, (−sin 30°/√3, sin 30°/√3, sin 30°/√3, cos 30°)
        double a = 0.5 / Math.sqrt(3);
        float[] r = Arrays.copyOfRange(p.local().rotations(), 4 * hips, 4 * hips + 4);
        assertThat(r).containsExactly(new float[] {(float) -a, (float) a, (float) a, (float) Math.cos(Math.PI / 6)},
                within(1e-6f));
    }

    @Test
    void severalRootsArePosedIndependently() {
        Model model = build(TWO_ROOTS);
        Pose p = Pose.evaluate(model.rig(), model.clips().getFirst(), 0.04);
        // A's end site: (1, 0, 0) rotated x → y; B's: (5, 0, 0) + (1, 0, 0) rotated x → −z
        int aEnd = model.rig().indexOf("A_end");
        int bEnd = model.rig().indexOf("B_end");
        assertThat(Arrays.copyOfRange(p.modelMatrices(), 16 * aEnd + 12, 16 * aEnd + 15))
                .containsExactly(new float[] {0, 1, 0}, within(1e-6f));
        assertThat(Arrays.copyOfRange(p.modelMatrices(), 16 * bEnd + 12, 16 * bEnd + 15))
                .containsExactly(new float[] {5, 0, -1}, within(1e-6f));
        assertThat(model.rig().parent(model.rig().indexOf("B"))).isEqualTo(-1);
    }

    /** Every order of three axes, several angle triples: R = R(first)·R(second)·R(third), intrinsic. */
    @Test
    void everyRotationOrderMatchesTheProductOfAxisMatrices() {
        String[] orders = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
        double[][] angles = {{30, -45, 60}, {170, 10, -95}, {-180, 90, 33.3}, {0.001, 359, -720.5}};
        for (String order : orders) {
            for (double[] a : angles) {
                String channels = order.charAt(0) + "rotation " + order.charAt(1) + "rotation " + order.charAt(2) + "rotation";
                ImportScene s = importBvh("HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 3 " + channels
                        + "\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n" + a[0] + " " + a[1] + " " + a[2] + "\n");
                float[] q = track(s, 0, TrackProperty.ROTATION).values();
                double[] expected = identity3();
                for (int k = 0; k < 3; k++) {
                    expected = multiply3(expected, axisMatrix(order.charAt(k), a[k]));
                }
                double[] actual = quaternionMatrix(q);
                for (int i = 0; i < 9; i++) {
                    assertThat(actual[i]).as("%s %s element %d", order, Arrays.toString(a), i).isCloseTo(expected[i], within(1e-6));
                }
            }
        }
    }

    @Test
    void repeatedAndExtraRotationChannelsComposeInOrder() {
        // Xrotation twice: Rx(30)·Ry(0)·Rx(60) = Rx(90); nine channels in all
        ImportScene s = importBvh("""
                HIERARCHY
                ROOT R
                {
                  OFFSET 0 0 0
                  CHANNELS 9 Xposition Yposition Zposition Xrotation Yrotation Xrotation Zrotation Zrotation Zrotation
                }
                MOTION
                Frames: 1
                Frame Time: 0.1
                0 0 0 30 0 60 10 -20 10
                """);
        assertThat(track(s, 0, TrackProperty.ROTATION).values()).containsExactly(new float[] {HALF, 0, 0, HALF}, within(1e-7f));
    }

    @Test
    void rotationKeysAreHemisphereContinuous() {
        // 0°, 170°, 190°, 350°, 10° about Z: each key on the side of the one before, so w goes negative; the last
        // key's own quaternion (cos 5° > 0) is flipped to stay next to 350°
        ImportScene s = importBvh("HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 1 Zrotation\n}\nMOTION\nFrames: 5\n"
                + "Frame Time: 1\n0\n170\n190\n350\n10\n");
        float[] r = track(s, 0, TrackProperty.ROTATION).values();
        for (int k = 1; k < 5; k++) {
            assertThat(Quaternions.dot(r, 4 * k - 4, r, 4 * k)).as("key %d", k).isPositive();
        }
        assertThat(r[4 * 2 + 3]).isCloseTo((float) Math.cos(Math.toRadians(95)), within(1e-7f));
        assertThat(r[4 * 4 + 3]).isCloseTo((float) Math.cos(Math.toRadians(185)), within(1e-7f));
    }

    @Test
    void jointsWithoutChannelsKeepTheirRestPose() {
        ImportScene s = importBvh("""
                HIERARCHY
                ROOT R
                {
                  OFFSET 0 0 0
                  CHANNELS 1 Yrotation
                  JOINT Fixed
                  {
                    OFFSET 1 0 0
                    CHANNELS 0
                    JOINT Moving
                    {
                      OFFSET 1 0 0
                      CHANNELS 1 Xposition
                    }
                  }
                }
                MOTION
                Frames: 2
                Frame Time: 0.1
                0 0
                90 4
                """);
        assertThat(s.clips().getFirst().tracks()).extracting(Track::node).containsExactly(0, 2);
        assertThat(track(s, 2, TrackProperty.TRANSLATION).values()).containsExactly(1, 0, 0, 5, 0, 0);
    }

    @Test
    void aHierarchyWithoutChannelsGivesAClipWithoutTracks() {
        ImportScene s = importBvh("HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 0\n}\nMOTION\nFrames: 11\nFrame Time: 0.1\n");
        ImportScene.Clip clip = s.clips().getFirst();
        assertThat(clip.tracks()).isEmpty();
        assertThat(clip.duration()).isEqualTo((double) (float) (10 * 0.1));
        assertThat(s.warnings()).isEmpty();
    }

    @Test
    void zeroFramesGiveAnEmptyClipAndAWarning() {
        ImportScene s = importBvh(ZXY.replace("Frames: 3", "Frames: 0"));
        assertThat(s.clips().getFirst().tracks()).isEmpty();
        assertThat(s.clips().getFirst().duration()).isZero();
        assertThat(s.warnings()).containsExactly("line 17: Frames: 0; the clip 'animation' has no keys",
                "3 lines after line 18 ignored: the file holds more than the 0 frames 'Frames:' declares");
        assertThat(build(ZXY.replace("Frames: 3", "Frames: 0")).clips().getFirst().duration()).isZero();
    }

    @Test
    void framesBeyondTheDeclaredCountAreIgnoredWithAWarning() {
        ImportScene s = importBvh(ZXY.replace("Frames: 3", "Frames: 2"));
        assertThat(s.clips().getFirst().duration()).isEqualTo(0.5);
        assertThat(s.warnings()).containsExactly(
                "1 line after line 20 ignored: the file holds more than the 2 frames 'Frames:' declares");
    }

    private static void assertMatrix(float[] matrices, int node, double... expected) {
        for (int i = 0; i < 16; i++) {
            assertThat((double) matrices[16 * node + i]).as("node %d element %d", node, i).isCloseTo(expected[i], within(1e-5));
        }
    }

    /** Row-major 3×3 rotation by {@code degrees} about the axis named {@code axis}. */
    private static double[] axisMatrix(char axis, double degrees) {
        double c = Math.cos(Math.toRadians(degrees));
        double s = Math.sin(Math.toRadians(degrees));
        return switch (axis) {
            case 'X' -> new double[] {1, 0, 0, 0, c, -s, 0, s, c};
            case 'Y' -> new double[] {c, 0, s, 0, 1, 0, -s, 0, c};
            default -> new double[] {c, -s, 0, s, c, 0, 0, 0, 1};
        };
    }

    private static double[] identity3() {
        return new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1};
    }

    private static double[] multiply3(double[] a, double[] b) {
        double[] out = new double[9];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                for (int k = 0; k < 3; k++) {
                    out[3 * r + c] += a[3 * r + k] * b[3 * k + c];
                }
            }
        }
        return out;
    }

    /** Row-major rotation matrix of the unit quaternion {@code q = [x, y, z, w]}. */
    private static double[] quaternionMatrix(float[] q) {
        double x = q[0], y = q[1], z = q[2], w = q[3];
        return new double[] {
            1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
            2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
            2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)};
    }
}
