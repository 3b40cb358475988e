package io.posekit.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.clip.Clip;
import io.posekit.clip.ClipLayout;
import io.posekit.clip.Interpolation;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Curve;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.math.Kernels;
import io.posekit.math.Quaternions;
import io.posekit.rig.Rig;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SamplingJob} samples through the clip's {@link ClipLayout} and {@link GroupSampler}; the reference is the
 * rest pose with every track sampled on its own by {@link TrackSampler}, in clip order. The two must agree bit for
 * bit, on random clips that mix interpolations, properties, shared, equal and unique time bases, duplicate key
 * times, constant tracks, two tracks on one (node, property), wide and opposite rotations, and times before, on,
 * between and after the keys.
 */
class CompiledSamplingTest {

    private static final TrackProperty[] TRS = {TrackProperty.TRANSLATION, TrackProperty.ROTATION,
        TrackProperty.SCALE};

    /** The reference: rest pose, then each track by TrackSampler in clip order, then the transform stacks. */
    private static LocalPose reference(Rig rig, Clip clip, double t) {
        LocalPose pose = new LocalPose(rig.nodeCount());
        pose.setToRest(rig);
        for (Track track : clip.tracks()) {
            switch (track.property()) {
                case TRANSLATION -> TrackSampler.sample(track, t, pose.translations(), 3 * track.node());
                case ROTATION -> TrackSampler.sample(track, t, pose.rotations(), 4 * track.node());
                case SCALE -> TrackSampler.sample(track, t, pose.scales(), 3 * track.node());
                case WEIGHTS -> {
                }
            }
        }
        NodeTransformEvaluator stacks = new NodeTransformEvaluator();
        for (NodeTransformTrack stack : clip.nodeTransforms()) {
            stacks.evaluate(stack, t, pose);
        }
        return pose;
    }

    private static void assertBitsEqual(float[] actual, float[] expected, String what) {
        assertThat(actual).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            if (Float.floatToRawIntBits(actual[i]) != Float.floatToRawIntBits(expected[i])) {
                throw new AssertionError(what + " [" + i + "]: " + actual[i] + " but the reference gives "
                        + expected[i]);
            }
        }
    }

    private static void assertSamePose(LocalPose actual, LocalPose expected, String what) {
        assertBitsEqual(actual.translations(), expected.translations(), what + " translations");
        assertBitsEqual(actual.rotations(), expected.rotations(), what + " rotations");
        assertBitsEqual(actual.scales(), expected.scales(), what + " scales");
    }

    static Rig randomRig(int nodes, SplittableRandom random) {
        String[] names = new String[nodes];
        int[] parents = new int[nodes];
        int[] source = new int[nodes];
        float[] t = new float[3 * nodes];
        float[] r = new float[4 * nodes];
        float[] s = new float[3 * nodes];
        for (int i = 0; i < nodes; i++) {
            names[i] = "n" + i;
            parents[i] = i - 1;
            source[i] = i;
            for (int c = 0; c < 3; c++) {
                t[3 * i + c] = (float) random.nextDouble(-2, 2);
                s[3 * i + c] = (float) random.nextDouble(0.5, 2);
            }
            randomUnit(random, r, 4 * i);
        }
        return new Rig(names, parents, source, t, r, s);
    }

    private static void randomUnit(SplittableRandom random, float[] q, int o) {
        double x = random.nextDouble(-1, 1);
        double y = random.nextDouble(-1, 1);
        double z = random.nextDouble(-1, 1);
        double w = random.nextDouble(-1, 1);
        double n = Math.sqrt(x * x + y * y + z * z + w * w);
        q[o] = (float) (x / n);
        q[o + 1] = (float) (y / n);
        q[o + 2] = (float) (z / n);
        q[o + 3] = (float) (w / n);
    }

    /** Key times: sorted random, with duplicates now and then; or evenly spaced. */
    private static float[] randomTimes(SplittableRandom random) {
        int keys = 1 + random.nextInt(random.nextInt(4) == 0 ? 3 : 12);
        float[] times = new float[keys];
        boolean even = random.nextBoolean();
        float t = (float) random.nextDouble(-0.5, 0.5);
        for (int k = 0; k < keys; k++) {
            times[k] = even ? (float) (k / 7.0) : t;
            if (!even && random.nextInt(5) != 0) {
                // a fifth of the keys share the previous key's time
                t += (float) random.nextDouble(0.01, 0.4);
            }
        }
        return times;
    }

    /**
     * A random track: rotations walk by small, medium (cos θ in [½, 0.9)), wide (cos θ &lt; ½) or sign-flipped
     * steps; translations and scales are random, sometimes constant (including −0 and non-finite constants, which
     * must not be folded).
     */
    private static Track randomTrack(int node, TrackProperty property, float[] times, SplittableRandom random) {
        Interpolation interpolation = Interpolation.values()[random.nextInt(3)];
        int n = property == TrackProperty.ROTATION ? 4 : 3;
        int perKey = interpolation == Interpolation.CUBICSPLINE ? 3 * n : n;
        float[] values = new float[perKey * times.length];
        int valueOffset = interpolation == Interpolation.CUBICSPLINE ? n : 0;
        if (property == TrackProperty.ROTATION) {
            float[] q = new float[4];
            randomUnit(random, q, 0);
            for (int k = 0; k < times.length; k++) {
                int kind = random.nextInt(5);
                float[] next = new float[4];
                randomUnit(random, next, 0);
                double step = kind == 0 ? 0.05 : kind == 1 ? 0.5 : kind == 2 ? 1 : 0.1;
                double x = q[0] + step * next[0];
                double y = q[1] + step * next[1];
                double z = q[2] + step * next[2];
                double w = q[3] + step * next[3];
                double len = Math.sqrt(x * x + y * y + z * z + w * w);
                double sign = kind == 3 ? -1 : 1;
                q[0] = (float) (sign * x / len);
                q[1] = (float) (sign * y / len);
                q[2] = (float) (sign * z / len);
                q[3] = (float) (sign * w / len);
                System.arraycopy(q, 0, values, k * perKey + valueOffset, 4);
            }
        } else {
            int constant = random.nextInt(6);
            float[] c = {(float) random.nextDouble(-3, 3), 0f, (float) random.nextDouble(-3, 3)};
            if (constant == 1) {
                c[1] = -0f;
            } else if (constant == 2) {
                c[1] = Float.NaN;
            } else if (constant == 3) {
                c[1] = Float.POSITIVE_INFINITY;
            }
            for (int k = 0; k < times.length; k++) {
                for (int j = 0; j < 3; j++) {
                    values[k * perKey + valueOffset + j] = constant < 4 ? c[j] : (float) random.nextDouble(-3, 3);
                }
            }
        }
        if (interpolation == Interpolation.CUBICSPLINE) {
            for (int k = 0; k < times.length; k++) {
                for (int j = 0; j < n; j++) {
                    values[k * perKey + j] = (float) random.nextDouble(-1, 1);
                    values[k * perKey + 2 * n + j] = (float) random.nextDouble(-1, 1);
                }
            }
        }
        return new Track(node, property, interpolation, n, times, values);
    }

    /** A random clip over {@code nodes} nodes: some tracks share one times array, some equal copies, some their own. */
    static Clip randomClip(int nodes, SplittableRandom random) {
        List<float[]> shared = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            shared.add(randomTimes(random));
        }
        List<Track> tracks = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            for (TrackProperty property : TRS) {
                if (random.nextInt(4) == 0) {
                    continue; // not animated: stays at rest
                }
                float[] base = shared.get(random.nextInt(shared.size()));
                int which = random.nextInt(6);
                float[] times = which < 3 ? base : which < 5 ? base.clone() : randomTimes(random);
                tracks.add(randomTrack(node, property, times, random));
            }
        }
        // a second track on an animated (node, property) now and then: the later one wins
        if (!tracks.isEmpty() && random.nextBoolean()) {
            Track first = tracks.get(random.nextInt(tracks.size()));
            tracks.add(randomTrack(first.node(), first.property(), shared.getFirst(), random));
        }
        tracks.add(new Track(random.nextInt(nodes), TrackProperty.WEIGHTS, Interpolation.LINEAR, 2,
                new float[] {0, 1}, new float[] {0, 1, 1, 0}));
        java.util.Collections.shuffle(tracks, new java.util.Random(random.nextLong()));
        return Clip.of("random", tracks);
    }

    /** Times that hit every case: before, on, just off, between and after every key of every time base. */
    private static double[] probeTimes(Clip clip, SplittableRandom random) {
        List<Double> times = new ArrayList<>(List.of(-10.0, 0.0, 10.0, Double.NEGATIVE_INFINITY,
                Double.POSITIVE_INFINITY));
        ClipLayout layout = clip.layout();
        for (int b = 0; b < layout.timeBaseCount(); b++) {
            for (float key : layout.times(b)) {
                times.add((double) key);
                times.add(Math.nextDown((double) key));
                times.add(Math.nextUp((double) key));
                times.add(key + random.nextDouble(-0.2, 0.2));
            }
        }
        for (int i = 0; i < 20; i++) {
            times.add(random.nextDouble(-1, 4));
        }
        return times.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** The kernel paths of this JVM: scalar, and the Vector API's when its module is present. */
    static List<Kernels.Path> paths() {
        return Kernels.vectorAvailable() ? List.of(Kernels.Path.SCALAR, Kernels.Path.VECTOR)
                : List.of(Kernels.Path.SCALAR);
    }

    private static SlerpKernel slerpKernel(Kernels.Path path) {
        return Kernels.load(path, SlerpKernel.class, "io.posekit.sampling.VectorSlerp", ScalarSlerp::new);
    }

    @ParameterizedTest
    @MethodSource("paths")
    void theCompiledPathEqualsPerTrackSamplingBitForBitOnRandomClips(Kernels.Path path) {
        SplittableRandom random = new SplittableRandom(19);
        SamplingJob job = new SamplingJob(path);
        for (int round = 0; round < 300; round++) {
            int nodes = 1 + random.nextInt(12);
            Rig rig = randomRig(nodes, random);
            Clip clip = randomClip(nodes, random);
            job.rig = rig;
            job.clip = clip;
            job.output = new LocalPose(nodes);
            // forwards (the key cache's common case), then in a random order
            double[] probes = probeTimes(clip, random);
            double[] sorted = probes.clone();
            java.util.Arrays.sort(sorted);
            for (double[] sequence : List.of(sorted, probes)) {
                for (double t : sequence) {
                    job.time = t;
                    job.run();
                    assertSamePose(job.output, reference(rig, clip, t), "round " + round + " t " + t);
                }
            }
        }
    }

    @Test
    void aNanTimeGivesTheFirstKeyOfEveryGroup() {
        // SamplingJob rejects a NaN time; the key locator maps it to key 0 and fraction 0, and the groups give key 0
        SplittableRandom random = new SplittableRandom(7);
        for (int round = 0; round < 50; round++) {
            int nodes = 1 + random.nextInt(8);
            Rig rig = randomRig(nodes, random);
            Clip clip = randomClip(nodes, random);
            LocalPose actual = new LocalPose(nodes);
            actual.setToRest(rig);
            ClipLayout layout = clip.layout();
            for (int c = 0; c < layout.constantGroupCount(); c++) {
                GroupSampler.sampleConstant(layout.constantGroup(c), actual);
            }
            for (int b = 0; b < layout.timeBaseCount(); b++) {
                float[] times = layout.times(b);
                int key = TrackSampler.locate(times, Double.NaN, -1);
                double fraction = TrackSampler.fraction(times, Double.NaN, key);
                assertThat(key).isZero();
                for (int g = layout.firstGroup(b); g < layout.firstGroup(b + 1); g++) {
                    GroupSampler.sample(layout.group(g), times, key, fraction, actual, new ScalarSlerp());
                }
            }
            assertSamePose(actual, reference(rig, clip, Double.NaN), "round " + round);
        }
    }

    @ParameterizedTest
    @MethodSource("paths")
    void aFractionThatRoundsToOneGivesSlerpsEndpoint(Kernels.Path path) {
        // t − t_k rounds up to t_{k+1} − t_k when t_k is far below t: the fraction is then exactly 1
        float[] times = {-16777216f, 0f};
        double t = -Double.MIN_VALUE;
        assertThat(TrackSampler.fraction(times, t, TrackSampler.locate(times, t, -1))).isEqualTo(1.0);
        float[] a = {0, 0, 0, 1};
        float[] b = {0, (float) Math.sin(0.2), 0, (float) -Math.cos(0.2)}; // the dot is negative: −b is taken
        float[] values = new float[16];
        System.arraycopy(a, 0, values, 0, 4);
        System.arraycopy(b, 0, values, 4, 4);
        for (int i = 0; i < 4; i++) {
            values[8 + i] = -values[i];
            values[12 + i] = values[4 + i];
        }
        Track first = new Track(0, TrackProperty.ROTATION, Interpolation.LINEAR, 4, times,
                java.util.Arrays.copyOfRange(values, 0, 8));
        Track second = new Track(1, TrackProperty.ROTATION, Interpolation.LINEAR, 4, times,
                java.util.Arrays.copyOfRange(values, 8, 16));
        Rig rig = randomRig(2, new SplittableRandom(1));
        Clip clip = Clip.of("edge", List.of(first, second));
        assertThat(clip.layout().group(0).count()).isEqualTo(2);
        SamplingJob job = new SamplingJob(path);
        job.rig = rig;
        job.clip = clip;
        job.time = t;
        job.output = new LocalPose(2);
        job.run();
        assertSamePose(job.output, reference(rig, clip, t), "t " + t);
        assertThat(job.output.rotations()).containsExactly(-b[0], -b[1], -b[2], -b[3], b[0], b[1], b[2], b[3]);
    }

    @ParameterizedTest
    @MethodSource("paths")
    void everySlerpBranchMatchesQuaternionsSlerp(Kernels.Path path) {
        // pairs of every angle, both signs of the dot, NaN: the inline series (scalar or four lanes) against
        // Quaternions.slerp; 403 tracks so the vector kernel also has a tail, and a NaN among four
        SplittableRandom random = new SplittableRandom(3);
        int count = 403;
        float[] times = {0, 1};
        float[] pairs = new float[8 * count]; // key 0 of every track, then key 1, four floats each
        for (int i = 0; i < count; i++) {
            randomUnit(random, pairs, 4 * i);
            double spread = new double[] {0.01, 0.3, 0.8, 2}[i % 4];
            double x = pairs[4 * i] + spread * random.nextDouble(-1, 1);
            double y = pairs[4 * i + 1] + spread * random.nextDouble(-1, 1);
            double z = pairs[4 * i + 2] + spread * random.nextDouble(-1, 1);
            double w = pairs[4 * i + 3] + spread * random.nextDouble(-1, 1);
            double len = Math.sqrt(x * x + y * y + z * z + w * w) * (random.nextBoolean() ? 1 : -1);
            int o = 4 * (count + i);
            pairs[o] = (float) (x / len);
            pairs[o + 1] = (float) (y / len);
            pairs[o + 2] = (float) (z / len);
            pairs[o + 3] = (float) (w / len);
        }
        pairs[4 * count + 2] = Float.NaN;
        // the small spreads in a run of four, so the vector kernel takes its own branch there
        for (int i = 200; i < 204; i++) {
            System.arraycopy(pairs, 4 * i, pairs, 4 * (count + i), 4);
            pairs[4 * (count + i) + (i & 3)] += 0.01f;
        }
        int[] nodes = new int[count];
        float[] values = new float[8 * count]; // component-major within each key, as the layout keeps LINEAR rotations
        for (int i = 0; i < count; i++) {
            nodes[i] = i;
            for (int k = 0; k < 2; k++) {
                for (int c = 0; c < 4; c++) {
                    values[(4 * k + c) * count + i] = pairs[4 * (k * count + i) + c];
                }
            }
        }
        ClipLayout.Group group = new ClipLayout.Group(0, TrackProperty.ROTATION, Interpolation.LINEAR, 4, nodes,
                values);
        LocalPose pose = new LocalPose(count);
        float[] expected = new float[4];
        SlerpKernel kernel = slerpKernel(path);
        for (double s : new double[] {1e-9, 0.001, 0.25, 0.5, 0.7319, 0.999, 1 - 1e-12, 1}) {
            GroupSampler.sample(group, times, 0, s, pose, kernel);
            for (int i = 0; i < count; i++) {
                Quaternions.slerp(pairs, 4 * i, pairs, 4 * (count + i), s, expected, 0);
                assertBitsEqual(java.util.Arrays.copyOfRange(pose.rotations(), 4 * i, 4 * i + 4), expected,
                        "pair " + i + " s " + s);
            }
        }
    }

    @Test
    void nodeTransformStacksStillSetTheirNodesAfterTheTracks() {
        Rig rig = randomRig(3, new SplittableRandom(5));
        NodeTransformTrack stack = new NodeTransformTrack(1, List.of(new NodeTransformTrack.Translate(
                Curve.constant(1), Curve.constant(2), Curve.constant(3))));
        Track translation = new Track(0, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, new float[] {0, 1},
                new float[] {0, 0, 0, 2, 4, 6});
        Clip clip = Clip.of("stack", List.of(translation), List.of(stack));
        SamplingJob job = new SamplingJob();
        job.rig = rig;
        job.clip = clip;
        job.time = 0.5;
        job.output = new LocalPose(3);
        job.run();
        assertSamePose(job.output, reference(rig, clip, 0.5), "stack");
        assertThat(job.output.translations()).startsWith(1, 2, 3, 1, 2, 3);
    }
}
