package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.fbx.FbxTestFiles;
import io.posekit.export.AnimatedGltf;
import io.posekit.export.GlbFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * {@code coordinates} over real HTTP, on an FBX built in code that declares Z-up centimetres (UpAxis 2, FrontAxis −Y,
 * UnitScaleFactor 1): the conversion to glTF's space is {@code (x, y, z) cm → (0.01 x, 0.01 z, −0.01 y) m}. The glTF
 * exports apply it by default and keep the file's space with {@code coordinates=file}; the sampling endpoints answer
 * in the file's space by default and convert with {@code coordinates=gltf}, exactly.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class CoordinatesApiTest {

    private static final String GLB = "model/gltf-binary";

    @LocalServerPort
    int port;

    private PosekitClient client;
    private String base;

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        base = client.uploadedAssetPath("z-up.fbx", FbxTestFiles.skinnedBinaryInSpace(2, 1, 1, -1, 1.0));
    }

    /** (x, y, z) cm Z-up → glTF metres Y-up, as the service computes it (double, then float). */
    private static float[] converted(float[] xyz) {
        float[] out = new float[xyz.length];
        for (int i = 0; i < xyz.length; i += 3) {
            out[i] = (float) (0.01 * xyz[i]);
            out[i + 1] = (float) (0.01 * xyz[i + 2]);
            out[i + 2] = (float) (-0.01 * xyz[i + 1]);
        }
        return out;
    }

    @Test
    void theGltfExportsConvertByDefaultAndKeepTheFilesSpaceOnRequest() {
        JsonNode animated = GlbFile.parse(client.get(base + "/animated.glb", GLB).body()).json();
        JsonNode root = named(animated, AnimatedGltf.SPACE_ROOT);
        assertThat(root).isNotNull();
        float[] matrix = new float[16];
        for (int i = 0; i < 16; i++) {
            matrix[i] = root.get("matrix").get(i).floatValue();
        }
        same(matrix, new float[] {0.01f, 0, 0, 0, 0, 0, -0.01f, 0, 0, 0.01f, 0, 0, 0, 0, 0, 1});
        assertThat(animated.get("asset").get("extras").get("coordinates").asString()).isEqualTo("gltf");
        assertThat(animated.get("asset").get("extras").get("fileSpace").asString())
                .isEqualTo("right +X, up +Z, front -Y, 0.01 m per unit");
        JsonNode kept = GlbFile.parse(client.get(base + "/animated.glb?coordinates=file", GLB).body()).json();
        assertThat(named(kept, AnimatedGltf.SPACE_ROOT)).isNull();

        String q = "clip=Wave&time=0.5";
        GlbFile posed = GlbFile.parse(client.get(base + "/posed.glb?" + q, GLB).body());
        GlbFile file = GlbFile.parse(client.get(base + "/posed.glb?" + q + "&coordinates=file", GLB).body());
        float[] p = posed.floats(posed.primitive(0, 0).get("attributes").get("POSITION").asInt());
        float[] f = file.floats(file.primitive(0, 0).get("attributes").get("POSITION").asInt());
        same(p, converted(f));
        // the file-space GLB holds what the skinned endpoint answers
        float[] skinned = client.get(base + "/meshes/0/skinned?attributes=position&" + q, "application/octet-stream")
                .floats();
        assertThat(f).containsExactly(skinned);
        // a GLB of one mesh defaults to glTF's space too
        GlbFile one = GlbFile.parse(client.get(base + "/meshes/0/skinned?" + q, GLB).body());
        same(one.floats(one.primitive(0, 0).get("attributes").get("POSITION").asInt()), p);
    }

    @Test
    void samplingConvertsOnlyOnRequest() {
        String q = "clip=Wave&time=0.5";
        float[] file = client.get(base + "/meshes/0/skinned?attributes=position&" + q, "application/octet-stream")
                .floats();
        float[] gltf = client.get(base + "/meshes/0/skinned?attributes=position&coordinates=gltf&" + q,
                "application/octet-stream").floats();
        same(gltf, converted(file));
        assertThat(client.get(base + "/meshes/0/skinned?attributes=position&coordinates=file&" + q,
                "application/octet-stream").floats()).containsExactly(file);

        float[] m = client.get(base + "/skins/0/matrices?" + q, "application/octet-stream").floats();
        float[] c = client.get(base + "/skins/0/matrices?coordinates=gltf&" + q, "application/octet-stream").floats();
        assertThat(c).hasSameSizeAs(m);
        for (int o = 0; o < m.length; o += 16) {
            for (int col = 0; col < 4; col++) {
                float[] column = {m[o + 4 * col], m[o + 4 * col + 1], m[o + 4 * col + 2]};
                float[] expected = converted(column);
                same(new float[] {c[o + 4 * col], c[o + 4 * col + 1], c[o + 4 * col + 2], c[o + 4 * col + 3]},
                        new float[] {expected[0], expected[1], expected[2], m[o + 4 * col + 3]});
            }
        }

        JsonNode model = client.get(base + "/pose?space=model&" + q).json().get("nodes");
        JsonNode converted = client.get(base + "/pose?space=model&coordinates=gltf&" + q).json().get("nodes");
        for (int n = 0; n < model.size(); n++) {
            JsonNode a = model.get(n).get("matrix");
            JsonNode b = converted.get(n).get("matrix");
            for (int col = 0; col < 4; col++) {
                float[] expected = converted(new float[] {a.get(4 * col).floatValue(), a.get(4 * col + 1).floatValue(),
                    a.get(4 * col + 2).floatValue()});
                same(new float[] {b.get(4 * col).floatValue(), b.get(4 * col + 1).floatValue(),
                    b.get(4 * col + 2).floatValue()}, expected);
            }
        }
        // local transforms are the file's whatever the coordinates
        assertThat(client.get(base + "/pose?coordinates=gltf&" + q).json().get("nodes").toString())
                .isEqualTo(client.get(base + "/pose?" + q).json().get("nodes").toString());
    }

    @Test
    void anUnknownValueIsA400NamingTheParameter() {
        for (String path : new String[] {"/pose?coordinates=metres", "/skins/0/matrices?coordinates=metres",
            "/meshes/0/skinned?coordinates=metres", "/posed.glb?coordinates=metres", "/animated.glb?coordinates=metres"}) {
            PosekitClient.Response r = client.get(base + path, path.contains(".glb") ? GLB : "application/json");
            assertProblem(r, 400, "coordinates 'metres' is not one of file, gltf");
            assertThat(r.json().get("title").asString()).isEqualTo("Invalid coordinates");
        }
    }

    /** Exactly the same values, 0 and −0 being one value (a sum of zero products may carry either sign). */
    private static void same(float[] actual, float[] expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < actual.length; i++) {
            assertThat(actual[i] + 0f).as("element %d", i).isEqualTo(expected[i] + 0f);
        }
    }

    private static JsonNode named(JsonNode gltf, String name) {
        for (JsonNode n : gltf.get("nodes")) {
            if (name.equals(n.path("name").asString(null))) {
                return n;
            }
        }
        return null;
    }
}
