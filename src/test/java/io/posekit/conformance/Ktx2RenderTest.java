package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.export.AnimatedGltf;
import io.posekit.render.RgbaImage;
import io.posekit.skinning.Material;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * CesiumMan with its texture re-encoded as Basis Universal KTX2 ({@code KHR_texture_basisu}, mipmapped, no PNG/JPEG
 * fallback; ETC1S, and UASTC with Zstandard; made by {@code tools/ktx2-golden/run.sh} with basisu 1.16) draws like
 * the original: the same
 * silhouette and the mean sRGB colour of the fully covered pixels within {@value #MAX_LEVELS} levels per channel of
 * the original's (JPEG texture), in the renderer {@code render.png}, {@code preview.gif} and {@code frames.png} share.
 * Measured: IoU 1.0, means 178.6/199.2/195.4 (ETC1S) and 178.3/199.1/195.5 (UASTC) against 178.3/199.1/195.5. Untextured (as before KTX2 was transcoded),
 * the mean is far off. Skipped without the generated model.
 */
class Ktx2RenderTest {

    static final double MAX_LEVELS = 2;

    @ParameterizedTest
    @ValueSource(strings = {"etc1s", "uastc"})
    void ktx2TexturedCesiumManDrawsLikeTheOriginal(String encoding) throws IOException {
        Path ktx2 = Path.of(System.getProperty("posekit.ktx2-golden.dir", "target/ktx2-golden"))
                .resolve("models/CesiumMan-" + encoding + ".glb");
        assumeTrue(Files.isRegularFile(ktx2) && ConformanceData.available(), ktx2 + " or the conformance assets absent");
        Path original = ConformanceData.root().resolve("assets/gltf/CesiumMan/CesiumMan.glb");
        byte[] glb = Files.readAllBytes(ktx2);
        Model model = importGlb(glb);
        assertThat(model.warnings()).noneMatch(w -> w.contains("KTX2") || w.contains("texture"));
        Material.Texture texture = model.meshes().getFirst().primitives().getFirst().material().baseColorTexture();
        assertThat(texture).isNotNull();
        assertThat(texture.mimeType()).isEqualTo(Material.Texture.PNG);

        RgbaImage expected = BlenderColoursTest.render(importGlb(Files.readAllBytes(original)));
        RgbaImage actual = BlenderColoursTest.render(model);
        assertThat(BlenderColoursTest.iou(expected, actual)).isGreaterThanOrEqualTo(0.999);
        double[] mean = BlenderColoursTest.meanColour(actual);
        double[] meanExpected = BlenderColoursTest.meanColour(expected);
        for (int c = 0; c < 3; c++) {
            assertThat(Math.abs(mean[c] - meanExpected[c])).as("mean sRGB channel %d: KTX2 %s, original %s", c,
                    mean[c], meanExpected[c]).isLessThanOrEqualTo(MAX_LEVELS);
        }
        // the base colour factor alone (what was drawn before): far from the texture's colours
        byte[] broken = glb.clone();
        broken[indexOf(broken, "KTX 20".getBytes(java.nio.charset.StandardCharsets.US_ASCII)) - 1] = 0;
        Model untextured = importGlb(broken);
        assertThat(untextured.warnings()).anyMatch(w -> w.endsWith("is not a KTX2 file (no KTX 2.0 identifier); the base"
                + " colour factor alone is used"));
        double[] untexturedMean = BlenderColoursTest.meanColour(BlenderColoursTest.render(untextured));
        assertThat(Math.abs(untexturedMean[0] - meanExpected[0])
                + Math.abs(untexturedMean[1] - meanExpected[1]) + Math.abs(untexturedMean[2] - meanExpected[2])).isGreaterThan(30);

        // posed.glb / animated.glb carry the transcoded texture (as PNG), which draws the same
        Model exported = AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile("e.glb",
                AnimatedGltf.of(model, AnimatedGltf.Options.DEFAULT).glb()))).model();
        assertThat(exported.meshes().getFirst().primitives().getFirst().material().baseColorTexture())
                .isEqualTo(texture);
    }

    private static Model importGlb(byte[] glb) {
        return AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile("m.glb", glb))).model();
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("no KTX2 identifier in the GLB");
    }
}
