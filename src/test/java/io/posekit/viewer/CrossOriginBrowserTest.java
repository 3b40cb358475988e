package io.posekit.viewer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import io.posekit.api.security.ApiKeys;
import io.posekit.asset.gltf.GltfBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A web frontend on another origin calling a secured posekit from the browser: a page served by a server of its own
 * (another port: another origin) uploads an asset with {@code fetch} and an API key, reads skinning matrices and the
 * headers a script needs ({@code ETag}, {@code Location}, {@code Posekit-Layout}, {@code X-Request-Id}), through the
 * browser's real CORS machinery (preflights included); a page on an origin posekit does not allow gets nothing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrossOriginBrowserTest {

    static final String KEY = ApiKeys.generate();
    static HttpServer allowed;
    static HttpServer other;
    static Path keys;

    @LocalServerPort
    int port;

    private ChromeDriver browser;

    @DynamicPropertySource
    static void configure(DynamicPropertyRegistry registry) throws IOException {
        allowed = page();
        other = page();
        keys = Files.createTempFile("cors-keys", ".txt");
        Files.writeString(keys, HexFormat.of().formatHex(ApiKeys.sha256(KEY)) + " web posekit:read,posekit:write\n");
        registry.add("posekit.security.api-keys-file", keys::toString);
        registry.add("posekit.cors.allowed-origins", () -> "http://localhost:" + allowed.getAddress().getPort());
    }

    /** A server of its own: the page of a web frontend (its script is given per test, through the page's URL). */
    static HttpServer page() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] html = "<!doctype html><title>frontend</title><p>another origin".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/html");
            exchange.sendResponseHeaders(200, html.length);
            exchange.getResponseBody().write(html);
            exchange.close();
        });
        server.start();
        return server;
    }

    @BeforeAll
    void startBrowser(@TempDir Path profile) {
        if (HeadlessChromium.available()) {
            browser = HeadlessChromium.start(profile);
        }
    }

    @AfterAll
    void stop() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        allowed.stop(0);
        other.stop(0);
        Files.deleteIfExists(keys);
    }

    /** Runs {@code script} (an async function body given {@code api}, {@code key}, {@code glb}) on the page of {@code server}. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> runOn(HttpServer server, String script, byte[] glb) {
        browser.get("http://localhost:" + server.getAddress().getPort() + "/");
        Object result = ((JavascriptExecutor) browser).executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                        + "const api = arguments[0], key = arguments[1];"
                        + "const glb = Uint8Array.from(atob(arguments[2]), c => c.charCodeAt(0));"
                        + "(async () => {" + script + "})().then(done, e => done({error: String(e)}));",
                "http://127.0.0.1:" + port, KEY, Base64.getEncoder().encodeToString(glb));
        return (Map<String, Object>) result;
    }

    @Test
    void aPageOnAnAllowedOriginUploadsAndSamplesWithItsKeyAndReadsTheHeaders() {
        assumeTrue(browser != null, "no chromium/chromedriver (apt-get install chromium chromium-driver)");
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        b.setRoot("extras", "CrossOriginBrowserTest");
        Map<String, Object> r = runOn(allowed, """
                const auth = { Authorization: `Bearer ${key}` };
                const form = new FormData();
                form.append('file', new Blob([glb]), 'strip.glb');
                const up = await fetch(`${api}/api/v1/assets`, { method: 'POST', body: form, headers: auth });
                const summary = await up.json();
                const location = up.headers.get('Location');
                const m = await fetch(`${api}${location}/skins/0/matrices?clip=Bend&time=0.5`,
                    { headers: { ...auth, Accept: 'application/octet-stream', 'X-Request-Id': 'page-1' } });
                const floats = new Float32Array(await m.arrayBuffer());
                const anonymous = await fetch(`${api}/api/v1/assets`);
                return { upload: up.status, id: summary.id, location, status: m.status,
                         etag: m.headers.get('ETag'), layout: m.headers.get('Posekit-Layout'),
                         requestId: m.headers.get('X-Request-Id'), floats: floats.length, first: floats[0],
                         anonymous: anonymous.status, challenge: anonymous.headers.get('WWW-Authenticate') };
                """, b.toGlb());
        assertThat(r).doesNotContainKey("error");
        assertThat(r.get("upload")).isEqualTo(201L);
        assertThat((String) r.get("location")).isEqualTo("/api/v1/assets/" + r.get("id"));
        assertThat(r.get("status")).isEqualTo(200L);
        assertThat((String) r.get("etag")).startsWith("\"");
        assertThat(r.get("layout")).isEqualTo("matrix:2x16");
        assertThat(r.get("requestId")).isEqualTo("page-1");
        assertThat(r.get("floats")).isEqualTo(32L);
        // a refusal reaches the script with its challenge (exposed), so the page can ask its user for a key
        assertThat(r.get("anonymous")).isEqualTo(401L);
        assertThat(r.get("challenge")).isEqualTo("Bearer realm=\"posekit\"");
    }

    @Test
    void aPageOnAnOriginThatIsNotAllowedGetsNothing() {
        assumeTrue(browser != null, "no chromium/chromedriver (apt-get install chromium chromium-driver)");
        Map<String, Object> r = runOn(other, """
                const auth = { Authorization: `Bearer ${key}` };
                try {
                    const res = await fetch(`${api}/api/v1/assets`, { headers: auth });
                    return { status: res.status };
                } catch (e) {
                    return { blocked: String(e) };
                }
                """, new byte[0]);
        assertThat(r).containsKey("blocked");
        assertThat((String) r.get("blocked")).contains("Failed to fetch");
    }
}
