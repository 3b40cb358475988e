package io.posekit.viewer;

import java.nio.file.Files;
import java.nio.file.Path;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's {@code chromium} and {@code chromium-driver} (installed by {@code .ci/run}), started headless for a
 * browser test. Both paths are given to Selenium, so Selenium Manager never runs (it would try to download a
 * browser or driver, and this network has no such host). Other paths: {@code -Dposekit.chromium=…},
 * {@code -Dposekit.chromedriver=…}.
 */
final class HeadlessChromium {

    static final Path BROWSER = Path.of(System.getProperty("posekit.chromium", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getProperty("posekit.chromedriver", "/usr/bin/chromedriver"));
    static final int WIDTH = 1280;
    static final int HEIGHT = 800;

    private HeadlessChromium() {
    }

    static boolean available() {
        return Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER);
    }

    /** A headless browser with a fresh profile in {@code profile}, at a fixed size and device scale 1. */
    static ChromeDriver start(Path profile) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile,
                "--window-size=" + WIDTH + "," + HEIGHT, "--force-device-scale-factor=1", "--hide-scrollbars",
                // WebGL without a GPU: ANGLE on SwiftShader, which Chromium only falls back to when told it may
                "--use-angle=swiftshader", "--enable-unsafe-swiftshader");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }

    /** A browser ({@link #start}) on the viewer page of the server at {@code port}, once the page is ready. */
    static ChromeDriver openViewer(Path profile, int port) {
        ChromeDriver browser = start(profile);
        browser.get("http://localhost:" + port + "/");
        new org.openqa.selenium.support.ui.WebDriverWait(browser, java.time.Duration.ofSeconds(20)).until(
                d -> "true".equals(d.findElement(org.openqa.selenium.By.tagName("body")).getDomAttribute("data-ready")));
        return browser;
    }

    /**
     * Quits {@code browser} (when there is one) and writes {@code rows} (first cell → the rest of the row) as a Markdown
     * table under {@code header} (its title and separator lines) to {@code file}, unless there are none.
     */
    static void quitAndWriteTable(ChromeDriver browser, Path file, String header, java.util.Map<String, String> rows)
            throws java.io.IOException {
        if (browser != null) {
            browser.quit();
        }
        if (!rows.isEmpty()) {
            Files.createDirectories(file.getParent());
            StringBuilder md = new StringBuilder(header);
            rows.forEach((first, rest) -> md.append("| ").append(first).append(" | ").append(rest).append(" |\n"));
            Files.writeString(file, md);
        }
    }
}
