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

    /**
     * The parse of one conformance asset per format and size (issue 19): the bytes as uploaded to the runtime
     * {@link Model}, everything {@code POST /api/v1/assets} computes besides hashing and storing (compare with
     * {@code load/upload-bench.sh}, and for glTF and COLLADA with {@code three-core.mjs}'s parse figure). Milliseconds.
     * The MD5 mesh goes in twice: as it is, and zipped (the zip path).
     */
    @State(Scope.Thread)
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public static class Parse {

        @Param({"gltf/BrainStem/BrainStem.glb", "gltf/CesiumMan/CesiumMan.glb", "gltf/Fox/Fox.glb",
                "gltf/RecursiveSkeletons/RecursiveSkeletons.glb", "gltf/SimpleSkin/SimpleSkin.gltf",
                "collada/CesiumMan/CesiumMan.dae", "collada/RiggedFigure/RiggedFigure.dae",
                "collada/library_animation_clips/library_animation_clips.dae", "x/BCN_Epileptic/BCN_Epileptic.X",
                "x/anim_test/anim_test.x", "iqm/mrfixit/mrfixit.iqm", "bvh/01_01/01_01.bvh",
                "md5/SimpleCube/SimpleCube.md5mesh", "md5/SimpleCube/SimpleCube.md5mesh.zip",
                "fbx/animation_with_skeleton/animation_with_skeleton.fbx", "fbx/huesitos/huesitos.fbx"})
        String file;

        private final AssetImporters importers = AssetImporters.all(ImportLimits.DEFAULT);
        private List<SourceFile> upload;

        @Setup
        public void setUp() throws IOException {
            boolean zipped = file.endsWith(".zip");
            Path path = Path.of(System.getProperty("posekit.conformance.dir", "../shared/conformance"), "assets",
                    zipped ? file.substring(0, file.length() - 4) : file);
            byte[] bytes = Files.readAllBytes(path);
            String name = path.getFileName().toString();
            if (zipped) {
                java.io.ByteArrayOutputStream zip = new java.io.ByteArrayOutputStream();
                try (java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(zip)) {
                    out.putNextEntry(new java.util.zip.ZipEntry(name));
                    out.write(bytes);
                    out.closeEntry();
                }
                bytes = zip.toByteArray();
                name = name + ".zip";
            }
            upload = List.of(new SourceFile(name, bytes));
        }

        @Benchmark
        public Model parse() {
            return importers.importUpload(upload).model();
        }
    }
}
