package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.api.PosekitClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Every glTF expected file of {@code ../shared/conformance} through the real HTTP API of the running
 * application: upload the asset, then for every sample (clamp and repeat, rest pose for static assets)
 * compare local TRS and model matrices of every joint and animated node, skinning matrices, and skinned
 * positions, normals and checksums of every primitive, at the conformance README's tolerances.
 *
 * <p>glTF expected files identify nodes by glTF node index; posekit reports it as {@code sourceIndex}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class GltfConformanceTest {

    @LocalServerPort
    int port;

    @TestFactory
    Stream<DynamicNode> gltf() {
        assumeTrue(ConformanceData.available(), "../shared/conformance is absent");
        List<Path> files = ConformanceData.expectedFiles("gltf-");
        assertThat(files).as("glTF expected files").hasSizeGreaterThanOrEqualTo(20);
        PosekitClient client = new PosekitClient(port);
        return files.stream().map(file -> {
            JsonNode expected = ConformanceData.read(file);
            return DynamicContainer.dynamicContainer(file.getFileName().toString(),
                    new AssetCase(client, expected).tests());
        });
    }

    /** The checks of one expected file. */
    static final class AssetCase {

        private final PosekitClient client;
        private final JsonNode expected;
        private final Path root;
        private final boolean placementFloor;
        private final boolean vertices;
        private String id;
        private JsonNode summary;
        private final Map<Integer, Integer> nodeBySource = new HashMap<>();

        AssetCase(PosekitClient client, JsonNode expected) {
            this(client, expected, ConformanceData.root(), false, true);
        }

        /**
         * The checks of an expected file whose {@code asset} lies under {@code root} (e.g. a pipeline variant's).
         *
         * @param placementFloor whether the position tolerance has a floor of the matrices' relative tolerance (1e-5)
         *     times the largest coordinate of the posed mesh: the tolerance is otherwise relative to the mesh's size,
         *     which float32 rounding of coordinates far from the origin can exceed on its own
         * @param vertices whether skinned vertices are compared (not where three skins with fewer influences)
         */
        AssetCase(PosekitClient client, JsonNode expected, Path root, boolean placementFloor, boolean vertices) {
            this.client = client;
            this.expected = expected;
            this.root = root;
            this.placementFloor = placementFloor;
            this.vertices = vertices;
        }

        Stream<DynamicTest> tests() {
            List<DynamicTest> tests = new ArrayList<>();
            tests.add(DynamicTest.dynamicTest("upload and summary", this::uploadAndSummary));
            JsonNode samples = expected.get("samples");
            for (int i = 0; i < samples.size(); i++) {
                JsonNode sample = samples.get(i);
                tests.add(DynamicTest.dynamicTest("sample t=" + sample.get("t").asDouble() + " " + sample.get("mode").asString(),
                        () -> checkSample(sample)));
            }
            return tests.stream();
        }

        private void ensureUploaded() {
            if (id == null) {
                uploadAndSummary();
            }
        }

        void uploadAndSummary() {
            PosekitClient.Response r = client.upload(ConformanceData.uploadFiles(root, expected));
            assertThat(r.status()).as("upload: %s", r).isIn(200, 201);
            summary = r.json();
            id = summary.get("id").asString();
            for (JsonNode node : summary.get("nodes")) {
                if (!node.get("sourceIndex").isNull()) {
                    nodeBySource.put(node.get("sourceIndex").asInt(), node.get("index").asInt());
                }
            }
            Tolerances t = new Tolerances();
            t.equal("format", "gltf", summary.get("format").asString());
            JsonNode clips = expected.get("clips");
            t.equal("clip count", clips.size(), summary.get("clips").size());
            for (int c = 0; c < Math.min(clips.size(), summary.get("clips").size()); c++) {
                t.equal("clip " + c + " name", clips.get(c).get("name").asString(),
                        summary.get("clips").get(c).get("name").asString());
                t.equal("clip " + c + " duration", clips.get(c).get("duration").asDouble(),
                        summary.get("clips").get(c).get("duration").asDouble());
            }
            JsonNode skins = expected.get("skins");
            t.equal("skin count", skins.size(), summary.get("skins").size());
            for (int s = 0; s < Math.min(skins.size(), summary.get("skins").size()); s++) {
                JsonNode joints = skins.get(s).get("joints");
                JsonNode ours = summary.get("skins").get(s).get("joints");
                t.equal("skin " + s + " joint count", joints.size(), ours.size());
                for (int k = 0; k < Math.min(joints.size(), ours.size()); k++) {
                    t.equal("skin " + s + " joint " + k + " node", nodeBySource.get(joints.get(k).get("node").asInt()),
                            ours.get(k).asInt());
                }
            }
            for (JsonNode mesh : expected.get("meshes")) {
                JsonNode prim = ourPrimitive(mesh);
                if (prim == null) {
                    t.fail("no mesh instance on node " + mesh.get("node") + " with primitive " + mesh.get("primitive"));
                } else {
                    t.equal("mesh " + mesh.get("id") + " vertexCount", mesh.get("vertexCount").asInt(),
                            prim.get("vertexCount").asInt());
                }
            }
            assertThat(t.failures()).as("summary mismatches").isEmpty();
        }

        void checkSample(JsonNode sample) {
            ensureUploaded();
            String query = query(sample);
            Tolerances t = new Tolerances();
            PosekitClient.Response local = client.get("/api/v1/assets/" + id + "/pose?space=local" + query);
            PosekitClient.Response model = client.get("/api/v1/assets/" + id + "/pose?space=model" + query);
            assertThat(local.status()).as("local pose %s", local).isEqualTo(200);
            assertThat(model.status()).as("model pose %s", model).isEqualTo(200);
            JsonNode localNodes = local.json().get("nodes");
            JsonNode modelNodes = model.json().get("nodes");
            checkEcho(t, sample, local.json());

            JsonNode skins = expected.get("skins");
            JsonNode sampleSkins = sample.get("skins");
            for (int s = 0; s < sampleSkins.size(); s++) {
                PosekitClient.Response m = client.get("/api/v1/assets/" + id + "/skins/" + s + "/matrices"
                        + (query.isEmpty() ? "" : "?" + query.substring(1)));
                assertThat(m.status()).as("skin %d matrices %s", s, m).isEqualTo(200);
                JsonNode matrices = m.json().get("matrices");
                JsonNode joints = sampleSkins.get(s);
                for (int k = 0; k < joints.size(); k++) {
                    JsonNode e = joints.get(k);
                    int node = nodeBySource.get(skins.get(s).get("joints").get(k).get("node").asInt());
                    String where = "skin " + s + " joint " + k + " (node " + node + ")";
                    checkNode(t, where, e, localNodes.get(node), modelNodes.get(node));
                    t.matrix(where + " skinning", e.get("skinning"), matrices.get(k));
                }
            }
            JsonNode animatedNodes = sample.get("nodes");
            if (animatedNodes != null) {
                for (JsonNode e : animatedNodes) {
                    int node = nodeBySource.get(e.get("node").asInt());
                    checkNode(t, "node " + node, e, localNodes.get(node), modelNodes.get(node));
                }
            }
            if (vertices) {
                checkMeshes(t, sample, query);
            }
            assertThat(t.failures()).as("%d mismatches in %d checks", t.failures().size(), t.checks()).isEmpty();
        }

        private void checkEcho(Tolerances t, JsonNode sample, JsonNode response) {
            if (sample.get("mode").asString().equals("static")) {
                t.equal("clip echo", true, response.get("clip").isNull());
                t.equal("localTime echo", true, response.get("localTime").isNull());
            } else {
                t.equal("clip echo", expected.get("clip").get("name").asString(), response.get("clip").asString());
                t.equal("loop echo", sample.get("mode").asString(), response.get("loop").asString());
                t.equal("time echo", sample.get("t").asDouble(), response.get("time").asDouble());
                t.equal("localTime echo", sample.get("localTime").asDouble(), response.get("localTime").asDouble());
            }
        }

        private void checkNode(Tolerances t, String where, JsonNode e, JsonNode local, JsonNode model) {
            t.vector(where + " translation", e.get("t"), local.get("translation"));
            t.quaternion(where + " rotation", e.get("r"), local.get("rotation"));
            t.vector(where + " scale", e.get("s"), local.get("scale"));
            t.matrix(where + " world", e.get("world"), model.get("matrix"));
        }

        private void checkMeshes(Tolerances t, JsonNode sample, String query) {
            JsonNode meshes = expected.get("meshes");
            // D = bounding-box diagonal of the posed mesh: every stored vertex of every primitive on the node
            // (a truncated asset stores a few vertices of each primitive; one primitive alone can be tiny)
            Map<Integer, double[]> boundsByNode = new HashMap<>();
            for (int m = 0; m < meshes.size(); m++) {
                double[] b = boundsByNode.computeIfAbsent(meshes.get(m).get("node").asInt(), k -> emptyBounds());
                include(b, sample.get("meshes").get(m).get("positions"));
            }
            Map<Integer, JsonNode> skinnedByInstance = new HashMap<>();
            for (int m = 0; m < meshes.size(); m++) {
                JsonNode mesh = meshes.get(m);
                JsonNode e = sample.get("meshes").get(m);
                int instance = ourInstance(mesh);
                if (instance < 0) {
                    t.fail("no mesh instance for expected mesh " + m);
                    continue;
                }
                JsonNode skinned = skinnedByInstance.computeIfAbsent(instance, i -> {
                    PosekitClient.Response r = client.get("/api/v1/assets/" + id + "/meshes/" + i
                            + "/skinned?attributes=position,normal" + query);
                    assertThat(r.status()).as("skinned mesh %d: %s", i, r).isEqualTo(200);
                    return r.json();
                });
                JsonNode prim = skinned.get("primitives").get(mesh.get("primitive").asInt());
                String where = "mesh " + m + " (instance " + instance + " primitive " + mesh.get("primitive") + ")";
                JsonNode positions = e.get("positions");
                double d = diagonal(boundsByNode.get(mesh.get("node").asInt()));
                double floor = placementFloor ? Tolerances.MATRIX * maxAbs(boundsByNode.get(mesh.get("node").asInt())) : 0;
                t.vertices(where + " positions", positions, prim.get("positions"), Math.max(Tolerances.POSITION * d, floor));
                if (e.has("normals")) {
                    t.vertices(where + " normals", e.get("normals"), prim.get("normals"), Tolerances.NORMAL);
                }
                checkSums(t, where, e, prim.get("positions"), mesh.get("vertexCount").asInt(), d, floor);
            }
        }

        private static void checkSums(Tolerances t, String where, JsonNode e, JsonNode positions, int count, double d,
                double vertexFloor) {
            double[] sum = new double[3];
            double sumAbs = 0;
            for (int i = 0; i < positions.size(); i++) {
                double v = positions.get(i).asDouble();
                sum[i % 3] += v;
                sumAbs += Math.abs(v);
            }
            t.equal(where + " vertex count", count, positions.size() / 3);
            double floor = Math.max(Tolerances.CHECKSUM * d, vertexFloor) * count;
            for (int c = 0; c < 3; c++) {
                t.checksum(where + " sum[" + c + "]", e.get("sum").get(c).asDouble(), sum[c], floor);
            }
            t.checksum(where + " sumAbs", e.get("sumAbs").asDouble(), sumAbs, floor);
        }

        /** min xyz then max xyz. */
        private static double[] emptyBounds() {
            return new double[] {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE,
                    -Double.MAX_VALUE, -Double.MAX_VALUE};
        }

        private static void include(double[] bounds, JsonNode positions) {
            for (int i = 0; i < positions.size(); i++) {
                double v = positions.get(i).asDouble();
                bounds[i % 3] = Math.min(bounds[i % 3], v);
                bounds[3 + i % 3] = Math.max(bounds[3 + i % 3], v);
            }
        }

        private static double maxAbs(double[] b) {
            double m = 0;
            for (double v : b) {
                m = Math.max(m, Math.abs(v));
            }
            return m;
        }

        private static double diagonal(double[] b) {
            double dx = b[3] - b[0], dy = b[4] - b[1], dz = b[5] - b[2];
            double d = Math.sqrt(dx * dx + dy * dy + dz * dz);
            return d > 0 && Double.isFinite(d) ? d : 1;
        }

        /** Our mesh instance index for an expected mesh entry (by glTF node and mesh), or -1. */
        private int ourInstance(JsonNode mesh) {
            Integer node = nodeBySource.get(mesh.get("node").asInt());
            JsonNode ours = summary.get("meshes");
            for (int i = 0; i < ours.size(); i++) {
                if (node != null && ours.get(i).get("node").asInt() == node) {
                    return i;
                }
            }
            return -1;
        }

        private JsonNode ourPrimitive(JsonNode mesh) {
            int instance = ourInstance(mesh);
            if (instance < 0) {
                return null;
            }
            return summary.get("meshes").get(instance).get("primitives").get(mesh.get("primitive").asInt());
        }

        private String query(JsonNode sample) {
            if (sample.get("mode").asString().equals("static")) {
                return "";
            }
            return "&clip=" + PosekitClient.encode(expected.get("clip").get("name").asString())
                    + "&time=" + sample.get("t").asDouble() + "&loop=" + sample.get("mode").asString();
        }
    }
}
