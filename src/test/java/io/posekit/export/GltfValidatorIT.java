package io.posekit.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.clip.Clip;
import io.posekit.sampling.LoopMode;
import io.posekit.sampling.Pose;
import io.posekit.skinning.Material;
import io.posekit.skinning.PosedPrimitive;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.Container;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.junit.jupiter.Testcontainers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Khronos glTF-Validator (npm {@code gltf-validator}, pinned in {@code src/test/docker/gltf-validator/package.json})
 * judges the GLBs posekit writes. No Node.js on the host: a small image is built from a Debian base (system property
 * {@code posekit.it.debian-image}; the {@code local-docker} profile gives {@code local/debian:bookworm}) with Debian's
 * nodejs and npm and the validator, and every GLB is validated inside it.
 *
 * <p>Generated assets (the skinned, textured strip at several times, a multi-mesh multi-material scene with rigid,
 * non-indexed and point primitives, every primitive mode, a primitive with more than 65 535 vertices) must give no
 * error and no warning; the real conformance assets ({@code posekit.conformance.dir}, skipped when absent) posed at
 * 0.5 s into their first clip, and their animated export ({@link AnimatedGltf}, GLB and glTF JSON), must give no
 * error. Every report is printed.
 *
 * <p>Extra CA certificates the host trusts ({@code *.crt} in {@code posekit.it.extra-ca-dir}, default
 * {@code /usr/local/share/ca-certificates}) are trusted during the image build too, for networks that intercept TLS.
 */
@Testcontainers(disabledWithoutDocker = true)
class GltfValidatorIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path CONTEXT = Path.of("src/test/docker/gltf-validator").toAbsolutePath();

    private static GenericContainer<?> validator;

    @BeforeAll
    static void startValidator() throws IOException {
        long start = System.nanoTime();
        ImageFromDockerfile image = new ImageFromDockerfile("posekit-gltf-validator", false)
                .withFileFromPath("Dockerfile", CONTEXT.resolve("Dockerfile"))
                .withFileFromPath("package.json", CONTEXT.resolve("package.json"))
                .withFileFromPath("validate.js", CONTEXT.resolve("validate.js"))
                .withFileFromString("certs/README", "extra CA certificates trusted while building (*.crt)\n")
                .withBuildArg("BASE_IMAGE", System.getProperty("posekit.it.debian-image", "debian:bookworm"));
        Path cas = Path.of(System.getProperty("posekit.it.extra-ca-dir", "/usr/local/share/ca-certificates"));
        if (Files.isDirectory(cas)) {
            try (Stream<Path> files = Files.list(cas)) {
                for (Path ca : files.filter(f -> f.getFileName().toString().endsWith(".crt")).sorted().toList()) {
                    image.withFileFromPath("certs/" + ca.getFileName(), ca);
                }
            }
        }
        String imageName = image.get();
        long built = System.nanoTime();
        validator = new GenericContainer<>(imageName)
                .withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint("sleep"))
                .withCommand("infinity")
                .withStartupTimeout(Duration.ofMinutes(1));
        validator.start();
        System.out.printf(Locale.ROOT, "gltf-validator image %s built in %.1f s, container started in %.1f s%n", imageName,
                (built - start) / 1e9, (System.nanoTime() - built) / 1e9);
    }

    @AfterAll
    static void stopValidator() {
        if (validator != null) {
            validator.stop();
        }
    }

    @Test
    void generatedAssetsHaveNoErrorsAndNoWarnings() {
        Map<String, byte[]> glbs = new LinkedHashMap<>();
        Model strip = importModel(List.of(new SourceFile("strip.glb", PosedFixtures.texturedStrip().toGlb())));
        for (double t : new double[] {0, 0.5, 1.5, 2}) {
            glbs.put("strip-t" + t + ".glb", posed(strip, t));
        }
        Model multi = importModel(List.of(new SourceFile("multi.glb", PosedFixtures.multiMesh().toGlb())));
        glbs.put("multi-t0.7.glb", posed(multi, 0.7));
        glbs.put("modes.glb", GlbWriter.write(List.of(modes()), null));
        glbs.put("large.glb", GlbWriter.write(List.of(grid(280, 250)), Map.of("note", "70000 vertices")));

        Map<String, JsonNode> reports = validate(glbs);
        for (Map.Entry<String, JsonNode> e : reports.entrySet()) {
            assertThat(e.getValue().get("errors").asInt()).as("errors of %s: %s", e.getKey(), e.getValue().get("messages")).isZero();
            assertThat(e.getValue().get("warnings").asInt()).as("warnings of %s: %s", e.getKey(), e.getValue().get("messages")).isZero();
        }
        assertThat(reports.get("strip-t0.5.glb").get("info").get("hasTextures").asBoolean()).isTrue();
        assertThat(reports.get("multi-t0.7.glb").get("info").get("drawCallCount").asInt()).isEqualTo(4);
        assertThat(reports.get("large.glb").get("info").get("totalVertexCount").asInt()).isEqualTo(70_000);
    }

    @Test
    void conformanceAssetsPosedAtHalfASecondHaveNoErrors() {
        assumeTrue(ConformanceAssets.available(), "no conformance assets at " + ConformanceAssets.root());
        Map<String, byte[]> glbs = new LinkedHashMap<>();
        for (ConformanceAssets.Asset asset : ConformanceAssets.all()) {
            Model model = importModel(asset.files());
            if (!model.meshes().isEmpty()) {
                glbs.put(asset.id() + ".glb", posed(model, 0.5));
            }
        }
        assertThat(glbs).hasSizeGreaterThan(10);
        assertNoErrors(validate(glbs));
    }

    /** The animated export ({@link AnimatedGltf}) of every conformance asset, as GLB and as glTF JSON: no error. */
    @Test
    void animatedExportsOfTheConformanceAssetsHaveNoErrors() {
        assumeTrue(ConformanceAssets.available(), "no conformance assets at " + ConformanceAssets.root());
        Map<String, byte[]> files = new LinkedHashMap<>();
        for (ConformanceAssets.Asset asset : ConformanceAssets.all()) {
            AnimatedGltf export = AnimatedGltf.of(importModel(asset.files()), AnimatedGltf.Options.DEFAULT);
            files.put(asset.id() + ".glb", export.glb());
            files.put(asset.id() + ".gltf", export.gltf());
        }
        assertThat(files).hasSizeGreaterThan(40);
        assertNoErrors(validate(files));
    }

    private static void assertNoErrors(Map<String, JsonNode> reports) {
        for (Map.Entry<String, JsonNode> e : reports.entrySet()) {
            assertThat(e.getValue().get("errors").asInt()).as("errors of %s: %s", e.getKey(), e.getValue().get("messages")).isZero();
        }
    }

    private static Model importModel(List<SourceFile> files) {
        return AssetImporters.all(ImportLimits.DEFAULT).importUpload(files).model();
    }

    /** Every instance of {@code model} posed at {@code time} s into its first clip (clamped), or at rest. */
    static byte[] posed(Model model, double time) {
        Clip clip = model.clips().isEmpty() ? null : model.clips().getFirst();
        double local = clip == null ? 0 : LoopMode.CLAMP.localTime(time, clip.duration());
        Pose pose = Pose.evaluate(model.rig(), clip, local);
        return GlbWriter.write(PosedMeshes.all(model, pose.modelMatrices()), Map.of("time", time));
    }

    /** One primitive per mode, indexed and not, sharing one material. */
    private static GlbWriter.PosedMesh modes() {
        float[] ring = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, -0.5f, 0.5f, 0};
        Material grey = Material.of("Grey", new float[] {0.5f, 0.5f, 0.5f, 1}, true);
        List<Primitive> prims = new ArrayList<>();
        prims.add(prim(PrimitiveMode.POINTS, ring, null, grey));
        prims.add(prim(PrimitiveMode.LINES, ring, new int[] {0, 1, 1, 2, 2, 3}, grey));
        prims.add(prim(PrimitiveMode.LINE_LOOP, ring, null, grey));
        prims.add(prim(PrimitiveMode.LINE_STRIP, ring, new int[] {4, 3, 2, 1, 0}, grey));
        prims.add(prim(PrimitiveMode.TRIANGLES, ring, new int[] {0, 1, 2, 0, 2, 3, 0, 3, 4}, grey));
        prims.add(prim(PrimitiveMode.TRIANGLE_STRIP, ring, new int[] {0, 1, 3, 2}, grey));
        prims.add(prim(PrimitiveMode.TRIANGLE_FAN, ring, null, grey));
        return mesh("Modes", prims);
    }

    /** A w × h vertex grid of triangles with normals and UVs (indices past 65 535 when w·h is large). */
    private static GlbWriter.PosedMesh grid(int w, int h) {
        int n = w * h;
        float[] positions = new float[3 * n];
        float[] normals = new float[3 * n];
        float[] uv = new float[2 * n];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int v = y * w + x;
                positions[3 * v] = x;
                positions[3 * v + 1] = y;
                positions[3 * v + 2] = (float) Math.sin(x * 0.1) * (float) Math.cos(y * 0.1);
                normals[3 * v + 2] = 1;
                uv[2 * v] = x / (float) (w - 1);
                uv[2 * v + 1] = 1 - y / (float) (h - 1);
            }
        }
        int[] indices = new int[6 * (w - 1) * (h - 1)];
        int i = 0;
        for (int y = 0; y + 1 < h; y++) {
            for (int x = 0; x + 1 < w; x++) {
                int v = y * w + x;
                int[] quad = {v, v + 1, v + w, v + w, v + 1, v + w + 1};
                System.arraycopy(quad, 0, indices, i, 6);
                i += 6;
            }
        }
        Primitive p = new Primitive(PrimitiveMode.TRIANGLES, List.of("POSITION", "NORMAL", "TEXCOORD_0"), positions,
                normals, null, indices, 0, new int[0], new float[0], uv,
                new Material("Textured", new float[] {1, 1, 1, 1}, 0, 0.8f, new float[3], Material.AlphaMode.OPAQUE, 0.5f,
                        false, new Material.Texture(Material.Texture.PNG, PosedFixtures.png()), 0));
        return mesh("Grid", List.of(p));
    }

    private static Primitive prim(PrimitiveMode mode, float[] positions, int[] indices, Material material) {
        return new Primitive(mode, List.of("POSITION"), positions, null, null, indices, 0, new int[0], new float[0], null,
                material);
    }

    private static GlbWriter.PosedMesh mesh(String name, List<Primitive> prims) {
        return new GlbWriter.PosedMesh(name, prims,
                prims.stream().map(p -> new PosedPrimitive(p.vertexCount(), p.positions(), p.normals(), null)).toList());
    }

    /** Validates every GLB in the container; the reports by name, each printed. */
    private static Map<String, JsonNode> validate(Map<String, byte[]> glbs) {
        List<String> command = new ArrayList<>(List.of("node", "/validator/validate.js"));
        for (Map.Entry<String, byte[]> e : glbs.entrySet()) {
            if (e.getKey().endsWith(".glb")) {
                GlbFile.parse(e.getValue()); // our own container checks first
            }
            String path = "/glb/" + e.getKey();
            validator.copyFileToContainer(Transferable.of(e.getValue()), path);
            command.add(path);
        }
        Container.ExecResult result;
        try {
            result = validator.execInContainer(command.toArray(String[]::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        assertThat(result.getExitCode()).as("validator exit code; stderr: %s", result.getStderr()).isZero();
        Map<String, JsonNode> reports = new LinkedHashMap<>();
        for (String line : result.getStdout().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode report = JSON.readTree(line);
            String name = report.get("file").asString().substring("/glb/".length());
            reports.put(name, report);
            List<String> codes = new ArrayList<>();
            for (JsonNode m : report.get("messages")) {
                codes.add(severity(m.get("severity").asInt()) + " " + m.get("code").asString() + " at "
                        + m.path("pointer").asString("?") + ": " + m.get("message").asString());
            }
            System.out.printf(Locale.ROOT, "gltf-validator %s %s: %d errors, %d warnings, %d infos, %d hints%s%n",
                    report.get("validatorVersion").asString(), name, report.get("errors").asInt(),
                    report.get("warnings").asInt(), report.get("infos").asInt(), report.get("hints").asInt(),
                    codes.isEmpty() ? "" : "\n    " + String.join("\n    ", codes));
        }
        assertThat(reports.keySet()).containsExactlyElementsOf(glbs.keySet());
        return reports;
    }

    private static String severity(int s) {
        return switch (s) {
            case 0 -> "ERROR";
            case 1 -> "WARNING";
            case 2 -> "INFO";
            default -> "HINT";
        };
    }
}
