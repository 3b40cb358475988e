package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.api.http.Negotiation;
import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.export.GlbFile;
import io.posekit.export.PosedFixtures;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Posed meshes as glTF binary over real HTTP, on {@link PosedFixtures#multiMesh()}: mesh 0 is the skinned, textured
 * strip (a triangle primitive with UVs and material Skin, a non-indexed line primitive with material Edge), mesh 1
 * three points on node Marker (at (2,0,0), rotated 90° about Y), mesh 2 a non-indexed triangle. Every GLB is read
 * back ({@link GlbFile} checks the container) and compared with the JSON endpoints for the same request, exactly.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class PosedGlbApiTest {

    private static final String GLB = "model/gltf-binary";

    @LocalServerPort
    int port;

    private PosekitClient client;
    private String id;
    private String base;

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        PosekitClient.Response r = client.upload("multi.glb", PosedFixtures.multiMesh().toGlb());
        assertThat(r.status()).as(r.toString()).isIn(200, 201);
        id = r.json().get("id").asString();
        base = "/api/v1/assets/" + id;
    }

    @Test
    void aSkinnedMeshAsGlbHasTheSkinnedPositionsSourceIndicesUvsAndMaterials() {
        PosekitClient.Response r = client.get(base + "/meshes/0/skinned?clip=Bend&time=1.5", GLB);
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.contentType()).isEqualTo(GLB);
        assertThat(r.headers().firstValue("Content-Disposition")).contains("inline; filename=\"mesh-0.glb\"");
        GlbFile f = GlbFile.parse(r.body());
        JsonNode json = f.json();
        assertThat(json.get("nodes").size()).isEqualTo(1);
        assertThat(json.get("nodes").get(0).get("name").asString()).isEqualTo("Strip");
        assertThat(json.get("asset").get("extras").toString()).isEqualTo("{\"asset\":\"" + id
                + "\",\"clip\":\"Bend\",\"time\":1.5,\"loop\":\"clamp\",\"localTime\":1.5}");

        JsonNode skinned = client.get(base + "/meshes/0/skinned?clip=Bend&time=1.5").json().get("primitives");
        JsonNode geometry = client.get(base + "/meshes/0").json().get("primitives");
        assertThat(json.get("meshes").get(0).get("primitives").size()).isEqualTo(2);
        for (int p = 0; p < 2; p++) {
            JsonNode prim = f.primitive(0, p);
            float[] positions = f.floats(prim.get("attributes").get("POSITION").asInt());
            assertExactly(positions, skinned.get(p).get("positions"));
            JsonNode accessor = f.accessor(prim.get("attributes").get("POSITION").asInt());
            for (int c = 0; c < 3; c++) {
                float min = Float.POSITIVE_INFINITY;
                float max = Float.NEGATIVE_INFINITY;
                for (int v = c; v < positions.length; v += 3) {
                    min = Math.min(min, positions[v]);
                    max = Math.max(max, positions[v]);
                }
                assertThat(accessor.get("min").get(c).floatValue()).isEqualTo(min);
                assertThat(accessor.get("max").get(c).floatValue()).isEqualTo(max);
            }
        }
        // triangles: normals as the JSON endpoint's (already unit length), indices as stored, the UVs, material Skin
        JsonNode strip = f.primitive(0, 0);
        float[] normals = f.floats(strip.get("attributes").get("NORMAL").asInt());
        for (int i = 0; i < normals.length; i++) {
            assertThat((double) normals[i]).isCloseTo(skinned.get(0).get("normals").get(i).asDouble(), within(1e-7));
        }
        assertThat(f.ints(strip.get("indices").asInt())).containsExactly(0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4);
        assertThat(geometry.get(0).get("indices").toString()).isEqualTo("[0,1,3,0,3,2,2,3,5,2,5,4]");
        assertThat(f.floats(strip.get("attributes").get("TEXCOORD_0").asInt())).containsExactly(PosedFixtures.STRIP_UV);
        assertThat(strip.has("mode")).isFalse();
        JsonNode skin = json.get("materials").get(strip.get("material").asInt());
        assertThat(skin.get("name").asString()).isEqualTo("Skin");
        assertThat(skin.get("doubleSided").asBoolean()).isTrue();
        assertThat(skin.get("pbrMetallicRoughness").get("baseColorFactor").toString()).isEqualTo("[0.8,0.6,0.4,1.0]");
        assertThat(skin.get("pbrMetallicRoughness").get("metallicFactor").asDouble()).isZero();
        assertThat(skin.get("pbrMetallicRoughness").get("roughnessFactor").asDouble()).isEqualTo(0.5);
        int texture = skin.get("pbrMetallicRoughness").get("baseColorTexture").get("index").asInt();
        JsonNode image = json.get("images").get(json.get("textures").get(texture).get("source").asInt());
        assertThat(image.get("mimeType").asString()).isEqualTo("image/png");
        assertThat(f.viewBytes(image.get("bufferView").asInt())).isEqualTo(PosedFixtures.png());
        // lines: non-indexed, mode 1, material Edge
        JsonNode edge = f.primitive(0, 1);
        assertThat(edge.has("indices")).isFalse();
        assertThat(edge.get("mode").asInt()).isEqualTo(1);
        JsonNode edgeMaterial = json.get("materials").get(edge.get("material").asInt());
        assertThat(edgeMaterial.get("name").asString()).isEqualTo("Edge");
        assertThat(edgeMaterial.get("alphaMode").asString()).isEqualTo("BLEND");
        assertThat(edgeMaterial.get("pbrMetallicRoughness").get("baseColorFactor").toString()).isEqualTo("[1.0,0,0,0.5]");

        // the same instant named another way gives the same bytes (the echo is in seconds), and a repeated request too
        assertThat(client.get(base + "/meshes/0/skinned?clip=Bend&frame=3&fps=2", GLB).body()).isEqualTo(r.body());
        assertThat(client.get(base + "/meshes/0/skinned?clip=Bend&time=1.5", GLB).body()).isEqualTo(r.body());
    }

    @Test
    void posedGlbHoldsEveryInstanceAndMatchesTheJsonEndpoints() {
        for (String accept : new String[] {GLB, "*/*", null}) {
            PosekitClient.Response r = accept == null ? client.get(base + "/posed.glb?clip=Bend&normalized=0.25")
                    : client.get(base + "/posed.glb?clip=Bend&normalized=0.25", accept);
            assertThat(r.status()).as(r.toString()).isEqualTo(200);
            assertThat(r.contentType()).isEqualTo(GLB);
            assertThat(r.headers().firstValue("Content-Disposition")).contains("inline; filename=\"posed.glb\"");
            GlbFile f = GlbFile.parse(r.body());
            JsonNode json = f.json();
            assertThat(json.get("scenes").toString()).isEqualTo("[{\"nodes\":[0,1,2]}]");
            assertThat(json.get("nodes").toString()).isEqualTo(
                    "[{\"name\":\"Strip\",\"mesh\":0},{\"name\":\"Points\",\"mesh\":1},{\"name\":\"Tri\",\"mesh\":2}]");
            for (int m = 0; m < 3; m++) {
                JsonNode skinned = client.get(base + "/meshes/" + m + "/skinned?clip=Bend&time=0.5").json().get("primitives");
                for (int p = 0; p < skinned.size(); p++) {
                    assertExactly(f.floats(f.primitive(m, p).get("attributes").get("POSITION").asInt()),
                            skinned.get(p).get("positions"));
                }
            }
            // Marker: T(2,0,0)·Ry(90°) maps (1,0,0) to (2,0,−1) and (0,0,1) to (3,0,0)
            float[] points = f.floats(f.primitive(1, 0).get("attributes").get("POSITION").asInt());
            float[] expected = {2, 0, 0, 2, 0, -1, 3, 0, 0};
            for (int i = 0; i < 9; i++) {
                assertThat((double) points[i]).isCloseTo(expected[i], within(1e-6));
            }
            assertThat(f.primitive(1, 0).get("mode").asInt()).isZero();
            assertThat(f.primitive(1, 0).has("material")).isFalse();
            assertThat(f.primitive(2, 0).has("indices")).isFalse();
            assertThat(f.primitive(2, 0).get("attributes").has("NORMAL")).isFalse();
        }
    }

    @Test
    void theGlbUploadedAgainHasThePosedGeometryAsItsRestPose() {
        byte[] posed = client.get(base + "/posed.glb?clip=Bend&time=1.5", GLB).body();
        GlbFile original = GlbFile.parse(posed);
        PosekitClient.Response upload = client.upload("posed.glb", posed);
        assertThat(upload.status()).as(upload.toString()).isEqualTo(201);
        assertThat(upload.json().get("warnings").size()).isZero();
        String again = "/api/v1/assets/" + upload.json().get("id").asString();
        for (int m = 0; m < 3; m++) {
            JsonNode rest = client.get(again + "/meshes/" + m).json().get("primitives");
            JsonNode skinned = client.get(base + "/meshes/" + m + "/skinned?clip=Bend&time=1.5").json().get("primitives");
            for (int p = 0; p < rest.size(); p++) {
                assertThat(rest.get(p).get("positions")).isEqualTo(skinned.get(p).get("positions"));
            }
        }
        // posed again at rest, it is the same GLB: same JSON but for the echo, same bytes in every view
        GlbFile roundTrip = GlbFile.parse(client.get(again + "/posed.glb", GLB).body());
        ObjectNode a = (ObjectNode) original.json().deepCopy();
        ObjectNode b = (ObjectNode) roundTrip.json().deepCopy();
        ((ObjectNode) a.get("asset")).remove("extras");
        ((ObjectNode) b.get("asset")).remove("extras");
        assertThat(b).isEqualTo(a);
        for (int v = 0; v < a.get("bufferViews").size(); v++) {
            assertThat(roundTrip.viewBytes(v)).as("bufferView %d", v).isEqualTo(original.viewBytes(v));
        }
    }

    @Test
    void errorsAreProblemsEvenWhenOnlyGlbIsAccepted() {
        assertProblem(client.get(base + "/meshes/0/skinned?time=NaN", GLB), 400,
                "time 'NaN' is not a finite decimal number of seconds");
        assertProblem(client.get(base + "/meshes/9/skinned", GLB), 404,
                "mesh '9' does not exist; the asset has 3 meshes (0..2)");
        assertProblem(client.get(base + "/meshes/0/skinned?attributes=color", GLB), 400,
                "attribute 'color' is not one of position, normal, tangent");
        assertProblem(client.get(base + "/posed.glb?clip=Jump", GLB), 404, "clip 'Jump' does not exist; clips: 'Bend'");
        assertProblem(client.get(base + "/posed.glb?loop=bounce"), 400, "loop 'bounce' is not one of clamp, repeat, pingpong");
        String unknown = "0".repeat(64);
        assertProblem(client.get("/api/v1/assets/" + unknown + "/posed.glb", GLB), 404, "no asset with id '" + unknown + "'");
        PosekitClient.Response json = client.get(base + "/posed.glb", "application/json");
        assertThat(json.status()).as(json.toString()).isEqualTo(406);
        assertThat(json.contentType()).startsWith("application/problem+json");

        GltfBuilder empty = new GltfBuilder();
        int root = empty.node("Root").index();
        empty.addScene("Scene", root);
        PosekitClient.Response r = client.upload("empty.glb", empty.toGlb());
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        String emptyId = r.json().get("id").asString();
        assertProblem(client.get("/api/v1/assets/" + emptyId + "/posed.glb", GLB), 404,
                "asset '" + emptyId + "' has no meshes to pose");
    }

    @Test
    void glbIsChosenOnlyWhenAskedForExplicitly() {
        assertThat(Negotiation.wantsGltfBinary("model/gltf-binary")).isTrue();
        assertThat(Negotiation.wantsGltfBinary("model/gltf-binary, application/json;q=0.5")).isTrue();
        assertThat(Negotiation.wantsGltfBinary("application/json, model/gltf-binary;q=0.5")).isFalse();
        assertThat(Negotiation.wantsGltfBinary("application/octet-stream, model/gltf-binary;q=0.9")).isFalse();
        assertThat(Negotiation.wantsGltfBinary("model/gltf-binary;q=0")).isFalse();
        assertThat(Negotiation.wantsGltfBinary("*/*")).isFalse();
        // RFC 9110 §12.5.1: model/* admits only the GLB among JSON, float32 and GLB
        assertThat(Negotiation.wantsGltfBinary("model/*")).isTrue();
        assertThat(Negotiation.wantsGltfBinary("model/*, application/json;q=0.5")).isTrue();
        assertThat(Negotiation.wantsGltfBinary("model/*;q=0.5, application/*")).isFalse();
        assertThat(Negotiation.wantsGltfBinary(null)).isFalse();
        assertThat(Negotiation.wantsGltfBinary("not a media type;;")).isFalse();
        assertThat(client.get(base + "/meshes/0/skinned", "application/json, model/gltf-binary;q=0.5").contentType())
                .startsWith("application/json");
        assertThat(client.get(base + "/meshes/0/skinned", "*/*").contentType()).startsWith("application/json");
    }

    private static void assertExactly(float[] actual, JsonNode expected) {
        assertThat(actual).hasSize(expected.size());
        for (int i = 0; i < actual.length; i++) {
            assertThat(actual[i]).as("component %d", i).isEqualTo(expected.get(i).floatValue());
        }
    }
}
