package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.gltf.GltfBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Skeleton lines and bounds over real HTTP on {@link GltfBuilder#skinnedTwoBoneStrip()} (see
 * {@link SamplingApiTest}): the strip spans x ∈ [−0.5, 0.5], y ∈ [0, 2] at rest; Root at the origin, Tip at (0,1,0).
 * In clip Bend (2 s) Tip turns about Z at 45°/s and Root jumps to (0,0.5,0) at 1 s.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class ShapeApiTest {

    private static final double EPS = 1e-6;

    @LocalServerPort
    int port;

    private PosekitClient client;
    private String base;

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        base = client.uploadedAssetPath("strip.glb", GltfBuilder.skinnedTwoBoneStrip().toGlb());
    }

    @Test
    void skeletonLinesJoinEachJointToItsParent() {
        JsonNode rest = client.get(base + "/skeleton").json();
        assertThat(rest.get("nodes").asString()).isEqualTo("joints");
        assertThat(rest.get("joints")).hasSize(2);
        assertThat(rest.get("joints").get(0).get("name").asString()).isEqualTo("Root");
        assertThat(rest.get("joints").get(0).get("parent").asInt()).isEqualTo(-1);
        assertThat(rest.get("joints").get(1).get("name").asString()).isEqualTo("Tip");
        assertThat(rest.get("joints").get(1).get("parent").asInt()).isEqualTo(0);
        assertVector(rest.get("joints").get(1).get("position"), 0, 1, 0);
        assertThat(rest.get("segments").toString()).isEqualTo("[[0,1]]");
        assertVector(rest.get("lines"), 0, 0, 0, 0, 1, 0);

        JsonNode bent = client.get(base + "/skeleton?clip=Bend&time=1.5").json();
        assertThat(bent.get("localTime").asDouble()).isEqualTo(1.5);
        assertVector(bent.get("lines"), 0, 0.5, 0, 0, 1.5, 0);

        // every node: Strip (mesh node, a root of its own) has no segment
        JsonNode all = client.get(base + "/skeleton?nodes=all").json();
        assertThat(all.get("joints").findValuesAsString("name")).containsExactlyInAnyOrder("Strip", "Root", "Tip");
        assertThat(all.get("segments")).hasSize(1);
        assertProblem(client.get(base + "/skeleton?nodes=bones"), 400, "nodes 'bones' is not one of joints, all");
    }

    @Test
    void boundsAtATime() {
        JsonNode rest = client.get(base + "/bounds").json();
        assertThat(rest.get("over").asString()).isEqualTo("time");
        assertThat(rest.get("samples").asInt()).isEqualTo(1);
        JsonNode asset = rest.get("asset");
        assertVector(asset.get("min"), -0.5, 0, 0);
        assertVector(asset.get("max"), 0.5, 2, 0);
        assertVector(asset.get("center"), 0, 1, 0);
        assertThat(asset.get("radius").asDouble()).isCloseTo(Math.sqrt(1.25), within(EPS));
        assertThat(rest.get("meshes").get(0).get("bounds")).isEqualTo(asset);
        assertThat(rest.get("meshes").get(0).get("name").asString()).isEqualTo("Strip");
        JsonNode skeleton = rest.get("skeleton");
        assertVector(skeleton.get("min"), 0, 0, 0);
        assertVector(skeleton.get("max"), 0, 1, 0);
        assertThat(skeleton.get("radius").asDouble()).isCloseTo(0.5, within(EPS));

        // at 2 s: Root at (0,0.5,0), Tip at (0,1.5,0) turned 90°: its vertices (±0.5,1) relative go to (−1, ±0.5)
        JsonNode end = client.get(base + "/bounds?clip=Bend&time=2").json().get("asset");
        assertVector(end.get("min"), -1, 0.5, 0);
        assertVector(end.get("max"), 0.5, 2, 0);
    }

    @Test
    void boundsOverAClipUnionEverySampledTime() {
        JsonNode r = client.get(base + "/bounds?clip=Bend&over=clip").json();
        assertThat(r.get("over").asString()).isEqualTo("clip");
        assertThat(r.get("time").isNull()).isTrue();
        assertThat(r.get("samples").asInt()).isEqualTo(121); // 60 Hz over 2 s, both ends; key times 0, 1, 2 on the grid
        JsonNode box = r.get("asset");
        // highest y at t = 1 s (a key time): Root (0,0.5,0) + Tip (0,1,0) + Rz(45°)·(0.5,1,0)
        assertThat(box.get("max").get(1).asDouble()).isCloseTo(1.5 + 0.75 * Math.sqrt(2), within(EPS));
        assertThat(box.get("max").get(0).asDouble()).isCloseTo(0.5, within(EPS));
        // leftmost: Rz(θ)·(−0.5,1) has x = −(0.5 cosθ + sinθ), least −√1.25 at tanθ = 2 (63.43°), between grid times
        double leftmost = box.get("min").get(0).asDouble();
        assertThat(leftmost).isGreaterThanOrEqualTo(-Math.sqrt(1.25) - EPS).isCloseTo(-Math.sqrt(1.25), within(1e-4));
        assertThat(box.get("min").get(1).asDouble()).isCloseTo(0, within(EPS));

        // the sphere contains every vertex at every sampled time, and is no larger than the box's half-diagonal
        double[] c = {box.get("center").get(0).asDouble(), box.get("center").get(1).asDouble(), box.get("center").get(2).asDouble()};
        double radius = box.get("radius").asDouble();
        double farthest = 0;
        for (int f = 0; f <= 120; f++) {
            JsonNode p = client.get(base + "/meshes/0/skinned?clip=Bend&time=" + (f / 60.0) + "&attributes=position")
                    .json().get("primitives").get(0).get("positions");
            for (int v = 0; v < p.size(); v += 3) {
                double dx = p.get(v).asDouble() - c[0], dy = p.get(v + 1).asDouble() - c[1], dz = p.get(v + 2).asDouble() - c[2];
                farthest = Math.max(farthest, Math.sqrt(dx * dx + dy * dy + dz * dz));
            }
        }
        assertThat(radius).isCloseTo(farthest, within(1e-5));
    }

    @Test
    void rejectsOverClipWithoutAClipOrWithATime() {
        assertProblem(client.get(base + "/bounds?over=clip"), 400, "over=clip needs a clip");
        assertProblem(client.get(base + "/bounds?clip=Bend&over=clip&time=1"), 400,
                "over=clip bounds the whole clip; give no time, frame, fps, normalized or speed");
        assertProblem(client.get(base + "/bounds?over=forever"), 400, "over 'forever' is not one of time, clip");
        assertProblem(client.get(base + "/bounds?clip=Run"), 404, "clip 'Run' does not exist; clips: 'Bend'");
    }

    private static void assertVector(JsonNode actual, double... expected) {
        assertThat(actual).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            assertThat(actual.get(i).asDouble()).as("component " + i).isCloseTo(expected[i], within(EPS));
        }
    }
}
