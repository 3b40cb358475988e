package io.posekit.asset.fbx;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.ImportWarnings;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The skin of a mesh instance: the {@code Deformer} of subclass {@code Skin} connected to its geometry, and that skin's
 * {@code Cluster}s (in connection order), each connected to the bone Model it binds.
 *
 * <ul>
 *   <li><b>Joints</b>: the clusters' bones, in cluster order.</li>
 *   <li><b>Inverse binds</b>: a cluster's {@code Transform} is the mesh node's bind matrix expressed in the bone's bind
 *       space — {@code TransformLink⁻¹ · meshBind} — and {@code TransformLink} the bone's bind (world) matrix. The
 *       stored {@code Transform} is therefore the inverse bind matrix itself: skinning matrix k =
 *       {@code world(bone k) · Transform_k} (the geometric transform is already in the vertices, see
 *       {@link FbxGeometry}). (The FBX SDK's API reports {@code Transform} in world space, i.e. {@code TransformLink ·
 *       stored}; ufbx and Blender read the stored value the same way, and the conformance files confirm it: there
 *       {@code Transform = TransformLink⁻¹ · meshWorld} to float precision.) A cluster without {@code Transform} gets
 *       {@code TransformLink⁻¹ · meshBind} with the mesh's {@code BindPose} matrix (else its rest world); one without
 *       {@code TransformLink} either takes the bone's {@code BindPose} matrix (else its rest world). A warning reports
 *       a bind pose that disagrees with the clusters (three.js and assimp bind with the mesh's rest world instead).</li>
 *   <li><b>Influences</b>: every (control point, weight) of every cluster ({@code Indexes}/{@code Weights}) — all of
 *       them, {@code k = 4·⌈max/4⌉} slots per vertex — carried to every vertex split from the control point. Weights
 *       are kept as stored and normalised when skinning (FBX's {@code Normalize}/{@code TotalOne} link modes); a
 *       warning counts the control points whose weights do not sum to 1. Control points no cluster weights follow the
 *       mesh's own node rigidly, as the FBX SDK leaves them: they are bound to that node (one extra joint with the
 *       identity inverse bind), with a warning.</li>
 *   <li><b>Skinning method</b>: the skin's {@code SkinningType} and Maya's {@code BlendWeights}, as each vertex's
 *       share of dual-quaternion skinning ({@link #dualQuaternionWeights}, {@link Primitive#dualQuaternionWeights()}),
 *       used by posed meshes unless the caller chooses a method.</li>
 * </ul>
 */
final class FbxSkin {

    /** Relative difference above which two bind matrices are reported as disagreeing. */
    private static final double BIND_TOLERANCE = 1e-4;
    private static final double WEIGHT_SUM_TOLERANCE = 1e-3;

    private FbxSkin() {
    }

    /**
     * A skinned primitive and its skin.
     *
     * @param skin the skin (joints are import node indices)
     * @param primitive the mesh with its influences
     */
    record Skinned(ImportScene.Skin skin, Primitive primitive) {
    }

    /** The {@code BindPose} matrices by object id (the first bind pose that lists an object wins). */
    static Map<Long, double[]> bindPoses(FbxScene scene, ImportWarnings warnings) {
        Map<Long, double[]> out = new HashMap<>();
        for (FbxScene.FbxObject pose : scene.objects("Pose")) {
            FbxNode type = pose.child("Type");
            boolean bind = pose.subclass().equals("BindPose") || type != null && !type.properties().isEmpty()
                    && "BindPose".equals(type.property(0));
            if (!bind) {
                continue;
            }
            int i = 0;
            for (FbxNode poseNode : pose.node().children("PoseNode")) {
                FbxNode node = poseNode.child("Node");
                FbxNode matrix = poseNode.child("Matrix");
                String where = pose.label() + " PoseNode " + i++;
                if (node == null || matrix == null) {
                    throw ImportException.invalid(where + " needs a Node and a Matrix");
                }
                double[] m = matrix.doubles(0);
                if (m.length != 16) {
                    throw ImportException.invalid(where + ": Matrix has " + m.length + " numbers, not 16");
                }
                FbxTransform.requireFinite(m, where + ": Matrix");
                out.putIfAbsent(node.integer(0), m.clone());
            }
        }
        return out;
    }

    /**
     * The skin of {@code geometry} as placed on node {@code meshNode}, or {@code null} when the geometry has no skin.
     *
     * @param mesh the decoded geometry
     * @throws ImportException invalid (422) for influences out of range or malformed cluster matrices
     */
    static Skinned read(FbxScene scene, FbxHierarchy nodes, FbxScene.FbxObject geometry, int meshNode,
            FbxGeometry.Mesh mesh, Map<Long, double[]> bindPoses, DecodeBudget budget, ImportWarnings warnings) {
        List<FbxScene.FbxObject> skins = scene.sources(geometry.id(), "Deformer", "Skin");
        if (skins.isEmpty()) {
            return null;
        }
        FbxScene.FbxObject skin = skins.getFirst();
        String where = "skin '" + FbxScene.display(skin.name()) + "' of " + geometry.label();
        if (skins.size() > 1) {
            warnings.add(geometry.label() + " has " + skins.size() + " skin deformers; only the first is applied");
        }
        int points = mesh.controlPointCount();
        List<Integer> joints = new ArrayList<>();
        List<double[]> inverseBinds = new ArrayList<>();
        List<int[]> indexLists = new ArrayList<>();
        List<double[]> weightLists = new ArrayList<>();
        double[] meshRest = nodes.restWorld(meshNode);
        double[] meshBindPose = bindPoses.get(nodes.model(meshNode).id());
        double worstMeshBind = 0;
        double[] clusterMeshBind = null;
        String worstCluster = null;
        String linkMode = null;
        int missingBone = 0;
        int poseMismatch = 0;
        for (FbxScene.FbxObject cluster : scene.sources(skin.id(), "Deformer", "Cluster")) {
            budget.checkTime();
            String cw = where + " cluster '" + FbxScene.display(cluster.name()) + "'";
            List<FbxScene.FbxObject> bones = scene.sources(cluster.id(), "Model", null);
            Integer bone = bones.isEmpty() ? null : nodes.indexOf(bones.getFirst().id());
            if (bone == null) {
                missingBone++;
                continue;
            }
            double[] transform = matrix(cluster, "Transform", cw);
            double[] link = matrix(cluster, "TransformLink", cw);
            double[] bonePose = bindPoses.get(nodes.model(bone).id());
            if (link == null) {
                link = bonePose != null ? bonePose : nodes.restWorld(bone);
            } else if (bonePose != null && difference(link, bonePose) > BIND_TOLERANCE) {
                poseMismatch++;
            }
            double[] ibm;
            if (transform != null) {
                ibm = transform;
                double[] meshBind = FbxTransform.times(link, transform);
                if (clusterMeshBind == null) {
                    clusterMeshBind = meshBind;
                }
                double d = difference(meshBind, meshRest);
                if (d > worstMeshBind) {
                    worstMeshBind = d;
                    worstCluster = cluster.name();
                }
            } else {
                double[] inverseLink = FbxTransform.invertAffine(link);
                if (inverseLink == null) {
                    throw ImportException.invalid(cw + ": TransformLink is singular");
                }
                ibm = FbxTransform.times(inverseLink, meshBindPose != null ? meshBindPose : meshRest);
                warnings.add(cw + " has no Transform; its inverse bind is TransformLink⁻¹ · the mesh's "
                        + (meshBindPose != null ? "BindPose matrix" : "rest transform"));
            }
            FbxNode mode = cluster.child("Mode");
            if (mode != null && !mode.properties().isEmpty() && mode.property(0) instanceof String m) {
                linkMode = m;
            }
            int[] indexes = new int[0];
            double[] weights = new double[0];
            FbxNode indexNode = cluster.child("Indexes");
            FbxNode weightNode = cluster.child("Weights");
            if (indexNode != null || weightNode != null) {
                if (indexNode == null || weightNode == null) {
                    throw ImportException.invalid(cw + " has " + (indexNode == null ? "Weights but no Indexes"
                            : "Indexes but no Weights"));
                }
                indexes = indexNode.ints(0);
                weights = weightNode.doubles(0);
                if (indexes.length != weights.length) {
                    throw ImportException.invalid(cw + ": Indexes has " + indexes.length + " entries but Weights "
                            + weights.length);
                }
                for (int i = 0; i < indexes.length; i++) {
                    budget.checkTime();
                    if (indexes[i] < 0 || indexes[i] >= points) {
                        throw ImportException.invalid(cw + ": Indexes[" + i + "] = " + indexes[i] + " is out of range for"
                                + " the " + points + " control points of " + geometry.label());
                    }
                    if (!Double.isFinite(weights[i])) {
                        throw ImportException.invalid(cw + ": Weights[" + i + "] is not finite");
                    }
                }
            }
            joints.add(bone);
            inverseBinds.add(ibm);
            indexLists.add(indexes);
            weightLists.add(weights);
        }
        if (missingBone > 0) {
            warnings.add(where + ": " + missingBone + " cluster(s) are linked to no Model of the scene; their weights are"
                    + " dropped");
        }
        if (poseMismatch > 0) {
            warnings.add(where + ": the TransformLink of " + poseMismatch + " cluster(s) differs from the bone's BindPose"
                    + " matrix; TransformLink is used");
        }
        if (worstMeshBind > BIND_TOLERANCE) {
            warnings.add(where + ": the mesh's bind matrix (TransformLink · Transform, cluster '"
                    + FbxScene.display(worstCluster) + "') differs from the rest transform of "
                    + nodes.model(meshNode).label() + " (relative " + (float) worstMeshBind + "); the clusters' bind is"
                    + " used, as FBX defines it");
        }
        Skinned skinned = influences(mesh, where, joints, inverseBinds, indexLists, weightLists, meshNode, linkMode,
                skin, budget, warnings);
        float[] dqWeights = dualQuaternionWeights(skin, mesh, where, budget, warnings);
        if (dqWeights != null) {
            skinned = new Skinned(skinned.skin(), skinned.primitive().withDualQuaternionWeights(dqWeights));
        }
        if (!scene.writtenByMaya()) {
            return skinned;
        }
        // Maya shows a skinned mesh moved by its node's motion since the bind (ufbx's tests check Maya's own OBJ
        // exports so: `ufbx:transform_skin`, geometry_to_world · bind_pose⁻¹)
        double[] meshBind = meshBindPose != null ? meshBindPose : clusterMeshBind != null ? clusterMeshBind : meshRest;
        double[] inverse = FbxTransform.invertAffine(meshBind);
        if (inverse == null) {
            warnings.add(where + ": the mesh's bind matrix is singular; its node's motion since the bind is not carried");
            return skinned;
        }
        float[] carrierBind = new float[16];
        for (int i = 0; i < 16; i++) {
            carrierBind[i] = (float) inverse[i];
        }
        ImportScene.Skin s = skinned.skin();
        return new Skinned(new ImportScene.Skin(s.name(), s.joints(), s.inverseBindMatrices(), meshNode, carrierBind),
                skinned.primitive());
    }

    private static Skinned influences(FbxGeometry.Mesh mesh, String where, List<Integer> joints,
            List<double[]> inverseBinds, List<int[]> indexLists, List<double[]> weightLists, int meshNode,
            String linkMode, FbxScene.FbxObject skin, DecodeBudget budget, ImportWarnings warnings) {
        int points = mesh.controlPointCount();
        budget.charge(points, 16, where + " influence counts");
        int[] count = new int[points];
        double[] sum = new double[points];
        int negative = 0;
        for (int c = 0; c < indexLists.size(); c++) {
            int[] indexes = indexLists.get(c);
            double[] weights = weightLists.get(c);
            for (int i = 0; i < indexes.length; i++) {
                if (weights[i] == 0) {
                    continue;
                }
                negative += weights[i] < 0 ? 1 : 0;
                count[indexes[i]]++;
                sum[indexes[i]] += weights[i];
            }
        }
        boolean[] used = new boolean[points];
        for (int cp : mesh.controlPoints()) {
            used[cp] = true;
        }
        int max = 0;
        int maxPoint = 0;
        int unweighted = 0;
        int offSum = 0;
        double low = Double.MAX_VALUE;
        double high = -Double.MAX_VALUE;
        for (int p = 0; p < points; p++) {
            if (!used[p]) {
                continue;
            }
            if (count[p] == 0 || sum[p] == 0) {
                unweighted++;
                count[p] = Math.max(count[p], 1);
            } else if (Math.abs(sum[p] - 1) > WEIGHT_SUM_TOLERANCE) {
                offSum++;
                low = Math.min(low, sum[p]);
                high = Math.max(high, sum[p]);
            }
            if (count[p] > max) {
                max = count[p];
                maxPoint = p;
            }
        }
        int limit = budget.limits().maxInfluencesPerVertex();
        if (max > limit) {
            throw ImportLimits.exceeded(where + ": control point " + maxPoint, max, "joint influences", limit,
                    ImportLimits.INFLUENCES_PER_VERTEX);
        }
        int k = 4 * ((max + 3) / 4);
        int meshJoint = unweighted > 0 ? joints.size() : -1;
        budget.charge((long) points * k, 8, where + " influences per control point");
        if ((long) points * k > Integer.MAX_VALUE - 16) {
            throw ImportException.tooLarge(where + ": " + k + " influences per control point over " + points
                    + " control points exceed an array");
        }
        int[] pointJoints = new int[points * k];
        float[] pointWeights = new float[points * k];
        int[] filled = new int[points];
        for (int c = 0; c < indexLists.size(); c++) {
            int[] indexes = indexLists.get(c);
            double[] weights = weightLists.get(c);
            for (int i = 0; i < indexes.length; i++) {
                int p = indexes[i];
                if (weights[i] == 0 || sum[p] == 0) {
                    continue;
                }
                int slot = p * k + filled[p]++;
                pointJoints[slot] = c;
                pointWeights[slot] = (float) weights[i];
            }
        }
        if (meshJoint >= 0) {
            for (int p = 0; p < points; p++) {
                if (used[p] && sum[p] == 0) {
                    java.util.Arrays.fill(pointJoints, p * k, p * k + k, 0);
                    java.util.Arrays.fill(pointWeights, p * k, p * k + k, 0);
                    pointJoints[p * k] = meshJoint;
                    pointWeights[p * k] = 1;
                }
            }
            warnings.add(where + ": " + unweighted + " control point(s) have no cluster weights; they follow "
                    + "the mesh's node rigidly (bound to it as an extra joint)");
        }
        if (offSum > 0) {
            String mode = linkMode == null ? "Normalize" : linkMode;
            warnings.add(where + ": the weights of " + offSum + " control point(s) do not sum to 1 (from " + (float) low
                    + " to " + (float) high + "); they are normalised when skinning"
                    + (mode.equalsIgnoreCase("Normalize") || mode.equalsIgnoreCase("TotalOne")
                            || mode.equalsIgnoreCase("Total1") ? " (link mode " + mode + ")"
                            : " (link mode " + mode + " is not supported)"));
        } else if (linkMode != null && linkMode.equalsIgnoreCase("Additive")) {
            warnings.add(where + ": link mode Additive is not supported; weights are normalised when skinning");
        }
        if (negative > 0) {
            warnings.add(where + ": " + negative + " weight(s) are negative; they are used as stored");
        }
        int vertices = mesh.vertexCount();
        budget.charge((long) vertices * k, 8, where + " vertex influences");
        if ((long) vertices * k > Integer.MAX_VALUE - 16) {
            throw ImportException.tooLarge(where + ": " + k + " influences per vertex over " + vertices
                    + " vertices exceed an array");
        }
        int[] vertexJoints = new int[vertices * k];
        float[] vertexWeights = new float[vertices * k];
        for (int v = 0; v < vertices; v++) {
            budget.checkTime();
            int p = mesh.controlPoints()[v];
            System.arraycopy(pointJoints, p * k, vertexJoints, v * k, k);
            System.arraycopy(pointWeights, p * k, vertexWeights, v * k, k);
        }
        int jointCount = joints.size() + (meshJoint >= 0 ? 1 : 0);
        int[] jointNodes = new int[jointCount];
        float[] ibm = new float[16 * jointCount];
        for (int j = 0; j < joints.size(); j++) {
            jointNodes[j] = joints.get(j);
            double[] m = inverseBinds.get(j);
            for (int i = 0; i < 16; i++) {
                ibm[16 * j + i] = (float) m[i];
            }
        }
        if (meshJoint >= 0) {
            jointNodes[meshJoint] = meshNode;
            for (int i = 0; i < 16; i++) {
                ibm[16 * meshJoint + i] = i % 5 == 0 ? 1 : 0;
            }
        }
        List<String> attributes = new ArrayList<>(mesh.attributes());
        for (int s = 0; s < k / 4; s++) {
            attributes.add("JOINTS_" + s);
            attributes.add("WEIGHTS_" + s);
        }
        Primitive primitive = new Primitive(PrimitiveMode.TRIANGLES, attributes, mesh.positions(), mesh.normals(), null,
                mesh.indices(), k, vertexJoints, vertexWeights, mesh.texcoords(), null)
                .withFurtherTexcoords(mesh.furtherTexcoords()).withColors(mesh.colors());
        return new Skinned(new ImportScene.Skin(skin.name(), jointNodes, ibm), primitive);
    }

    /**
     * The share of dual-quaternion skinning of each vertex the skin's {@code SkinningType} asks for, or {@code null}
     * for linear blend skinning: {@code Linear} (the default) and {@code Rigid} (Maya's rigid bind, weights as stored)
     * are linear; {@code DualQuaternion} is 1 for every vertex; {@code Blend} (Maya's "weight blended") takes each
     * control point's {@code BlendWeights} entry, at the control point its {@code BlendIndexes} (Maya writes
     * {@code Indexes}) entry names, 0 for a point not listed, as ufbx reads {@code dq_vertices}/{@code dq_weights}.
     * A weight outside [0, 1] is clamped, with a warning; another type is skinned linearly, with a warning.
     *
     * @throws ImportException invalid (422) when the blend lists disagree in length, name a point out of range or
     *     hold a non-finite weight
     */
    static float[] dualQuaternionWeights(FbxScene.FbxObject skin, FbxGeometry.Mesh mesh, String where,
            DecodeBudget budget, ImportWarnings warnings) {
        FbxNode typeNode = skin.child("SkinningType");
        String type = typeNode == null || typeNode.properties().isEmpty() ? "Linear"
                : String.valueOf(typeNode.property(0));
        int vertices = mesh.vertexCount();
        if (type.equalsIgnoreCase("Linear") || type.equalsIgnoreCase("Rigid")) {
            return null;
        }
        if (type.equalsIgnoreCase("DualQuaternion")) {
            budget.charge(vertices, 4, where + " dual-quaternion weights");
            float[] all = new float[vertices];
            java.util.Arrays.fill(all, 1);
            return all;
        }
        if (!type.equalsIgnoreCase("Blend")) {
            warnings.add(where + ": SkinningType " + type + " is not known; it is skinned linearly");
            return null;
        }
        int points = mesh.controlPointCount();
        FbxNode indexNode = skin.child("BlendIndexes") != null ? skin.child("BlendIndexes") : skin.child("Indexes");
        FbxNode weightNode = skin.child("BlendWeights");
        int[] indexes = indexNode == null ? new int[0] : indexNode.ints(0);
        double[] weights = weightNode == null ? new double[0] : weightNode.doubles(0);
        if (indexes.length != weights.length) {
            throw ImportException.invalid(where + ": its blend Indexes has " + indexes.length + " entries but"
                    + " BlendWeights " + weights.length);
        }
        budget.charge(points + (long) vertices, 4, where + " dual-quaternion weights");
        float[] pointWeights = new float[points];
        int clamped = 0;
        for (int i = 0; i < indexes.length; i++) {
            budget.checkTime();
            if (indexes[i] < 0 || indexes[i] >= points) {
                throw ImportException.invalid(where + ": blend Indexes[" + i + "] = " + indexes[i] + " is out of range"
                        + " for " + points + " control points");
            }
            double w = weights[i];
            if (!Double.isFinite(w)) {
                throw ImportException.invalid(where + ": BlendWeights[" + i + "] is not finite");
            }
            if (w < 0 || w > 1) {
                clamped++;
                w = Math.clamp(w, 0, 1);
            }
            pointWeights[indexes[i]] = (float) w;
        }
        if (clamped > 0) {
            warnings.add(where + ": " + clamped + " BlendWeights outside [0, 1] are clamped");
        }
        float[] out = new float[vertices];
        int[] controlPoints = mesh.controlPoints();
        for (int v = 0; v < vertices; v++) {
            out[v] = pointWeights[controlPoints[v]];
        }
        return out;
    }

    /** A 16-number matrix child of a cluster, or {@code null} when absent. */
    private static double[] matrix(FbxScene.FbxObject cluster, String name, String where) {
        FbxNode node = cluster.child(name);
        if (node == null) {
            return null;
        }
        double[] m = node.doubles(0);
        if (m.length != 16) {
            throw ImportException.invalid(where + ": " + name + " has " + m.length + " numbers, not 16");
        }
        FbxTransform.requireFinite(m, where + ": " + name);
        return m.clone();
    }

    /** The largest element difference of two matrices relative to {@code max(1, max|b|)}. */
    static double difference(double[] a, double[] b) {
        double err = 0;
        double largest = 1;
        for (int i = 0; i < 16; i++) {
            err = Math.max(err, Math.abs(a[i] - b[i]));
            largest = Math.max(largest, Math.abs(b[i]));
        }
        return err / largest;
    }
}
