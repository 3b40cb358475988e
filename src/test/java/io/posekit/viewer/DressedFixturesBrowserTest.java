package io.posekit.viewer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.api.PosekitClient;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * posekit's picture of its own Blender-made character ({@code src/test/resources/fixtures/dressed}: FBX with an embedded
 * texture and shape keys, COLLADA beside its image) against three.js's FBXLoader and ColladaLoader reading the same file
 * in the viewer page (headless Chromium): {@code render.png} of clip 0 at {@value #TIME} s, and three.js's drawing of
 * the same frame with the camera of {@code Posekit-Camera} and posekit's documented light (ambient, key and fill,
 * Lambert, {@code dressed-snapshot.js}), so the two differ only in what the loaders made of the file. The silhouettes
 * (alpha ≥ ½) must agree with an IoU ≥ {@value #MIN_IOU}, the mean sRGB colour of the covered pixels within
 * {@value #MAX_LEVELS} levels per channel (for a file Blender wrote, three.js's materials take posekit's base colours,
 * which follow Blender rather than three.js: {@link #blenderColours}); for the FBX, three.js's morph target influences must equal posekit's weights
 * and its morphed (unskinned) vertices posekit's. Skipped where chromium is missing; pictures and the table go to
 * {@code target/dressed-renders/} (docs/rendering.md shows them).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DressedFixturesBrowserTest {

    static final double MIN_IOU = 0.98;
    static final double MAX_LEVELS = 4;
    static final double TIME = 0.5;
    static final int SIZE = 512;
    static final Path OUT = Path.of("target", "dressed-renders");
    static final Path FIXTURES = Path.of("src", "test", "resources", "fixtures", "dressed");

    @LocalServerPort
    int port;

    private ChromeDriver browser;
    private final Map<String, String> table = new LinkedHashMap<>();

    @BeforeAll
    void startBrowser(@TempDir Path profile) {
        if (HeadlessChromium.available()) {
            browser = HeadlessChromium.openViewer(profile, port);
        }
    }

    @AfterAll
    void stopBrowser() throws IOException {
        HeadlessChromium.quitAndWriteTable(browser, OUT.resolve("dressed.md"),
                "| file | IoU | mean sRGB posekit | mean sRGB three.js |\n|---|---|---|---|\n", table);
    }

    /**
     * The conformance FBX and COLLADA files (third-party, read from ../shared/conformance), drawn the same way at
     * their rest pose: three.js's FBXLoader builds a rotation track from its X curve's keys alone, so these files'
     * curves of different lengths animate wrongly in it (their animation is checked against the conformance oracle,
     * which works around that, in FbxConformanceTest). (animation_with_skeleton.fbx is left out: its clusters bind
     * with matrices its bind pose disagrees with, which three.js replaces by the mesh's rest world — a documented
     * difference, FbxSkin — so their rest pictures differ by design; IoU 0.93.)
     */
    @ParameterizedTest
    @ValueSource(strings = {"fbx/huesitos/huesitos.fbx", "collada/RiggedFigure/RiggedFigure.dae"})
    void conformanceFilesAsThreeJsLoadsThem(String asset) throws IOException {
        Path conformance = Path.of(System.getProperty("posekit.conformance.dir", "../shared/conformance"), "assets");
        assumeTrue(Files.isRegularFile(conformance.resolve(asset)), "no conformance data at " + conformance);
        compare(conformance.resolve(asset), false, -1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dressed.fbx", "dressed.dae"})
    void posekitDrawsTheCharacterAsThreeJsLoadsIt(String file) throws IOException {
        compare(FIXTURES.resolve(file), true, TIME);
    }

    /** Compares the pictures of clip 0 at {@code time} seconds (the rest pose when negative). */
    private void compare(Path path, boolean dressed, double time) throws IOException {
        assumeTrue(browser != null, "no " + HeadlessChromium.BROWSER + " or " + HeadlessChromium.DRIVER);
        String file = path.getFileName().toString();
        PosekitClient client = new PosekitClient(port);
        boolean fbx = file.endsWith(".fbx");
        Map<String, byte[]> parts = new LinkedHashMap<>();
        parts.put(file, Files.readAllBytes(path));
        byte[] image = Files.readAllBytes(FIXTURES.resolve("dressed_skin.png"));
        if (!fbx && dressed) {
            parts.put("dressed_skin.png", image);
        }
        PosekitClient.Response upload = client.upload(parts);
        assertThat(upload.status()).as(upload.toString()).isIn(200, 201);
        String base = "api/v1/assets/" + upload.json().get("id").asString();
        String frame = time < 0 ? "" : "clip=0&time=" + time + "&";
        PosekitClient.Response render = client.get("/" + base + "/render.png?" + frame + "width=" + SIZE
                + "&height=" + SIZE + "&view=three-quarter");
        assertThat(render.status()).as(render.toString()).isEqualTo(200);
        String camera = render.headers().firstValue("Posekit-Camera").orElseThrow();
        BufferedImage posekit = ImageIO.read(new ByteArrayInputStream(render.body()));

        // the file itself, served to the page as a data URL (the viewer's server does not serve test files)
        String fileUrl = "data:application/octet-stream;base64," + Base64.getEncoder().encodeToString(parts.get(file));
        Map<String, String> images = Map.of("dressed_skin.png",
                "data:image/png;base64," + Base64.getEncoder().encodeToString(image));
        String script;
        try (InputStream in = getClass().getResourceAsStream("dressed-snapshot.js")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> answer = (Map<String, Object>) ((JavascriptExecutor) browser).executeAsyncScript(script,
                fileUrl, fbx ? "fbx" : "dae", camera, SIZE, time, images, blenderColours(parts));
        assertThat(answer.get("error")).as("three.js").isNull();
        String dataUrl = (String) answer.get("png");
        byte[] png = Base64.getDecoder().decode(dataUrl.substring("data:image/png;base64,".length()));
        BufferedImage three = ImageIO.read(new ByteArrayInputStream(png));

        int both = 0;
        int either = 0;
        for (int y = 0; y < SIZE; y++) {
            for (int x = 0; x < SIZE; x++) {
                boolean a = (posekit.getRGB(x, y) >>> 24) >= 128;
                boolean b = (three.getRGB(x, y) >>> 24) >= 128;
                both += a && b ? 1 : 0;
                either += a || b ? 1 : 0;
            }
        }
        double iou = either == 0 ? 0 : (double) both / either;
        double[] meanPosekit = meanColour(posekit);
        double[] meanThree = meanColour(three);
        table.put(file, String.format(Locale.ROOT, "%.4f | %.1f, %.1f, %.1f | %.1f, %.1f, %.1f", iou, meanPosekit[0],
                meanPosekit[1], meanPosekit[2], meanThree[0], meanThree[1], meanThree[2]));
        Files.createDirectories(OUT);
        Files.write(OUT.resolve(file + ".posekit.png"), render.body());
        Files.write(OUT.resolve(file + ".three.png"), png);
        ImageIO.write(RenderSilhouetteBrowserTest.sideBySide(posekit, three), "png",
                OUT.resolve(file + ".side-by-side.png").toFile());
        assertThat(either).as("pixels drawn").isGreaterThan(SIZE * SIZE / 100);
        assertThat(iou).as("IoU of the silhouettes of %s (three.js clips %s, objects %s)", file, answer.get("tracks"),
                answer.get("objects")).isGreaterThanOrEqualTo(MIN_IOU);
        for (int c = 0; c < 3; c++) {
            assertThat(Math.abs(meanPosekit[c] - meanThree[c])).as("mean colour channel %d of %s: posekit %s, three.js %s",
                    c, file, meanPosekit[c], meanThree[c]).isLessThanOrEqualTo(MAX_LEVELS);
        }
        if (fbx && dressed) {
            checkMorphs(answer, parts.get(file));
        }
    }

    /**
     * For a file Blender wrote, posekit's base colour of each material by name (linear RGB), which the page gives
     * three.js's materials in place of its own; empty for any other file. posekit reads Blender's colours as linear
     * and lets a texture on {@code DiffuseColor} replace its value (docs/formats.md, "Colours as the authoring tool
     * shows them"), where three.js decodes them as sRGB and multiplies the texture by the value, so the two would
     * differ by design; {@code BlenderColoursTest} checks posekit's colours against Blender's own glTF of the same
     * scene. With the colours shared, the pictures still compare geometry, skinning, textures and UVs.
     */
    private static Map<String, List<Double>> blenderColours(Map<String, byte[]> parts) {
        String text = new String(parts.values().iterator().next(), StandardCharsets.ISO_8859_1);
        if (!text.contains("Blender (stable FBX IO)") && !text.contains("<authoring_tool>Blender")) {
            return Map.of();
        }
        List<io.posekit.asset.SourceFile> files = new ArrayList<>();
        parts.forEach((name, bytes) -> files.add(new io.posekit.asset.SourceFile(name, bytes)));
        io.posekit.asset.Model model = io.posekit.asset.AssetImporters.all(io.posekit.asset.ImportLimits.DEFAULT)
                .importUpload(files).model();
        Map<String, List<Double>> out = new LinkedHashMap<>();
        for (io.posekit.skinning.MeshInstance mesh : model.meshes()) {
            for (io.posekit.skinning.Primitive p : mesh.primitives()) {
                if (p.material() != null && p.material().name() != null) {
                    float[] c = p.material().baseColorFactor();
                    out.put(p.material().name(), List.of((double) c[0], (double) c[1], (double) c[2]));
                }
            }
        }
        return out;
    }

    /** Three.js's influences at {@link #TIME} are posekit's weights; its morphed vertices are posekit's. */
    @SuppressWarnings("unchecked")
    private static void checkMorphs(Map<String, Object> answer, byte[] fbx) {
        io.posekit.asset.Model model = io.posekit.asset.AssetImporters.all(io.posekit.asset.ImportLimits.DEFAULT)
                .importUpload(List.of(new io.posekit.asset.SourceFile("dressed.fbx", fbx))).model();
        float[] weights = io.posekit.sampling.MorphWeights.evaluate(model.meshes(), model.clips().getFirst(), TIME)
                .weights(0);
        List<Number> influences = (List<Number>) answer.get("influences");
        assertThat(answer.get("names")).isEqualTo(List.of("Smile", "Tall"));
        assertThat(influences).hasSize(weights.length);
        for (int i = 0; i < weights.length; i++) {
            assertThat(influences.get(i).doubleValue()).as("influence %d", i).isCloseTo(weights[i],
                    org.assertj.core.data.Offset.offset(1e-5));
        }
        List<float[]> ours = new ArrayList<>();
        for (io.posekit.skinning.Primitive p : model.meshes().getFirst().primitives()) {
            float[] pos = p.positions();
            for (int v = 0; v < p.vertexCount(); v++) {
                float[] q = {pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]};
                for (int t = 0; t < weights.length; t++) {
                    float[] d = p.morphTargets().positionDeltas(t);
                    for (int c = 0; d != null && c < 3; c++) {
                        q[c] += weights[t] * d[3 * v + c];
                    }
                }
                ours.add(q);
            }
        }
        List<Number> theirs = (List<Number>) answer.get("positions");
        assertThat(theirs).isNotEmpty();
        double worst = 0;
        for (int i = 0; i < theirs.size(); i += 3) {
            double best = Double.MAX_VALUE;
            for (float[] q : ours) {
                double dx = q[0] - theirs.get(i).doubleValue();
                double dy = q[1] - theirs.get(i + 1).doubleValue();
                double dz = q[2] - theirs.get(i + 2).doubleValue();
                best = Math.min(best, Math.sqrt(dx * dx + dy * dy + dz * dz));
            }
            worst = Math.max(worst, best);
        }
        // every three.js vertex is one of posekit's (geometry in centimetres: 1e-3 is 0.01 mm)
        assertThat(worst).as("largest distance of a three.js morphed vertex to posekit's").isLessThan(1e-3);
    }

    /** The mean sRGB colour (0–255 per channel) of the pixels at least half covered. */
    static double[] meanColour(BufferedImage image) {
        double[] sum = new double[3];
        int n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int argb = image.getRGB(x, y);
                if ((argb >>> 24) >= 128) {
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
