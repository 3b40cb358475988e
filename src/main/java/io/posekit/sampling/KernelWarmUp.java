package io.posekit.sampling;

import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.math.Kernels;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import io.posekit.skinning.DualQuaternionSkinningJob;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import io.posekit.skinning.SkinningDualQuaternionsJob;
import io.posekit.skinning.SkinningJob;
import io.posekit.skinning.SkinningMatricesJob;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Runs the pose and skinning kernels of the selected {@link Kernels} path on a rig, clip and mesh generated here, so
 * the JIT compiles them before the first request needs them, and checks them against the scalar kernels on the same
 * data.
 *
 * <p>Why: until C2 has compiled a Vector API kernel it runs interpreted with every vector boxed, 100–1 000× slower than
 * compiled (a fresh service took 390 ms for its first BrainStem skinned mesh on the vector path, 120 ms on the scalar
 * one, ≈ 7 ms once compiled). The check makes a kernel that disagrees with the scalar reference on this machine a
 * warning at start-up rather than a wrong answer found later.
 *
 * <p>The data: a binary tree of {@value #JOINTS} joints with LINEAR rotation and translation tracks of 30 keys, a skin
 * with non-trivial inverse binds, and a mesh of {@value #VERTICES} vertices with normals and tangents skinned with 4
 * and with 8 influences, by linear blend and by dual quaternions. Allocates its data once per {@link #run}; stateless and thread-safe otherwise.
 */
public final class KernelWarmUp {

    static final int JOINTS = 48;
    static final int VERTICES = 1024;

    private KernelWarmUp() {
    }

    /**
     * Samples, poses and skins the generated data {@code rounds} times on the selected path, then once on the scalar
     * path, and returns how far apart the two are.
     *
     * @param rounds how many poses to compute, ≥ 1 (a few thousand get every kernel compiled by C2)
     * @return the largest difference between the two paths over the sampled rotations, the skinning matrices and the
     *     skinned positions (linear blend and dual quaternion), relative to the largest magnitude (1 for values below 1); 0 when the scalar path is the
     *     selected one
     * @throws IllegalArgumentException if {@code rounds < 1}
     */
    public static double run(int rounds) {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be at least 1, not " + rounds);
        }
        SplittableRandom random = new SplittableRandom(19);
        Rig rig = rig();
        Skin skin = skin(random);
        Clip clip = clip(random);
        Primitive four = mesh(random, 4);
        Primitive eight = mesh(random, 8);
        Pass selected = new Pass(Kernels.selected(), rig, skin, clip);
        for (int r = 0; r < rounds; r++) {
            selected.pose(r / (double) rounds);
            selected.skin(r % 2 == 0 ? four : eight);
        }
        if (Kernels.selected() == Kernels.Path.SCALAR) {
            return 0;
        }
        Pass scalar = new Pass(Kernels.Path.SCALAR, rig, skin, clip);
        double worst = 0;
        for (Primitive mesh : List.of(four, eight)) {
            selected.pose(0.37);
            scalar.pose(0.37);
            worst = Math.max(worst, difference(selected.sampling.output.rotations(), scalar.sampling.output.rotations()));
            worst = Math.max(worst, difference(selected.skinning.output, scalar.skinning.output));
            selected.skin(mesh);
            scalar.skin(mesh);
            worst = Math.max(worst, difference(selected.skinned.outPositions, scalar.skinned.outPositions));
            worst = Math.max(worst, difference(selected.dualQuaternions.outPositions,
                    scalar.dualQuaternions.outPositions));
        }
        return worst;
    }

    /** One path's jobs over the generated data. */
    private static final class Pass {
        final SamplingJob sampling;
        final LocalToModelJob toModel;
        final SkinningMatricesJob skinning;
        final SkinningJob skinned;
        final SkinningDualQuaternionsJob toDualQuaternions = new SkinningDualQuaternionsJob();
        final DualQuaternionSkinningJob dualQuaternions;

        Pass(Kernels.Path path, Rig rig, Skin skin, Clip clip) {
            sampling = new SamplingJob(path);
            toModel = new LocalToModelJob(path);
            skinning = new SkinningMatricesJob(path);
            skinned = new SkinningJob(path);
            dualQuaternions = new DualQuaternionSkinningJob(path);
            sampling.rig = rig;
            sampling.clip = clip;
            sampling.output = new LocalPose(JOINTS);
            toModel.rig = rig;
            toModel.input = sampling.output;
            toModel.output = new float[16 * JOINTS];
            skinning.skin = skin;
            skinning.modelMatrices = toModel.output;
            skinning.output = new float[16 * JOINTS];
            skinned.skinningMatrices = skinning.output;
            skinned.outPositions = new float[3 * VERTICES];
            skinned.outNormals = new float[3 * VERTICES];
            skinned.outTangents = new float[4 * VERTICES];
            toDualQuaternions.skinningMatrices = skinning.output;
            toDualQuaternions.outDualQuaternions = new float[8 * JOINTS];
            toDualQuaternions.outScales = new float[JOINTS];
            dualQuaternions.dualQuaternions = toDualQuaternions.outDualQuaternions;
            dualQuaternions.scales = toDualQuaternions.outScales;
            dualQuaternions.outPositions = new float[3 * VERTICES];
            dualQuaternions.outNormals = new float[3 * VERTICES];
            dualQuaternions.outTangents = new float[4 * VERTICES];
        }

        void pose(double time) {
            sampling.time = time;
            sampling.run();
            toModel.run();
            skinning.run();
        }

        void skin(Primitive mesh) {
            skinned.primitive = mesh;
            skinned.run();
            toDualQuaternions.run();
            dualQuaternions.primitive = mesh;
            dualQuaternions.run();
        }
    }

    private static double difference(float[] a, float[] b) {
        double scale = 1;
        double worst = 0;
        for (int i = 0; i < a.length; i++) {
            scale = Math.max(scale, Math.abs(b[i]));
            worst = Math.max(worst, Math.abs((double) a[i] - b[i]));
        }
        // a NaN on one side only is as far apart as it gets
        return Double.isNaN(worst) ? Double.POSITIVE_INFINITY : worst / scale;
    }

    private static Rig rig() {
        String[] names = new String[JOINTS];
        int[] parents = new int[JOINTS];
        int[] source = new int[JOINTS];
        float[] t = new float[3 * JOINTS];
        float[] r = new float[4 * JOINTS];
        float[] s = new float[3 * JOINTS];
        for (int i = 0; i < JOINTS; i++) {
            names[i] = "warm-up " + i;
            parents[i] = i == 0 ? -1 : (i - 1) / 2;
            source[i] = i;
            t[3 * i + 1] = i == 0 ? 0 : 0.25f;
            r[4 * i + 3] = 1;
            s[3 * i] = s[3 * i + 1] = s[3 * i + 2] = i % 5 == 0 ? 1.25f : 1;
        }
        return new Rig(names, parents, source, t, r, s);
    }

    /** Inverse binds that are a translation and a uniform scale, so the products are not trivial. */
    private static Skin skin(SplittableRandom random) {
        int[] nodes = new int[JOINTS];
        float[] ibm = new float[16 * JOINTS];
        for (int i = 0; i < JOINTS; i++) {
            nodes[i] = i;
            float scale = (float) random.nextDouble(0.5, 2);
            ibm[16 * i] = ibm[16 * i + 5] = ibm[16 * i + 10] = scale;
            ibm[16 * i + 12] = (float) random.nextDouble(-1, 1);
            ibm[16 * i + 13] = (float) random.nextDouble(-1, 1);
            ibm[16 * i + 14] = (float) random.nextDouble(-1, 1);
            ibm[16 * i + 15] = 1;
        }
        return new Skin("warm-up", nodes, ibm);
    }

    /** One second, 30 keys per track: rotations a random walk about random axes, translations wandering. */
    private static Clip clip(SplittableRandom random) {
        int keys = 30;
        float[] times = new float[keys];
        for (int k = 0; k < keys; k++) {
            times[k] = k / (float) (keys - 1);
        }
        List<Track> tracks = new ArrayList<>();
        for (int j = 0; j < JOINTS; j++) {
            float[] rotations = new float[4 * keys];
            float[] translations = new float[3 * keys];
            double angle = 0;
            for (int k = 0; k < keys; k++) {
                angle += random.nextDouble(-0.3, 0.3);
                double x = random.nextDouble(-1, 1);
                double y = random.nextDouble(-1, 1);
                double z = random.nextDouble(-1, 1);
                double length = Math.sqrt(x * x + y * y + z * z) + 1e-9;
                double sin = Math.sin(angle / 2) / length;
                rotations[4 * k] = (float) (x * sin);
                rotations[4 * k + 1] = (float) (y * sin);
                rotations[4 * k + 2] = (float) (z * sin);
                rotations[4 * k + 3] = (float) Math.cos(angle / 2);
                translations[3 * k + 1] = (float) (0.25 + random.nextDouble(-0.05, 0.05));
            }
            tracks.add(new Track(j, TrackProperty.ROTATION, Interpolation.LINEAR, 4, times, rotations));
            tracks.add(new Track(j, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, times, translations));
        }
        return Clip.of("warm-up", tracks);
    }

    /** Points with unit normals and tangents, each bound to {@code influences} random joints. */
    private static Primitive mesh(SplittableRandom random, int influences) {
        float[] positions = new float[3 * VERTICES];
        float[] normals = new float[3 * VERTICES];
        float[] tangents = new float[4 * VERTICES];
        int[] joints = new int[influences * VERTICES];
        float[] weights = new float[influences * VERTICES];
        for (int v = 0; v < VERTICES; v++) {
            for (int c = 0; c < 3; c++) {
                positions[3 * v + c] = (float) random.nextDouble(-1, 1);
            }
            normals[3 * v + 2] = 1;
            tangents[4 * v] = 1;
            tangents[4 * v + 3] = 1;
            for (int i = 0; i < influences; i++) {
                joints[influences * v + i] = random.nextInt(JOINTS);
                weights[influences * v + i] = (float) random.nextDouble(0.1, 1);
            }
        }
        return new Primitive(PrimitiveMode.POINTS, List.of("POSITION", "NORMAL", "TANGENT"), positions, normals,
                tangents, null, influences, joints, weights);
    }
}
