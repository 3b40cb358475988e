package io.posekit.bench;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.bake.FrameEvaluator;
import io.posekit.clip.Clip;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The core on the conformance assets the peer is measured with ({@code ../shared/conformance}, or
 * {@code -Dposekit.conformance.dir}): clip 0 at random times in its duration, as the HTTP endpoints compute it.
 * {@link #pose}: sample + local→model + skin 0's skinning matrices (what {@code skins/0/matrices} computes);
 * {@link #skinned}: that plus mesh 0 skinned, positions and normals (what {@code meshes/0/skinned} computes). Compare
 * with {@code ../shared/tools/peer/three-core.mjs} (three.js: pose 6.9 / 9.7 / 17.5 µs, skinning 6.4 / 6.2 / 8.3 M
 * vertices/s for Fox / CesiumMan / BrainStem).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class AssetBenchmark {

    @Param({"Fox", "CesiumMan", "BrainStem"})
    String asset;

    private FrameEvaluator pose;
    private FrameEvaluator skinned;
    private final double[] times = new double[1024];
    private int next;

    @Setup
    public void setUp() throws IOException {
        Path file = Path.of(System.getProperty("posekit.conformance.dir", "../shared/conformance"), "assets", "gltf", asset,
                asset + ".glb");
        Model model = AssetImporters.all(ImportLimits.DEFAULT)
                .importUpload(List.of(new SourceFile(asset + ".glb", Files.readAllBytes(file)))).model();
        Clip clip = model.clips().getFirst();
        pose = new FrameEvaluator(model, clip, new int[] {0}, new int[0], false, false);
        skinned = new FrameEvaluator(model, clip, new int[] {0}, new int[] {0}, true, false);
        SplittableRandom random = new SplittableRandom(13);
        for (int i = 0; i < times.length; i++) {
            times[i] = random.nextDouble(0, clip.duration());
        }
    }

    @Benchmark
    public float pose() {
        pose.evaluate(times[next++ & (times.length - 1)]);
        return pose.skinningMatrices(0)[12];
    }

    @Benchmark
    public float skinned() {
        skinned.evaluate(times[next++ & (times.length - 1)]);
        return skinned.positions(0, 0)[0];
    }
}
