package io.posekit.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.clip.Clip;
import io.posekit.sampling.LoopMode;
import io.posekit.sampling.MorphWeights;
import io.posekit.sampling.Pose;
import io.posekit.skinning.MeshPoser;
import io.posekit.skinning.PosedPrimitive;
import java.util.ArrayList;
import java.util.List;

/**
 * Import → {@link AnimatedGltf} → import the GLB again, and how far the two models' skinning matrices and skinned
 * vertices are apart at given instants of every clip (and at rest).
 */
final class RoundTrip {

    private RoundTrip() {
    }

    /**
     * The largest deviations of one clip (or the rest pose).
     *
     * @param clip the clip's name, or {@code rest}
     * @param resampled whether some channel of the clip was resampled
     * @param matrix the largest skinning matrix element difference, relative to {@code max(1, max|e|)} of the matrix
     * @param position the largest skinned vertex distance, relative to the posed bounding box diagonal D
     */
    record Deviation(String clip, boolean resampled, double matrix, double position) {
    }

    /** The export of {@code model} imported again. */
    static Model reimport(byte[] glb) {
        return ConformanceAssets.importModel(List.of(new SourceFile("export.glb", glb)));
    }

    /**
     * Deviations of {@code copy} from {@code original}: at rest, and for clip {@code i} of each (same name, same
     * order) at every sample's clip-local time (mapped with the original clip's duration), the original's taken to
     * glTF's space by its {@link io.posekit.asset.ModelSpace} first (what {@link AnimatedGltf.Options#DEFAULT} exports).
     */
    static List<Deviation> compare(Model original, Model copy, List<ConformanceAssets.Sample> samples,
            AnimatedGltf.Report report) {
        return compare(original, copy, samples, report, original.space().toGltf());
    }

    /**
     * Deviations of {@code copy} from {@code original} with the original's skinning matrices and posed vertices
     * multiplied by {@code conversion} (16 doubles, column-major: the export's conversion to glTF's space, exactly)
     * before comparing.
     */
    static List<Deviation> compare(Model original, Model copy, List<ConformanceAssets.Sample> samples,
            AnimatedGltf.Report report, double[] conversion) {
        assertThat(copy.skins()).as("skins").hasSameSizeAs(original.skins());
        assertThat(copy.clips().stream().map(Clip::name).toList()).as("clips")
                .isEqualTo(original.clips().stream().map(Clip::name).toList());
        assertThat(colours(copy)).as("vertex colours").isEqualTo(colours(original));
        assertThat(texcoordSets(copy)).as("texture coordinate sets").isEqualTo(texcoordSets(original));
        List<Deviation> out = new ArrayList<>();
        out.add(deviation("rest", false, original, copy, null, null, List.of(0.0), conversion));
        for (int c = 0; c < original.clips().size(); c++) {
            Clip a = original.clips().get(c);
            Clip b = copy.clips().get(c);
            assertThat(b.duration()).as("duration of %s", a.name()).isCloseTo(a.duration(), org.assertj.core.data.Offset.offset(1e-6));
            List<Double> times = new ArrayList<>();
            for (ConformanceAssets.Sample s : samples) {
                LoopMode mode = LoopMode.byWireName(s.mode()).orElseThrow();
                times.add(mode.localTime(s.time(), a.duration()));
            }
            if (times.isEmpty()) {
                times.add(a.duration() / 2);
            }
            boolean resampled = report.clips().get(c).resampledChannels() > 0;
            out.add(deviation(a.name(), resampled, original, copy, a, b, times, conversion));
        }
        return out;
    }

    /** The distinct vertex colour arrays of a model's primitives, as sorted content hashes (the same bits, the same hash). */
    private static List<Integer> colours(Model model) {
        return model.meshes().stream().flatMap(m -> m.primitives().stream())
                .filter(p -> p.colors() != null)
                .map(p -> java.util.Arrays.hashCode(p.colors()))
                .distinct().sorted().toList();
    }

    /**
     * The distinct lists of texture coordinate sets of a model's primitives (every set, in order), as sorted content
     * hashes: the same number of sets with the same bits give the same hash.
     */
    private static List<Integer> texcoordSets(Model model) {
        return model.meshes().stream().flatMap(m -> m.primitives().stream())
                .filter(p -> !p.texcoordSets().isEmpty())
                .map(p -> p.texcoordSets().stream().mapToInt(java.util.Arrays::hashCode).boxed().toList().hashCode())
                .distinct().sorted().toList();
    }

    private static Deviation deviation(String name, boolean resampled, Model original, Model copy, Clip a, Clip b,
            List<Double> times, double[] c) {
        double matrix = 0;
        double position = 0;
        for (double t : times) {
            Pose pa = Pose.evaluate(original.rig(), a, t);
            Pose pb = Pose.evaluate(copy.rig(), b, t);
            for (int s = 0; s < original.skins().size(); s++) {
                float[] ma = converted(c, MeshPoser.skinningMatrices(original.skins().get(s), pa.modelMatrices()));
                float[] mb = MeshPoser.skinningMatrices(copy.skins().get(s), pb.modelMatrices());
                assertThat(mb).as("skin %d joints", s).hasSameSizeAs(ma);
                for (int j = 0; j < ma.length; j += 16) {
                    double scale = 1;
                    for (int i = 0; i < 16; i++) {
                        scale = Math.max(scale, Math.abs(ma[j + i]));
                    }
                    for (int i = 0; i < 16; i++) {
                        matrix = Math.max(matrix, Math.abs(ma[j + i] - mb[j + i]) / scale);
                    }
                }
            }
            List<PosedPrimitive> va = new ArrayList<>();
            for (PosedPrimitive p : posed(original, a, t, pa)) {
                va.add(new PosedPrimitive(p.vertexCount(), convertedPoints(c, p.positions()), null, null));
            }
            List<PosedPrimitive> vb = posed(copy, b, t, pb);
            assertThat(vb).as("posed primitives").hasSameSizeAs(va);
            double d = diagonal(va);
            for (int p = 0; p < va.size(); p++) {
                float[] x = va.get(p).positions();
                float[] y = vb.get(p).positions();
                assertThat(y).as("primitive %d positions", p).hasSameSizeAs(x);
                for (int i = 0; i < x.length; i += 3) {
                    double dx = x[i] - y[i];
                    double dy = x[i + 1] - y[i + 1];
                    double dz = x[i + 2] - y[i + 2];
                    position = Math.max(position, Math.sqrt(dx * dx + dy * dy + dz * dz) / d);
                }
            }
        }
        return new Deviation(name, resampled, matrix, position);
    }

    /**
     * Every primitive of every instance posed (morphed, skinned or rigid): the skinned instances' first, then the
     * rigid ones', each in instance order. (The export puts a skinned mesh on a scene root of its own, after the
     * rig's roots, so the copy lists it after the rigid instances of the rig; within each kind the order is kept.)
     */
    private static List<PosedPrimitive> posed(Model model, Clip clip, double t, Pose pose) {
        MorphWeights weights = MorphWeights.evaluate(model.meshes(), clip, t);
        List<PosedPrimitive> out = new ArrayList<>();
        List<Integer> order = new ArrayList<>();
        for (boolean skinned : new boolean[] {true, false}) {
            for (int m = 0; m < model.meshes().size(); m++) {
                if (model.meshes().get(m).skinned() == skinned) {
                    order.add(m);
                }
            }
        }
        for (int m : order) {
            var mesh = model.meshes().get(m);
            float[] skinning = mesh.skinned()
                    ? MeshPoser.skinningMatrices(model.skins().get(mesh.skin()), pose.modelMatrices()) : null;
            out.addAll(MeshPoser.pose(mesh, weights.weights(m), skinning, pose.modelMatrices(),
                    java.util.EnumSet.of(io.posekit.skinning.VertexAttribute.POSITION)));
        }
        return out;
    }

    /** {@code c · M} for each 16-float matrix, in double (the expected value is not rounded twice). */
    private static float[] converted(double[] c, float[] matrices) {
        float[] out = new float[matrices.length];
        for (int o = 0; o < matrices.length; o += 16) {
            for (int col = 0; col < 4; col++) {
                for (int r = 0; r < 4; r++) {
                    double sum = 0;
                    for (int k = 0; k < 4; k++) {
                        sum += c[4 * k + r] * matrices[o + 4 * col + k];
                    }
                    out[o + 4 * col + r] = (float) sum;
                }
            }
        }
        return out;
    }

    /** {@code c · p} for each point. */
    private static float[] convertedPoints(double[] c, float[] xyz) {
        float[] out = new float[xyz.length];
        for (int v = 0; v < xyz.length; v += 3) {
            for (int r = 0; r < 3; r++) {
                out[v + r] = (float) (c[r] * xyz[v] + c[4 + r] * xyz[v + 1] + c[8 + r] * xyz[v + 2] + c[12 + r]);
            }
        }
        return out;
    }

    private static double diagonal(List<PosedPrimitive> prims) {
        double[] min = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        double[] max = {-Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE};
        for (PosedPrimitive p : prims) {
            float[] x = p.positions();
            for (int i = 0; i < x.length; i++) {
                min[i % 3] = Math.min(min[i % 3], x[i]);
                max[i % 3] = Math.max(max[i % 3], x[i]);
            }
        }
        double d = Math.sqrt(Math.pow(max[0] - min[0], 2) + Math.pow(max[1] - min[1], 2) + Math.pow(max[2] - min[2], 2));
        return d > 0 && Double.isFinite(d) ? d : 1;
    }
}
