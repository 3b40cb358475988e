package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.api.PosekitClient;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * {@code render.png} of the textured conformance assets as pipelines make them, through the HTTP API of the running
 * service, against the original's: gltfpack's file (quantized texture coordinates, their dequantization in
 * {@code KHR_texture_transform}), gltfpack {@code -cc} (also meshopt) and gltf-transform {@code webp} (the images
 * re-encoded as WebP, {@code EXT_texture_webp}, decoded by the ImageIO WebP plugin inside the service). The same pose,
 * view and size; the colours must match: the mean linear colour of the drawn pixels within 2/255 per channel, and
 * fewer than 4 % of the pixels drawn in both more than 40/255 apart (the quantized geometry moves edges by a pixel).
 * Without the texture transform or the WebP image the colours are far off (the texture sampled in the wrong place,
 * or no texture at all: white), which {@code TextureTransformRenderTest} shows in the renderer itself.
 * Skipped where {@code tools/gltf-pipeline/run.sh} was not run.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class PipelineRenderTest {

    private static final List<String> ASSETS = List.of("CesiumMan/CesiumMan.glb", "Fox/Fox.glb");
    private static final List<String> VARIANTS = List.of("gltfpack", "gltfpack-cc", "webp");
    private static final String PICTURE = "/render.png?width=160&height=160&view=front&background=%23000000";

    @LocalServerPort
    int port;

    @TestFactory
    Stream<DynamicTest> texturedVariantsDrawLikeTheOriginal() {
        Path variants = PipelineConformanceTest.root().resolve("assets");
        assumeTrue(Files.isDirectory(variants) && ConformanceData.available(), "pipeline variants or conformance absent");
        PosekitClient client = new PosekitClient(port);
        List<DynamicTest> tests = new ArrayList<>();
        for (String asset : ASSETS) {
            for (String variant : VARIANTS) {
                tests.add(DynamicTest.dynamicTest(variant + " " + asset, () -> {
                    BufferedImage original = render(client, ConformanceData.root().resolve("assets/gltf").resolve(asset));
                    BufferedImage ours = render(client, variants.resolve(variant).resolve(asset));
                    compare(variant + " " + asset, original, ours);
                }));
            }
        }
        return tests.stream();
    }

    private static BufferedImage render(PosekitClient client, Path file) throws IOException {
        String base = client.uploadedAssetPath(file.getFileName().toString(), Files.readAllBytes(file));
        PosekitClient.Response r = client.get(base + PICTURE);
        assertThat(r.status()).as("%s: %s", file, r).isEqualTo(200);
        return ImageIO.read(new ByteArrayInputStream(r.body()));
    }

    /** Mean colour over the pixels drawn in either picture, and the share of pixels drawn in both that differ much. */
    static void compare(String what, BufferedImage expected, BufferedImage actual) {
        double[] meanExpected = new double[3];
        double[] meanActual = new double[3];
        int drawnExpected = 0;
        int drawnActual = 0;
        int both = 0;
        int far = 0;
        for (int y = 0; y < expected.getHeight(); y++) {
            for (int x = 0; x < expected.getWidth(); x++) {
                int e = expected.getRGB(x, y) & 0xFFFFFF;
                int a = actual.getRGB(x, y) & 0xFFFFFF;
                if (e != 0) {
                    drawnExpected++;
                    add(meanExpected, e);
                }
                if (a != 0) {
                    drawnActual++;
                    add(meanActual, a);
                }
                if (e != 0 && a != 0) {
                    both++;
                    far += maxChannelDifference(e, a) > 40 ? 1 : 0;
                }
            }
        }
        assertThat(drawnExpected).as("%s: pixels drawn", what).isGreaterThan(1000);
        assertThat(Math.abs(drawnActual - drawnExpected)).as("%s: drawn pixels vs %d", what, drawnExpected)
                .isLessThan(drawnExpected / 25);
        for (int c = 0; c < 3; c++) {
            assertThat(Math.abs(meanActual[c] / drawnActual - meanExpected[c] / drawnExpected))
                    .as("%s: mean linear channel %d", what, c).isLessThanOrEqualTo(2 / 255.0);
        }
        assertThat(far).as("%s: pixels more than 40/255 apart, of %d", what, both).isLessThan(both / 25);
    }

    private static void add(double[] sum, int rgb) {
        for (int c = 0; c < 3; c++) {
            sum[c] += linear((rgb >> (16 - 8 * c)) & 0xFF);
        }
    }

    private static double linear(int srgb) {
        double v = srgb / 255.0;
        return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    }

    private static int maxChannelDifference(int a, int b) {
        int m = 0;
        for (int s = 0; s <= 16; s += 8) {
            m = Math.max(m, Math.abs(((a >> s) & 0xFF) - ((b >> s) & 0xFF)));
        }
        return m;
    }
}
