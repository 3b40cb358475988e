package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Sampling by scene time ({@code timeBase=scene}) on {@link ColladaApiTest#lateClip()}: a clip {@code late} that
 * starts at 0.25 s of the document's scene time and ends at 1 s, the tip turning 0° → 90° about its Z over it. Scene
 * time 0.75 s (frame 18 at 24 fps) is clip time 0.5 s: the tip at 60°, a rotation (0, 0, sin 30°, cos 30°).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class SceneTimeApiTest {

    private static final double SIN30 = 0.5;
    private static final double COS30 = Math.sqrt(0.75);

    @LocalServerPort
    int port;

    private PosekitClient client;
    private String base;

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        PosekitClient.Response r = client.uploadRaw(ColladaApiTest.lateClip().getBytes(StandardCharsets.UTF_8),
                "model/vnd.collada+xml", null);
        assertThat(r.status()).as(r.toString()).isIn(200, 201); // 200: the same bytes, uploaded by another test
        base = "/api/v1/assets/" + r.json().get("id").asString();
    }

    @Test
    void sceneTimeIsClipTimePlusTheClipsStart() {
        JsonNode pose = client.get(base + "/pose?clip=late&time=0.75&timeBase=scene").json();
        assertThat(pose.get("time").asDouble()).isCloseTo(0.5, within(1e-12)); // the echo is clip time
        assertThat(pose.get("localTime").asDouble()).isCloseTo(0.5, within(1e-12));
        assertRotation(pose.get("nodes").get(2).get("rotation"), 0, 0, SIN30, COS30);
        // frame 18 at 24 fps of scene time: the same instant
        JsonNode frame = client.get(base + "/pose?clip=late&frame=18&fps=24&timeBase=scene").json();
        assertRotation(frame.get("nodes").get(2).get("rotation"), 0, 0, SIN30, COS30);
        // the default counts clip time, as before: clip time 0.75 is scene time 1, the end (90°)
        JsonNode clip = client.get(base + "/pose?clip=late&time=0.75").json();
        assertRotation(clip.get("nodes").get(2).get("rotation"), 0, 0, Math.sqrt(0.5), Math.sqrt(0.5));
        assertThat(client.get(base + "/pose?clip=late&time=0.75&timeBase=clip").json().get("nodes"))
                .isEqualTo(clip.get("nodes"));
        // before the clip's start in scene time: clamped to its first key (0°), wrapped with repeat (0.2 → 0.2 + 0.75)
        assertRotation(client.get(base + "/pose?clip=late&time=0.05&timeBase=scene").json().get("nodes").get(2)
                .get("rotation"), 0, 0, 0, 1);
        JsonNode wrapped = client.get(base + "/pose?clip=late&time=0.05&timeBase=scene&loop=repeat").json();
        assertThat(wrapped.get("localTime").asDouble()).isCloseTo(0.55, within(1e-12));
        // speed multiplies the scene time before the start is subtracted: 0.375 × 2 = 0.75 → clip time 0.5
        assertRotation(client.get(base + "/pose?clip=late&time=0.375&speed=2&timeBase=scene").json().get("nodes")
                .get(2).get("rotation"), 0, 0, SIN30, COS30);
    }

    @Test
    void everySamplingRouteTakesTheSceneBase() {
        for (String route : List.of("/pose", "/pose?space=model", "/skins/0/matrices", "/meshes/0/skinned",
                "/skeleton", "/bounds", "/posed.glb", "/render.png?width=64&height=64")) {
            String sep = route.contains("?") ? "&" : "?";
            PosekitClient.Response byClip = client.get(base + route + sep + "clip=late&time=0.5");
            PosekitClient.Response byScene = client.get(base + route + sep + "clip=late&time=0.75&timeBase=scene");
            assertThat(byClip.status()).as(route + " " + byClip).isEqualTo(200);
            assertThat(byScene.status()).as(route + " " + byScene).isEqualTo(200);
            assertThat(byScene.body()).as(route).isEqualTo(byClip.body());
        }
    }

    @Test
    void thePostBodyAndBlendLayersTakeTheSceneBase() {
        PosekitClient.Response posted = client.exchange("POST", base + "/pose",
                "{\"clip\":\"late\",\"time\":0.75,\"timeBase\":\"scene\"}".getBytes(StandardCharsets.UTF_8),
                "Content-Type", "application/json");
        assertThat(posted.status()).as(posted.toString()).isEqualTo(200);
        assertRotation(posted.json().get("nodes").get(2).get("rotation"), 0, 0, SIN30, COS30);
        // a layer follows the request's scene time from its own clip's start, or has a scene time of its own
        JsonNode blend = client.get(base + "/pose?layer=clip:late&time=0.75&timeBase=scene").json();
        assertThat(blend.get("layers").get(0).get("localTime").asDouble()).isCloseTo(0.5, within(1e-12));
        assertRotation(blend.get("nodes").get(2).get("rotation"), 0, 0, SIN30, COS30);
        JsonNode own = client.get(base + "/pose?layer=clip:late;time:0.75&timeBase=scene").json();
        assertThat(own.get("layers").get(0).get("localTime").asDouble()).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void aTimeBaseThatIsNotOneOfClipAndSceneIsA400NamingIt() {
        PosekitClient.Response r = client.get(base + "/pose?clip=late&time=0.75&timeBase=frames");
        assertProblem(r, 400, "timeBase 'frames' is not one of clip, scene");
        assertThat(r.json().get("title").asString()).isEqualTo("Invalid timeBase");
        assertProblem(client.get(base + "/skins/0/matrices?clip=late&time=0.75&timeBase=Scene"), 400,
                "timeBase 'Scene' is not one of clip, scene");
        assertProblem(client.get(base + "/pose?clip=late&normalized=0.5&timeBase=scene"), 400,
                "normalized time counts clip durations; timeBase 'scene' takes time or frame");
        assertProblem(client.get(base + "/pose?layer=clip:late;normalized:0.5&timeBase=scene"), 400,
                "layer 0: normalized time counts clip durations; timeBase 'scene' takes time or frame");
        assertProblem(client.get(base + "/render.png?time=0.75&timeBase=scene"), 400,
                "timeBase 'scene' needs a clip (the rest pose has no scene time)");
        PosekitClient.Response posted = client.exchange("POST", base + "/pose",
                "{\"clip\":\"late\",\"time\":0.75,\"timeBase\":\"seconds\"}".getBytes(StandardCharsets.UTF_8),
                "Content-Type", "application/json");
        assertProblem(posted, 400, "timeBase 'seconds' is not one of clip, scene");
    }

    private static void assertRotation(JsonNode q, double x, double y, double z, double w) {
        assertThat(q.get(0).asDouble()).isCloseTo(x, within(1e-6));
        assertThat(q.get(1).asDouble()).isCloseTo(y, within(1e-6));
        assertThat(q.get(2).asDouble()).isCloseTo(z, within(1e-6));
        assertThat(q.get(3).asDouble()).isCloseTo(w, within(1e-6));
    }
}
