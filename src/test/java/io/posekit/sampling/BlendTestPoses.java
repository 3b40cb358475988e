package io.posekit.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.math.Quaternions;
import io.posekit.rig.Rig;

/** Fixtures shared by the blending tests: a 4-node rig and poses built in code. */
final class BlendTestPoses {

    static final float S45 = (float) Math.sqrt(0.5);
    static final float[] IDENTITY = {0, 0, 0, 1};

    private BlendTestPoses() {
    }

    /**
     * hips (0, root) → spine (1) → arm (2), and hips → leg (3). Rest: identity rotations except the leg,
     * distinct translations, unit scales except the arm.
     */
    static Rig rig() {
        return new Rig(new String[] {"hips", "spine", "arm", "leg"}, new int[] {-1, 0, 1, 0},
                new int[] {0, 1, 2, 3},
                new float[] {0, 4, 0, 0, 1, 0, 1, 0, 0, 0, -1, 0},
                new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, S45, 0, 0, S45},
                new float[] {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1});
    }

    /** Rotation of {@code degrees} about the unit axis (ax, ay, az), {@code [x, y, z, w]}. */
    static float[] rot(double degrees, double ax, double ay, double az) {
        double h = Math.toRadians(degrees) / 2;
        double s = Math.sin(h);
        return new float[] {(float) (ax * s), (float) (ay * s), (float) (az * s), (float) Math.cos(h)};
    }

    static float[] rz(double degrees) {
        return rot(degrees, 0, 0, 1);
    }

    static float[] rx(double degrees) {
        return rot(degrees, 1, 0, 0);
    }

    static float[] negated(float[] q) {
        return new float[] {-q[0], -q[1], -q[2], -q[3]};
    }

    /** Hamilton product a·b in double, rounded to float. */
    static float[] mul(float[] a, float[] b) {
        double ax = a[0], ay = a[1], az = a[2], aw = a[3];
        double bx = b[0], by = b[1], bz = b[2], bw = b[3];
        return new float[] {
            (float) (aw * bx + ax * bw + ay * bz - az * by),
            (float) (aw * by - ax * bz + ay * bw + az * bx),
            (float) (aw * bz + ax * by - ay * bx + az * bw),
            (float) (aw * bw - ax * bx - ay * by - az * bz)};
    }

    /**
     * Asserts that two unit quaternions are the same rotation: equal within 1e-6 per component after the
     * expected one is moved into the actual one's hemisphere (q and −q are the same rotation).
     */
    static void assertSameRotation(float[] actual, float[] expected) {
        float[] e = Quaternions.dot(actual, 0, expected, 0) < 0 ? negated(expected) : expected;
        assertThat(actual).containsExactly(e, within(1e-6f));
    }

    /** A pose whose every node has translation t, rotation q and scale s. */
    static LocalPose uniform(int n, float[] t, float[] q, float[] s) {
        LocalPose pose = new LocalPose(n);
        for (int i = 0; i < n; i++) {
            set(pose, i, t, q, s);
        }
        return pose;
    }

    static void set(LocalPose pose, int i, float[] t, float[] q, float[] s) {
        System.arraycopy(t, 0, pose.translations(), 3 * i, 3);
        System.arraycopy(q, 0, pose.rotations(), 4 * i, 4);
        System.arraycopy(s, 0, pose.scales(), 3 * i, 3);
    }

    static float[] translation(LocalPose pose, int i) {
        return java.util.Arrays.copyOfRange(pose.translations(), 3 * i, 3 * i + 3);
    }

    static float[] rotation(LocalPose pose, int i) {
        return java.util.Arrays.copyOfRange(pose.rotations(), 4 * i, 4 * i + 4);
    }

    static float[] scale(LocalPose pose, int i) {
        return java.util.Arrays.copyOfRange(pose.scales(), 3 * i, 3 * i + 3);
    }
}
