package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.export.AnimatedGltf;
import io.posekit.render.Camera;
import io.posekit.render.PosedScene;
import io.posekit.render.Rasteriser;
import io.posekit.render.RgbaImage;
import io.posekit.render.View;
import io.posekit.sampling.Pose;
import io.posekit.skinning.Primitive;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Colours as Blender shows them: the same scene exported by Blender (3.4, Debian's package) as FBX, COLLADA and glTF
 * ({@code tools/blender-fixtures/make_colour_fixtures.py}, made by {@code .ci/run} into {@code target/blender-fixtures};
 * skipped where they are missing). Blender's glTF is the reference: its {@code baseColorFactor} is the Principled
 * BSDF's Base Color, linear as glTF defines it, so posekit's picture of it is the colour the artist set. posekit's
 * pictures of the FBX and the COLLADA, drawn at rest with the same camera framing, must cover the same pixels
 * (IoU ≥ {@value #MIN_IOU}) with a mean sRGB colour of the fully covered pixels within {@value #MAX_LEVELS} levels per
 * channel of the glTF's. Scenes: {@code swatches} (six untextured colours and a dark one with an orange Emission:
 * Blender writes their linear values into FBX {@code DiffuseColor} and {@code EmissiveColor} and COLLADA
 * {@code <color>}) and {@code textured} (an image texture on Base Color, whose own
 * value Blender leaves at 0.8 and writes as {@code DiffuseColor} beside the texture). The table goes to
 * {@code target/blender-colours.md}.
 */
class BlenderColoursTest {

    static final Path DIR = Path.of(System.getProperty("posekit.blender.fixtures", "target/blender-fixtures"));
    static final double MAX_LEVELS = 5;
    static final double MIN_IOU = 0.97;
    static final int SIZE = 256;
    private static final Map<String, String> TABLE = new TreeMap<>();

    @AfterAll
    static void writeTable() throws IOException {
        if (TABLE.isEmpty()) {
            return;
        }
        StringBuilder md = new StringBuilder("| scene, format | IoU | mean sRGB (format) | mean sRGB (Blender's glTF) |\n"
                + "|---|---|---|---|\n");
        TABLE.values().forEach(row -> md.append(row).append('\n'));
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "blender-colours.md"), md);
        System.out.print(md);
    }

    @ParameterizedTest
    @CsvSource({"swatches, fbx", "swatches, dae", "textured, fbx", "textured, dae"})
    void theFileDrawsInTheColoursOfBlendersGltf(String scene, String format) {
        assumeTrue(Files.isRegularFile(DIR.resolve(scene + ".glb")), "no Blender fixtures in " + DIR
                + " (tools/blender-fixtures/run.sh, run by .ci/run)");
        Model reference = load(scene + ".glb");
        Model model = load(scene + "." + format);
        RgbaImage expected = render(reference);
        RgbaImage actual = render(model);
        double iou = iou(actual, expected);
        double[] mean = meanColour(actual);
        double[] meanExpected = meanColour(expected);
        TABLE.put(scene + "." + format, String.format(Locale.ROOT, "| %s.%s | %.4f | %.1f, %.1f, %.1f | %.1f, %.1f, %.1f |",
                scene, format, iou, mean[0], mean[1], mean[2], meanExpected[0], meanExpected[1], meanExpected[2]));
        assertThat(iou).as("IoU of %s.%s with the glTF", scene, format).isGreaterThanOrEqualTo(MIN_IOU);
        for (int c = 0; c < 3; c++) {
            assertThat(Math.abs(mean[c] - meanExpected[c])).as("mean sRGB channel %d of %s.%s: %s, glTF %s", c, scene,
                    format, mean[c], meanExpected[c]).isLessThanOrEqualTo(MAX_LEVELS);
        }
        // posed.glb and animated.glb carry the colours drawn: the export's materials are the import's
        Model exported = AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile("e.glb",
                AnimatedGltf.of(model, AnimatedGltf.Options.DEFAULT).glb()))).model();
        assertThat(materials(exported)).containsExactlyElementsOf(materials(model));
    }

    private static List<String> materials(Model model) {
        List<String> out = new ArrayList<>();
        for (var mesh : model.meshes()) {
            for (Primitive p : mesh.primitives()) {
                out.add(p.material().name() + " " + java.util.Arrays.toString(p.material().baseColorFactor())
                        + (p.material().baseColorTexture() == null ? "" : " textured"));
            }
        }
        return out;
    }

    static Model load(String name) {
        List<SourceFile> files = new ArrayList<>();
        try {
            files.add(new SourceFile(name, Files.readAllBytes(DIR.resolve(name))));
            if (name.endsWith(".dae") && name.startsWith("textured")) {
                files.add(new SourceFile("textured_grid.png", Files.readAllBytes(DIR.resolve("textured_grid.png"))));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return AssetImporters.all(ImportLimits.DEFAULT).importUpload(files).model();
    }

    /** The rest pose from three-quarters, framed on its own box as {@code render.png} frames it. */
    static RgbaImage render(Model model) {
        float[] matrices = Pose.evaluate(model.rig(), null, 0).modelMatrices();
        float[][] box = PosedScene.poseBox(model, matrices, null);
        Camera camera = Camera.framing(box[0], box[1], View.THREE_QUARTER, 40, 1, 0.9);
        return new Rasteriser().render(PosedScene.surfaces(model, matrices, null), camera, SIZE, SIZE, 0);
    }

    static double iou(RgbaImage a, RgbaImage b) {
        int both = 0;
        int either = 0;
        for (int y = 0; y < a.height(); y++) {
            for (int x = 0; x < a.width(); x++) {
                boolean p = (a.argb(x, y) >>> 24) >= 128;
                boolean q = (b.argb(x, y) >>> 24) >= 128;
                both += p && q ? 1 : 0;
                either += p || q ? 1 : 0;
            }
        }
        return either == 0 ? 1 : (double) both / either;
    }

    /** The mean sRGB colour (0–255 per channel) of the fully covered pixels. */
    static double[] meanColour(RgbaImage image) {
        double[] sum = new double[3];
        int n = 0;
        for (int y = 0; y < image.height(); y++) {
            for (int x = 0; x < image.width(); x++) {
                int argb = image.argb(x, y);
                if (argb >>> 24 == 255) {
                    sum[0] += argb >> 16 & 0xFF;
                    sum[1] += argb >> 8 & 0xFF;
                    sum[2] += argb & 0xFF;
                    n++;
                }
            }
        }
        return new double[] {sum[0] / Math.max(1, n), sum[1] / Math.max(1, n), sum[2] / Math.max(1, n)};
    }
}
