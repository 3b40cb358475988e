package io.posekit.retarget;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.rig.Rig;
import io.posekit.sampling.Pose;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** Skeletons and clips built in code for the retargeting tests, and the geometry the tests measure. */
final class Skeletons {

    private Skeletons() {
    }

    /** A small humanoid, Mixamo names, y up, rest rotations identity (a T-pose), hips 1 m high, feet at 0. */
    static Rig humanoid() {
        return build(new Object[][] {
            {"Hips", -1, 0f, 1f, 0f},
            {"Spine", 0, 0f, 0.15f, 0f},
            {"Spine1", 1, 0f, 0.15f, 0f},
            {"Neck", 2, 0f, 0.2f, 0f},
            {"Head", 3, 0f, 0.1f, 0f},
            {"LeftShoulder", 2, 0.05f, 0.15f, 0f},
            {"LeftArm", 5, 0.1f, 0f, 0f},
            {"LeftForeArm", 6, 0.25f, 0f, 0f},
            {"LeftHand", 7, 0.22f, 0f, 0f},
            {"RightShoulder", 2, -0.05f, 0.15f, 0f},
            {"RightArm", 9, -0.1f, 0f, 0f},
            {"RightForeArm", 10, -0.25f, 0f, 0f},
            {"RightHand", 11, -0.22f, 0f, 0f},
            {"LeftUpLeg", 0, 0.1f, -0.05f, 0f},
            {"LeftLeg", 13, 0f, -0.45f, 0f},
            {"LeftFoot", 14, 0f, -0.45f, 0f},
            {"LeftToeBase", 15, 0f, -0.05f, 0.1f},
            {"RightUpLeg", 0, -0.1f, -0.05f, 0f},
            {"RightLeg", 17, 0f, -0.45f, 0f},
            {"RightFoot", 18, 0f, -0.45f, 0f},
            {"RightToeBase", 19, 0f, -0.05f, 0.1f},
        });
    }

    /** Rows {name, parent, tx, ty, tz}: a rig with identity rest rotations and unit scales. */
    static Rig build(Object[][] rows) {
        int n = rows.length;
        String[] names = new String[n];
        int[] parents = new int[n];
        float[] t = new float[3 * n];
        float[] r = new float[4 * n];
        float[] s = new float[3 * n];
        for (int i = 0; i < n; i++) {
            names[i] = (String) rows[i][0];
            parents[i] = (Integer) rows[i][1];
            for (int c = 0; c < 3; c++) {
                t[3 * i + c] = (Float) rows[i][2 + c];
                s[3 * i + c] = 1;
            }
            r[4 * i + 3] = 1;
        }
        int[] sources = new int[n];
        Arrays.fill(sources, -1);
        return new Rig(names, parents, sources, t, r, s);
    }

    /** A rig with other names, translations and rotations and the same parents. */
    static Rig with(Rig rig, String[] names, float[] translations, float[] rotations) {
        int[] sources = new int[rig.nodeCount()];
        Arrays.fill(sources, -1);
        return new Rig(names, rig.parents(), sources, translations, rotations, rig.restScales());
    }

    static Rig renamed(Rig rig, String... names) {
        return with(rig, names, rig.restTranslations(), rig.restRotations());
    }

    /** The rig with every rest translation times {@code k}. */
    static Rig scaled(Rig rig, float k) {
        float[] t = rig.restTranslations().clone();
        for (int i = 0; i < t.length; i++) {
            t[i] *= k;
        }
        return with(rig, rig.names().toArray(String[]::new), t, rig.restRotations());
    }

    /**
     * The rig with every rest rotation turned by a random offset and the translations compensated, so every joint's
     * rest model position is the same.
     */
    static Rig turned(Rig rig, long seed) {
        Random random = new Random(seed);
        int n = rig.nodeCount();
        float[] rotations = new float[4 * n];
        for (int i = 0; i < n; i++) {
            randomRotation(random, Math.PI, rotations, 4 * i);
        }
        double[] restModel = modelRotations(rig.parents(), rotations);
        double[] positions = positions(rig);
        float[] translations = new float[3 * n];
        double[] v = new double[3];
        for (int i = 0; i < n; i++) {
            int p = rig.parent(i);
            if (p < 0) {
                for (int c = 0; c < 3; c++) {
                    translations[3 * i + c] = (float) positions[3 * i + c];
                }
                continue;
            }
            for (int c = 0; c < 3; c++) {
                v[c] = positions[3 * i + c] - positions[3 * p + c];
            }
            Rotations.rotateInverse(restModel, 4 * p, v, 0, v, 0);
            for (int c = 0; c < 3; c++) {
                translations[3 * i + c] = (float) v[c];
            }
        }
        return with(rig, rig.names().toArray(String[]::new), translations, rotations);
    }

    /** Writes a rotation of a random axis and an angle in [−maxAngle, maxAngle]. */
    static void randomRotation(Random random, double maxAngle, float[] out, int o) {
        double x = random.nextGaussian();
        double y = random.nextGaussian();
        double z = random.nextGaussian();
        double len = Math.sqrt(x * x + y * y + z * z);
        double angle = (random.nextDouble() * 2 - 1) * maxAngle;
        double s = Math.sin(angle / 2) / len;
        out[o] = (float) (x * s);
        out[o + 1] = (float) (y * s);
        out[o + 2] = (float) (z * s);
        out[o + 3] = (float) Math.cos(angle / 2);
        io.posekit.math.Quaternions.normalize(out, o);
    }

    /**
     * A clip of {@code keys} keys at 30 Hz: each joint's rest rotation turned by a random rotation of up to 60° per
     * key (LINEAR), and the root moving along x and bobbing in y.
     */
    static Clip dance(Rig rig, int keys, long seed) {
        Random random = new Random(seed);
        float[] times = new float[keys];
        for (int k = 0; k < keys; k++) {
            times[k] = k / 30f;
        }
        List<Track> tracks = new ArrayList<>();
        float[] turn = new float[4];
        for (int j = 0; j < rig.nodeCount(); j++) {
            float[] values = new float[4 * keys];
            for (int k = 0; k < keys; k++) {
                randomRotation(random, Math.PI / 3, turn, 0);
                double[] a = {rig.restRotations()[4 * j], rig.restRotations()[4 * j + 1], rig.restRotations()[4 * j + 2],
                    rig.restRotations()[4 * j + 3]};
                double[] b = {turn[0], turn[1], turn[2], turn[3]};
                double[] q = new double[4];
                Rotations.multiply(a, 0, b, 0, q, 0);
                Rotations.normalize(q, 0);
                for (int c = 0; c < 4; c++) {
                    values[4 * k + c] = (float) q[c];
                }
            }
            tracks.add(new Track(j, TrackProperty.ROTATION, Interpolation.LINEAR, 4, times, values));
        }
        float[] root = new float[3 * keys];
        for (int k = 0; k < keys; k++) {
            root[3 * k] = rig.restTranslations()[0] + 0.1f * k;
            root[3 * k + 1] = rig.restTranslations()[1] + 0.05f * (float) Math.sin(k);
            root[3 * k + 2] = rig.restTranslations()[2];
        }
        tracks.add(new Track(0, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, times, root));
        return Clip.of("Dance", tracks);
    }

    static Model model(Rig rig, Clip... clips) {
        return new Model(AssetFormat.GLTF, rig, List.of(), List.of(), List.of(clips), List.of());
    }

    /** Model-space rotations composed from local ones (double). */
    static double[] modelRotations(int[] parents, float[] local) {
        int n = parents.length;
        double[] out = new double[4 * n];
        double[] q = new double[4];
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < 4; c++) {
                q[c] = local[4 * i + c];
            }
            if (parents[i] >= 0) {
                Rotations.multiply(out, 4 * parents[i], q, 0, out, 4 * i);
            } else {
                System.arraycopy(q, 0, out, 4 * i, 4);
            }
            Rotations.normalize(out, 4 * i);
        }
        return out;
    }

    /** Rest model positions. */
    static double[] positions(Rig rig) {
        return positions(Pose.evaluate(rig, null, 0).modelMatrices(), rig.nodeCount());
    }

    /** Model positions of {@code clip} on {@code rig} at {@code time}. */
    static double[] positions(Rig rig, Clip clip, double time) {
        return positions(Pose.evaluate(rig, clip, time).modelMatrices(), rig.nodeCount());
    }

    static double[] positions(float[] matrices, int n) {
        double[] out = new double[3 * n];
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < 3; c++) {
                out[3 * i + c] = matrices[16 * i + 12 + c];
            }
        }
        return out;
    }

    /** The angle in radians between the directions from joint a to joint b in two position sets. */
    static double directionAngle(double[] p, int a, int b, double[] q, int qa, int qb) {
        double[] u = {p[3 * b] - p[3 * a], p[3 * b + 1] - p[3 * a + 1], p[3 * b + 2] - p[3 * a + 2]};
        double[] v = {q[3 * qb] - q[3 * qa], q[3 * qb + 1] - q[3 * qa + 1], q[3 * qb + 2] - q[3 * qa + 2]};
        double cx = u[1] * v[2] - u[2] * v[1];
        double cy = u[2] * v[0] - u[0] * v[2];
        double cz = u[0] * v[1] - u[1] * v[0];
        double dot = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
        return Math.atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), dot); // well conditioned near 0, unlike acos
    }
}
