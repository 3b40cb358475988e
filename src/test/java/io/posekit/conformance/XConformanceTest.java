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
 * Every DirectX {@code .x} expected file of {@code ../shared/conformance} through the real HTTP API: joints and
 * animated nodes matched by name, vertices by rest position (see {@link NameMatchedCase}). The expected data is
 * assimp's (assimpjs → glTF → three.js), in assimp's scene space, which posekit reproduces (Z mirrored).
 *
 * <p>One documented deviation, in {@code anim_test.x}: its mesh has four bones but the file's hierarchy has only
 * two of them ({@code joint3} and {@code joint4} are missing; the asset's own notes say the exporter failed).
 * assimp's glTF exporter resolves each missing bone's node by name, finds nothing and falls back to node 0, the
 * {@code $dummy_root} its X parser puts above several top-level frames; both bones become that one joint with
 * {@code joint3}'s offset matrix. Since {@code $dummy_root} is the identity, its skinning matrix is that offset
 * matrix itself, which moves every vertex weighted to the missing bones even in the rest pose: at t = 0, when the
 * skinning matrices of {@code joint1} and {@code joint2} are the identity to 3e-5, 2500 of the 2520 oracle vertices
 * lie up to 6.6 units (on a 10-unit cylinder) from their rest positions. posekit binds each missing bone to a static
 * node of its name at the bone's bind pose instead, so those influences keep the vertices where they are bound.
 *
 * <p>For that mesh (and the animated node {@code pCylinder1}, which shares its name) the check is replaced by an
 * independent one at the same tolerances, using each vertex's influences and rest position: (1) linear blend
 * skinning with the oracle's own skinning matrices, {@code $dummy_root}'s for the missing bones, reproduces the
 * oracle's positions and normals — the artefact is the only difference — and (2) with posekit's matrices for
 * {@code joint1}/{@code joint2} (checked independently, see below) and the identity for the missing bones (their
 * bind-pose nodes) reproduces posekit's; posekit's skinning matrices of {@code joint3}/{@code joint4} are the
 * identity, and {@code pCylinder1}'s pose matches the oracle.
 *
 * <p>A second deviation, also in {@code anim_test.x}: its rotation keys are not quite unit quaternions (length
 * 1.0000007, six decimals). assimp turns each rotation key into a matrix and back ({@code aiQuaternion(q.GetMatrix())},
 * in float32) before it inverts it; for a non-unit quaternion that round trip yields a slightly different rotation
 * (about 3e-6 rad), which the inverse bind's 4.8-unit translation turns into skinning matrices up to 3.5e-5 off — so
 * the oracle's {@code joint1} skinning matrix in the rest pose, which is the bind pose, is not the identity
 * (translation −3.5e-5, 2.0e-5, −1.5e-5), while the exact one is (to 1.4e-6). posekit normalises the keys, which
 * are six-decimal roundings of unit quaternions. For {@code joint1} and {@code joint2} the local translation, rotation
 * and scale are still compared with the oracle's at the usual tolerances (the round trip is below them), and the
 * model and skinning matrices are checked against an independent evaluation of the file's keys (read from the
 * {@code .x} text here, lerp/exact slerp, the oracle's inverse binds) at the usual tolerances; the same evaluation
 * with assimp's round trip applied to each key reproduces the oracle's matrices, which proves the round trip is the
 * whole difference.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class XConformanceTest {

    @LocalServerPort
    int port;

    @TestFactory
    Stream<DynamicNode> x() {
        assumeTrue(ConformanceData.available(), "../shared/conformance is absent");
        List<Path> files = ConformanceData.expectedFiles("x-");
        assertThat(files).as("X expected files").hasSizeGreaterThanOrEqualTo(2);
        PosekitClient client = new PosekitClient(port);
        return files.stream().map(file -> {
            JsonNode expected = ConformanceData.read(file);
            List<NameMatchedCase.Deviation> deviations = List.of();
            if (file.getFileName().toString().startsWith("x-anim_test__")) {
                AnimTest asset = new AnimTest(client, expected);
                deviations = List.of(missingBones(asset), keyRoundTrip(asset));
            }
            return DynamicContainer.dynamicContainer(file.getFileName().toString(),
                    new NameMatchedCase(client, expected, deviations).tests());
        });
    }

    /** The bones absent from the hierarchy and the oracle's joint standing in for them. */
    private static final Set<String> MISSING_BONES = Set.of("joint3", "joint4");
    private static final String DUMMY_ROOT = "$dummy_root";
    private static final String MESH = "pCylinder1";

    private static NameMatchedCase.Deviation missingBones(AnimTest asset) {
        MissingBonesCheck check = new MissingBonesCheck(asset);
        return new NameMatchedCase.Deviation(sample -> true, Set.of(DUMMY_ROOT, MESH),
                "assimp binds the bones missing from the hierarchy (joint3, joint4) to its identity scene root"
                        + " $dummy_root with joint3's offset matrix, which distorts the rest pose; posekit binds them to"
                        + " static nodes at their bind pose",
                check::check);
    }

    /** anim_test.x uploaded once for the deviation checks (the same bytes give the same id as the harness's upload). */
    private static final class AnimTest {

        final PosekitClient client;
        final JsonNode expected;
        private String id;
        JsonNode geometry;
        /** For each expected vertex, the posekit vertices at its rest position. */
        List<List<Integer>> candidates;

        AnimTest(PosekitClient client, JsonNode expected) {
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

        /** Uploads the asset and matches the expected vertices by rest position. */
        void prepare() {
            if (id != null) {
                return;
            }
            PosekitClient.Response r = client.upload(ConformanceData.uploadFiles(expected));
            assertThat(r.status()).as("upload: %s", r).isIn(200, 201);
            id = r.json().get("id").asString();
            assertThat(r.json().get("meshes")).as("anim_test mesh instances").hasSize(1);
            geometry = get("/meshes/0").get("primitives").get(0);
            double[] ours = doubles(geometry.get("positions"));
            double[] rest = doubles(expected.get("meshes").get(0).get("restPositions"));
            double extent = 0;
            for (double x : ours) {
                extent = Math.max(extent, Math.abs(x));
            }
            // the harness's rest-position match: within 1e-5 of the extent (expected data holds 6 digits)
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

    }

    /** The independent check of anim_test's mesh and its node; see the class comment. */
    private static final class MissingBonesCheck {

        private final AnimTest asset;
        private final JsonNode expected;

        MissingBonesCheck(AnimTest asset) {
            this.asset = asset;
            this.expected = asset.expected;
        }

        void check(Tolerances t, JsonNode sample, JsonNode localNodes, Map<String, Integer> nodeByName) {
            asset.prepare();
            String query = asset.query(sample);
            checkMeshNode(t, sample, localNodes, nodeByName, query);

            // the oracle's skinning matrices by joint name, $dummy_root standing in for the missing bones
            Map<String, double[]> oracle = new HashMap<>();
            JsonNode joints = expected.get("skins").get(0).get("joints");
            for (int k = 0; k < joints.size(); k++) {
                oracle.put(joints.get(k).get("name").asString(), doubles(sample.get("skins").get(0).get(k).get("skinning")));
            }
            assertThat(oracle).containsKeys("joint1", "joint2", DUMMY_ROOT);
            // posekit's skin: joint names by index; the missing bones' matrices must be the identity (joint1 and
            // joint2's are checked against an independent evaluation by the other deviation's check)
            JsonNode skin = asset.get("/skins/0/matrices" + query);
            List<String> names = new ArrayList<>();
            Map<String, double[]> ours = new HashMap<>();
            for (int k = 0; k < skin.get("joints").size(); k++) {
                String name = skin.get("joints").get(k).asString();
                names.add(name);
                ours.put(name, doubles(skin.get("matrices").get(k)));
                if (MISSING_BONES.contains(name)) {
                    t.matrix("posekit skinning matrix of the bind-pose node '" + name + "'", json(identity()),
                            skin.get("matrices").get(k));
                }
            }
            assertThat(names).containsAll(MISSING_BONES);
            Map<String, double[]> withArtefact = new HashMap<>();
            Map<String, double[]> withBindPose = new HashMap<>();
            for (String name : names) {
                boolean missing = MISSING_BONES.contains(name);
                withArtefact.put(name, oracle.get(missing ? DUMMY_ROOT : name));
                withBindPose.put(name, missing ? identity() : ours.get(name));
            }

            JsonNode posed = asset.get("/meshes/0/skinned" + query + "&attributes=position,normal").get("primitives").get(0);
            JsonNode rest = expected.get("meshes").get(0).get("restPositions");
            JsonNode oraclePositions = sample.get("meshes").get(0).get("positions");
            JsonNode oracleNormals = sample.get("meshes").get(0).get("normals");
            int n = rest.size() / 3;
            double[] artefactPositions = new double[3 * n];
            double[] bindPosePositions = new double[3 * n];
            double[] ourPositions = new double[3 * n];
            double[] artefactNormals = new double[3 * n];
            double[] bindPoseNormals = new double[3 * n];
            double[] ourNormals = new double[3 * n];
            for (int v = 0; v < n; v++) {
                double[] r = {rest.get(3 * v).asDouble(), rest.get(3 * v + 1).asDouble(), rest.get(3 * v + 2).asDouble()};
                int first = asset.candidates.get(v).getFirst();
                put(artefactPositions, v, blendPoint(withArtefact, names, first, r));
                put(bindPosePositions, v, blendPoint(withBindPose, names, first, r));
                put(ourPositions, v, at(posed.get("positions"), first));
                // the candidate (a split of the position) whose rest normal reproduces the oracle's normal
                double best = Double.MAX_VALUE;
                double[] expectedNormal = at(oracleNormals, v);
                for (int c : asset.candidates.get(v)) {
                    double[] restNormal = at(asset.geometry.get("normals"), c);
                    double[] normal = blendNormal(withArtefact, names, c, restNormal);
                    double d = distance(normal, expectedNormal);
                    if (d < best) {
                        best = d;
                        put(artefactNormals, v, normal);
                        put(bindPoseNormals, v, blendNormal(withBindPose, names, c, restNormal));
                        put(ourNormals, v, at(posed.get("normals"), c));
                    }
                }
            }
            double d = diagonal(oraclePositions);
            t.vertices("oracle positions = skinning with $dummy_root for the missing bones", oraclePositions,
                    json(artefactPositions), Tolerances.POSITION * d);
            t.vertices("posekit positions = skinning with the bind pose for the missing bones", json(bindPosePositions),
                    json(ourPositions), Tolerances.POSITION * d);
            t.vertices("oracle normals = skinning with $dummy_root for the missing bones", oracleNormals,
                    json(artefactNormals), Tolerances.NORMAL);
            t.vertices("posekit normals = skinning with the bind pose for the missing bones", json(bindPoseNormals),
                    json(ourNormals), Tolerances.NORMAL);
        }

        /** The animated node that shares the mesh's name, against the oracle as usual. */
        private void checkMeshNode(Tolerances t, JsonNode sample, JsonNode localNodes, Map<String, Integer> nodeByName,
                String query) {
            JsonNode e = null;
            for (JsonNode node : sample.get("nodes")) {
                if (node.get("name").asString().equals(MESH)) {
                    e = node;
                }
            }
            assertThat(e).as("oracle node %s", MESH).isNotNull();
            Integer node = nodeByName.get(MESH);
            assertThat(node).as("posekit node %s", MESH).isNotNull();
            JsonNode local = localNodes.get(node);
            JsonNode model = asset.get("/pose" + query + "&space=model").get("nodes").get(node);
            t.vector("node '" + MESH + "' translation", e.get("t"), local.get("translation"));
            t.quaternion("node '" + MESH + "' rotation", e.get("r"), local.get("rotation"));
            t.vector("node '" + MESH + "' scale", e.get("s"), local.get("scale"));
            t.matrix("node '" + MESH + "' world", e.get("world"), model.get("matrix"));
        }

        /** The normalised influences of posekit vertex {@code v}: joint index, weight. */
        private List<double[]> influences(int v) {
            List<double[]> out = new ArrayList<>();
            double sum = 0;
            for (int s = 0; s < asset.geometry.get("joints").size(); s++) {
                JsonNode j = asset.geometry.get("joints").get(s);
                JsonNode w = asset.geometry.get("weights").get(s);
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

        private double[] blendPoint(Map<String, double[]> matrices, List<String> names, int v, double[] p) {
            double[] out = new double[3];
            for (double[] influence : influences(v)) {
                double[] m = matrices.get(names.get((int) influence[0]));
                for (int r = 0; r < 3; r++) {
                    out[r] += influence[1] * (m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
                }
            }
            return out;
        }

        private double[] blendNormal(Map<String, double[]> matrices, List<String> names, int v, double[] n) {
            double[] out = new double[3];
            for (double[] influence : influences(v)) {
                double[] it = inverseTranspose(matrices.get(names.get((int) influence[0])));
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

    /** The joints whose rotation keys assimp round-trips through a matrix. */
    private static final List<String> ROUND_TRIP_JOINTS = List.of("joint1", "joint2");

    private static NameMatchedCase.Deviation keyRoundTrip(AnimTest asset) {
        KeyRoundTripCheck check = new KeyRoundTripCheck(asset);
        return new NameMatchedCase.Deviation(sample -> true, Set.copyOf(ROUND_TRIP_JOINTS),
                "assimp round-trips the slightly non-unit rotation keys through a float32 matrix, turning them by"
                        + " ~3e-6 rad, which the inverse binds amplify to 3.5e-5 in the skinning matrices; posekit"
                        + " normalises the keys",
                check::check);
    }

    /**
     * joint1 and joint2 of anim_test: local TRS against the oracle; model and skinning matrices against an
     * independent evaluation of the file's keys; and the oracle's matrices against the same evaluation with
     * assimp's round trip applied to each rotation key.
     */
    private static final class KeyRoundTripCheck {

        private final AnimTest asset;
        /** Per joint: key type (0 rotation, 1 scale, 2 position) to rows {tick, values…}. */
        private Map<String, Map<Integer, List<double[]>>> keys;
        private double ticksPerSecond;

        KeyRoundTripCheck(AnimTest asset) {
            this.asset = asset;
        }

        /** Reads the joints' AnimationKeys from the .x text (a plain reading, independent of posekit's parser). */
        private void readKeys() {
            if (keys != null) {
                return;
            }
            String text;
            try {
                text = java.nio.file.Files.readString(ConformanceData.root().resolve(asset.expected.get("asset").asString()));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            java.util.regex.Matcher tps = java.util.regex.Pattern.compile("AnimTicksPerSecond\\s*\\{\\s*(\\d+);").matcher(text);
            assertThat(tps.find()).as("AnimTicksPerSecond in anim_test.x").isTrue();
            ticksPerSecond = Double.parseDouble(tps.group(1));
            java.util.regex.Pattern keyBlock = java.util.regex.Pattern.compile(
                    "AnimationKey\\s*\\{\\s*(\\d+);\\s*(\\d+);(.*?)\\}", java.util.regex.Pattern.DOTALL);
            java.util.regex.Pattern entry = java.util.regex.Pattern.compile("(\\d+);(\\d+);([-0-9.,]+);;");
            keys = new HashMap<>();
            for (String joint : ROUND_TRIP_JOINTS) {
                int from = text.indexOf("{ " + joint + " }");
                assertThat(from).as("the Animation of %s in anim_test.x", joint).isPositive();
                int to = text.indexOf("Animation {", from);
                String block = text.substring(from, to < 0 ? text.length() : to);
                Map<Integer, List<double[]>> byType = new HashMap<>();
                java.util.regex.Matcher k = keyBlock.matcher(block);
                while (k.find()) {
                    List<double[]> rows = new ArrayList<>();
                    java.util.regex.Matcher e = entry.matcher(k.group(3));
                    while (e.find()) {
                        String[] values = e.group(3).split(",");
                        double[] row = new double[1 + values.length];
                        row[0] = Double.parseDouble(e.group(1));
                        for (int i = 0; i < values.length; i++) {
                            row[1 + i] = Double.parseDouble(values[i]);
                        }
                        rows.add(row);
                    }
                    assertThat(rows).as("%s key type %s", joint, k.group(1)).hasSize(Integer.parseInt(k.group(2)));
                    byType.put(Integer.parseInt(k.group(1)), rows);
                }
                assertThat(byType).as("%s keys", joint).containsKeys(0, 1, 2);
                keys.put(joint, byType);
            }
        }

        void check(Tolerances t, JsonNode sample, JsonNode localNodes, Map<String, Integer> nodeByName) {
            readKeys();
            String query = asset.query(sample);
            double time = sample.get("localTime").asDouble();
            JsonNode model = asset.get("/pose" + query + "&space=model").get("nodes");
            JsonNode skin = asset.get("/skins/0/matrices" + query);
            JsonNode expectedJoints = asset.expected.get("skins").get(0).get("joints");
            double[] parentExact = identity();
            double[] parentAssimp = identity();
            for (String joint : ROUND_TRIP_JOINTS) {
                int k = indexOf(expectedJoints, joint);
                JsonNode e = sample.get("skins").get(0).get(k);
                double[] ibm = doubles(asset.expected.get("skins").get(0).get("inverseBindMatrices").get(k));
                Integer node = nodeByName.get(joint);
                assertThat(node).as("posekit node %s", joint).isNotNull();
                String where = "joint '" + joint + "'";
                // the pose itself agrees with the oracle at the usual tolerances
                t.vector(where + " translation", e.get("t"), localNodes.get(node).get("translation"));
                t.quaternion(where + " rotation", e.get("r"), localNodes.get(node).get("rotation"));
                t.vector(where + " scale", e.get("s"), localNodes.get(node).get("scale"));
                // joint2 is joint1's child, joint1 a root: world = parent world · local
                double[] worldExact = multiply(parentExact, local(joint, time, false));
                double[] worldAssimp = multiply(parentAssimp, local(joint, time, true));
                t.matrix(where + " world (exact evaluation of the file's keys)", json(worldExact), model.get(node).get("matrix"));
                t.matrix(where + " skinning (exact evaluation of the file's keys)", json(multiply(worldExact, ibm)),
                        skin.get("matrices").get(indexOf(skin.get("joints"), joint)));
                t.matrix(where + " oracle world = evaluation with assimp's key round trip", e.get("world"), json(worldAssimp));
                t.matrix(where + " oracle skinning = evaluation with assimp's key round trip", e.get("skinning"),
                        json(multiply(worldAssimp, ibm)));
                parentExact = worldExact;
                parentAssimp = worldAssimp;
            }
        }

        /** The joint's local matrix at {@code time}: position and scale lerped, rotation slerped. */
        private double[] local(String joint, double time, boolean assimpRoundTrip) {
            Map<Integer, List<double[]>> byType = keys.get(joint);
            double[] position = sampleVector(byType.get(2), time);
            double[] scale = sampleVector(byType.get(1), time);
            List<double[]> rotations = new ArrayList<>();
            for (double[] row : byType.get(0)) {
                // (w, x, y, z) of a row-vector rotation: as a column-vector rotation, mirrored into right-handed space
                double w = row[1], x = row[2], y = row[3], z = row[4];
                double[] q = assimpRoundTrip ? roundTrip(w, x, y, z) : normalize(new double[] {x, y, -z, w});
                rotations.add(new double[] {row[0], q[0], q[1], q[2], q[3]});
            }
            double[] r = sampleRotation(rotations, time);
            double[] m = new double[16];
            double x = r[0], y = r[1], z = r[2], w = r[3];
            double[][] rot = {
                {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
            for (int row = 0; row < 3; row++) {
                for (int col = 0; col < 3; col++) {
                    m[4 * col + row] = rot[row][col] * scale[col];
                }
            }
            m[12] = position[0];
            m[13] = position[1];
            m[14] = -position[2];
            m[15] = 1;
            return m;
        }

        /**
         * assimp's reading of a rotation key: the quaternion's matrix (as if it were unit), back to a quaternion by
         * the trace method, w negated ("needs quat inversion"), then mirrored.
         */
        private static double[] roundTrip(double w, double x, double y, double z) {
            double[][] m = {
                {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
            double trace = m[0][0] + m[1][1] + m[2][2];
            double qx;
            double qy;
            double qz;
            double qw;
            if (trace > 0) {
                double s = Math.sqrt(1 + trace) * 2;
                qw = 0.25 * s;
                qx = (m[2][1] - m[1][2]) / s;
                qy = (m[0][2] - m[2][0]) / s;
                qz = (m[1][0] - m[0][1]) / s;
            } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
                double s = Math.sqrt(1 + m[0][0] - m[1][1] - m[2][2]) * 2;
                qw = (m[2][1] - m[1][2]) / s;
                qx = 0.25 * s;
                qy = (m[0][1] + m[1][0]) / s;
                qz = (m[0][2] + m[2][0]) / s;
            } else if (m[1][1] > m[2][2]) {
                double s = Math.sqrt(1 + m[1][1] - m[0][0] - m[2][2]) * 2;
                qw = (m[0][2] - m[2][0]) / s;
                qx = (m[0][1] + m[1][0]) / s;
                qy = 0.25 * s;
                qz = (m[1][2] + m[2][1]) / s;
            } else {
                double s = Math.sqrt(1 + m[2][2] - m[0][0] - m[1][1]) * 2;
                qw = (m[1][0] - m[0][1]) / s;
                qx = (m[0][2] + m[2][0]) / s;
                qy = (m[1][2] + m[2][1]) / s;
                qz = 0.25 * s;
            }
            return new double[] {-qx, -qy, qz, -qw};
        }

        private double[] sampleVector(List<double[]> rows, double time) {
            int k = segment(rows, time);
            double[] a = rows.get(k);
            double[] b = rows.get(Math.min(k + 1, rows.size() - 1));
            double u = fraction(a, b, time);
            return new double[] {a[1] + u * (b[1] - a[1]), a[2] + u * (b[2] - a[2]), a[3] + u * (b[3] - a[3])};
        }

        /**
         * Shortest-path slerp as the oracle evaluates it (its {@code exactSlerpFlat}): a key itself at u = 0 or 1,
         * a normalised lerp for keys closer than dot 1 − 1e-9, the slerp formula otherwise.
         */
        private double[] sampleRotation(List<double[]> rows, double time) {
            int k = segment(rows, time);
            double[] a = java.util.Arrays.copyOfRange(rows.get(k), 1, 5);
            double[] b = java.util.Arrays.copyOfRange(rows.get(Math.min(k + 1, rows.size() - 1)), 1, 5);
            double u = fraction(rows.get(k), rows.get(Math.min(k + 1, rows.size() - 1)), time);
            if (u == 0) {
                return a;
            }
            if (u == 1) {
                return b;
            }
            double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
            if (dot < 0) {
                dot = -dot;
                for (int i = 0; i < 4; i++) {
                    b[i] = -b[i];
                }
            }
            double[] q = new double[4];
            if (dot > 1 - 1e-9) {
                for (int i = 0; i < 4; i++) {
                    q[i] = (1 - u) * a[i] + u * b[i];
                }
                return normalize(q);
            }
            double theta = Math.acos(Math.min(1, dot));
            double wa = Math.sin((1 - u) * theta) / Math.sin(theta);
            double wb = Math.sin(u * theta) / Math.sin(theta);
            for (int i = 0; i < 4; i++) {
                q[i] = wa * a[i] + wb * b[i];
            }
            return q;
        }

        /** The key at or before {@code time} (clamped to the keys). */
        private int segment(List<double[]> rows, double time) {
            int k = 0;
            while (k + 1 < rows.size() && rows.get(k + 1)[0] / ticksPerSecond <= time) {
                k++;
            }
            return k;
        }

        private double fraction(double[] a, double[] b, double time) {
            double ta = a[0] / ticksPerSecond;
            double tb = b[0] / ticksPerSecond;
            return tb > ta ? Math.clamp((time - ta) / (tb - ta), 0, 1) : 0;
        }

        private static double[] normalize(double[] q) {
            double n = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            return new double[] {q[0] / n, q[1] / n, q[2] / n, q[3] / n};
        }

        private static int indexOf(JsonNode names, String name) {
            for (int i = 0; i < names.size(); i++) {
                JsonNode n = names.get(i);
                String value = n.isObject() ? n.get("name").asString() : n.asString();
                if (value.equals(name)) {
                    return i;
                }
            }
            throw new AssertionError("no joint " + name + " in " + names);
        }
    }

    /** {@code a · b} for column-major 4×4 matrices. */
    static double[] multiply(double[] a, double[] b) {
        double[] out = new double[16];
        for (int c = 0; c < 4; c++) {
            for (int r = 0; r < 4; r++) {
                double sum = 0;
                for (int k = 0; k < 4; k++) {
                    sum += a[4 * k + r] * b[4 * c + k];
                }
                out[4 * c + r] = sum;
            }
        }
        return out;
    }

    /** The inverse transpose of the upper-left 3×3 of a column-major 4×4, column-major 3×3. */
    static double[] inverseTranspose(double[] m) {
        double a = m[0], b = m[4], c = m[8];
        double d = m[1], e = m[5], f = m[9];
        double g = m[2], h = m[6], i = m[10];
        double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
        // (M⁻¹)ᵀ = cofactor matrix / det; element (row r, column c) at 3c + r
        return new double[] {
            (e * i - f * h) / det, -(b * i - c * h) / det, (b * f - c * e) / det,
            -(d * i - f * g) / det, (a * i - c * g) / det, -(a * f - c * d) / det,
            (d * h - e * g) / det, -(a * h - b * g) / det, (a * e - b * d) / det};
    }

    static double[] identity() {
        double[] m = new double[16];
        m[0] = m[5] = m[10] = m[15] = 1;
        return m;
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

    /** The bounding-box diagonal of flat positions (the README's D). */
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
