package io.posekit.bench;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.clip.Clip;
import io.posekit.render.Camera;
import io.posekit.render.ClipFrames;
import io.posekit.render.GifEncoder;
import io.posekit.render.PngEncoder;
import io.posekit.render.PosedScene;
import io.posekit.render.Rasteriser;
import io.posekit.render.RgbaImage;
import io.posekit.render.Surface;
import io.posekit.render.View;
import io.posekit.sampling.MorphWeights;
import io.posekit.sampling.Pose;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
 * The CPU renderer on the conformance glTF assets ({@code -Dposekit.conformance.dir}), one thread, milliseconds:
 * {@link #render512} draws the asset posed at clip 0's middle, 512×512, 4 samples per pixel, three-quarter view framed
 * from the clip's box (the target: BrainStem ≤ 25 ms); {@link #png512} adds the PNG encoding, what
 * {@code render.png} computes besides posing and framing; {@link #gif256} is a whole {@code preview.gif} of 2 s at
 * 15 fps, 256×256 (30 frames: posing, skinning, drawing, palette, LZW; target ≤ 400 ms), the camera framed once.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class RenderBenchmark {

    @Param({"BrainStem", "Fox", "CesiumMan"})
    String asset;

    private Model model;
    private Clip clip;
    private List<Surface> surfaces;
    private Camera camera512;
    private Camera camera256;
    private final Rasteriser rasteriser = new Rasteriser();

    @Setup
    public void setUp() throws IOException {
        Path file = Path.of(System.getProperty("posekit.conformance.dir", "../shared/conformance"), "assets", "gltf", asset,
                asset + ".glb");
        model = AssetImporters.all(ImportLimits.DEFAULT)
                .importUpload(List.of(new SourceFile(asset + ".glb", Files.readAllBytes(file)))).model();
        clip = model.clips().getFirst();
        double t = clip.duration() / 2;
        surfaces = PosedScene.surfaces(model, Pose.evaluate(model.rig(), clip, t).modelMatrices(),
                MorphWeights.evaluate(model.meshes(), clip, t));
        float[][] box = PosedScene.clipBox(model, clip);
        camera512 = Camera.framing(box[0], box[1], View.THREE_QUARTER, 40, 1, 0.9);
        camera256 = camera512;
    }

    @Benchmark
    public RgbaImage render512() {
        return rasteriser.render(surfaces, camera512, 512, 512, 0);
    }

    @Benchmark
    public byte[] png512() {
        return PngEncoder.encode(rasteriser.render(surfaces, camera512, 512, 512, 0));
    }

    @Benchmark
    public byte[] gif256() {
        double fps = 15;
        int count = 30;
        return GifEncoder.encode(ClipFrames.render(rasteriser, model, clip, ClipFrames.times(clip, fps, count),
                camera256, 256, 256, 0), ClipFrames.delays(fps, count));
    }
}
