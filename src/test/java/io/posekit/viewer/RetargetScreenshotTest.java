package io.posekit.viewer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.api.PosekitClient;
import io.posekit.conformance.CmuJointMaps;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The CMU BVH 01_01 retargeted onto RiggedFigure and CesiumMan, drawn by the viewer: the retargeted asset's
 * {@code animated.glb} is opened in the page, the retargeted clip chosen and a frame of the jump shown; the frame must
 * draw the figure. The pictures (the canvas, scaled to 640 px wide) are left in {@code target/retarget-*.png}, and in
 * {@code -Dposekit.screenshots.dir} when set (the docs' pictures: {@code -Dposekit.screenshots.dir=docs}). Skipped
 * without chromium or the conformance set.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RetargetScreenshotTest {

    private static final Path ASSETS = Path.of(System.getProperty("posekit.conformance.dir", "../shared/conformance"))
            .toAbsolutePath().normalize().resolve("assets");
    private static final int BACKGROUND = 0x1d2129;
    /** The frame shown: the top of a jump (the hips' highest point in the BVH). */
    private static final String TIME = "6.71";

    @LocalServerPort
    int port;

    @TempDir
    Path temp;

    private ChromeDriver browser;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void startBrowser(@TempDir Path profile) {
        if (HeadlessChromium.available()) {
            browser = HeadlessChromium.start(profile);
        }
    }

    @BeforeEach
    void needBrowserAndAssets() {
        assumeTrue(browser != null, "no " + HeadlessChromium.BROWSER + " or " + HeadlessChromium.DRIVER);
        assumeTrue(Files.isDirectory(ASSETS.resolve("bvh/01_01")), ASSETS + " is absent");
    }

    @AfterAll
    void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void cmuJumpOnRiggedFigure() throws Exception {
        shoot("gltf/RiggedFigure/RiggedFigure.glb", CmuJointMaps.riggedFigure(), "retarget-riggedfigure.png");
    }

    @Test
    void cmuJumpOnCesiumMan() throws Exception {
        shoot("gltf/CesiumMan/CesiumMan.glb", CmuJointMaps.cesiumMan(), "retarget-cesiumman.png");
    }

    private void shoot(String target, Map<String, String> map, String picture) throws Exception {
        PosekitClient client = new PosekitClient(port);
        String targetId = upload(client, ASSETS.resolve(target));
        String sourceId = upload(client, ASSETS.resolve("bvh/01_01/01_01.bvh"));
        String json = "{\"source\":\"" + sourceId + "\",\"jointMap\":{" + map.entrySet().stream()
                .map(e -> "\"" + e.getKey() + "\":\"" + e.getValue() + "\"").collect(Collectors.joining(",")) + "}}";
        HttpResponse<String> made = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                + "/api/v1/assets/" + targetId + "/retarget")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
        JsonNode body = tools.jackson.databind.json.JsonMapper.builder().build().readTree(made.body());
        String clip = body.get("report").get("clips").get(0).get("name").asString();
        byte[] glb = client.get("/api/v1/assets/" + body.get("asset").get("id").asString() + "/animated.glb").body();

        browser.get("http://localhost:" + port + "/");
        waitFor(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-ready")));
        Path file = temp.resolve(Path.of(target).getFileName());
        Files.write(file, glb);
        browser.findElement(By.id("file")).sendKeys(file.toAbsolutePath().toString());
        waitFor(d -> !d.findElements(By.cssSelector("#clip option[value='" + clip + "']")).isEmpty());
        new Select(browser.findElement(By.id("clip"))).selectByValue(clip);
        waitFor(d -> (clip + "@0").equals(d.findElement(By.id("view")).getDomAttribute("data-frame")));
        ((JavascriptExecutor) browser).executeScript("const t = document.getElementById('time'); t.value = '" + TIME
                + "'; t.dispatchEvent(new Event('input'));");
        waitFor(d -> (clip + "@" + TIME).equals(d.findElement(By.id("view")).getDomAttribute("data-frame")));

        BufferedImage canvas = ImageIO.read(new ByteArrayInputStream(
                browser.findElement(By.id("view")).getScreenshotAs(OutputType.BYTES)));
        int drawn = 0;
        int left = canvas.getWidth();
        int top = canvas.getHeight();
        int right = 0;
        int bottom = 0;
        for (int y = 0; y < canvas.getHeight(); y++) {
            for (int x = 0; x < canvas.getWidth(); x++) {
                int p = canvas.getRGB(x, y);
                if (Math.abs((p >> 16 & 0xff) - (BACKGROUND >> 16)) + Math.abs((p >> 8 & 0xff) - (BACKGROUND >> 8 & 0xff))
                        + Math.abs((p & 0xff) - (BACKGROUND & 0xff)) > 48) {
                    drawn++;
                    left = Math.min(left, x);
                    right = Math.max(right, x);
                    top = Math.min(top, y);
                    bottom = Math.max(bottom, y);
                }
            }
        }
        assertThat(drawn).as("pixels drawn").isGreaterThan(canvas.getWidth() * canvas.getHeight() / 200);
        // the figure and its bounds, with a margin: the camera frames the whole clip's travel, so it is small
        int margin = Math.max(24, (bottom - top) / 5);
        int x0 = Math.max(0, left - margin);
        int y0 = Math.max(0, top - margin);
        BufferedImage crop = canvas.getSubimage(x0, y0, Math.min(canvas.getWidth(), right + margin) - x0,
                Math.min(canvas.getHeight(), bottom + margin) - y0);
        BufferedImage small = scaled(crop, Math.min(640, crop.getWidth()));
        Files.createDirectories(Path.of("target"));
        ImageIO.write(small, "png", Path.of("target", picture).toFile());
        String dir = System.getProperty("posekit.screenshots.dir");
        if (dir != null) {
            ImageIO.write(small, "png", Path.of(dir, picture).toFile());
        }
    }

    private static String upload(PosekitClient client, Path file) throws IOException {
        PosekitClient.Response r = client.upload(file.getFileName().toString(), Files.readAllBytes(file));
        assertThat(r.status()).as(r.toString()).isIn(200, 201);
        return r.json().get("id").asString();
    }

    private static BufferedImage scaled(BufferedImage image, int width) {
        int height = Math.round(image.getHeight() * (float) width / image.getWidth());
        BufferedImage out = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        var g = out.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
        g.drawImage(image, 0, 0, width, height, null);
        g.dispose();
        return out;
    }

    private void waitFor(java.util.function.Function<org.openqa.selenium.WebDriver, Boolean> condition) {
        new WebDriverWait(browser, Duration.ofSeconds(60))
                .withMessage(() -> "page error: '" + browser.findElement(By.id("error")).getText() + "'")
                .until(condition);
    }
}
