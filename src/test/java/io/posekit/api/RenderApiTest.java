package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.export.PosedFixtures;
import io.posekit.render.Camera;
import io.posekit.render.PosedScene;
import io.posekit.render.Rasteriser;
import io.posekit.render.RenderPool;
import io.posekit.render.RgbaImage;
import io.posekit.render.View;
import io.posekit.sampling.MorphWeights;
import io.posekit.sampling.Pose;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CompletableFuture;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * {@code render.png}, {@code preview.gif} and {@code frames.png} over real HTTP on {@link PosedFixtures#multiMesh()}
 * (the textured skinned strip, points, a triangle without normals; clip Bend of 2 s), with one render thread and no
 * waiting slot, so the capacity test can fill the pool. Every picture is compared pixel for pixel with the core
 * renderer's, drawn here with the camera the answer reports.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "posekit.store.dir=target/test-stores/${random.uuid}", "posekit.render.threads=1", "posekit.render.queue=0"})
class RenderApiTest {

    @LocalServerPort
    int port;

    @Autowired
    RenderPool pool;

    private PosekitClient client;
    private String base;
    private Model model;

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        byte[] glb = PosedFixtures.multiMesh().toGlb();
        base = client.uploadedAssetPath("multi.glb", glb);
        model = AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile("multi.glb", glb))).model();
    }

    @Test
    void renderPngIsTheCoreRendererOfThePoseFramedFromTheClip() throws IOException {
        PosekitClient.Response r = client.get(base + "/render.png?clip=Bend&time=1.5&width=96&height=64&view=front");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.contentType()).isEqualTo("image/png");
        Camera camera = camera(r);
        float[][] box = PosedScene.clipBox(model, model.clips().getFirst());
        Camera expectedCamera = Camera.framing(box[0], box[1], View.FRONT, 40, 96 / 64.0, 0.9);
        assertThat(camera.eye()).containsExactly(expectedCamera.eye());
        assertThat(camera.near()).isEqualTo(expectedCamera.near());
        assertThat(camera.far()).isEqualTo(expectedCamera.far());
        Pose pose = Pose.evaluate(model.rig(), model.clips().getFirst(), 1.5);
        RgbaImage expected = new Rasteriser().render(PosedScene.surfaces(model, pose.modelMatrices(),
                MorphWeights.evaluate(model.meshes(), model.clips().getFirst(), 1.5)), expectedCamera, 96, 64, 0);
        BufferedImage png = ImageIO.read(new ByteArrayInputStream(r.body()));
        assertSame(png, expected);
        int drawn = 0;
        for (int i = 3; i < expected.rgba().length; i += 4) {
            drawn += expected.rgba()[i] != 0 ? 1 : 0;
        }
        assertThat(drawn).as("pixels drawn").isGreaterThan(96 * 64 / 20);
        assertThat(expected.argb(0, 0)).isZero();
    }

    @Test
    void aSolidBackgroundAndTheRestPose() throws IOException {
        PosekitClient.Response r = client.get(base + "/render.png?width=40&height=30&background=%23102030");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        BufferedImage png = ImageIO.read(new ByteArrayInputStream(r.body()));
        assertThat(png.getWidth()).isEqualTo(40);
        assertThat(png.getHeight()).isEqualTo(30);
        assertThat(png.getColorModel().hasAlpha()).isFalse();
        assertThat(png.getRGB(0, 0)).isEqualTo(0xFF102030);
        float[][] box = PosedScene.poseBox(model, Pose.evaluate(model.rig(), null, 0).modelMatrices(), null);
        Camera camera = Camera.framing(box[0], box[1], View.THREE_QUARTER, 40, 40 / 30.0, 0.9);
        assertThat(camera(r).eye()).containsExactly(camera.eye());
        assertSame(png, new Rasteriser().render(PosedScene.surfaces(model,
                Pose.evaluate(model.rig(), null, 0).modelMatrices(), null), camera, 40, 30, 0xFF102030));
    }

    @Test
    void badPictureParametersAre400NamingTheParameter() {
        assertProblem(client.get(base + "/render.png?width=4096"), 400, "width 4096 is not within 1..2048 pixels");
        assertProblem(client.get(base + "/render.png?height=0"), 400, "height 0 is not within 1..2048 pixels");
        assertProblem(client.get(base + "/render.png?width=wide"), 400, "width 'wide' is not a whole number of pixels");
        assertProblem(client.get(base + "/render.png?view=below"), 400, "view 'below' is not one of front, side,"
                + " three-quarter, top or <yaw>,<pitch> in degrees (pitch within -90..90)");
        assertProblem(client.get(base + "/render.png?view=10,95"), 400, "view '10,95' is not one of front, side,"
                + " three-quarter, top or <yaw>,<pitch> in degrees (pitch within -90..90)");
        assertProblem(client.get(base + "/render.png?background=red"), 400, "background 'red' is not transparent or an"
                + " sRGB colour rrggbb (e.g. ffffff or #1d2129)");
        assertProblem(client.get(base + "/preview.gif?clip=Bend&fps=0"), 400, "fps '0' is not a number of frames per"
                + " second above 0 and at most 60");
        assertProblem(client.get(base + "/preview.gif?clip=Bend&fps=60&width=2048&height=2048"), 400, "the clip at fps"
                + " 60 has 120 frames of 2048×2048; at most 600 frames and 16777216 pixels in all: lower fps, width or"
                + " height");
        assertProblem(client.get(base + "/frames.png?clip=Bend&columns=0"), 400, "columns '0' is not a whole number ≥ 1");
        assertProblem(client.get(base + "/render.png?clip=Nope"), 404, null);
    }

    @Test
    void previewGifPlaysTheClipOnceWithOneCamera() throws IOException {
        PosekitClient.Response r = client.get(base + "/preview.gif?clip=Bend&fps=4&width=48&height=32&view=side");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.contentType()).isEqualTo("image/gif");
        assertThat(r.headers().firstValue("Posekit-Frames")).contains("8");
        assertThat(r.headers().firstValue("Posekit-Frame-Size")).contains("48x32");
        assertThat(r.headers().firstValue("Posekit-Frame-Times")).contains("0,0.25,0.5,0.75,1,1.25,1.5,1.75");
        float[][] box = PosedScene.clipBox(model, model.clips().getFirst());
        assertThat(camera(r).eye()).containsExactly(Camera.framing(box[0], box[1], View.SIDE, 40, 1.5, 0.9).eye());
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(r.body()))) {
            ImageReader reader = ImageIO.getImageReadersByFormatName("gif").next();
            reader.setInput(in);
            assertThat(reader.getNumImages(true)).isEqualTo(8);
            assertThat(reader.getWidth(0)).isEqualTo(48);
        }
    }

    @Test
    void framesPngIsASpriteSheetOfTheSameFrames() throws IOException {
        PosekitClient.Response r = client.get(base + "/frames.png?clip=Bend&fps=2.5&width=30&height=20&columns=2");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.headers().firstValue("Posekit-Frames")).contains("5");
        assertThat(r.headers().firstValue("Posekit-Grid")).contains("2x3");
        assertThat(r.headers().firstValue("Posekit-Frame-Times")).contains("0,0.4,0.8,1.2,1.6");
        BufferedImage sheet = ImageIO.read(new ByteArrayInputStream(r.body()));
        assertThat(sheet.getWidth()).isEqualTo(60);
        assertThat(sheet.getHeight()).isEqualTo(60);
        Camera camera = camera(r);
        // frame 3 (t = 1.2 s) sits in column 1, row 1
        Pose pose = Pose.evaluate(model.rig(), model.clips().getFirst(), 1.2);
        RgbaImage frame = new Rasteriser().render(PosedScene.surfaces(model, pose.modelMatrices(),
                MorphWeights.evaluate(model.meshes(), model.clips().getFirst(), 1.2)), camera, 30, 20, 0);
        assertSame(sheet.getSubimage(30, 20, 30, 20), frame);
        // the last cell of the grid is empty
        for (int y = 40; y < 60; y++) {
            for (int x = 30; x < 60; x++) {
                assertThat(sheet.getRGB(x, y)).isZero();
            }
        }
    }

    @Test
    void aFullRenderPoolAnswers503WithRetryAfter() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Object> blocker = CompletableFuture.supplyAsync(() -> pool.run(r -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }));
        try {
            started.await();
            PosekitClient.Response refused = client.get(base + "/render.png");
            assertProblem(refused, 503, "every one of the 1 render threads is busy and the 0 waiting slots are taken;"
                    + " try again later");
            assertThat(refused.headers().firstValue("Retry-After")).contains("1");
            // sampling does not wait for rendering
            assertThat(client.get(base + "/pose?clip=Bend&time=1").status()).isEqualTo(200);
        } finally {
            release.countDown();
            blocker.get();
        }
        assertThat(client.get(base + "/render.png?width=8&height=8").status()).isEqualTo(200);
    }

    private static Camera camera(PosekitClient.Response r) {
        JsonNode c = tools.jackson.databind.json.JsonMapper.builder().build()
                .readTree(r.headers().firstValue("Posekit-Camera").orElseThrow());
        return new Camera(vector(c.get("eye")), vector(c.get("target")), vector(c.get("up")), c.get("fovY").asDouble(),
                c.get("aspect").asDouble(), c.get("near").asDouble(), c.get("far").asDouble());
    }

    private static double[] vector(JsonNode n) {
        return new double[] {n.get(0).asDouble(), n.get(1).asDouble(), n.get(2).asDouble()};
    }

    private static void assertSame(BufferedImage png, RgbaImage expected) {
        assertThat(png.getWidth()).isEqualTo(expected.width());
        assertThat(png.getHeight()).isEqualTo(expected.height());
        for (int y = 0; y < expected.height(); y++) {
            for (int x = 0; x < expected.width(); x++) {
                int e = expected.argb(x, y);
                int a = png.getRGB(x, y);
                assertThat(a >>> 24 == 0 ? 0 : a).as("pixel %d,%d", x, y).isEqualTo(e >>> 24 == 0 ? 0 : e);
            }
        }
    }
}
