package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.api.PosekitClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import tools.jackson.databind.JsonNode;

/**
 * The checks of one expected file for formats whose expected data names things instead of indexing them
 * (COLLADA, FBX, BVH, X, MD5, IQM; conformance README): joints and animated nodes are matched by name, clips by
 * name (or, for a clip the loader could only call {@code default}, by duration), and vertices by their rest
 * (bind-shape) position, since loaders order and split vertices differently. Every sample is compared at the
 * README's tolerances.
 *
 * <p>A vertex position can belong to several posekit vertices (split by normals or texture coordinates); they
 * share the control vertex and so the skinned position, and the normal is compared with the closest of them.
 * Checksums: when every vertex of the loader's primitive is stored, the sum is over the matched vertices; for a
 * truncated asset it is over posekit's triangle corners (loaders that de-index emit one vertex per corner).
 */
final class NameMatchedCase {

    /** A documented difference between posekit and the oracle: which samples and names it covers, and why. */
    record Deviation(Predicate<JsonNode> sample, Set<String> names, String reason, SampleCheck check) {
    }

    /** An independent check that replaces the oracle's values where the oracle is known to be wrong. */
    interface SampleCheck {
        void check(Tolerances t, JsonNode sample, JsonNode localNodes, Map<String, Integer> nodeByName);
    }

    /**
     * How a format's test tells the harness about names.
     *
     * @param canonical maps a name (expected or posekit's) to the form both are compared in, e.g. every BVH end
     *     site to {@code ENDSITE}; names equal after mapping are matched in order of appearance (depth-first, as
     *     both list them), so repeated names pair up one by one
     * @param skinned whether posekit has skins for this format (BVH rigs have none: skinning matrices are not
     *     compared, poses still are)
     */
    record Options(java.util.function.UnaryOperator<String> canonical, boolean skinned) {

        static final Options DEFAULT = new Options(name -> name, true);
    }

    private final PosekitClient client;
    private final JsonNode expected;
    private final List<Deviation> deviations;
    private final Options options;
    private String id;
    private JsonNode summary;
    private String clipQueryName;
    /** Expected name (with its occurrence) to posekit node index; see {@link #occurrenceKey}. */
    private final Map<String, Integer> nodeByName = new HashMap<>();

    NameMatchedCase(PosekitClient client, JsonNode expected, List<Deviation> deviations) {
        this(client, expected, deviations, Options.DEFAULT);
    }

    NameMatchedCase(PosekitClient client, JsonNode expected, List<Deviation> deviations, Options options) {
        this.client = client;
        this.expected = expected;
        this.deviations = deviations;
        this.options = options;
    }

    /** A name made unique by its occurrence: the second node called X is {@code X#1}. */
    private static String occurrenceKey(String name, Map<String, Integer> seen) {
        int n = seen.merge(name, 1, Integer::sum) - 1;
        return n == 0 ? name : name + "#" + n;
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
        PosekitClient.Response r = client.upload(ConformanceData.uploadFiles(expected));
        assertThat(r.status()).as("upload: %s", r).isIn(200, 201);
        summary = r.json();
        id = summary.get("id").asString();
        Map<String, Integer> seen = new HashMap<>();
        for (JsonNode node : summary.get("nodes")) {
            if (!node.get("name").isNull()) {
                String key = occurrenceKey(options.canonical().apply(node.get("name").asString()), seen);
                nodeByName.put(key, node.get("index").asInt());
            }
        }
        Tolerances t = new Tolerances();
        t.equal("format", expected.get("format").asString(), summary.get("format").asString());
        JsonNode clip = expected.get("clip");
        if (!clip.isNull()) {
            clipQueryName = ourClip(clip);
            if (clipQueryName == null) {
                t.fail("no clip matching '" + clip.get("name").asString() + "' (duration " + clip.get("duration").asDouble()
                        + "); ours: " + summary.get("clips"));
            }
        }
        for (JsonNode skin : expected.get("skins")) {
            for (String key : jointKeys(skin.get("joints"))) {
                if (!nodeByName.containsKey(key) && !deviates(deviations, key)) {
                    t.fail("no node named '" + key + "'");
                }
            }
        }
        assertThat(t.failures()).as("summary mismatches").isEmpty();
    }

    /** The expected joints' names, canonical and made unique by occurrence (see {@link Options}). */
    private List<String> jointKeys(JsonNode joints) {
        Map<String, Integer> seen = new HashMap<>();
        List<String> keys = new ArrayList<>();
        for (JsonNode joint : joints) {
            keys.add(occurrenceKey(options.canonical().apply(joint.get("name").asString()), seen));
        }
        return keys;
    }

    /** Our clip for the expected one: same name, or for the loader's catch-all 'default', same duration. */
    private String ourClip(JsonNode clip) {
        String name = clip.get("name").asString();
        double duration = clip.get("duration").asDouble();
        for (JsonNode c : summary.get("clips")) {
            if (c.get("name").asString().equals(name)) {
                return name;
            }
        }
        if (name.equals("default")) {
            for (JsonNode c : summary.get("clips")) {
                if (Math.abs(c.get("duration").asDouble() - duration) < 1e-6) {
                    return c.get("name").asString();
                }
            }
        }
        return null;
    }

    void checkSample(JsonNode sample) {
        ensureUploaded();
        String query = query(sample);
        Tolerances t = new Tolerances();
        JsonNode local = get("/pose?space=local" + query).get("nodes");
        JsonNode model = get("/pose?space=model" + query).get("nodes");
        List<Deviation> active = deviations.stream().filter(d -> d.sample().test(sample)).toList();
        for (Deviation d : active) {
            d.check().check(t, sample, local, nodeByName);
        }

        JsonNode skins = expected.get("skins");
        for (int s = 0; s < skins.size(); s++) {
            JsonNode joints = skins.get(s).get("joints");
            List<String> keys = jointKeys(joints);
            JsonNode values = sample.get("skins").get(s);
            Map<String, JsonNode> ourMatrices = options.skinned() ? skinningMatricesByJoint(keys, query) : Map.of();
            for (int k = 0; k < joints.size(); k++) {
                String key = keys.get(k);
                if (deviates(active, key) || deviates(deviations, key) && !nodeByName.containsKey(key)) {
                    continue;
                }
                Integer node = nodeByName.get(key);
                String where = "skin " + s + " joint '" + key + "'";
                checkNode(t, where, values.get(k), local.get(node), model.get(node));
                if (!options.skinned()) {
                    continue;
                }
                JsonNode ours = ourMatrices.get(key);
                if (ours == null) {
                    t.fail(where + ": not a joint of the matching posekit skin");
                } else {
                    t.matrix(where + " skinning", values.get(k).get("skinning"), ours);
                }
            }
        }
        JsonNode animated = sample.get("nodes");
        if (animated != null) {
            for (JsonNode e : animated) {
                String name = options.canonical().apply(e.get("name").asString());
                if (deviates(active, name)) {
                    continue;
                }
                Integer node = nodeByName.get(name);
                if (node == null) {
                    t.fail("no node named '" + name + "'");
                } else {
                    checkNode(t, "node '" + name + "'", e, local.get(node), model.get(node));
                }
            }
        }
        checkMeshes(t, sample, query, active);
        assertThat(t.failures()).as("%d mismatches in %d checks", t.failures().size(), t.checks()).isEmpty();
    }

    private static boolean deviates(List<Deviation> active, String name) {
        return active.stream().anyMatch(d -> d.names().contains(name));
    }

    /** Our skinning matrices by joint key, from the posekit skin that holds most of the expected joints. */
    private Map<String, JsonNode> skinningMatricesByJoint(List<String> expectedKeys, String query) {
        Map<String, JsonNode> best = Map.of();
        long bestHits = 0;
        for (int s = 0; s < summary.get("skins").size(); s++) {
            JsonNode r = get("/skins/" + s + "/matrices" + (query.isEmpty() ? "" : "?" + query.substring(1)));
            Map<String, JsonNode> byKey = new HashMap<>();
            Map<String, Integer> seen = new HashMap<>();
            for (int k = 0; k < r.get("joints").size(); k++) {
                JsonNode name = r.get("joints").get(k);
                if (!name.isNull()) {
                    byKey.put(occurrenceKey(options.canonical().apply(name.asString()), seen), r.get("matrices").get(k));
                }
            }
            long hits = expectedKeys.stream().filter(byKey::containsKey).count();
            if (hits > bestHits) {
                best = byKey;
                bestHits = hits;
            }
        }
        return best;
    }

    private void checkNode(Tolerances t, String where, JsonNode e, JsonNode local, JsonNode model) {
        t.vector(where + " translation", e.get("t"), local.get("translation"));
        t.quaternion(where + " rotation", e.get("r"), local.get("rotation"));
        t.vector(where + " scale", e.get("s"), local.get("scale"));
        t.matrix(where + " world", e.get("world"), model.get("matrix"));
    }

    /** Where an expected vertex is in posekit's output: mesh instance, primitive, vertex. */
    private record VertexRef(int instance, int primitive, int vertex) {
    }

    private void checkMeshes(Tolerances t, JsonNode sample, String query, List<Deviation> active) {
        JsonNode meshes = expected.get("meshes");
        Map<Integer, JsonNode> geometry = new HashMap<>();
        Map<Integer, JsonNode> skinned = new HashMap<>();
        for (int m = 0; m < meshes.size(); m++) {
            JsonNode mesh = meshes.get(m);
            if (deviates(active, mesh.get("name").asString())) {
                continue;
            }
            JsonNode e = sample.get("meshes").get(m);
            JsonNode rest = mesh.get("restPositions");
            int n = rest.size() / 3;
            String where = "mesh " + m + " '" + mesh.get("name").asString() + "'";
            int instance = bestInstance(mesh, rest, geometry);
            if (instance < 0) {
                t.fail(where + ": no posekit mesh instance holds its rest positions");
                continue;
            }
            JsonNode geo = geometry.get(instance);
            JsonNode posed = skinned.computeIfAbsent(instance, i -> get("/meshes/" + i + "/skinned?attributes=position,normal" + query));
            RestIndex byRest = restIndex(instance, geo);
            double[] positions = new double[3 * n];
            double[] normals = e.has("normals") ? new double[3 * n] : null;
            int unmatched = 0;
            for (int v = 0; v < n; v++) {
                List<VertexRef> candidates = byRest.at(rest, v);
                if (candidates == null) {
                    unmatched++;
                    continue;
                }
                VertexRef first = candidates.getFirst();
                JsonNode p = posed.get("primitives").get(first.primitive()).get("positions");
                for (int c = 0; c < 3; c++) {
                    positions[3 * v + c] = p.get(3 * first.vertex() + c).asDouble();
                }
                if (normals != null) {
                    closestNormal(posed, candidates, e.get("normals"), v, normals);
                }
            }
            if (unmatched > 0) {
                t.fail(where + ": " + unmatched + " of " + n + " rest positions not found in posekit's mesh " + instance);
                continue;
            }
            double d = diagonal(e.get("positions"));
            t.vertices(where + " positions", e.get("positions"), toJson(positions), Tolerances.POSITION * d);
            if (normals != null) {
                t.vertices(where + " normals", e.get("normals"), toJson(normals), Tolerances.NORMAL);
            }
            int count = mesh.get("vertexCount").asInt();
            double[] sums = count == n ? sums(positions) : cornerSums(geo, posed, t, where, count);
            if (sums != null) {
                double floor = Tolerances.CHECKSUM * d * count;
                for (int c = 0; c < 3; c++) {
                    t.checksum(where + " sum[" + c + "]", e.get("sum").get(c).asDouble(), sums[c], floor);
                }
                t.checksum(where + " sumAbs", e.get("sumAbs").asDouble(), sums[3], floor);
            }
        }
    }

    /** The mesh instance (of the right kind) whose bind-shape positions hold the most of the expected ones. */
    private int bestInstance(JsonNode mesh, JsonNode rest, Map<Integer, JsonNode> geometry) {
        boolean skinnedMesh = mesh.get("skinned").asBoolean();
        int best = -1;
        int bestHits = 0;
        for (int i = 0; i < summary.get("meshes").size(); i++) {
            boolean ours = !summary.get("meshes").get(i).get("skin").isNull();
            if (ours != skinnedMesh) {
                continue;
            }
            JsonNode geo = geometry.computeIfAbsent(i, k -> get("/meshes/" + k));
            RestIndex byRest = restIndex(i, geo);
            int hits = 0;
            for (int v = 0; v < rest.size() / 3; v++) {
                hits += byRest.at(rest, v) != null ? 1 : 0;
            }
            if (hits > bestHits) {
                best = i;
                bestHits = hits;
            }
        }
        return best;
    }

    private final Map<Integer, RestIndex> restIndexes = new HashMap<>();

    private RestIndex restIndex(int instance, JsonNode geo) {
        return restIndexes.computeIfAbsent(instance, i -> new RestIndex(i, geo));
    }

    /**
     * posekit's bind-shape vertices of one mesh instance on a grid, to find the ones at an expected rest position:
     * the same position within 1e-5 of the instance's extent (expected data holds 6 significant digits).
     */
    private static final class RestIndex {

        private final Map<Long, List<VertexRef>> cells = new HashMap<>();
        private final Map<VertexRef, double[]> points = new HashMap<>();
        private final double h;

        RestIndex(int instance, JsonNode geo) {
            double[] min = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
            double[] max = {-Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE};
            JsonNode prims = geo.get("primitives");
            for (int p = 0; p < prims.size(); p++) {
                JsonNode pos = prims.get(p).get("positions");
                for (int i = 0; i < pos.size(); i++) {
                    min[i % 3] = Math.min(min[i % 3], pos.get(i).asDouble());
                    max[i % 3] = Math.max(max[i % 3], pos.get(i).asDouble());
                }
            }
            double extent = Math.max(max[0] - min[0], Math.max(max[1] - min[1], max[2] - min[2]));
            h = 1e-5 * (extent > 0 && Double.isFinite(extent) ? extent : 1);
            for (int p = 0; p < prims.size(); p++) {
                JsonNode pos = prims.get(p).get("positions");
                for (int v = 0; v < pos.size() / 3; v++) {
                    double[] xyz = {pos.get(3 * v).asDouble(), pos.get(3 * v + 1).asDouble(), pos.get(3 * v + 2).asDouble()};
                    VertexRef ref = new VertexRef(instance, p, v);
                    points.put(ref, xyz);
                    cells.computeIfAbsent(cell(xyz, 0, 0, 0), k -> new ArrayList<>()).add(ref);
                }
            }
        }

        private long cell(double[] xyz, int dx, int dy, int dz) {
            long x = (long) Math.floor(xyz[0] / h) + dx;
            long y = (long) Math.floor(xyz[1] / h) + dy;
            long z = (long) Math.floor(xyz[2] / h) + dz;
            return (x * 73856093L) ^ (y * 19349663L) ^ (z * 83492791L);
        }

        /** posekit's vertices at the expected vertex {@code v}'s rest position, or {@code null}. */
        List<VertexRef> at(JsonNode flat, int v) {
            double[] xyz = {flat.get(3 * v).asDouble(), flat.get(3 * v + 1).asDouble(), flat.get(3 * v + 2).asDouble()};
            List<VertexRef> found = null;
            for (int dx = -1; dx <= 1; dx++) {
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dz = -1; dz <= 1; dz++) {
                        for (VertexRef ref : cells.getOrDefault(cell(xyz, dx, dy, dz), List.of())) {
                            double[] p = points.get(ref);
                            if (Math.abs(p[0] - xyz[0]) <= h && Math.abs(p[1] - xyz[1]) <= h && Math.abs(p[2] - xyz[2]) <= h) {
                                if (found == null) {
                                    found = new ArrayList<>();
                                }
                                if (!found.contains(ref)) {
                                    found.add(ref);
                                }
                            }
                        }
                    }
                }
            }
            return found;
        }
    }

    private static void closestNormal(JsonNode posed, List<VertexRef> candidates, JsonNode expectedNormals, int v,
            double[] out) {
        double bestDistance = Double.MAX_VALUE;
        for (VertexRef ref : candidates) {
            JsonNode n = posed.get("primitives").get(ref.primitive()).get("normals");
            if (n == null) {
                continue;
            }
            double d = 0;
            for (int c = 0; c < 3; c++) {
                double diff = n.get(3 * ref.vertex() + c).asDouble() - expectedNormals.get(3 * v + c).asDouble();
                d += diff * diff;
            }
            if (d < bestDistance) {
                bestDistance = d;
                for (int c = 0; c < 3; c++) {
                    out[3 * v + c] = n.get(3 * ref.vertex() + c).asDouble();
                }
            }
        }
    }

    private static double[] sums(double[] positions) {
        double[] s = new double[4];
        for (int i = 0; i < positions.length; i++) {
            s[i % 3] += positions[i];
            s[3] += Math.abs(positions[i]);
        }
        return s;
    }

    /** Sums over every triangle corner of the instance (one loader vertex per corner). */
    private static double[] cornerSums(JsonNode geo, JsonNode posed, Tolerances t, String where, int expectedCount) {
        double[] s = new double[4];
        int corners = 0;
        for (int p = 0; p < geo.get("primitives").size(); p++) {
            JsonNode indices = geo.get("primitives").get(p).get("indices");
            JsonNode pos = posed.get("primitives").get(p).get("positions");
            for (JsonNode index : indices) {
                int v = index.asInt();
                for (int c = 0; c < 3; c++) {
                    double x = pos.get(3 * v + c).asDouble();
                    s[c] += x;
                    s[3] += Math.abs(x);
                }
                corners++;
            }
        }
        t.equal(where + " triangle corners", expectedCount, corners);
        return corners == expectedCount ? s : null;
    }

    private static JsonNode toJson(double[] values) {
        tools.jackson.databind.node.ArrayNode a = tools.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        for (double v : values) {
            a.add(v);
        }
        return a;
    }

    private static double diagonal(JsonNode positions) {
        double[] min = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        double[] max = {-Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE};
        for (int i = 0; i < positions.size(); i++) {
            double v = positions.get(i).asDouble();
            min[i % 3] = Math.min(min[i % 3], v);
            max[i % 3] = Math.max(max[i % 3], v);
        }
        double dx = max[0] - min[0], dy = max[1] - min[1], dz = max[2] - min[2];
        double d = Math.sqrt(dx * dx + dy * dy + dz * dz);
        return d > 0 && Double.isFinite(d) ? d : 1;
    }

    private JsonNode get(String path) {
        PosekitClient.Response r = client.get("/api/v1/assets/" + id + path);
        assertThat(r.status()).as("%s: %s", path, r).isEqualTo(200);
        return r.json();
    }

    private String query(JsonNode sample) {
        if (sample.get("mode").asString().equals("static") || clipQueryName == null) {
            return "";
        }
        return "&clip=" + PosekitClient.encode(clipQueryName) + "&time=" + sample.get("t").asDouble() + "&loop="
                + sample.get("mode").asString();
    }
}
