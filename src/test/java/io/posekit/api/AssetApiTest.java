package io.posekit.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.gltf.GltfBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** Uploading, listing, describing and deleting assets over real HTTP. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class AssetApiTest {

    @LocalServerPort
    int port;

    private PosekitClient client() {
        return new PosekitClient(port);
    }

    static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    @Test
    void uploadsAGlbAndDescribesIt() throws Exception {
        GltfBuilder asset = GltfBuilder.skinnedTwoBoneStrip();
        asset.setRoot("extras", "uploadsAGlbAndDescribesIt"); // content unique to this test
        byte[] glb = asset.toGlb();
        PosekitClient.Response r = client().upload("strip.glb", glb);
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        String id = sha256(glb);
        assertThat(r.headers().firstValue("Location")).contains("/api/v1/assets/" + id);
        assertThat(r.contentType()).startsWith("application/json");
        JsonNode s = r.json();
        assertThat(s.get("id").asString()).isEqualTo(id);
        assertThat(s.get("name").asString()).isEqualTo("strip.glb");
        assertThat(s.get("format").asString()).isEqualTo("gltf");
        assertThat(s.get("sizeBytes").asLong()).isEqualTo(glb.length);
        // nodes parent-first: Strip (glTF 0), Root (1), Tip (2, child of Root)
        assertThat(s.get("nodes").toString()).isEqualTo("[{\"index\":0,\"name\":\"Strip\",\"parent\":-1,\"sourceIndex\":0},"
                + "{\"index\":1,\"name\":\"Root\",\"parent\":-1,\"sourceIndex\":1},"
                + "{\"index\":2,\"name\":\"Tip\",\"parent\":1,\"sourceIndex\":2}]");
        assertThat(s.get("skins").toString()).isEqualTo("[{\"index\":0,\"name\":\"Armature\",\"joints\":[1,2]}]");
        assertThat(s.get("meshes").toString()).isEqualTo("[{\"index\":0,\"name\":\"Strip\",\"node\":0,\"skin\":0,"
                + "\"primitives\":[{\"mode\":\"triangles\",\"vertexCount\":6,\"indexCount\":12,"
                + "\"attributes\":[\"POSITION\",\"NORMAL\",\"JOINTS_0\",\"WEIGHTS_0\"]}],"
                + "\"morphTargets\":0,\"morphWeights\":[]}]");
        assertThat(s.get("clips").toString()).isEqualTo("[{\"index\":0,\"name\":\"Bend\",\"duration\":2.0,\"channels\":2,\"sceneStart\":0.0,\"sceneEnd\":2.0}]");
        assertThat(s.get("warnings").toString()).isEqualTo("[]");

        // the same bytes again, raw this time: 200 with the stored asset
        PosekitClient.Response again = client().uploadRaw(glb, "model/gltf-binary", null);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().get("id").asString()).isEqualTo(id);
        assertThat(again.json().get("name").asString()).isEqualTo("strip.glb");

        assertThat(client().get("/api/v1/assets/" + id).json()).isEqualTo(s);
        JsonNode list = client().get("/api/v1/assets").json().get("assets");
        assertThat(list.toString()).contains("{\"id\":\"" + id + "\",\"name\":\"strip.glb\",\"format\":\"gltf\",\"sizeBytes\":"
                + glb.length + ",\"createdAt\":\"");
    }

    @Test
    void uploadsAGltfWithItsBinAsTwoPartsAndAsAZip() throws Exception {
        GltfBuilder asset = GltfBuilder.skinnedTwoBoneStrip();
        asset.setRoot("extras", "twoParts");
        GltfBuilder.ExternalGltf external = asset.toGltfWithExternalBin("strip.bin");
        Map<String, byte[]> parts = new LinkedHashMap<>();
        parts.put("strip.gltf", external.jsonBytes());
        parts.put("strip.bin", external.bin());
        PosekitClient.Response r = client().upload(parts);
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        assertThat(r.json().get("name").asString()).isEqualTo("strip.gltf");
        assertThat(r.json().get("sizeBytes").asLong()).isEqualTo(external.jsonBytes().length + external.bin().length);
        assertThat(r.json().get("meshes").get(0).get("primitives").get(0).get("vertexCount").asInt()).isEqualTo(6);

        byte[] zip = zip(Map.of("model/strip.gltf", external.jsonBytes(), "model/strip.bin", external.bin()));
        PosekitClient.Response z = client().uploadRaw(zip, "application/zip", null);
        assertThat(z.status()).as(z.toString()).isEqualTo(201);
        assertThat(z.json().get("id").asString()).isEqualTo(sha256(zip));
        assertThat(z.json().get("name").asString()).isEqualTo("strip.gltf");

        PosekitClient.Response octet = client().uploadRaw(zip, "application/octet-stream", "filename=bundle.zip");
        assertThat(octet.status()).isEqualTo(200);
    }

    @Test
    void acceptsAGltfWithManyImageParts() {
        GltfBuilder asset = GltfBuilder.skinnedTwoBoneStrip();
        asset.setRoot("extras", "manyParts");
        GltfBuilder.ExternalGltf external = asset.toGltfWithExternalBin("strip.bin");
        Map<String, byte[]> parts = new LinkedHashMap<>();
        parts.put("strip.gltf", external.jsonBytes());
        parts.put("strip.bin", external.bin());
        for (int i = 0; i < 30; i++) {
            parts.put("texture" + i + ".png", new byte[] {(byte) 0x89, 'P', 'N', 'G', (byte) i});
        }
        PosekitClient.Response r = client().upload(parts);
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        assertThat(r.json().get("sizeBytes").asLong())
                .isEqualTo(external.jsonBytes().length + external.bin().length + 30 * 5);
    }

    @Test
    void deletesAnAsset() throws Exception {
        GltfBuilder asset = GltfBuilder.skinnedTwoBoneStrip();
        asset.setRoot("extras", "deletesAnAsset");
        String id = client().upload("d.glb", asset.toGlb()).json().get("id").asString();
        assertThat(client().delete("/api/v1/assets/" + id).status()).isEqualTo(204);
        assertProblem(client().get("/api/v1/assets/" + id), 404, "no asset with id '" + id + "'");
        assertProblem(client().delete("/api/v1/assets/" + id), 404, "no asset with id '" + id + "'");
        assertThat(client().get("/api/v1/assets").text()).doesNotContain(id);
    }

    @Test
    void rejectsUploadsThatDoNotSayWhatTheyAre() {
        byte[] glb = GltfBuilder.skinnedTwoBoneStrip().toGlb();
        assertProblem(client().uploadRaw(glb, "application/octet-stream", null), 415,
                "Content-Type 'application/octet-stream' does not say what the file is: send multipart/form-data with"
                        + " parts named 'file', one of application/json, application/x-zip-compressed, application/zip,"
                        + " model/gltf+json, model/gltf-binary, model/vnd.collada+xml, or application/octet-stream with ?filename=");
        PosekitClient.Response notes = client().upload("notes.txt", "hello".getBytes(StandardCharsets.UTF_8));
        assertProblem(notes, 415, null);
        assertThat(notes.json().get("detail").asString())
                .startsWith("no model file in the upload (got notes.txt); supported: gltf (.glb, .gltf, .vrm, .vrma), collada (.dae)");
        assertThat(notes.json().get("detail").asString()).endsWith("fbx (.fbx)");
        // every recognised format has an importer now: a cut-short FBX is an invalid file, not an unsupported one
        PosekitClient.Response fbx = client().upload("rig.fbx", "Kaydara FBX Binary".getBytes(StandardCharsets.UTF_8));
        assertProblem(fbx, 422, null);
        assertProblem(client().uploadParts("model", Map.of("a.glb", glb)), 400,
                "the multipart body has no part named 'file' (it has model)");
        Map<String, byte[]> two = new LinkedHashMap<>();
        two.put("a.glb", glb);
        two.put("b.glb", glb);
        assertProblem(client().upload(two), 422, "the upload holds 2 model files (a.glb, b.glb); upload one asset at a time");
        assertProblem(client().upload("empty.glb", new byte[0]), 422, "empty.glb is empty");
    }

    @Test
    void rejectsInvalidFilesPreciselyAndStoresNothing() {
        String before = client().get("/api/v1/assets").text();
        byte[] glb = GltfBuilder.skinnedTwoBoneStrip().toGlb();

        byte[] truncated = java.util.Arrays.copyOf(glb, glb.length / 2);
        PosekitClient.Response t = client().upload("truncated.glb", truncated);
        assertProblem(t, 422, null);
        assertThat(t.json().get("detail").asString()).contains("GLB").contains(Integer.toString(glb.length));

        byte[] lying = glb.clone();
        writeIntLE(lying, 12, 1_000_000); // the JSON chunk claims a million bytes
        PosekitClient.Response l = client().upload("lying.glb", lying);
        assertProblem(l, 422, null);
        assertThat(l.json().get("detail").asString()).contains("1000000");

        GltfBuilder outOfRange = GltfBuilder.skinnedTwoBoneStrip();
        outOfRange.set("accessors", 0, "count", 4000);
        assertProblem(client().upload("range.glb", outOfRange.toGlb()), 422,
                "accessor 0: count 4000 × stride 12 exceeds bufferView 0 length 72");

        GltfBuilder external = GltfBuilder.skinnedTwoBoneStrip();
        String json = external.toGltfJson().replaceFirst("\"uri\":\"data:[^\"]*\"", "\"uri\":\"http://example.com/x.bin\"");
        assertProblem(client().upload("ext.gltf", json.getBytes(StandardCharsets.UTF_8)), 422,
                "buffer 0: uri 'http://example.com/x.bin' is external; only data: URIs and files uploaded with the asset are allowed");

        String passwd = external.toGltfJson().replaceFirst("\"uri\":\"data:[^\"]*\"", "\"uri\":\"file:///etc/passwd\"");
        assertProblem(client().upload("passwd.gltf", passwd.getBytes(StandardCharsets.UTF_8)), 422,
                "buffer 0: uri 'file:///etc/passwd' is external; only data: URIs and files uploaded with the asset are allowed");

        assertThat(client().get("/api/v1/assets").text()).isEqualTo(before);
    }

    @Test
    void answersUnknownIdsAndPathsWithProblems() {
        assertProblem(client().get("/api/v1/assets/" + "0".repeat(64)), 404, "no asset with id '" + "0".repeat(64) + "'");
        assertProblem(client().get("/api/v1/assets/not-an-id"), 404, "no asset with id 'not-an-id'");
        PosekitClient.Response nowhere = client().get("/api/v1/nowhere");
        assertThat(nowhere.status()).isEqualTo(404);
        assertThat(nowhere.contentType()).startsWith("application/problem+json");
    }

    static void assertProblem(PosekitClient.Response r, int status, String detail) {
        assertThat(r.status()).as(r.toString()).isEqualTo(status);
        assertThat(r.contentType()).as(r.toString()).startsWith("application/problem+json");
        JsonNode body = r.json();
        assertThat(body.get("status").asInt()).isEqualTo(status);
        assertThat(body.get("title").asString()).isNotBlank();
        if (detail != null) {
            assertThat(body.get("detail").asString()).isEqualTo(detail);
        }
    }

    private static void writeIntLE(byte[] b, int offset, int value) {
        b[offset] = (byte) value;
        b[offset + 1] = (byte) (value >>> 8);
        b[offset + 2] = (byte) (value >>> 16);
        b[offset + 3] = (byte) (value >>> 24);
    }

    private static byte[] zip(Map<String, byte[]> entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(out)) {
            for (Map.Entry<String, byte[]> e : new java.util.TreeMap<>(entries).entrySet()) {
                z.putNextEntry(new ZipEntry(e.getKey()));
                z.write(e.getValue());
                z.closeEntry();
            }
        }
        return out.toByteArray();
    }
}
