package io.posekit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.gltf.GltfBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Root-motion extraction, IK and foot locking over real HTTP on a walker made in code: Hips at (0, 1, 0) with a left
 * leg (LeftUpLeg 0.1 to the side, LeftLeg and LeftFoot 0.45 below each, the knee 0.1 forward) and a Head 0.6 above; clip Walk (1 s) moves
 * the hips from (0, 1, 0) to (0, 1, 2); clip Creep (2 s) moves them 0.1 forward (a slow slide of the planted foot).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class RootMotionIkApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    private PosekitClient client;
    private String base;

    static byte[] walker() {
        GltfBuilder b = new GltfBuilder();
        int hips = b.node("Hips").translation(0, 1, 0).children(1, 4).index();
        int upLeg = b.node("LeftUpLeg").translation(0.1f, 0, 0).children(2).index();
        b.node("LeftLeg").translation(0, -0.45f, 0.1f).children(3).index();
        b.node("LeftFoot").translation(0, -0.45f, -0.1f).index();
        b.node("Head").translation(0, 0.6f, 0).index();
        b.addScene("Scene", hips);
        b.defaultScene(0);
        b.animation("Walk").track(hips, "translation", "LINEAR", new float[] {0, 1}, new float[] {0, 1, 0, 0, 1, 2});
        b.animation("Creep").track(hips, "translation", "LINEAR", new float[] {0, 2},
                new float[] {0, 1, 0, 0, 1, 0.1f});
        assertThat(upLeg).isEqualTo(1);
        return b.toGlb();
    }

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        base = client.uploadedAssetPath("walker.glb", walker());
    }

    private static JsonNode node(JsonNode pose, String name) {
        for (JsonNode n : pose.get("nodes")) {
            if (name.equals(n.get("name").asString())) {
                return n;
            }
        }
        throw new AssertionError("no node " + name);
    }

    private static void assertVector(JsonNode v, double... expected) {
        assertThat(v).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            assertThat(v.get(i).asDouble()).as("component " + i + " of " + v).isCloseTo(expected[i], within(1e-5));
        }
    }

    private static void assertProblem(PosekitClient.Response r, int status, String title, String detail) {
        AssetApiTest.assertProblem(r, status, detail);
        assertThat(r.json().get("title").asString()).isEqualTo(title);
    }

    private HttpResponse<String> post(String path, String body, String accept) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + base
                + path)).header("Content-Type", "application/json").header("Accept", accept)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    @Test
    void extractionAnswersThePoseInPlaceAndTheMotionAccumulatedOverLoops() {
        JsonNode pose = client.get(base + "/pose?clip=Walk&time=2.25&loop=repeat&rootMotion=extract"
                + "&previousTime=2").json();
        assertVector(node(pose, "Hips").get("translation"), 0, 1, 0);
        JsonNode m = pose.get("rootMotion");
        assertThat(m.get("joint").asString()).isEqualTo("Hips");
        assertThat(m.get("components").toString()).isEqualTo("[\"horizontal\",\"yaw\"]");
        assertThat(m.get("loops").asLong()).isEqualTo(2);
        assertVector(m.get("translation"), 0, 0, 4.5); // two loops of 2, and a quarter of the third
        assertVector(m.get("rotation"), 0, 0, 0, 1);
        assertVector(m.get("cycleTranslation"), 0, 0, 0.5);
        assertVector(m.get("deltaTranslation"), 0, 0, 0.5); // since t = 2
        // without extraction the pose moves and nothing is echoed
        JsonNode plain = client.get(base + "/pose?clip=Walk&time=2.25&loop=repeat").json();
        assertVector(node(plain, "Hips").get("translation"), 0, 1, 0.5);
        assertThat(plain.has("rootMotion")).isFalse();
        // the skinning matrices and model poses are in place too
        JsonNode model = client.get(base + "/pose?clip=Walk&time=0.75&space=model&rootMotion=extract").json();
        JsonNode hips = node(model, "Hips").get("matrix");
        assertThat(hips.get(14).asDouble()).isCloseTo(0, within(1e-6));
        assertVector(model.get("rootMotion").get("translation"), 0, 0, 1.5);
    }

    @Test
    void badRootMotionParametersAreNamed() {
        assertProblem(client.get(base + "/pose?clip=Walk&rootMotion=yes"), 400, "Invalid rootMotion",
                "rootMotion 'yes' is not one of extract, none");
        assertProblem(client.get(base + "/pose?clip=Walk&rootMotion=extract&rootJoint=Pelvis"), 400,
                "Invalid rootJoint", "rootJoint 'Pelvis' is not a node of the asset");
        assertProblem(client.get(base + "/pose?clip=Walk&rootMotion=extract&rootComponents=sideways"), 400,
                "Invalid rootComponents", "rootComponents 'sideways' is not one of horizontal, vertical, yaw, rotation");
        assertProblem(client.get(base + "/pose?clip=Walk&rootJoint=Hips"), 400, "Invalid rootMotion",
                "rootJoint, rootComponents and previousTime need rootMotion=extract");
    }

    @Test
    void twoBoneIkInAPostBodyPutsTheFootOnTheTarget() throws Exception {
        String body = """
                {"clip": "Walk", "time": 0.5, "rootMotion": "extract",
                 "ik": [{"type": "twoBone", "start": "LeftUpLeg", "mid": "LeftLeg", "end": "LeftFoot",
                         "target": [0.2, 0.3, 0.25], "pole": [0, 0, 1]},
                        {"type": "aim", "joint": "Head", "forward": [0, 0, 1], "target": [0, 1.6, 5]},
                        {"type": "twoBone", "start": "LeftUpLeg", "mid": "LeftLeg", "end": "LeftFoot",
                         "target": [0, 9, 0]}]}
                """;
        HttpResponse<String> r = post("/pose?space=model", body, "application/json");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode pose = JSON.readTree(r.body());
        assertThat(pose.get("ik").toString()).isEqualTo("[{\"reached\":true},{\"reached\":true},{\"reached\":false}]");
        // the last chain stretches the leg straight up toward (0, 9, 0): the knee on the hip→target line
        JsonNode foot = node(pose, "LeftFoot").get("matrix");
        JsonNode hip = node(pose, "LeftUpLeg").get("matrix");
        double dx = foot.get(12).asDouble() - hip.get(12).asDouble();
        double dy = foot.get(13).asDouble() - hip.get(13).asDouble();
        double dz = foot.get(14).asDouble() - hip.get(14).asDouble();
        double len = Math.sqrt(dx * dx + dy * dy + dz * dz);
        assertThat(len).isCloseTo(Math.sqrt(0.45 * 0.45 + 0.1 * 0.1) * 2, within(1e-4));
        // only the first two chains: the foot on the target (in place: hips at z = 0)
        String two = body.replace("""
                ,
                        {"type": "twoBone", "start": "LeftUpLeg", "mid": "LeftLeg", "end": "LeftFoot",
                         "target": [0, 9, 0]}""", "");
        JsonNode reached = JSON.readTree(post("/pose?space=model", two, "application/json").body());
        assertVector(slice(node(reached, "LeftFoot").get("matrix"), 12, 3), 0.2, 0.3, 0.25);
        // the head's forward (its z column) points at the target from the head
        JsonNode head = node(reached, "Head").get("matrix");
        double fx = head.get(8).asDouble(), fy = head.get(9).asDouble(), fz = head.get(10).asDouble();
        double tx = 0 - head.get(12).asDouble(), ty = 1.6 - head.get(13).asDouble(), tz = 5 - head.get(14).asDouble();
        double cos = (fx * tx + fy * ty + fz * tz) / Math.sqrt((fx * fx + fy * fy + fz * fz) * (tx * tx + ty * ty + tz * tz));
        assertThat(Math.acos(Math.min(1, cos))).isLessThan(1e-5);
    }

    @Test
    void badIkChainsAreNamed() throws Exception {
        HttpResponse<String> r = post("/pose", """
                {"clip": "Walk", "ik": [{"type": "twoBone", "start": "LeftLeg", "mid": "LeftUpLeg", "end": "LeftFoot",
                  "target": [0, 0, 0]}]}""", "application/json");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(r.body()).get("detail").asString()).isEqualTo("ik[0]: the end joint must be below the"
                + " mid joint and the mid joint below the start joint");
        r = post("/pose", """
                {"clip": "Walk", "ik": [{"type": "aim", "joint": "Nose", "target": [0, 0, 0]}]}""", "application/json");
        assertThat(JSON.readTree(r.body()).get("detail").asString()).isEqualTo("ik[0]: joint 'Nose' is not a node of the"
                + " asset");
        r = post("/pose", """
                {"clip": "Walk", "ik": [{"type": "reach", "target": [0, 0, 0]}]}""", "application/json");
        assertThat(JSON.readTree(r.body()).get("detail").asString()).isEqualTo("ik[0]: type 'reach' is not one of"
                + " twoBone, aim");
    }

    @Test
    void bakeStreamsTheRootMotionAsItsOwnOutput() throws Exception {
        HttpResponse<String> r = post("/bake", """
                {"clip": "Walk", "loop": "repeat", "times": {"start": 0, "end": 3, "fps": 4}, "rootMotion": "extract",
                 "outputs": ["localPose", "rootMotion"]}""", "application/x-ndjson");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        String[] lines = r.body().split("\n");
        assertThat(lines).hasSize(13);
        for (int f = 0; f < lines.length; f++) {
            JsonNode frame = JSON.readTree(lines[f]);
            assertVector(slice(frame.get("localPose").get("translations"), 0, 3), 0, 1, 0);
            JsonNode m = frame.get("rootMotion");
            assertVector(m.get("translation"), 0, 0, 2 * f / 4.0);
            assertVector(m.get("deltaTranslation"), 0, 0, f == 0 ? 0 : 0.5);
            assertVector(m.get("rotation"), 0, 0, 0, 1);
        }
        HttpResponse<String> bad = post("/bake", """
                {"clip": "Walk", "times": [0], "outputs": ["rootMotion"]}""", "application/x-ndjson");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(bad.body()).get("detail").asString())
                .isEqualTo("the rootMotion output needs \"rootMotion\": \"extract\"");
    }

    @Test
    void footLockingPinsAPlantedFootThatWouldSlide() throws Exception {
        String body = """
                {"clip": "Creep", "times": {"start": 0, "end": 2, "fps": 10}, "outputs": ["modelPose"]%s}""";
        double[] before = footZ(post("/bake", body.formatted(""), "application/x-ndjson").body());
        double[] after = footZ(post("/bake", body.formatted(", \"footLock\": true"), "application/x-ndjson").body());
        assertThat(before[before.length - 1] - before[0]).isCloseTo(0.1, within(1e-5)); // the foot slides with the hips
        for (double z : after) {
            assertThat(z).isCloseTo(after[0], within(5e-5)); // planted all along: pinned (to float IK precision)
        }
        HttpResponse<String> none = post("/bake", body.formatted(", \"footLock\": {\"legs\": [{\"start\": \"Head\","
                + " \"mid\": \"Hips\", \"end\": \"LeftFoot\"}]}"), "application/x-ndjson");
        assertThat(none.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(none.body()).get("detail").asString()).isEqualTo("footLock: the end joint must be"
                + " below the mid joint and the mid joint below the start joint");
    }

    /** The left foot's model z in every frame of an NDJSON bake of modelPose (node 3). */
    private static double[] footZ(String ndjson) {
        String[] lines = ndjson.split("\n");
        double[] z = new double[lines.length];
        for (int f = 0; f < lines.length; f++) {
            z[f] = JSON.readTree(lines[f]).get("modelPose").get(16 * 3 + 14).asDouble();
        }
        return z;
    }

    private static JsonNode slice(JsonNode array, int from, int count) {
        var out = JSON.createArrayNode();
        for (int i = from; i < from + count; i++) {
            out.add(array.get(i));
        }
        return out;
    }
}
