package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.api.PosekitClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every sampling feature beyond one clip works for every imported format, on every real conformance asset: a bake
 * frame equals the single-sample endpoints at its time (pose, skinning matrices, skinned vertices, bounds) bit for
 * bit; the skeleton's joints are the model matrices' translations; the posed GLB's POSITION bounds are the bounds
 * endpoint's box; a one-layer blend at weight 1 is the clip; normalized time and frames name the same instant;
 * dual-quaternion skinning answers 200 or a 422 problem, never anything else.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class FeaturesAcrossFormatsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    /** One expected file per asset (the first), all formats. */
    static Stream<Path> assets() {
        if (!ConformanceData.available()) {
            return Stream.of(Path.of("absent"));
        }
        Map<String, Path> byAsset = new LinkedHashMap<>();
        for (Path p : ConformanceData.expectedFiles("")) {
            JsonNode expected = ConformanceData.read(p);
            if (expected.has("asset")) {
                byAsset.putIfAbsent(expected.get("asset").asString(), p);
            }
        }
        return byAsset.values().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("assets")
    void everyFeatureAgreesWithTheSingleSampleEndpoints(Path expectedFile) throws Exception {
        assumeTrue(ConformanceData.available(), "../shared/conformance is absent");
        PosekitClient client = new PosekitClient(port);
        PosekitClient.Response up = client.upload(ConformanceData.uploadFiles(ConformanceData.read(expectedFile)));
        assertThat(up.status()).as(up.toString()).isIn(200, 201);
        JsonNode summary = up.json();
        String a = "/api/v1/assets/" + summary.get("id").asString();
        boolean hasClip = !summary.get("clips").isEmpty();
        String clip = hasClip ? summary.get("clips").get(0).get("name").asString() : null;
        double duration = hasClip ? summary.get("clips").get(0).get("duration").asDouble() : 0;
        double t = Math.round(duration * 0.37 * 1000) / 1000.0;
        String q = hasClip ? "clip=" + PosekitClient.encode(clip) + "&time=" + t : "time=0";
        boolean skinned = !summary.get("skins").isEmpty();
        int meshes = summary.get("meshes").size();

        // a bake's middle frame is the single samples at t
        List<String> outputs = new ArrayList<>(List.of("\"localPose\"", "\"modelPose\""));
        if (skinned) {
            outputs.add("\"skinningMatrices\"");
        }
        if (meshes > 0) {
            outputs.addAll(List.of("\"skinnedPositions\"", "\"bounds\""));
        }
        String body = "{" + (hasClip ? "\"clip\":" + JSON.writeValueAsString(clip) + "," : "") + "\"times\":[0," + t + ","
                + duration + "],\"outputs\":[" + String.join(",", outputs) + "]}";
        HttpResponse<String> baked = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://localhost:" + port + a + "/bake")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(baked.statusCode()).as(baked.body()).isEqualTo(200);
        List<String> lines = baked.body().lines().toList();
        assertThat(lines).hasSize(3);
        JsonNode frame = JSON.readTree(lines.get(1));

        JsonNode local = client.get(a + "/pose?" + q).json().get("nodes");
        JsonNode model = client.get(a + "/pose?space=model&" + q).json().get("nodes");
        float[] rotations = floats(frame.get("localPose").get("rotations"));
        float[] matrices = floats(frame.get("modelPose"));
        for (int n = 0; n < local.size(); n++) {
            assertThat(slice(rotations, 4 * n, 4)).as("rotation of node %d", n).containsExactly(floats(local.get(n).get("rotation")));
            assertThat(slice(matrices, 16 * n, 16)).as("matrix of node %d", n).containsExactly(floats(model.get(n).get("matrix")));
        }
        if (skinned) {
            float[] single = client.get(a + "/skins/0/matrices?" + q, "application/octet-stream").floats();
            assertThat(floats(frame.get("skinningMatrices").get(0).get("values"))).containsExactly(single);
        }
        if (meshes > 0) {
            int block = 0;
            for (int m = 0; m < meshes; m++) {
                JsonNode prims = client.get(a + "/meshes/" + m + "/skinned?attributes=position&" + q).json().get("primitives");
                for (JsonNode p : prims) {
                    JsonNode baked1 = frame.get("skinnedPositions").get(block++);
                    assertThat(floats(baked1.get("values"))).as("mesh %d", m).containsExactly(floats(p.get("positions")));
                }
            }
            JsonNode bounds = client.get(a + "/bounds?" + q).json().get("asset");
            assertThat(floats(frame.get("bounds").get("min"))).containsExactly(floats(bounds.get("min")));
            assertThat(floats(frame.get("bounds").get("max"))).containsExactly(floats(bounds.get("max")));

            // the posed GLB in the file's space holds the same vertices: its POSITION bounds are the bounds endpoint's
            // box (by default it is in glTF's metres and Y-up, which only an FBX's GlobalSettings make differ)
            PosekitClient.Response glb = client.get(a + "/posed.glb?coordinates=file&" + q, "model/gltf-binary");
            assertThat(glb.status()).as(glb.toString()).isEqualTo(200);
            ByteBuffer bytes = ByteBuffer.wrap(glb.body()).order(ByteOrder.LITTLE_ENDIAN);
            assertThat(bytes.getInt(0)).isEqualTo(0x46546C67);
            assertThat(bytes.getInt(8)).isEqualTo(glb.body().length);
            JsonNode gltf = JSON.readTree(new String(glb.body(), 20, bytes.getInt(12), StandardCharsets.UTF_8));
            float[] min = {Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY};
            float[] max = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
            for (JsonNode mesh : gltf.get("meshes")) {
                for (JsonNode p : mesh.get("primitives")) {
                    JsonNode accessor = gltf.get("accessors").get(p.get("attributes").get("POSITION").asInt());
                    for (int c = 0; c < 3; c++) {
                        min[c] = Math.min(min[c], accessor.get("min").get(c).floatValue());
                        max[c] = Math.max(max[c], accessor.get("max").get(c).floatValue());
                    }
                }
            }
            assertThat(min).containsExactly(floats(bounds.get("min")));
            assertThat(max).containsExactly(floats(bounds.get("max")));

            PosekitClient.Response dq = client.get(a + "/meshes/0/skinned?skinning=dq&" + q);
            assertThat(dq.status()).as(dq.toString()).isIn(200, 422);
            if (dq.status() == 422) {
                assertThat(dq.contentType()).startsWith("application/problem+json");
            }
        }

        // skeleton joints sit at the model matrices' translations
        JsonNode skeleton = client.get(a + "/skeleton?" + q).json();
        for (JsonNode joint : skeleton.get("joints")) {
            float[] m = floats(model.get(joint.get("node").asInt()).get("matrix"));
            assertThat(floats(joint.get("position"))).containsExactly(m[12], m[13], m[14]);
        }

        if (hasClip && duration > 0) {
            // normalized time and frames name the same instant; one layer at weight 1 is the clip
            JsonNode byPhase = client.get(a + "/pose?clip=" + PosekitClient.encode(clip) + "&normalized=" + (t / duration)).json();
            assertThat(byPhase.get("localTime").asDouble()).isCloseTo(t, within(1e-9));
            JsonNode byFrame = client.get(a + "/pose?clip=" + PosekitClient.encode(clip) + "&frame=" + (t * 1000) + "&fps=1000").json();
            assertThat(byFrame.get("localTime").asDouble()).isCloseTo(t, within(1e-9));
            JsonNode blended = client.get(a + "/pose?layer=clip:" + PosekitClient.encode(clip) + "&time=" + t).json().get("nodes");
            for (int n = 0; n < local.size(); n++) {
                // blending normalises rotations; keys within 1e-3 of unit length are sampled as stored
                float[] expected = floats(local.get(n).get("rotation"));
                double norm = Math.sqrt(expected[0] * expected[0] + expected[1] * expected[1] + expected[2] * expected[2]
                        + expected[3] * expected[3]);
                float[] actual = floats(blended.get(n).get("rotation"));
                float[] translation = floats(blended.get(n).get("translation"));
                float[] expectedTranslation = floats(local.get(n).get("translation"));
                for (int c = 0; c < 4; c++) {
                    assertThat((double) actual[c]).as("blended rotation of node %d", n).isCloseTo(expected[c] / norm, within(1e-6));
                }
                for (int c = 0; c < 3; c++) {
                    assertThat(translation[c]).as("blended translation of node %d", n).isEqualTo(expectedTranslation[c], within(0f));
                }
            }
        }
    }

    private static float[] floats(JsonNode array) {
        float[] out = new float[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).floatValue();
        }
        return out;
    }

    private static float[] slice(float[] a, int from, int length) {
        return java.util.Arrays.copyOfRange(a, from, from + length);
    }
}
