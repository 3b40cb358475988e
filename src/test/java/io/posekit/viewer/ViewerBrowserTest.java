package io.posekit.viewer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.api.PosekitClient;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
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
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The viewer at {@code /} in a real browser (headless Debian chromium through Selenium): upload a generated glTF,
 * see its summary, pick a clip, drag the time slider, and check that the page asked posekit for exactly that
 * frame and that the canvas changed; and that a broken file shows the API's problem detail. Skipped where
 * chromium or chromedriver is not installed ({@code .ci/run} installs both). The last frame's screenshot is left
 * in {@code target/viewer-screenshot.png} (the README's picture is a copy of it).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ViewerBrowserTest {

    static final Path SCREENSHOT = Path.of("target", "viewer-screenshot.png");
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** The page's background (stage.js), to tell drawn pixels from empty ones. */
    private static final int BACKGROUND = 0x1d2129;

    @LocalServerPort
    int port;

    @TempDir
    Path temp;

    private ChromeDriver browser;

    @BeforeAll
    void startBrowser(@TempDir Path profile) {
        if (HeadlessChromium.available()) {
            browser = HeadlessChromium.start(profile);
        }
    }

    /** Each test is reported skipped (not silently absent) where there is no browser. */
    @BeforeEach
    void needBrowser() {
        assumeTrue(browser != null, "no " + HeadlessChromium.BROWSER + " or " + HeadlessChromium.DRIVER
                + " (apt-get install chromium chromium-driver)");
    }

    @AfterAll
    void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void uploadsPicksAClipScrubsAndDrawsThePosekitFrame() throws Exception {
        byte[] glb = ViewerFixture.tube();
        String id = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(glb));
        openViewer();
        upload("tube.glb", glb);

        waitFor("the summary", d -> rows("#clips tbody tr").size() == 2);
        assertThat(rows("#clips tbody tr")).containsExactly("Bend 1.000 s 2", "Sway 2.000 s 2");
        assertThat(text("asset-name")).isEqualTo("tube.glb");
        assertThat(text("asset-format")).isEqualTo("gltf");
        assertThat(text("asset-id")).isEqualTo(id);
        assertThat(rows("#skins li")).containsExactly("Armature: 3 joints");
        assertThat(rows("#meshes li")).containsExactly(
                "Tube: 1 primitive(s), " + ViewerFixture.VERTICES + " vertices, skin 0");
        assertThat(rows("#warnings li")).containsExactly("none");
        // Download glTF: the whole asset, animated, saved under the upload's name
        WebElement download = browser.findElement(By.id("download"));
        assertThat(download.getText()).isEqualTo("Download glTF");
        assertThat(download.getDomAttribute("href")).isEqualTo("api/v1/assets/" + id + "/animated.glb");
        assertThat(download.getDomAttribute("download")).isEqualTo("tube.glb");
        assertThat(((JavascriptExecutor) browser).executeAsyncScript("const done = arguments[arguments.length - 1];"
                + "fetch(document.getElementById('download').href).then(r => r.arrayBuffer())"
                + ".then(b => done(new TextDecoder().decode(new Uint8Array(b, 0, 4)))).catch(e => done(String(e)));"))
                .as("the first bytes of the download").isEqualTo("glTF");
        waitForFrame("Bend@0");

        new Select(browser.findElement(By.id("clip"))).selectByValue("Sway");
        waitForFrame("Sway@0");
        BufferedImage before = canvas();
        assertThat(drawnPixels(before)).as("pixels drawn at Sway@0").isGreaterThan(pixels(before) / 50);
        // the lit tube, not a black silhouette (as when the environment light is missing)
        assertThat(brightPixels(before)).as("bright pixels at Sway@0").isGreaterThan(pixels(before) / 50);

        // drag the slider from its middle (1 s) a quarter of its width to the right (about 1.5 s)
        WebElement slider = browser.findElement(By.id("time"));
        new Actions(browser).clickAndHold(slider).moveByOffset(slider.getSize().getWidth() / 4, 0).release().perform();
        double time = Double.parseDouble(slider.getDomProperty("value"));
        assertThat(time).isBetween(1.2, 1.8);
        String shown = (String) script("return String(Number(document.getElementById('time').value))");
        waitForFrame("Sway@" + shown);
        BufferedImage after = canvas();

        String frame = "?clip=Sway&time=" + shown + "&loop=repeat 200";
        assertThat(requests()).contains(
                "POST api/v1/assets 201",
                "GET api/v1/assets/" + id + "/bounds?clip=Sway&over=clip 200",
                // the mesh in the file's space, as the skeleton lines and the bounds drawn over it
                "GET api/v1/assets/" + id + "/posed.glb?clip=Sway&time=" + shown + "&loop=repeat&coordinates=file 200",
                "GET api/v1/assets/" + id + "/skeleton" + frame,
                "GET api/v1/assets/" + id + "/bounds" + frame);
        assertThat(text("time-label")).isEqualTo(String.format(Locale.ROOT, "%.2f / 2.00 s", time));
        // the tube bends by tens of degrees between the two frames: a large share of the canvas changes
        assertThat(changedPixels(before, after)).as("pixels changed from Sway@0 to Sway@" + shown)
                .isGreaterThan(pixels(after) / 100);

        Files.createDirectories(SCREENSHOT.getParent());
        Files.write(SCREENSHOT, browser.getScreenshotAs(OutputType.BYTES));
    }

    @Test
    void playingAClampedClipRunsToItsEndAndStops() throws IOException {
        openViewer();
        upload("tube.glb", ViewerFixture.tube());
        waitForFrame("Bend@0");
        new Select(browser.findElement(By.id("clip"))).selectByValue("Sway");
        waitForFrame("Sway@0");
        new Select(browser.findElement(By.id("loop"))).selectByValue("clamp");
        browser.findElement(By.id("play")).click();

        waitForFrame("Sway@2");
        waitFor("playback to stop", d -> text("play").equals("Play"));
        assertThat(text("time-label")).isEqualTo("2.00 / 2.00 s");
        // the frames posekit was asked for while playing: forward in time, from the start to the clip's end
        List<Double> played = requests().stream()
                .filter(r -> r.contains("/posed.glb?clip=Sway&") && r.contains("&loop=clamp"))
                .map(r -> Double.parseDouble(r.replaceAll(".*&time=([^&]+)&.*", "$1")))
                .toList();
        assertThat(played).isSorted().endsWith(2.0).anyMatch(t -> t > 0 && t < 2);
    }

    @Test
    void drawsTheRootMotionPathAndDragsAnIkHandle() throws Exception {
        byte[] glb = ViewerFixture.tube();
        String id = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(glb));
        openViewer();
        upload("tube.glb", glb);
        waitForFrame("Bend@0");
        new Select(browser.findElement(By.id("clip"))).selectByValue("Sway");
        waitForFrame("Sway@0");

        // the root's motion over three loops of the 2 s clip at 30 fps: 181 baked frames through Root
        browser.findElement(By.id("root-path")).click();
        waitFor("the root-motion path", d -> "Root:181".equals(d.findElement(By.id("view")).getDomAttribute("data-path")));
        assertThat(requests()).contains("POST api/v1/assets/" + id + "/bake 200",
                "GET api/v1/assets/" + id + "/pose?clip=Sway&time=0&space=model&rootMotion=extract 200");

        // IK: the chain Root → Mid → Tip; the handle starts on Tip; moving it re-poses the tube through posekit
        assertThat(new Select(browser.findElement(By.id("ik-joint"))).getOptions()).extracting(WebElement::getText)
                .containsExactly("off", "Tip");
        new Select(browser.findElement(By.id("ik-joint"))).selectByValue("Tip");
        waitFor("the IK pose", d -> requests().contains("POST api/v1/assets/" + id + "/pose?space=model 200"));
        BufferedImage before = canvas();
        script("window.posekit.moveIkHandle([0.9, 1.2, 0])");
        waitFor("the IK target reached", d -> "reached".equals(d.findElement(By.id("view")).getDomAttribute("data-ik")));
        assertThat(requests()).contains("POST api/v1/assets/" + id + "/meshes/0/skinned?coordinates=file 200");
        BufferedImage after = canvas();
        assertThat(changedPixels(before, after)).as("pixels changed by the IK").isGreaterThan(pixels(after) / 100);
        Files.createDirectories(SCREENSHOT.getParent());
        Files.write(Path.of("target", "viewer-ik-screenshot.png"), browser.getScreenshotAs(OutputType.BYTES));
    }

    @Test
    void aBrokenFileShowsTheProblemDetail() throws IOException {
        byte[] broken = "glTF not really a binary glTF".getBytes(StandardCharsets.US_ASCII);
        PosekitClient.Response direct = new PosekitClient(port).upload("broken.glb", broken);
        assertThat(direct.status()).isEqualTo(422);
        String detail = direct.json().get("detail").asString();
        openViewer();
        upload("broken.glb", broken);

        waitFor("the error", d -> d.findElement(By.id("error")).isDisplayed());
        assertThat(text("error")).isEqualTo("Invalid asset file (422) " + detail);
        assertThat(browser.findElement(By.id("summary")).isDisplayed()).isFalse();
        assertThat(requests()).containsExactly("POST api/v1/assets 422");
    }

    private void openViewer() {
        browser.get("http://localhost:" + port + "/");
        // set by viewer.js once three.js (from the WebJar) is imported and a WebGL context exists
        waitFor("the viewer to start", d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-ready")));
    }

    private void upload(String name, byte[] bytes) throws IOException {
        Path file = temp.resolve(name);
        Files.write(file, bytes);
        browser.findElement(By.id("file")).sendKeys(file.toAbsolutePath().toString());
    }

    private void waitForFrame(String frame) {
        waitFor("frame " + frame, d -> frame.equals(d.findElement(By.id("view")).getDomAttribute("data-frame")));
    }

    private void waitFor(String what, Function<WebDriver, Boolean> condition) {
        new WebDriverWait(browser, WAIT)
                .withMessage(() -> what + "; page error: '" + text("error") + "'; requests: " + requests())
                .until(condition);
    }

    private String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    private List<String> rows(String css) {
        return browser.findElements(By.cssSelector(css)).stream().map(WebElement::getText).toList();
    }

    /** The page's API requests as "METHOD url status" (window.posekit.requests, kept by api.js). */
    @SuppressWarnings("unchecked")
    private List<String> requests() {
        return (List<String>) script(
                "return (window.posekit?.requests ?? []).map(r => r.method + ' ' + r.url + ' ' + r.status)");
    }

    private Object script(String js) {
        return ((JavascriptExecutor) browser).executeScript(js);
    }

    private BufferedImage canvas() throws IOException {
        byte[] png = browser.findElement(By.id("view")).getScreenshotAs(OutputType.BYTES);
        return ImageIO.read(new ByteArrayInputStream(png));
    }

    private static int pixels(BufferedImage image) {
        return image.getWidth() * image.getHeight();
    }

    private static int drawnPixels(BufferedImage image) {
        int n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                n += differs(image.getRGB(x, y), BACKGROUND) ? 1 : 0;
            }
        }
        return n;
    }

    private static int brightPixels(BufferedImage image) {
        int n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int p = image.getRGB(x, y);
                n += Math.max(p >> 16 & 0xff, Math.max(p >> 8 & 0xff, p & 0xff)) > 128 ? 1 : 0;
            }
        }
        return n;
    }

    private static int changedPixels(BufferedImage a, BufferedImage b) {
        assertThat(b.getWidth()).isEqualTo(a.getWidth());
        assertThat(b.getHeight()).isEqualTo(a.getHeight());
        int n = 0;
        for (int y = 0; y < a.getHeight(); y++) {
            for (int x = 0; x < a.getWidth(); x++) {
                n += differs(a.getRGB(x, y), b.getRGB(x, y)) ? 1 : 0;
            }
        }
        return n;
    }

    /** Whether two RGB colours differ by more than anti-aliasing and dithering noise in some channel. */
    private static boolean differs(int p, int q) {
        for (int shift = 0; shift <= 16; shift += 8) {
            if (Math.abs((p >> shift & 0xff) - (q >> shift & 0xff)) > 24) {
                return true;
            }
        }
        return false;
    }
}
