package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.api.PosekitClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Every FBX expected file of {@code ../shared/conformance} through the real HTTP API: joints and animated nodes
 * matched by name with {@code '.'} removed (three.js drops it: {@code Bone.001} → {@code Bone001}), vertices by rest
 * position, all cluster influences (see {@link NameMatchedCase}), at the README's FBX tolerances.
 *
 * <p>One documented deviation, in {@code huesitos.fbx}: FBX animates a rotation by one curve per Euler angle
 * ({@code Lcl Rotation} {@code d|X}, {@code d|Y}, {@code d|Z}, linear keys every 0.04 s, order XYZ), so between two
 * keys each <i>angle</i> is interpolated linearly and the rotation is {@code Rz(z(t)) · Ry(y(t)) · Rx(x(t))}. three.js's
 * FBXLoader turns the angles at each key into a quaternion and slerps between those instead — a different path between
 * the same two key rotations. The difference grows with the rotation per key: for the three bones that turn fastest
 * ({@code Bone.004}–{@code Bone.006}, up to 32° per key on several axes at once) it exceeds the tolerances between keys
 * (the mesh moves by up to 0.4 units, 0.1 % of its size), on keys the two agree. For the samples between keys those
 * joints and the mesh are checked independently of posekit's FBX code, with their key values written out below (read
 * from the file with a separate FBX dump):
 * <ol>
 *   <li>the oracle's rotation of each joint is the slerp of the quaternions of the two bracketing keys, and its world
 *       matrix the parent's world times that pose — so the slerp is the whole difference;</li>
 *   <li>posekit's local rotation is the rotation of the linearly interpolated angles, its translation and scale the
 *       oracle's, its world matrix the parent's world (the oracle's for {@code Bone.002}, which has constant keys) times
 *       that pose, its skinning matrix that world times the oracle's own {@code world⁻¹ · skinning} of the joint (its
 *       pose-independent bind factor);</li>
 *   <li>the oracle's mesh positions and normals are the linear blend of posekit's influences with the oracle's skinning
 *       matrices, and posekit's the same blend with the independent matrices of (2) for the three joints.</li>
 * </ol>
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class FbxConformanceTest {

    /** three.js's FBXLoader removes '.' from node names; compare both sides without it. */
    static final NameMatchedCase.Options OPTIONS = new NameMatchedCase.Options(name -> name.replace(".", ""), true);

    private static final double TICKS_PER_SECOND = 46_186_158_000.0;
    private static final double KEY_SPACING = 0.04;

    @LocalServerPort
    int port;

    @TestFactory
    Stream<DynamicNode> fbx() {
        assumeTrue(ConformanceData.available(), "../shared/conformance is absent");
        List<Path> files = ConformanceData.expectedFiles("fbx-");
        assertThat(files).as("FBX expected files").hasSizeGreaterThanOrEqualTo(2);
        PosekitClient client = new PosekitClient(port);
        return files.stream().map(file -> {
            JsonNode expected = ConformanceData.read(file);
            List<NameMatchedCase.Deviation> deviations = file.getFileName().toString().startsWith("fbx-huesitos__")
                    ? List.of(eulerCurves(new Asset(client, expected))) : List.of();
            return DynamicContainer.dynamicContainer(file.getFileName().toString(),
                    new NameMatchedCase(client, expected, deviations, OPTIONS).tests());
        });
    }

    /** The mesh whose vertices the fast bones move. */
    private static final String MESH = "Cylinder";
    /** The fast bones, parent first (canonical names), and the parent of the first. */
    private static final List<String> FAST_BONES = List.of("Bone004", "Bone005", "Bone006");
    private static final String FAST_PARENT = "Bone002";

    /**
     * huesitos.fbx {@code Lcl Rotation} keys of the fast bones around the samples between keys: per bone, rows of
     * (KeyTime ticks, d|X, d|Y, d|Z degrees as the float32 KeyValueFloat values).
     */
    private static final Map<String, double[][]> KEYS = Map.of(
            "Bone004", new double[][] {
                {20321909520L, -24.00204849243164, 9.889039993286133, 0.8448213338851929},
                {22169355840L, -20.377784729003906, 8.487871170043945, 1.4237682819366455},
                {25864248480L, -6.465230941772461, 2.762718439102173, 2.795912742614746},
                {27711694800L, 2.5798609256744385, -1.1054809093475342, 2.9270880222320557},
                {35101480080L, 29.300004959106445, -11.845362663269043, -0.15486112236976624},
                {36948926400L, 30.514822006225586, -12.276854515075684, -0.40869084000587463}},
            "Bone005", new double[][] {
                {20321909520L, -5.8373589515686035, 5.404048442840576, -55.06809997558594},
                {22169355840L, -2.322019100189209, 7.684492111206055, -55.073265075683594},
                {25864248480L, 12.136724472045898, 15.99699592590332, -52.34944534301758},
                {27711694800L, 22.259681701660156, 20.8124942779541, -49.04655456542969},
                {35101480080L, 54.634918212890625, 29.98400115966797, -34.098663330078125},
                {36948926400L, 56.136531829833984, 30.18146514892578, -33.30656433105469}},
            "Bone006", new double[][] {
                {20321909520L, 121.76620483398438, 47.30552291870117, 98.74011993408203},
                {22169355840L, 116.81202697753906, 45.59205627441406, 96.25434875488281},
                {25864248480L, 101.64537811279297, 40.98676681518555, 87.81717681884766},
                {27711694800L, 92.7097396850586, 38.01765441894531, 82.93689727783203},
                {35101480080L, 62.59659957885742, 28.271102905273438, 68.09430694580078},
                {36948926400L, 57.44465637207031, 27.87564468383789, 65.50430297851562}});

    private static NameMatchedCase.Deviation eulerCurves(Asset asset) {
        EulerCurveCheck check = new EulerCurveCheck(asset);
        Set<String> names = new java.util.HashSet<>(FAST_BONES);
        names.add(MESH);
        return new NameMatchedCase.Deviation(sample -> isBetweenKeys(sample.get("localTime").asDouble()), names,
                "three.js slerps between the quaternions of the Euler keys; FBX (and posekit) interpolates each Euler"
                        + " angle linearly",
                check::check);
    }

    private static boolean isBetweenKeys(double localTime) {
        double k = localTime / KEY_SPACING;
        return Math.abs(k - Math.rint(k)) > 1e-3;
    }

    /** huesitos.fbx uploaded for the deviation checks (the same bytes give the harness's id). */
    private static final class Asset {

        final PosekitClient client;
        final JsonNode expected;
        private String id;
        JsonNode geometry;
        /** For each expected vertex, the posekit vertices at its rest position. */
        List<List<Integer>> candidates;

        Asset(PosekitClient client, JsonNode expected) {
            this.client = client;
            this.expected = expected;
        }

        JsonNode get(String path) {
            prepare();
            PosekitClient.Response r = client.get("/api/v1/assets/" + id + path);
            assertThat(r.status()).as("%s: %s", path, r).isEqualTo(200);
            return r.json();
        }

        String query(JsonNode sample) {
            return "?clip=" + PosekitClient.encode(expected.get("clip").get("name").asString()) + "&time="
                    + sample.get("t").asDouble() + "&loop=" + sample.get("mode").asString();
        }

        void prepare() {
            if (id != null) {
                return;
            }
            PosekitClient.Response r = client.upload(ConformanceData.uploadFiles(expected));
            assertThat(r.status()).as("upload: %s", r).isIn(200, 201);
            id = r.json().get("id").asString();
            assertThat(r.json().get("meshes")).as("huesitos mesh instances").hasSize(1);
            geometry = get("/meshes/0").get("primitives").get(0);
            double[] ours = doubles(geometry.get("positions"));
            double[] rest = doubles(expected.get("meshes").get(0).get("restPositions"));
            double extent = 0;
            for (double x : ours) {
                extent = Math.max(extent, Math.abs(x));
            }
            double h = 1e-5 * 2 * extent;
            candidates = new ArrayList<>();
            for (int v = 0; v < rest.length / 3; v++) {
                List<Integer> found = new ArrayList<>();
                for (int p = 0; p < ours.length / 3; p++) {
                    boolean near = true;
                    for (int c = 0; c < 3 && near; c++) {
                        near = Math.abs(ours[3 * p + c] - rest[3 * v + c]) <= h;
                    }
                    if (near) {
                        found.add(p);
                    }
                }
                assertThat(found).as("posekit vertices at expected rest position %d", v).isNotEmpty();
                candidates.add(found);
            }
        }

        /** The normalised influences of posekit vertex {@code v}: joint index, weight. */
        List<double[]> influences(int v) {
            List<double[]> out = new ArrayList<>();
            double sum = 0;
            for (int s = 0; s < geometry.get("joints").size(); s++) {
                JsonNode j = geometry.get("joints").get(s);
                JsonNode w = geometry.get("weights").get(s);
                for (int i = 0; i < 4; i++) {
                    double weight = w.get(4 * v + i).asDouble();
                    if (weight != 0) {
                        out.add(new double[] {j.get(4 * v + i).asInt(), weight});
                        sum += weight;
                    }
                }
            }
            assertThat(sum).as("weight sum of vertex %d", v).isPositive();
            for (double[] influence : out) {
                influence[1] /= sum;
            }
            return out;
        }
    }

    /** The independent check of the fast bones and the mesh between keys; see the class comment. */
    private static final class EulerCurveCheck {

        private final Asset asset;

        EulerCurveCheck(Asset asset) {
            this.asset = asset;
        }

        void check(Tolerances t, JsonNode sample, JsonNode localNodes, Map<String, Integer> nodeByName) {
            double time = sample.get("localTime").asDouble();
            String query = asset.query(sample);
            JsonNode model = asset.get("/pose" + query + "&space=model").get("nodes");
            JsonNode skin = asset.get("/skins/0/matrices" + query);
            JsonNode joints = asset.expected.get("skins").get(0).get("joints");
            JsonNode values = sample.get("skins").get(0);
            Map<String, double[]> oracleSkinning = new HashMap<>();
            for (int k = 0; k < joints.size(); k++) {
                oracleSkinning.put(canonical(joints.get(k).get("name").asString()), doubles(values.get(k).get("skinning")));
            }
            Map<String, double[]> independentSkinning = new HashMap<>(oracleSkinning);
            double[] parentOracle = doubles(values.get(index(joints, FAST_PARENT)).get("world"));
            double[] parentOurs = parentOracle;
            for (String bone : FAST_BONES) {
                int k = index(joints, bone);
                JsonNode e = values.get(k);
                Integer node = nodeByName.get(bone);
                assertThat(node).as("posekit node %s", bone).isNotNull();
                String where = "joint '" + bone + "'";
                double[][] keys = bracket(bone, time);
                double u = (time - keys[0][0] / TICKS_PER_SECOND) / ((keys[1][0] - keys[0][0]) / TICKS_PER_SECOND);
                double[] q0 = eulerXyz(keys[0][1], keys[0][2], keys[0][3]);
                double[] q1 = eulerXyz(keys[1][1], keys[1][2], keys[1][3]);
                double[] slerped = slerp(q0, q1, u);
                double[] lerped = eulerXyz(lerp(keys[0][1], keys[1][1], u), lerp(keys[0][2], keys[1][2], u),
                        lerp(keys[0][3], keys[1][3], u));
                double[] translation = doubles(e.get("t"));
                double[] scale = doubles(e.get("s"));
                // (1) the oracle = slerp between the key quaternions
                t.quaternion(where + " oracle rotation = slerp of the key rotations", e.get("r"), json(slerped));
                double[] worldOracle = multiply(parentOracle, trs(translation, slerped, scale));
                t.matrix(where + " oracle world = parent world · slerped pose", e.get("world"), json(worldOracle));
                // (2) posekit = the interpolated angles
                t.quaternion(where + " rotation (Euler angles interpolated)", json(lerped),
                        localNodes.get(node).get("rotation"));
                t.vector(where + " translation", e.get("t"), localNodes.get(node).get("translation"));
                t.vector(where + " scale", e.get("s"), localNodes.get(node).get("scale"));
                double[] worldOurs = multiply(parentOurs, trs(translation, lerped, scale));
                t.matrix(where + " world (Euler angles interpolated)", json(worldOurs), model.get(node).get("matrix"));
                double[] bind = multiply(invert(doubles(e.get("world"))), doubles(e.get("skinning")));
                double[] skinning = multiply(worldOurs, bind);
                t.matrix(where + " skinning (Euler angles interpolated)", json(skinning),
                        skin.get("matrices").get(indexOfName(skin.get("joints"), bone)));
                independentSkinning.put(bone, skinning);
                parentOracle = worldOracle;
                parentOurs = worldOurs;
            }
            checkMesh(t, sample, query, skin, oracleSkinning, independentSkinning);
        }

        /** (3): the mesh blended with the oracle's and with the independent matrices. */
        private void checkMesh(Tolerances t, JsonNode sample, String query, JsonNode skin,
                Map<String, double[]> oracleSkinning, Map<String, double[]> independentSkinning) {
            List<String> names = new ArrayList<>();
            for (JsonNode n : skin.get("joints")) {
                names.add(canonical(n.asString()));
            }
            assertThat(oracleSkinning.keySet()).as("the oracle's joints").containsAll(names);
            JsonNode posed = asset.get("/meshes/0/skinned" + query + "&attributes=position,normal").get("primitives").get(0);
            JsonNode rest = asset.expected.get("meshes").get(0).get("restPositions");
            JsonNode oraclePositions = sample.get("meshes").get(0).get("positions");
            JsonNode oracleNormals = sample.get("meshes").get(0).get("normals");
            int n = rest.size() / 3;
            double[] blendedOracle = new double[3 * n];
            double[] blendedOurs = new double[3 * n];
            double[] ourPositions = new double[3 * n];
            double[] normalsOracle = new double[3 * n];
            double[] normalsIndependent = new double[3 * n];
            double[] ourNormals = new double[3 * n];
            for (int v = 0; v < n; v++) {
                double[] r = at(rest, v);
                int first = asset.candidates.get(v).getFirst();
                put(blendedOracle, v, blendPoint(oracleSkinning, names, first, r));
                put(blendedOurs, v, blendPoint(independentSkinning, names, first, r));
                put(ourPositions, v, at(posed.get("positions"), first));
                double best = Double.MAX_VALUE;
                double[] expectedNormal = at(oracleNormals, v);
                for (int c : asset.candidates.get(v)) {
                    double[] restNormal = at(asset.geometry.get("normals"), c);
                    double[] normal = blendNormal(oracleSkinning, names, c, restNormal);
                    double d = distance(normal, expectedNormal);
                    if (d < best) {
                        best = d;
                        put(normalsOracle, v, normal);
                        put(normalsIndependent, v, blendNormal(independentSkinning, names, c, restNormal));
                        put(ourNormals, v, at(posed.get("normals"), c));
                    }
                }
            }
            double d = diagonal(oraclePositions);
            t.vertices("mesh '" + MESH + "' oracle positions = blend with the oracle's skinning matrices", oraclePositions,
                    json(blendedOracle), Tolerances.POSITION * d);
            t.vertices("mesh '" + MESH + "' positions = blend with the Euler-interpolated matrices", json(blendedOurs),
                    json(ourPositions), Tolerances.POSITION * d);
            t.vertices("mesh '" + MESH + "' oracle normals = blend with the oracle's skinning matrices", oracleNormals,
                    json(normalsOracle), Tolerances.NORMAL);
            t.vertices("mesh '" + MESH + "' normals = blend with the Euler-interpolated matrices",
                    json(normalsIndependent), json(ourNormals), Tolerances.NORMAL);
        }

        private double[] blendPoint(Map<String, double[]> matrices, List<String> names, int v, double[] p) {
            double[] out = new double[3];
            for (double[] influence : asset.influences(v)) {
                double[] m = matrices.get(names.get((int) influence[0]));
                for (int r = 0; r < 3; r++) {
                    out[r] += influence[1] * (m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
                }
            }
            return out;
        }

        private double[] blendNormal(Map<String, double[]> matrices, List<String> names, int v, double[] n) {
            double[] out = new double[3];
            for (double[] influence : asset.influences(v)) {
                double[] it = XConformanceTest.inverseTranspose(matrices.get(names.get((int) influence[0])));
                for (int r = 0; r < 3; r++) {
                    out[r] += influence[1] * (it[r] * n[0] + it[3 + r] * n[1] + it[6 + r] * n[2]);
                }
            }
            double length = Math.sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
            for (int r = 0; r < 3; r++) {
                out[r] /= length;
            }
            return out;
        }
    }

    private static String canonical(String name) {
        return OPTIONS.canonical().apply(name);
    }

    /** The two keys of {@code bone} around {@code time} (they must be in {@link #KEYS}). */
    private static double[][] bracket(String bone, double time) {
        double[][] rows = KEYS.get(bone);
        for (int i = 0; i + 1 < rows.length; i++) {
            double a = rows[i][0] / TICKS_PER_SECOND;
            double b = rows[i + 1][0] / TICKS_PER_SECOND;
            if (time > a && time < b && b - a < 1.5 * KEY_SPACING) {
                return new double[][] {rows[i], rows[i + 1]};
            }
        }
        throw new AssertionError("no keys of " + bone + " around t = " + time + " are written out in the test");
    }

    /** The quaternion {@code [x, y, z, w]} of FBX Euler angles (degrees) in XYZ order: {@code Rz · Ry · Rx}. */
    static double[] eulerXyz(double x, double y, double z) {
        double[] qx = {Math.sin(Math.toRadians(x) / 2), 0, 0, Math.cos(Math.toRadians(x) / 2)};
        double[] qy = {0, Math.sin(Math.toRadians(y) / 2), 0, Math.cos(Math.toRadians(y) / 2)};
        double[] qz = {0, 0, Math.sin(Math.toRadians(z) / 2), Math.cos(Math.toRadians(z) / 2)};
        return product(qz, product(qy, qx));
    }

    /** The Hamilton product {@code a ⊗ b} of quaternions {@code [x, y, z, w]}. */
    private static double[] product(double[] a, double[] b) {
        return new double[] {
            a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
            a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
            a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
            a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    }

    /** Shortest-path spherical interpolation. */
    private static double[] slerp(double[] a, double[] b, double u) {
        double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        double[] c = b.clone();
        if (dot < 0) {
            dot = -dot;
            for (int i = 0; i < 4; i++) {
                c[i] = -c[i];
            }
        }
        double theta = Math.acos(Math.min(1, dot));
        double wa = Math.sin((1 - u) * theta) / Math.sin(theta);
        double wb = Math.sin(u * theta) / Math.sin(theta);
        return new double[] {wa * a[0] + wb * c[0], wa * a[1] + wb * c[1], wa * a[2] + wb * c[2], wa * a[3] + wb * c[3]};
    }

    private static double lerp(double a, double b, double u) {
        return a + (b - a) * u;
    }

    /** {@code T · R · S} column-major. */
    private static double[] trs(double[] t, double[] q, double[] s) {
        double x = q[0], y = q[1], z = q[2], w = q[3];
        double[][] r = {
            {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
            {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
            {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
        double[] m = new double[16];
        for (int row = 0; row < 3; row++) {
            for (int col = 0; col < 3; col++) {
                m[4 * col + row] = r[row][col] * s[col];
            }
            m[12 + row] = t[row];
        }
        m[15] = 1;
        return m;
    }

    private static double[] multiply(double[] a, double[] b) {
        return XConformanceTest.multiply(a, b);
    }

    /** The inverse of an affine column-major matrix. */
    private static double[] invert(double[] m) {
        double[] it = XConformanceTest.inverseTranspose(m);
        double[] out = new double[16];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                // inverse(r, c) = inverseTranspose(c, r); inverseTranspose is column-major 3×3
                out[4 * c + r] = it[3 * r + c];
            }
        }
        for (int r = 0; r < 3; r++) {
            out[12 + r] = -(out[r] * m[12] + out[4 + r] * m[13] + out[8 + r] * m[14]);
        }
        out[15] = 1;
        return out;
    }

    private static int index(JsonNode joints, String canonicalName) {
        for (int i = 0; i < joints.size(); i++) {
            if (canonical(joints.get(i).get("name").asString()).equals(canonicalName)) {
                return i;
            }
        }
        throw new AssertionError("no expected joint " + canonicalName);
    }

    private static int indexOfName(JsonNode names, String canonicalName) {
        for (int i = 0; i < names.size(); i++) {
            if (canonical(names.get(i).asString()).equals(canonicalName)) {
                return i;
            }
        }
        throw new AssertionError("no posekit joint " + canonicalName + " in " + names);
    }

    private static double[] doubles(JsonNode array) {
        double[] out = new double[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asDouble();
        }
        return out;
    }

    private static double[] at(JsonNode flat, int v) {
        return new double[] {flat.get(3 * v).asDouble(), flat.get(3 * v + 1).asDouble(), flat.get(3 * v + 2).asDouble()};
    }

    private static void put(double[] flat, int v, double[] value) {
        System.arraycopy(value, 0, flat, 3 * v, 3);
    }

    private static double distance(double[] a, double[] b) {
        double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
        return Math.sqrt(dx * dx + dy * dy + dz * dz);
    }

    private static ArrayNode json(double[] values) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
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
}
