package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.gltf.GltfBuilder;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Baking over real HTTP on {@link GltfBuilder#skinnedTwoBoneStrip()}: every frame of a bake equals what the single
 * sampling endpoints answer for the same time, in NDJSON and in the binary layout, whose header describes it exactly.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"posekit.store.dir=target/test-stores/${random.uuid}", "posekit.bake.max-frames=20000"})
class BakeApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    private PosekitClient client;
    private String base;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        PosekitClient.Response r = client.upload("strip.glb", GltfBuilder.skinnedTwoBoneStrip().toGlb());
        base = "/api/v1/assets/" + r.json().get("id").asString();
    }

    private HttpResponse<byte[]> bake(String body, String accept) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + base + "/bake"))
                .header("Content-Type", "application/json").header("Accept", accept)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private PosekitClient.Response problem(String body) throws Exception {
        HttpResponse<byte[]> r = bake(body, "application/x-ndjson");
        return new PosekitClient.Response(r.statusCode(), r.headers(), r.body());
    }

    private static float[] floats(JsonNode array) {
        float[] out = new float[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).floatValue();
        }
        return out;
    }

    private float[] matricesAt(double t) {
        JsonNode m = client.get(base + "/skins/0/matrices?clip=Bend&time=" + t).json().get("matrices");
        float[] out = new float[16 * m.size()];
        for (int k = 0; k < m.size(); k++) {
            System.arraycopy(floats(m.get(k)), 0, out, 16 * k, 16);
        }
        return out;
    }

    @Test
    void ndjsonHasOneLinePerFrameEqualToSampling() throws Exception {
        HttpResponse<byte[]> r = bake("""
                {"clip": "Bend", "times": {"start": 0, "end": 2, "fps": 2},
                 "outputs": ["localPose", "modelPose", "skinningMatrices", "skinnedPositions", "skinnedNormals", "bounds"]}
                """, "application/x-ndjson");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/x-ndjson"));
        assertThat(r.headers().firstValue("Posekit-Frames")).contains("5");
        List<String> lines = new String(r.body(), StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(5);
        double[] times = {0, 0.5, 1, 1.5, 2};
        for (int f = 0; f < 5; f++) {
            JsonNode frame = JSON.readTree(lines.get(f));
            assertThat(frame.get("frame").asInt()).isEqualTo(f);
            assertThat(frame.get("time").asDouble()).isEqualTo(times[f]);
            assertThat(frame.get("localTime").asDouble()).isEqualTo(times[f]);
            assertThat(floats(frame.get("skinningMatrices").get(0).get("values"))).containsExactly(matricesAt(times[f]));
            JsonNode pose = client.get(base + "/pose?clip=Bend&time=" + times[f]).json().get("nodes");
            for (int n = 0; n < pose.size(); n++) {
                assertThat(Arrays.copyOfRange(floats(frame.get("localPose").get("rotations")), 4 * n, 4 * n + 4))
                        .containsExactly(floats(pose.get(n).get("rotation")));
            }
            JsonNode skinned = client.get(base + "/meshes/0/skinned?clip=Bend&time=" + times[f]).json()
                    .get("primitives").get(0);
            JsonNode positions = frame.get("skinnedPositions").get(0);
            assertThat(positions.get("mesh").asInt()).isZero();
            assertThat(floats(positions.get("values"))).containsExactly(floats(skinned.get("positions")));
            assertThat(floats(frame.get("skinnedNormals").get(0).get("values"))).containsExactly(floats(skinned.get("normals")));
            JsonNode bounds = client.get(base + "/bounds?clip=Bend&time=" + times[f]).json().get("asset");
            assertThat(floats(frame.get("bounds").get("max"))).containsExactly(floats(bounds.get("max")));
            assertThat(frame.get("bounds").get("radius").floatValue()).isEqualTo(bounds.get("radius").floatValue());
        }
    }

    @Test
    void binaryIsSelfDescribingAndMatchesSampling() throws Exception {
        HttpResponse<byte[]> r = bake("""
                {"clip": "Bend", "times": [0.25, 1.5, 3.5], "loop": "repeat", "matrixLayout": "mat3x4",
                 "outputs": ["skinningMatrices", "skinnedPositions"]}
                """, "application/octet-stream");
        assertThat(r.statusCode()).isEqualTo(200);
        byte[] body = r.body();
        assertThat(r.headers().firstValueAsLong("Content-Length")).hasValue(body.length);
        ByteBuffer buf = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(new String(body, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("PKBK");
        assertThat(buf.getInt(4)).isEqualTo(1);
        int headerLength = buf.getInt(8);
        assertThat(headerLength % 4).isZero();
        JsonNode header = JSON.readTree(new String(body, 12, headerLength, StandardCharsets.UTF_8).strip());
        assertThat(header.get("frames").asInt()).isEqualTo(3);
        assertThat(header.get("matrixLayout").asString()).isEqualTo("mat3x4");
        JsonNode blocks = header.get("blocks");
        assertThat(blocks.toString()).isEqualTo("[{\"output\":\"skinningMatrices\",\"skin\":0,\"count\":2,\"components\":12,"
                + "\"offset\":0},{\"output\":\"skinnedPositions\",\"mesh\":0,\"primitive\":0,\"count\":6,\"components\":3,"
                + "\"offset\":24}]");
        int frameFloats = header.get("frameFloats").asInt();
        assertThat(frameFloats).isEqualTo(24 + 18);
        long timesOffset = header.get("timesOffset").asLong();
        long dataOffset = header.get("dataOffset").asLong();
        assertThat(timesOffset).isEqualTo(12 + headerLength);
        assertThat(dataOffset).isEqualTo(timesOffset + 4 * 3);
        assertThat(body.length).isEqualTo(dataOffset + 4L * 3 * frameFloats);
        double[] times = {0.25, 1.5, 3.5};
        for (int f = 0; f < 3; f++) {
            assertThat(buf.getFloat((int) timesOffset + 4 * f)).isEqualTo((float) times[f]);
            float[] mat4 = matricesAt(times[f] % 2); // repeat: 3.5 s → 1.5 s
            for (int k = 0; k < 2; k++) {
                for (int row = 0; row < 3; row++) {
                    for (int col = 0; col < 4; col++) {
                        int at = (int) dataOffset + 4 * (f * frameFloats + 12 * k + 4 * row + col);
                        assertThat(buf.getFloat(at)).as("frame %d joint %d row %d col %d", f, k, row, col)
                                .isEqualTo(mat4[16 * k + 4 * col + row]);
                    }
                }
            }
            float[] skinned = client.get(base + "/meshes/0/skinned?clip=Bend&attributes=position&time=" + (times[f] % 2),
                    "application/octet-stream").floats();
            for (int v = 0; v < 18; v++) {
                assertThat(buf.getFloat((int) dataOffset + 4 * (f * frameFloats + 24 + v))).isEqualTo(skinned[v]);
            }
        }
    }

    @Test
    void frameRangesIncludeBothEndsAndSpeedScalesTime() throws Exception {
        assertThat(ndjsonTimes("{\"clip\":\"Bend\",\"times\":{\"start\":0,\"end\":1,\"fps\":2.5},\"outputs\":[\"modelPose\"]}"))
                .containsExactly(0, 0.4, 0.8, 1);
        assertThat(ndjsonTimes("{\"clip\":\"Bend\",\"times\":{\"start\":0.5,\"end\":0.5,\"fps\":30},\"outputs\":[\"modelPose\"]}"))
                .containsExactly(0.5);
        assertThat(ndjsonTimes("{\"clip\":\"Bend\",\"times\":[1],\"speed\":-0.5,\"loop\":\"repeat\",\"outputs\":[\"modelPose\"]}"))
                .containsExactly(-0.5);
        HttpResponse<byte[]> rest = bake("{\"times\":[0],\"outputs\":[\"localPose\"]}", "application/x-ndjson");
        assertThat(JSON.readTree(rest.body()).has("localTime")).isFalse(); // the rest pose has no clip time
    }

    private double[] ndjsonTimes(String body) throws Exception {
        HttpResponse<byte[]> r = bake(body, "application/x-ndjson");
        assertThat(r.statusCode()).as(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        return new String(r.body(), StandardCharsets.UTF_8).lines().mapToDouble(l -> JSON.readTree(l).get("time").asDouble())
                .toArray();
    }

    @Test
    void tenThousandFramesStreamInOrder() throws Exception {
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + base + "/bake"))
                .header("Content-Type", "application/json").header("Accept", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"clip\":\"Bend\",\"times\":{\"start\":0,\"end\":9999,\"fps\":1},\"loop\":\"repeat\","
                                + "\"outputs\":[\"localPose\",\"skinningMatrices\"]}")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.statusCode()).isEqualTo(200);
        try (InputStream in = r.body()) {
            byte[] head = in.readNBytes(12);
            int headerLength = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).getInt(8);
            JsonNode header = JSON.readTree(new String(in.readNBytes(headerLength), StandardCharsets.UTF_8).strip());
            assertThat(header.get("frames").asInt()).isEqualTo(10_000);
            long rest = in.transferTo(java.io.OutputStream.nullOutputStream());
            assertThat(rest).isEqualTo(4L * 10_000 * (1 + header.get("frameFloats").asInt()));
        }
    }

    @Test
    void rejectsWhatCannotBeBakedBeforeStreaming() throws Exception {
        assertProblem(problem("{\"clip\":\"Bend\",\"outputs\":[\"modelPose\"]}"), 400,
                "times is required: a list of seconds, or {start, end, fps}");
        assertProblem(problem("{\"clip\":\"Bend\",\"times\":[0]}"), 400,
                "outputs is required: any of localPose, modelPose, skinningMatrices, skinningDualQuaternions, skinnedPositions,"
                        + " skinnedNormals, bounds, rootMotion");
        assertProblem(problem("{\"clip\":\"Bend\",\"times\":[0],\"outputs\":[\"pose\"]}"), 400,
                "outputs[0] \"pose\" is not one of localPose, modelPose, skinningMatrices, skinningDualQuaternions,"
                        + " skinnedPositions, skinnedNormals, bounds, rootMotion");
        assertProblem(problem("{\"clip\":\"Bend\",\"times\":[0],\"outputs\":[\"bounds\",\"bounds\"]}"), 400,
                "outputs lists bounds twice");
        assertProblem(problem("{\"clip\":\"Bend\",\"times\":[0,\"x\"],\"outputs\":[\"bounds\"]}"), 400,
                "times[1] must be a finite number, not \"x\"");
        assertProblem(problem("{\"clip\":\"Bend\",\"times\":{\"end\":1,\"fps\":0},\"outputs\":[\"bounds\"]}"), 400,
                "times.fps must be positive, not 0");
        assertProblem(problem("{\"clip\":\"Bend\",\"times\":{\"start\":2,\"end\":1,\"fps\":30},\"outputs\":[\"bounds\"]}"), 400,
                "times.end (1.0) is before times.start (2.0)");
        assertProblem(problem("{\"clip\":\"Bend\",\"times\":{\"start\":0,\"end\":1000,\"fps\":30},\"outputs\":[\"bounds\"]}"),
                400, "the bake has 30001 frames; the limit is 20000 (posekit.bake.max-frames)");
        assertProblem(problem("{\"clip\":\"Bend\",\"times\":[0],\"outputs\":[\"skinningMatrices\"],\"skins\":[3]}"), 404,
                "skins[0]: skin 3 does not exist; the asset has 1 skins (0..0)");
        assertProblem(problem("{\"clip\":\"Bend\",\"times\":[0],\"outputs\":[\"skinningMatrices\"],\"skins\":[]}"), 400,
                "skinningMatrices needs a skin; skins selects none");
        assertProblem(problem("{\"clip\":\"Bend\",\"times\":[0],\"outputs\":[\"modelPose\"],\"matrixLayout\":\"mat3\"}"), 400,
                "matrixLayout 'mat3' is not one of mat4, mat3x4");
        assertProblem(problem("{\"clip\":\"Bend\",\"times\":[0],\"outputs\":[\"modelPose\"],\"fps\":30}"), 400,
                "unknown field 'fps'; fields: clip, layers, threshold, times, timeUnit, loop, speed, outputs, matrixLayout,"
                        + " skinning, skins, meshes, rootMotion, rootJoint, rootComponents, ik, footLock");
        assertProblem(problem("{\"clip\":\"Run\",\"times\":[0],\"outputs\":[\"modelPose\"]}"), 404,
                "clip 'Run' does not exist; clips: 'Bend'");
        assertProblem(problem("[1,2]"), 400, "the body must be a JSON object");
        assertThat(problem("{not json").status()).isEqualTo(400);
    }
}
