package io.posekit.viewer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.api.PosekitClient;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * posekit's CPU renderer checked against an independent one: for one conformance asset of every format with a mesh
 * (three glTF, and COLLADA, DirectX .x, IQM, MD5, FBX; BVH carries no mesh), {@code render.png} of clip 0 at half its
 * duration (the rest pose without clips), 512×512 on a transparent background, and the viewer page's three.js
 * drawing the same {@code posed.glb} with the camera {@code render.png} reports ({@code Posekit-Camera}: same eye,
 * target, up, field of view, aspect, near and far) must cover the same pixels: the intersection over union of their
 * silhouettes (alpha ≥ ½) at least {@value #MIN_IOU}. Skipped where chromium or the conformance data is missing.
 * Writes both pictures and the table to {@code target/render-silhouettes/} (docs/rendering.md shows some).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RenderSilhouetteBrowserTest {

    static final double MIN_IOU = 0.98;
    static final int SIZE = 512;
    static final Path OUT = Path.of("target", "render-silhouettes");
    private static final Path ASSETS = Path.of(System.getProperty("posekit.conformance.dir", "../shared/conformance"),
            "assets");

    @LocalServerPort
    int port;

    private ChromeDriver browser;
    private final Map<String, String> table = new LinkedHashMap<>();

    static Stream<String> assets() {
        return Stream.of("gltf/Fox/Fox.glb", "gltf/CesiumMan/CesiumMan.glb", "gltf/BrainStem/BrainStem.glb",
                "collada/CesiumMan/CesiumMan.dae", "x/BCN_Epileptic/BCN_Epileptic.X", "iqm/mrfixit/mrfixit.iqm",
                "md5/SimpleCube/SimpleCube.md5mesh", "fbx/huesitos/huesitos.fbx");
    }

    @BeforeAll
    void startBrowser(@TempDir Path profile) {
        if (HeadlessChromium.available() && Files.isDirectory(ASSETS)) {
            browser = HeadlessChromium.start(profile);
            browser.get("http://localhost:" + port + "/");
            new WebDriverWait(browser, Duration.ofSeconds(20)).until(
                    d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-ready")));
        }
    }

    @AfterAll
    void stopBrowser() throws IOException {
        HeadlessChromium.quitAndWriteTable(browser, OUT.resolve("iou.md"), "| asset | clip @ time | IoU |\n|---|---|---|\n",
                table);
    }

    /** The viewer's "posekit render" box: ticked, posekit's render.png of the frame on screen appears beside the canvas. */
    @org.junit.jupiter.api.Test
    void theViewerShowsPosekitsRenderBesideThreeJs(@TempDir Path temp) throws IOException {
        assumeTrue(browser != null, "no " + HeadlessChromium.BROWSER + " or " + HeadlessChromium.DRIVER);
        Path file = temp.resolve("tube.glb");
        Files.write(file, ViewerFixture.tube());
        browser.findElement(By.id("file")).sendKeys(file.toAbsolutePath().toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        wait.until(d -> "Bend@0".equals(d.findElement(By.id("view")).getDomAttribute("data-frame")));
        assertThat(browser.findElement(By.id("render")).isDisplayed()).isFalse();
        browser.findElement(By.id("side-by-side")).click();
        wait.until(d -> d.findElement(By.id("render")).isDisplayed() && Long.valueOf(1).equals(((JavascriptExecutor) d)
                .executeScript("return document.getElementById('render').naturalWidth > 0 ? 1 : 0")));
        @SuppressWarnings("unchecked")
        java.util.List<String> requests = (java.util.List<String>) ((JavascriptExecutor) browser).executeScript(
                "return window.posekit.requests.map(r => r.method + ' ' + r.url + ' ' + r.status)");
        String id = (String) ((JavascriptExecutor) browser).executeScript(
                "return document.getElementById('asset-id').textContent");
        assertThat(requests).anyMatch(r -> r.startsWith("GET api/v1/assets/" + id + "/render.png?clip=Bend&time=0&loop=")
                && r.contains("&view=") && r.endsWith("&background=1d2129 200"));
        // the picture is the size the request asked for
        String asked = requests.stream().filter(r -> r.contains("/render.png?")).findFirst().orElseThrow()
                .replaceAll(".*&width=(\\d+)&.*", "$1");
        assertThat(((JavascriptExecutor) browser).executeScript("return document.getElementById('render').naturalWidth"))
                .isEqualTo(Long.valueOf(asked));
    }

    /**
     * Both pictures over the viewer's background, posekit's left, three.js's right, cropped to where either drew
     * (with a margin), for the docs.
     */
    static BufferedImage sideBySide(BufferedImage a, BufferedImage b) {
        int x0 = SIZE, y0 = SIZE, x1 = 0, y1 = 0;
        for (int y = 0; y < SIZE; y++) {
            for (int x = 0; x < SIZE; x++) {
                if ((a.getRGB(x, y) >>> 24) != 0 || (b.getRGB(x, y) >>> 24) != 0) {
                    x0 = Math.min(x0, x);
                    y0 = Math.min(y0, y);
                    x1 = Math.max(x1, x);
                    y1 = Math.max(y1, y);
                }
            }
        }
        int margin = 8;
        x0 = Math.max(0, x0 - margin);
        y0 = Math.max(0, y0 - margin);
        x1 = Math.min(SIZE - 1, x1 + margin);
        y1 = Math.min(SIZE - 1, y1 + margin);
        int w = x1 - x0 + 1, h = y1 - y0 + 1;
        BufferedImage out = new BufferedImage(2 * w + margin, h, BufferedImage.TYPE_INT_RGB);
        int background = 0x1d2129;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < 2 * w + margin; x++) {
                out.setRGB(x, y, x < w ? over(a.getRGB(x0 + x, y0 + y), background)
                        : x >= w + margin ? over(b.getRGB(x0 + x - w - margin, y0 + y), background) : background);
            }
        }
        return out;
    }

    private static int over(int argb, int background) {
        int alpha = argb >>> 24;
        int out = 0;
        for (int shift = 0; shift <= 16; shift += 8) {
            int c = ((argb >> shift & 0xFF) * alpha + (background >> shift & 0xFF) * (255 - alpha) + 127) / 255;
            out |= c << shift;
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("assets")
    void theSilhouetteOfRenderPngIsThreeJsOne(String asset) throws IOException {
        assumeTrue(browser != null, "no " + HeadlessChromium.BROWSER + " or " + HeadlessChromium.DRIVER
                + ", or no conformance data at " + ASSETS);
        PosekitClient client = new PosekitClient(port);
        Path file = ASSETS.resolve(asset);
        PosekitClient.Response upload = client.upload(file.getFileName().toString(), Files.readAllBytes(file));
        assertThat(upload.status()).as(upload.toString()).isIn(200, 201);
        String base = "api/v1/assets/" + upload.json().get("id").asString();
        JsonNode clips = upload.json().get("clips");
        String frame = clips.isEmpty() ? "" : "clip=0&time=" + clips.get(0).get("duration").asDouble() / 2 + "&";
        String query = "?" + frame + "width=" + SIZE + "&height=" + SIZE + "&view=three-quarter";
        PosekitClient.Response render = client.get("/" + base + "/render.png" + query);
        assertThat(render.status()).as(render.toString()).isEqualTo(200);
        String camera = render.headers().firstValue("Posekit-Camera").orElseThrow();
        BufferedImage posekit = ImageIO.read(new ByteArrayInputStream(render.body()));

        // in the file's space, as render.png draws it (posed.glb defaults to glTF's metres and Y-up)
        String glbUrl = base + "/posed.glb?" + frame + "coordinates=file";
        Object dataUrl = ((JavascriptExecutor) browser).executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                        + "window.posekit.snapshot(arguments[0], JSON.parse(arguments[1]), arguments[2], arguments[2])"
                        + ".then(done).catch(e => done('error: ' + e));", glbUrl, camera, SIZE);
        assertThat((String) dataUrl).startsWith("data:image/png;base64,");
        byte[] png = Base64.getDecoder().decode(((String) dataUrl).substring("data:image/png;base64,".length()));
        BufferedImage three = ImageIO.read(new ByteArrayInputStream(png));
        assertThat(three.getWidth()).isEqualTo(SIZE);

        int both = 0, either = 0, posekitOnly = 0, threeOnly = 0;
        for (int y = 0; y < SIZE; y++) {
            for (int x = 0; x < SIZE; x++) {
                boolean a = (posekit.getRGB(x, y) >>> 24) >= 128;
                boolean b = (three.getRGB(x, y) >>> 24) >= 128;
                both += a && b ? 1 : 0;
                either += a || b ? 1 : 0;
                posekitOnly += a && !b ? 1 : 0;
                threeOnly += b && !a ? 1 : 0;
            }
        }
        double iou = either == 0 ? 0 : (double) both / either;
        String name = file.getFileName().toString();
        table.put(asset, (frame.isEmpty() ? "rest pose" : "0 @ " + frame.replaceAll(".*time=([^&]+)&", "$1") + " s")
                + " | " + String.format(Locale.ROOT, "%.4f (%d px; %d only posekit, %d only three.js)", iou, either,
                posekitOnly, threeOnly));
        Files.createDirectories(OUT);
        Files.write(OUT.resolve(name + ".posekit.png"), render.body());
        Files.write(OUT.resolve(name + ".three.png"), png);
        ImageIO.write(sideBySide(posekit, three), "png", OUT.resolve(name + ".side-by-side.png").toFile());
        assertThat(either).as("pixels drawn").isGreaterThan(SIZE * SIZE / 100);
        assertThat(iou).as("IoU of the silhouettes of %s (%d only posekit, %d only three.js)", asset, posekitOnly,
                threeOnly).isGreaterThanOrEqualTo(MIN_IOU);
    }
}
