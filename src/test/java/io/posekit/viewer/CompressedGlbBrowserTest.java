package io.posekit.viewer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.api.PosekitClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
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

/**
 * {@code posed.glb} and {@code animated.glb} with {@code compress=quantize} and {@code compress=meshopt}, loaded in a
 * real browser (headless Chromium) by three.js's GLTFLoader with the MeshoptDecoder of the three.js WebJar the viewer
 * serves ({@code compressed-glb.js}), as a web frontend loads them; the skinned tube of {@link ViewerFixture} (208
 * vertices, 1152 indices, joints Root, Mid, Tip; clips Bend 1 s and Sway 2 s). Asserted from three.js's answers: the
 * extensions the files require, the vertex and index counts, the position attribute's stored type, the skinned
 * mesh's bone count, the clips' names and durations, the meshopt file's stored positions equal to the quantized
 * file's, and every vertex three.js draws (posed, or skinned at Bend 0.5 s) within the quantization's stated error
 * of the uncompressed file's (docs/export.md, Compressed output: {@code ‖M‖ · √3 · h / 65534}, h half the largest
 * extent of the quantization box, ‖M‖ ≤ 1 for this rig's rotations). Skipped where chromium or chromedriver is
 * missing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CompressedGlbBrowserTest {

    static final String CLIP = "Bend";
    static final double TIME = 0.5;
    /** float32 rounding on top of the stated bound: positions within 3 units, a few operations. */
    static final double FLOAT_SLACK = 1e-6;

    @LocalServerPort
    int port;

    private ChromeDriver browser;
    private String asset;

    @BeforeAll
    void start(@TempDir Path profile) {
        PosekitClient.Response up = new PosekitClient(port).upload("tube.glb", ViewerFixture.tube());
        assertThat(up.status()).as(up.toString()).isIn(200, 201);
        asset = "/api/v1/assets/" + up.json().get("id").asString();
        if (HeadlessChromium.available()) {
            browser = HeadlessChromium.openViewer(profile, port);
        }
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.quit();
        }
    }

    /** three.js's answers for {@code urls} (key → URL), clips posed at {@link #CLIP} {@link #TIME}. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> load(Map<String, String> urls, String plain) throws IOException {
        assumeTrue(browser != null, "no " + HeadlessChromium.BROWSER + " or " + HeadlessChromium.DRIVER);
        String script;
        try (InputStream in = getClass().getResourceAsStream("compressed-glb.js")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Map<String, Object> answer = (Map<String, Object>) ((JavascriptExecutor) browser).executeAsyncScript(script,
                urls, CLIP, TIME, plain);
        assertThat(answer.get("error")).as("three.js").isNull();
        Map<String, Object> decoder = (Map<String, Object>) answer.get("decoder");
        assertThat(((Number) decoder.get("status")).intValue()).as("meshopt_decoder.module.js from the WebJar")
                .isEqualTo(200);
        assertThat((String) decoder.get("type")).contains("javascript");
        assertThat((String) answer.get("withoutDecoder")).as("GLTFLoader without a MeshoptDecoder")
                .contains("setMeshoptDecoder");
        return answer;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> file(Map<String, Object> answer, String key) {
        return (Map<String, Object>) ((Map<String, Object>) answer.get("files")).get(key);
    }

    private static double[] numbers(Object list) {
        List<?> values = (List<?>) list;
        double[] out = new double[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ((Number) values.get(i)).doubleValue();
        }
        return out;
    }

    /** Half the largest extent of the box around {@code xyz}: the quantization's h. */
    private static double halfLargestExtent(double[] xyz) {
        double largest = 0;
        for (int c = 0; c < 3; c++) {
            double min = Double.MAX_VALUE;
            double max = -Double.MAX_VALUE;
            for (int i = c; i < xyz.length; i += 3) {
                min = Math.min(min, xyz[i]);
                max = Math.max(max, xyz[i]);
            }
            largest = Math.max(largest, max - min);
        }
        return largest / 2;
    }

    /** The largest distance between vertex i of {@code a} and of {@code b}. */
    private static double largestDistance(double[] a, double[] b) {
        assertThat(a).hasSameSizeAs(b);
        double worst = 0;
        for (int i = 0; i < a.length; i += 3) {
            double dx = a[i] - b[i];
            double dy = a[i + 1] - b[i + 1];
            double dz = a[i + 2] - b[i + 2];
            worst = Math.max(worst, Math.sqrt(dx * dx + dy * dy + dz * dz));
        }
        return worst;
    }

    private static void assertMesh(Map<String, Object> f, boolean skinned) {
        assertThat(f.get("meshes")).isEqualTo(1L);
        assertThat(f.get("vertexCount")).isEqualTo((long) ViewerFixture.VERTICES);
        assertThat(f.get("indexCount")).isEqualTo(6L * (ViewerFixture.RINGS - 1) * ViewerFixture.SEGMENTS);
        assertThat(f.get("skinned")).isEqualTo(skinned);
        assertThat(f.get("bones")).isEqualTo(skinned ? 3L : 0L);
    }

    private static void assertQuantized(Map<String, Object> f, boolean meshopt) {
        List<Object> expected = meshopt ? List.of("KHR_mesh_quantization", "EXT_meshopt_compression")
                : List.of("KHR_mesh_quantization");
        @SuppressWarnings("unchecked")
        List<Object> required = (List<Object>) f.get("extensionsRequired");
        assertThat(required).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(f.get("positionType")).isEqualTo("Int16Array");
        assertThat(f.get("positionNormalized")).isEqualTo(true);
    }

    private Map<String, String> variants(String path, String query) {
        Map<String, String> urls = new LinkedHashMap<>();
        urls.put("none", asset + path + query);
        urls.put("quantize", asset + path + query + (query.isEmpty() ? "?" : "&") + "compress=quantize");
        urls.put("meshopt", asset + path + query + (query.isEmpty() ? "?" : "&") + "compress=meshopt");
        return urls;
    }

    @Test
    void posedGlbQuantizedAndMeshoptDecodeInThreeJsWithinTheStatedError() throws IOException {
        Map<String, String> urls = variants("/posed.glb", "?clip=" + CLIP + "&time=" + TIME);
        Map<String, Object> answer = load(urls, urls.get("meshopt"));

        Map<String, Object> none = file(answer, "none");
        assertMesh(none, false);
        assertThat((List<?>) none.get("extensionsRequired")).isEmpty();
        assertThat(none.get("positionType")).isEqualTo("Float32Array");
        assertThat((List<?>) none.get("animations")).isEmpty();
        double[] exact = numbers(none.get("positions"));
        // posed.glb quantizes each mesh in the box of its posed positions
        double bound = Math.sqrt(3) * halfLargestExtent(exact) / 65534 + FLOAT_SLACK;
        for (String key : List.of("quantize", "meshopt")) {
            Map<String, Object> f = file(answer, key);
            assertMesh(f, false);
            assertQuantized(f, key.equals("meshopt"));
            assertThat((List<?>) f.get("animations")).isEmpty();
            assertThat(largestDistance(numbers(f.get("positions")), exact)).as("%s: largest vertex error", key)
                    .isLessThanOrEqualTo(bound);
        }
        assertThat(numbers(file(answer, "meshopt").get("raw"))).as("meshopt's decoded positions, as stored")
                .containsExactly(numbers(file(answer, "quantize").get("raw")));
    }

    @Test
    void animatedGlbQuantizedAndMeshoptDecodeAndAnimateInThreeJsWithinTheStatedError() throws IOException {
        Map<String, String> urls = variants("/animated.glb", "");
        urls.put("posed", asset + "/posed.glb?clip=" + CLIP + "&time=" + TIME);
        Map<String, Object> answer = load(urls, urls.get("meshopt"));

        Map<String, Object> none = file(answer, "none");
        assertMesh(none, true);
        assertThat(none.get("positionType")).isEqualTo("Float32Array");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> clips = (List<Map<String, Object>>) none.get("animations");
        assertThat(clips).extracting(c -> c.get("name")).containsExactly("Bend", "Sway");
        assertThat(clips).extracting(c -> ((Number) c.get("duration")).doubleValue()).containsExactly(1.0, 2.0);
        double[] exact = numbers(none.get("positions"));
        // three.js animating the uncompressed file poses it as posekit does (posed.glb at the same time)
        assertThat(largestDistance(exact, numbers(file(answer, "posed").get("positions")))).isLessThan(1e-5);
        // animated.glb quantizes every mesh in one box around all (rest) positions; ‖M‖ ≤ 1 (rotations, blended)
        double bound = Math.sqrt(3) * halfLargestExtent(numbers(none.get("raw"))) / 65534 + FLOAT_SLACK;
        for (String key : List.of("quantize", "meshopt")) {
            Map<String, Object> f = file(answer, key);
            assertMesh(f, true);
            assertQuantized(f, key.equals("meshopt"));
            assertThat(f.get("animations")).as("%s: clips, durations and tracks", key).isEqualTo(clips);
            assertThat(largestDistance(numbers(f.get("positions")), exact)).as("%s: largest skinned vertex error", key)
                    .isLessThanOrEqualTo(bound);
        }
        assertThat(numbers(file(answer, "meshopt").get("raw"))).as("meshopt's decoded positions, as stored")
                .containsExactly(numbers(file(answer, "quantize").get("raw")));
    }
}
