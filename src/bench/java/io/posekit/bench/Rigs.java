package io.posekit.bench;

import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Rigs, clips and meshes generated in code for the benchmarks (seeded, so every run measures the same data). */
final class Rigs {

    private Rigs() {
    }

    /** A binary tree of {@code joints} joints (parent of i is (i−1)/2), each 0.1 above its parent. */
    static Rig tree(int joints) {
        String[] names = new String[joints];
        int[] parents = new int[joints];
        int[] source = new int[joints];
        float[] t = new float[3 * joints];
        float[] r = new float[4 * joints];
        float[] s = new float[3 * joints];
        for (int i = 0; i < joints; i++) {
            names[i] = "j" + i;
            parents[i] = i == 0 ? -1 : (i - 1) / 2;
            source[i] = i;
            t[3 * i + 1] = i == 0 ? 0 : 0.1f;
            r[4 * i + 3] = 1;
            s[3 * i] = s[3 * i + 1] = s[3 * i + 2] = 1;
        }
        return new Rig(names, parents, source, t, r, s);
    }

    /** A skin over every joint with identity inverse binds. */
    static Skin skin(int joints) {
        int[] nodes = new int[joints];
        float[] ibm = new float[16 * joints];
        for (int i = 0; i < joints; i++) {
            nodes[i] = i;
            ibm[16 * i] = ibm[16 * i + 5] = ibm[16 * i + 10] = ibm[16 * i + 15] = 1;
        }
        return new Skin("skin", nodes, ibm);
    }

    /**
     * One second of animation: every joint has LINEAR rotation and translation tracks of {@code keys} evenly spaced
     * keys. Rotations are a random walk: each key turns the previous one by up to 0.3 rad (17°) about a random axis,
     * as consecutive keys of real motion do (three.js and the conformance clips step a few degrees per key).
     */
    static Clip clip(int joints, int keys, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[] times = new float[keys];
        for (int k = 0; k < keys; k++) {
            times[k] = k / (float) (keys - 1);
        }
        List<Track> tracks = new ArrayList<>();
        for (int j = 0; j < joints; j++) {
            float[] rotations = new float[4 * keys];
            float[] translations = new float[3 * keys];
            double qx = 0, qy = 0, qz = 0, qw = 1;
            for (int k = 0; k < keys; k++) {
                double ax = random.nextDouble(-1, 1), ay = random.nextDouble(-1, 1), az = random.nextDouble(-1, 1);
                double half = random.nextDouble(0, 0.15);
                double s = Math.sin(half) / Math.sqrt(ax * ax + ay * ay + az * az);
                double rx = ax * s, ry = ay * s, rz = az * s, rw = Math.cos(half);
                // q = q · r
                double x = qw * rx + qx * rw + qy * rz - qz * ry;
                double y = qw * ry - qx * rz + qy * rw + qz * rx;
                double z = qw * rz + qx * ry - qy * rx + qz * rw;
                double w = qw * rw - qx * rx - qy * ry - qz * rz;
                double n = Math.sqrt(x * x + y * y + z * z + w * w);
                qx = x / n;
                qy = y / n;
                qz = z / n;
                qw = w / n;
                rotations[4 * k] = (float) qx;
                rotations[4 * k + 1] = (float) qy;
                rotations[4 * k + 2] = (float) qz;
                rotations[4 * k + 3] = (float) qw;
                translations[3 * k] = (float) random.nextDouble(-0.1, 0.1);
                translations[3 * k + 1] = 0.1f;
                translations[3 * k + 2] = (float) random.nextDouble(-0.1, 0.1);
            }
            tracks.add(new Track(j, TrackProperty.ROTATION, Interpolation.LINEAR, 4, times, rotations));
            tracks.add(new Track(j, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, times, translations));
        }
        return Clip.of("bench", tracks);
    }

    /**
     * A skinned point cloud of {@code vertices} vertices with normals, each weighted to {@code influences} random joints
     * of {@code joints} (weights summing to 1).
     */
    static Primitive mesh(int vertices, int influences, int joints, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[] positions = new float[3 * vertices];
        float[] normals = new float[3 * vertices];
        int[] jointIndices = new int[influences * vertices];
        float[] weights = new float[influences * vertices];
        for (int v = 0; v < vertices; v++) {
            for (int c = 0; c < 3; c++) {
                positions[3 * v + c] = (float) random.nextDouble(-1, 1);
            }
            normals[3 * v + 2] = 1;
            double sum = 0;
            for (int i = 0; i < influences; i++) {
                jointIndices[influences * v + i] = random.nextInt(joints);
                weights[influences * v + i] = (float) random.nextDouble(0.1, 1);
                sum += weights[influences * v + i];
            }
            for (int i = 0; i < influences; i++) {
                weights[influences * v + i] /= (float) sum;
            }
        }
        return new Primitive(PrimitiveMode.POINTS, List.of("POSITION", "NORMAL"), positions, normals, null, null,
                influences, jointIndices, weights);
    }
}
