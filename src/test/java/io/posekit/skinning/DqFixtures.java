package io.posekit.skinning;

import io.posekit.math.Matrices;
import java.util.Random;

/** Matrices and rotations for the dual-quaternion skinning tests, built in double and rounded to float once. */
final class DqFixtures {

    private DqFixtures() {
    }

    /** Column-major float matrix T(t)·R(q)·S(s). */
    static float[] trs(float[] t, float[] q, float sx, float sy, float sz) {
        double[] d = new double[16];
        Matrices.composeTrs(t, 0, q, 0, new float[] {sx, sy, sz}, 0, d, 0);
        float[] m = new float[16];
        for (int i = 0; i < 16; i++) {
            m[i] = (float) d[i];
        }
        return m;
    }

    /** Column-major float matrix T(t)·R(q)·(s·I). */
    static float[] trs(float[] t, float[] q, float s) {
        return trs(t, q, s, s, s);
    }

    /** Rotation of {@code degrees} about the axis (normalised here) as a quaternion [x, y, z, w]. */
    static float[] axisAngle(double ax, double ay, double az, double degrees) {
        double len = Math.sqrt(ax * ax + ay * ay + az * az);
        double h = Math.toRadians(degrees) / 2;
        double s = Math.sin(h) / len;
        return new float[] {(float) (ax * s), (float) (ay * s), (float) (az * s), (float) Math.cos(h)};
    }

    static final float[] NO_ROTATION = {0, 0, 0, 1};

    /** A uniformly distributed unit quaternion (normalised 4D Gaussian). */
    static float[] randomRotation(Random random) {
        double x = random.nextGaussian(), y = random.nextGaussian(), z = random.nextGaussian(),
                w = random.nextGaussian();
        double len = Math.sqrt(x * x + y * y + z * z + w * w);
        return new float[] {(float) (x / len), (float) (y / len), (float) (z / len), (float) (w / len)};
    }

    /** Each component uniform in [−r, r). */
    static float[] randomVector(Random random, double r) {
        return new float[] {(float) (r * (2 * random.nextDouble() - 1)), (float) (r * (2 * random.nextDouble() - 1)),
            (float) (r * (2 * random.nextDouble() - 1))};
    }

    /** The matrices one after the other. */
    static float[] concat(float[]... parts) {
        int n = 0;
        for (float[] p : parts) {
            n += p.length;
        }
        float[] out = new float[n];
        int o = 0;
        for (float[] p : parts) {
            System.arraycopy(p, 0, out, o, p.length);
            o += p.length;
        }
        return out;
    }
}
