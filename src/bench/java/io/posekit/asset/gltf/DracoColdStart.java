package io.posekit.asset.gltf;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;

/**
 * What Draco decoding costs from a fresh JVM to a warm one (issue 40): run once per JVM,
 * {@code java -cp … io.posekit.asset.gltf.DracoColdStart [ASSET]} (default BrainStem, the pipeline's {@code draco}
 * variant, {@link DracoStreams}). Times are the process's CPU time (the JIT compiler's and the collector's threads
 * included, which is what a cold decode costs), which a loaded machine disturbs far less than wall time (the figures
 * in docs/performance.md were taken on two cores shared with other builds). Prints: the first
 * decode of the file's first primitive with the classes it loads (the library's start-up: class loading, interpreted
 * code); the file's other primitives, each decoded once for the first time; the whole file decoded in rounds until
 * warm (the median of rounds 41–60); and the median of 20 warm glTF imports of the Draco file and of the original.
 * Milliseconds.
 */
public final class DracoColdStart {

    /** The process's CPU time: the decode runs on a thread of its own (DracoDecoder), so the caller's would miss it. */
    private static final com.sun.management.OperatingSystemMXBean CPU =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private DracoColdStart() {
    }

    public static void main(String[] args) throws Exception {
        String asset = args.length > 0 ? args[0] : "BrainStem";
        DracoStreams streams = DracoStreams.read(DracoStreams.variant(asset));
        ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
        List<DracoStreams.Stream> all = streams.streams();
        long loaded = classes.getTotalLoadedClassCount();
        long t0 = cpu();
        decode(all.getFirst());
        long first = cpu() - t0;
        long firstClasses = classes.getTotalLoadedClassCount() - loaded;
        t0 = cpu();
        for (int i = 1; i < all.size(); i++) {
            decode(all.get(i));
        }
        long rest = cpu() - t0;
        long[] rounds = new long[60];
        for (int round = 0; round < rounds.length; round++) {
            t0 = cpu();
            streams.decodeAll();
            rounds[round] = cpu() - t0;
        }
        double warm = median(Arrays.copyOfRange(rounds, 40, 60));
        SourceFile draco = new SourceFile(asset + ".glb", streams.glb());
        SourceFile original = new SourceFile(asset + ".glb", Files.readAllBytes(DracoStreams.original(asset)));
        double importDraco = importMedian(draco);
        double importOriginal = importMedian(original);
        int faces = 0;
        for (DracoStreams.Stream s : all) {
            faces += DracoStreamHeader.read(s.bytes(), 0, s.bytes().length, "cold").faces();
        }
        System.out.printf("%s: %d primitives, %d triangles; CPU ms: first decode %.1f (%d classes loaded); the other"
                + " %d first decodes %.1f (%.2f each); warm decode of all %.2f (%.3f a primitive, %.1f ns a triangle);"
                + " warm import: Draco %.2f, original %.2f%n", asset, all.size(), faces, first / 1e6, firstClasses,
                all.size() - 1, rest / 1e6, rest / 1e6 / Math.max(1, all.size() - 1), warm / 1e6, warm / 1e6 / all.size(),
                warm / faces, importDraco / 1e6, importOriginal / 1e6);
    }

    private static long cpu() {
        return CPU.getProcessCpuTime();
    }

    private static double importMedian(SourceFile file) {
        long[] t = new long[40];
        for (int i = 0; i < t.length; i++) {
            long t0 = cpu();
            new GltfImporter().read(file, new SourceFiles(List.of(file)), ImportLimits.DEFAULT);
            t[i] = cpu() - t0;
        }
        return median(Arrays.copyOfRange(t, 20, 40));
    }

    private static double median(long[] values) {
        long[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2.0;
    }

    private static void decode(DracoStreams.Stream s) {
        DracoStreamHeader header = DracoStreamHeader.read(s.bytes(), 0, s.bytes().length, "cold");
        DracoDecoder.decode(s.bytes(), 0, s.bytes().length, header, s.ids(),
                new io.posekit.asset.DecodeBudget(Long.MAX_VALUE), "cold");
    }
}
