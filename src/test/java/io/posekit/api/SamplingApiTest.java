package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.api.body.MeshResponses;
import io.posekit.api.body.PoseResponses;
import io.posekit.asset.gltf.GltfBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sampling endpoints over real HTTP on {@link GltfBuilder#skinnedTwoBoneStrip()}: nodes Strip (mesh), Root and
 * Tip (child of Root at y=1); skin [Root, Tip] with inverse binds I and T(0,−1,0); clip Bend (2 s): Tip rotates
 * about Z by 0°, 45°, 90° at 0, 1, 2 s (LINEAR), Root translates to (0,0.5,0) at 1 s (STEP).
 *
 * <p>At t = 1.5 s: Root = T(0,0.5,0); Tip = Rz(67.5°) locally, so skinning(Root) = T(0,0.5,0) and
 * skinning(Tip) = T(0,1.5,0)·Rz(67.5°)·T(0,−1,0). Expected values below are derived by hand from that.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class SamplingApiTest {

    private static final double EPS = 1e-6;
    private static final double COS = Math.cos(Math.toRadians(67.5));
    private static final double SIN = Math.sin(Math.toRadians(67.5));

    /** Jackson as it is, without the service's float encoder. */
    private static final JsonMapper JACKSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Autowired
    JsonMapper json;

    private PosekitClient client;
    private String base;

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        base = client.uploadedAssetPath("strip.glb", GltfBuilder.skinnedTwoBoneStrip().toGlb());
    }

    @Test
    void localPoseInterpolatesEachTrackAndEchoesTheSampling() {
        JsonNode pose = client.get(base + "/pose?clip=Bend&time=1.5").json();
        assertThat(pose.get("clip").asString()).isEqualTo("Bend");
        assertThat(pose.get("time").asDouble()).isEqualTo(1.5);
        assertThat(pose.get("loop").asString()).isEqualTo("clamp");
        assertThat(pose.get("localTime").asDouble()).isEqualTo(1.5);
        assertThat(pose.get("space").asString()).isEqualTo("local");
        JsonNode nodes = pose.get("nodes");
        assertThat(nodes.get(1).get("name").asString()).isEqualTo("Root");
        assertVector(nodes.get(1).get("translation"), 0, 0.5, 0); // STEP: key 1 holds from t = 1
        assertVector(nodes.get(2).get("translation"), 0, 1, 0); // rest
        double half = Math.toRadians(67.5) / 2; // slerp halfway between 45° and 90°
        assertVector(nodes.get(2).get("rotation"), 0, 0, Math.sin(half), Math.cos(half));
        assertVector(nodes.get(2).get("scale"), 1, 1, 1);
    }

    @Test
    void modelPoseAndSkinningMatricesMatchTheHandDerivedValues() {
        JsonNode model = client.get(base + "/pose?clip=Bend&time=1.5&space=model").json();
        assertThat(model.get("space").asString()).isEqualTo("model");
        // Tip in model space: T(0,1.5,0)·Rz(67.5°)
        assertVector(model.get("nodes").get(2).get("matrix"), COS, SIN, 0, 0, -SIN, COS, 0, 0, 0, 0, 1, 0, 0, 1.5, 0, 1);

        JsonNode m = client.get(base + "/skins/0/matrices?clip=Bend&time=1.5").json();
        assertThat(m.get("skin").asInt()).isEqualTo(0);
        assertThat(m.get("joints").toString()).isEqualTo("[\"Root\",\"Tip\"]");
        assertVector(m.get("matrices").get(0), 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0.5, 0, 1);
        // T(0,1.5,0)·Rz·T(0,−1,0): translation = (0,1.5,0) + Rz·(0,−1,0) = (sin, 1.5 − cos, 0)
        assertVector(m.get("matrices").get(1), COS, SIN, 0, 0, -SIN, COS, 0, 0, 0, 0, 1, 0, SIN, 1.5 - COS, 0, 1);

        PosekitClient.Response bin = client.get(base + "/skins/0/matrices?clip=Bend&time=1.5", "application/octet-stream");
        assertThat(bin.contentType()).isEqualTo("application/octet-stream");
        assertThat(bin.headers().firstValue("Posekit-Layout")).contains("matrix:2x16");
        float[] floats = bin.floats();
        assertThat(floats).hasSize(32);
        for (int i = 0; i < 16; i++) {
            assertThat(floats[16 + i]).isEqualTo(m.get("matrices").get(1).get(i).floatValue());
        }
    }

    @Test
    void skinnedVerticesBlendTheirJoints() {
        JsonNode r = client.get(base + "/meshes/0/skinned?clip=Bend&time=1.5").json();
        assertThat(r.get("mesh").asInt()).isEqualTo(0);
        JsonNode p = r.get("primitives").get(0);
        assertThat(p.get("vertexCount").asInt()).isEqualTo(6);
        JsonNode pos = p.get("positions");
        // vertex 0 (−0.5,0,0): Root only → (−0.5,0.5,0)
        assertVertex(pos, 0, -0.5, 0.5, 0);
        // vertex 2 (−0.5,1,0): half Root (−0.5,1.5,0), half Tip (−0.5·cos, 1.5 − 0.5·sin, 0)
        assertVertex(pos, 2, (-0.5 - 0.5 * COS) / 2, (1.5 + 1.5 - 0.5 * SIN) / 2, 0);
        // vertex 4 (−0.5,2,0): Tip only → Rz·(−0.5,1,0) + (0,1.5,0)
        assertVertex(pos, 4, -0.5 * COS - SIN, -0.5 * SIN + COS + 1.5, 0);
        JsonNode normals = p.get("normals");
        for (int v = 0; v < 6; v++) {
            assertVertex(normals, v, 0, 0, 1); // rotations about Z keep +Z normals
        }

        PosekitClient.Response positionsOnly = client.get(base + "/meshes/0/skinned?clip=Bend&time=1.5&attributes=position");
        assertThat(positionsOnly.json().get("primitives").get(0).has("normals")).isFalse();

        PosekitClient.Response bin = client.get(base + "/meshes/0/skinned?clip=Bend&time=1.5", "application/octet-stream");
        assertThat(bin.headers().firstValue("Posekit-Layout")).contains("position:6x3,normal:6x3");
        float[] f = bin.floats();
        assertThat(f).hasSize(36);
        assertThat(f[12]).isEqualTo(pos.get(12).floatValue());
        assertThat(f[18 + 2]).isEqualTo(1f);
    }

    @Test
    void floatArraysGoOutExactlyAsJacksonWritesThem() {
        // the service's mapper has the float encoder, and its text is plain Jackson's for the same values
        assertThat(json.registeredModules()).anyMatch(m -> m.getModuleName().equals("posekit-float-arrays"));
        String matrices = new String(client.get(base + "/skins/0/matrices?clip=Bend&time=1.37").body(), UTF_8);
        assertThat(matrices).startsWith("{\"skin\":0,\"clip\":\"Bend\",\"time\":1.37,\"loop\":\"clamp\",\"localTime\":1.37,"
                + "\"joints\":[\"Root\",\"Tip\"],\"matrices\":[[1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.5,0.0,1.0],[");
        assertThat(matrices).isEqualTo(JACKSON.writeValueAsString(JACKSON.readValue(matrices, PoseResponses.SkinMatrices.class)));
        String skinned = new String(client.get(base + "/meshes/0/skinned?clip=Bend&time=0.61").body(), UTF_8);
        assertThat(skinned).isEqualTo(JACKSON.writeValueAsString(JACKSON.readValue(skinned, MeshResponses.Skinned.class)));
    }

    @Test
    void restPoseWithoutClipAndBindShapeGeometry() {
        JsonNode rest = client.get(base + "/meshes/0/skinned").json();
        assertThat(rest.get("clip").isNull()).isTrue();
        assertThat(rest.get("localTime").isNull()).isTrue();
        // rest pose = bind pose here: skinned positions equal the stored ones
        JsonNode geometry = client.get(base + "/meshes/0").json();
        JsonNode g = geometry.get("primitives").get(0);
        assertThat(rest.get("primitives").get(0).get("positions")).isEqualTo(g.get("positions"));
        assertThat(geometry.get("skin").asInt()).isEqualTo(0);
        assertThat(g.get("mode").asString()).isEqualTo("triangles");
        assertThat(g.get("indices").toString()).isEqualTo("[0,1,3,0,3,2,2,3,5,2,5,4]");
        assertThat(g.get("joints").toString()).isEqualTo("[[0,0,0,0,0,0,0,0,0,1,0,0,0,1,0,0,1,0,0,0,1,0,0,0]]");
        assertThat(g.get("weights").toString())
                .isEqualTo("[[1.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.5,0.5,0.0,0.0,0.5,0.5,0.0,0.0,1.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0]]");
        assertThat(g.has("tangents")).isFalse();
    }

    @Test
    void loopModesMapTimeIntoTheClip() {
        assertThat(localTime("time=3&loop=repeat")).isEqualTo(1.0);
        assertThat(localTime("time=4&loop=repeat")).isEqualTo(0.0); // t = k·d wraps to 0
        assertThat(localTime("time=-0.5&loop=repeat")).isEqualTo(1.5);
        assertThat(localTime("time=2.5&loop=pingpong")).isEqualTo(1.5);
        assertThat(localTime("time=5&loop=clamp")).isEqualTo(2.0);
        assertThat(localTime("time=-1")).isEqualTo(0.0);
        // clip by index as well as by name
        assertThat(client.get(base + "/pose?clip=0&time=1").json().get("clip").asString()).isEqualTo("Bend");
    }

    @Test
    void timeCanBeGivenAsFramesOrNormalizedAndScaledBySpeed() {
        // the Bend clip lasts 2 s
        assertThat(localTime("frame=45&fps=30")).isEqualTo(1.5);
        assertThat(localTime("frame=7.5&fps=10")).isEqualTo(0.75);
        assertThat(localTime("normalized=0.25")).isEqualTo(0.5);
        assertThat(localTime("normalized=1")).isEqualTo(2.0);
        assertThat(localTime("normalized=1.25&loop=repeat")).isEqualTo(0.5);
        assertThat(localTime("time=0.5&speed=2")).isEqualTo(1.0);
        assertThat(localTime("time=0.5&speed=-1&loop=repeat")).isEqualTo(1.5); // backwards from the end
        assertThat(localTime("frame=15&fps=30&speed=3")).isEqualTo(1.5);
        assertThat(localTime("normalized=0.5&speed=0.5")).isEqualTo(0.5);
        JsonNode echo = client.get(base + "/pose?clip=Bend&frame=15&fps=30&speed=3&loop=repeat").json();
        assertThat(echo.get("time").asDouble()).isEqualTo(1.5); // the playback time in seconds
        // same pose whichever way the instant is named
        assertThat(client.get(base + "/skins/0/matrices?clip=Bend&normalized=0.75").text())
                .isEqualTo(client.get(base + "/skins/0/matrices?clip=Bend&time=1.5").text());
        assertThat(client.get(base + "/meshes/0/skinned?clip=Bend&frame=3&fps=2", "application/octet-stream").body())
                .isEqualTo(client.get(base + "/meshes/0/skinned?clip=Bend&time=1.5", "application/octet-stream").body());
    }

    @Test
    void rejectsConflictingOrMalformedTimeUnits() {
        assertProblem(client.get(base + "/pose?clip=Bend&time=1&frame=3&fps=30"), 400,
                "give at most one of time, frame (with fps) and normalized");
        assertProblem(client.get(base + "/pose?clip=Bend&time=1&normalized=0.5"), 400,
                "give at most one of time, frame (with fps) and normalized");
        assertProblem(client.get(base + "/pose?clip=Bend&frame=3"), 400, "frame needs fps (frames per second)");
        assertProblem(client.get(base + "/pose?clip=Bend&fps=30"), 400, "fps is only meaningful with frame");
        assertProblem(client.get(base + "/pose?clip=Bend&frame=3&fps=0"), 400,
                "fps '0' is not a positive decimal number of frames per second");
        assertProblem(client.get(base + "/pose?clip=Bend&frame=3&fps=-24"), 400,
                "fps '-24' is not a positive decimal number of frames per second");
        assertProblem(client.get(base + "/pose?clip=Bend&frame=x&fps=24"), 400, "frame 'x' is not a finite decimal frame number");
        assertProblem(client.get(base + "/pose?normalized=0.5"), 400,
                "normalized time needs a clip (the rest pose has no duration)");
        assertProblem(client.get(base + "/pose?clip=Bend&normalized=NaN"), 400,
                "normalized 'NaN' is not a finite decimal number of clip durations");
        assertProblem(client.get(base + "/pose?clip=Bend&time=1&speed=fast"), 400, "speed 'fast' is not a finite decimal number");
        assertProblem(client.get(base + "/pose?clip=Bend&time=1e300&speed=1e300"), 400, "time × speed is out of range");
        assertProblem(client.get(base + "/pose?clip=Bend&frame=1e300&fps=1e-300"), 400, "frame / fps is out of range");
    }

    @Test
    void rejectsBadParametersWithProblems() {
        assertProblem(client.get(base + "/pose?clip=Jump"), 404, "clip 'Jump' does not exist; clips: 'Bend'");
        assertProblem(client.get(base + "/pose?clip=Bend&time=NaN"), 400, "time 'NaN' is not a finite decimal number of seconds");
        assertProblem(client.get(base + "/pose?clip=Bend&time=-Infinity"), 400,
                "time '-Infinity' is not a finite decimal number of seconds");
        assertProblem(client.get(base + "/pose?clip=Bend&time=1e999"), 400, "time '1e999' is out of range");
        assertProblem(client.get(base + "/pose?clip=Bend&time=0x1p3"), 400, "time '0x1p3' is not a finite decimal number of seconds");
        assertProblem(client.get(base + "/pose?loop=bounce"), 400, "loop 'bounce' is not one of clamp, repeat, pingpong");
        assertProblem(client.get(base + "/pose?space=world"), 400, "space 'world' is not one of local, model");
        assertProblem(client.get(base + "/skins/1/matrices"), 404, "skin '1' does not exist; the asset has 1 skin (0..0)");
        assertProblem(client.get(base + "/skins/x/matrices"), 404, "skin 'x' does not exist; the asset has 1 skin (0..0)");
        assertProblem(client.get(base + "/meshes/7"), 404, "mesh '7' does not exist; the asset has 1 mesh (0..0)");
        assertProblem(client.get(base + "/meshes/0/skinned?attributes=color"), 400,
                "attribute 'color' is not one of position, normal, tangent");
        // a problem even when the client only accepts binary
        PosekitClient.Response octet = client.get(base + "/skins/0/matrices?time=NaN", "application/octet-stream");
        assertProblem(octet, 400, "time 'NaN' is not a finite decimal number of seconds");
    }

    private double localTime(String query) {
        return client.get(base + "/pose?clip=Bend&" + query).json().get("localTime").asDouble();
    }

    private static void assertVector(JsonNode actual, double... expected) {
        assertThat(actual.size()).isEqualTo(expected.length);
        for (int i = 0; i < expected.length; i++) {
            assertThat(actual.get(i).asDouble()).as("component %d of %s", i, actual).isCloseTo(expected[i], within(EPS));
        }
    }

    private static void assertVertex(JsonNode flat, int v, double x, double y, double z) {
        assertThat(flat.get(3 * v).asDouble()).as("x of vertex %d", v).isCloseTo(x, within(EPS));
        assertThat(flat.get(3 * v + 1).asDouble()).as("y of vertex %d", v).isCloseTo(y, within(EPS));
        assertThat(flat.get(3 * v + 2).asDouble()).as("z of vertex %d", v).isCloseTo(z, within(EPS));
    }
}
