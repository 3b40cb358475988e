package io.posekit.asset;

import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.math.ArrayChecks;
import io.posekit.math.Matrices;
import io.posekit.math.Quaternions;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.Primitive;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns an importer's {@link ImportScene} into the runtime {@link Model}: orders nodes parent-first
 * (depth-first, roots and children in file order), remaps every node reference, normalises rest rotations,
 * fills in identity inverse binds, names unnamed clips {@code animation_{index}}, and validates what the
 * importers cannot see on their own (cycles, dangling references, joint indices beyond the skin) and what every
 * importer must hold to (finite transforms, inverse binds and vertex attributes).
 *
 * <p>Stateless; {@link #build} fails with {@link ImportException} (invalid) naming the offending element.
 */
public final class ModelBuilder {

    /** How far from 1 a quaternion's length may be and still be used as stored (see {@link #normalizedRotations}). */
    static final double UNIT_TOLERANCE = 1e-3;

    private ModelBuilder() {
    }

    /** Builds the runtime model of {@code scene}, read from a file of format {@code format}. */
    public static Model build(AssetFormat format, ImportScene scene) {
        // the builder's own warnings (one per node, track or primitive at worst) are capped like an importer's
        ImportWarnings warnings = new ImportWarnings();
        List<ImportScene.Node> nodes = scene.nodes();
        int n = nodes.size();
        int[] order = parentFirstOrder(nodes);
        int[] rigIndexOf = new int[n];
        for (int r = 0; r < n; r++) {
            rigIndexOf[order[r]] = r;
        }
        Rig rig = buildRig(nodes, order, rigIndexOf, warnings);
        List<Skin> skins = buildSkins(scene.skins(), rigIndexOf, n);
        List<MeshInstance> meshes = buildMeshes(scene.meshes(), rigIndexOf, skins, warnings);
        List<Clip> clips = buildClips(scene.clips(), nodes, rigIndexOf, meshes, warnings);
        List<String> all = new ArrayList<>(scene.warnings());
        all.addAll(warnings.list());
        HumanoidMap humanoid = scene.humanoid() == null ? null : scene.humanoid().renumbered(rigIndexOf);
        return new Model(format, rig, skins, meshes, clips, all, humanoid, scene.space());
    }


    private static int[] parentFirstOrder(List<ImportScene.Node> nodes) {
        int n = nodes.size();
        int[] childCount = new int[n];
        for (int i = 0; i < n; i++) {
            int p = nodes.get(i).parent();
            if (p < -1 || p >= n || p == i) {
                throw ImportException.invalid(describe(nodes.get(i), i) + " has an invalid parent " + p);
            }
            if (p >= 0) {
                childCount[p]++;
            }
        }
        int[][] children = new int[n][];
        for (int i = 0; i < n; i++) {
            children[i] = new int[childCount[i]];
        }
        int[] filled = new int[n];
        for (int i = 0; i < n; i++) {
            int p = nodes.get(i).parent();
            if (p >= 0) {
                children[p][filled[p]++] = i;
            }
        }
        int[] order = new int[n];
        int count = 0;
        int[] stack = new int[n];
        for (int root = 0; root < n; root++) {
            if (nodes.get(root).parent() != -1) {
                continue;
            }
            int top = 0;
            stack[top++] = root;
            while (top > 0) {
                int node = stack[--top];
                order[count++] = node;
                // push children in reverse so they come out in file order
                for (int c = children[node].length - 1; c >= 0; c--) {
                    stack[top++] = children[node][c];
                }
            }
        }
        if (count != n) {
            boolean[] reached = new boolean[n];
            for (int i = 0; i < count; i++) {
                reached[order[i]] = true;
            }
            for (int i = 0; i < n; i++) {
                if (!reached[i]) {
                    throw ImportException.invalid("the node hierarchy has a cycle through " + describe(nodes.get(i), i));
                }
            }
        }
        return order;
    }

    private static Rig buildRig(List<ImportScene.Node> nodes, int[] order, int[] rigIndexOf, ImportWarnings warnings) {
        int n = nodes.size();
        String[] names = new String[n];
        int[] parents = new int[n];
        int[] sources = new int[n];
        float[] t = new float[3 * n];
        float[] r = new float[4 * n];
        float[] s = new float[3 * n];
        for (int ri = 0; ri < n; ri++) {
            int i = order[ri];
            ImportScene.Node node = nodes.get(i);
            names[ri] = node.name();
            parents[ri] = node.parent() < 0 ? -1 : rigIndexOf[node.parent()];
            sources[ri] = node.sourceIndex();
            copy3(node.translation(), t, 3 * ri, 0f, describe(node, i) + " translation");
            copy3(node.scale(), s, 3 * ri, 1f, describe(node, i) + " scale");
            float[] q = node.rotation() == null ? new float[] {0, 0, 0, 1} : node.rotation();
            if (q.length != 4) {
                throw ImportException.invalid(describe(node, i) + " rotation has " + q.length + " components, not 4");
            }
            double len = Math.sqrt((double) q[0] * q[0] + (double) q[1] * q[1] + (double) q[2] * q[2] + (double) q[3] * q[3]);
            if (!Double.isFinite(len)) {
                throw ImportException.invalid(describe(node, i) + " rotation is not finite");
            }
            if (len == 0) {
                warnings.add(describe(node, i) + " has a zero rotation quaternion; identity used");
                r[4 * ri + 3] = 1;
            } else if (Math.abs(len - 1) <= UNIT_TOLERANCE) {
                System.arraycopy(q, 0, r, 4 * ri, 4);
            } else {
                warnings.add(describe(node, i) + " rotation is not a unit quaternion (length " + (float) len
                        + "); normalised");
                for (int c = 0; c < 4; c++) {
                    r[4 * ri + c] = (float) (q[c] / len);
                }
            }
        }
        return new Rig(names, parents, sources, t, r, s);
    }

    private static void copy3(float[] src, float[] dst, int offset, float fill, String what) {
        if (src == null) {
            Arrays.fill(dst, offset, offset + 3, fill);
            return;
        }
        if (src.length != 3) {
            throw ImportException.invalid(what + " has " + src.length + " components, not 3");
        }
        for (int c = 0; c < 3; c++) {
            if (!Float.isFinite(src[c])) {
                throw ImportException.invalid(what + " is not finite");
            }
            dst[offset + c] = src[c];
        }
    }

    private static List<Skin> buildSkins(List<ImportScene.Skin> skins, int[] rigIndexOf, int nodeCount) {
        List<Skin> out = new ArrayList<>(skins.size());
        for (int si = 0; si < skins.size(); si++) {
            ImportScene.Skin skin = skins.get(si);
            int[] joints = new int[skin.joints().length];
            for (int k = 0; k < joints.length; k++) {
                int j = skin.joints()[k];
                if (j < 0 || j >= nodeCount) {
                    throw ImportException.invalid("skin " + si + ": joint " + k + " refers to node " + j
                            + ", which is not in the scene");
                }
                joints[k] = rigIndexOf[j];
            }
            float[] ibm = skin.inverseBindMatrices();
            if (ibm == null) {
                ibm = new float[16 * joints.length];
                for (int k = 0; k < joints.length; k++) {
                    Matrices.identity(ibm, 16 * k);
                }
            } else if (ibm.length != 16 * joints.length) {
                throw ImportException.invalid("skin " + si + ": " + joints.length + " joints but "
                        + ibm.length / 16 + " inverse bind matrices");
            }
            for (int i = 0; i < ibm.length; i++) {
                // a bind pose an importer inverted (a joint scaled to almost nothing) can overflow to infinity
                if (!Float.isFinite(ibm[i])) {
                    throw ImportException.invalid("skin " + si + ": the inverse bind matrix of joint " + i / 16
                            + " is not finite");
                }
            }
            int carrier = skin.carrier();
            if (carrier >= nodeCount || carrier < -1) {
                throw ImportException.invalid("skin " + si + ": its carrier refers to node " + carrier
                        + ", which is not in the scene");
            }
            float[] carrierBind = skin.carrierBindInverse();
            if (carrier >= 0) {
                if (carrierBind == null || carrierBind.length != 16) {
                    throw ImportException.invalid("skin " + si + ": its carrier has no 16-number bind inverse");
                }
                for (int i = 0; i < carrierBind.length; i++) {
                    if (!Float.isFinite(carrierBind[i])) {
                        throw ImportException.invalid("skin " + si + ": its carrier's bind inverse is not finite");
                    }
                }
            }
            out.add(carrier < 0 ? new Skin(skin.name(), joints, ibm)
                    : new Skin(skin.name(), joints, ibm, rigIndexOf[carrier], carrierBind));
        }
        return out;
    }

    private static List<MeshInstance> buildMeshes(List<ImportScene.MeshInstance> meshes, int[] rigIndexOf,
            List<Skin> skins, ImportWarnings warnings) {
        List<MeshInstance> out = new ArrayList<>(meshes.size());
        for (ImportScene.MeshInstance m : meshes) {
            String what = "mesh " + (m.sourceMesh() >= 0 ? m.sourceMesh() : "'" + m.name() + "'");
            if (m.node() < 0 || m.node() >= rigIndexOf.length) {
                throw ImportException.invalid(what + " is placed on node " + m.node() + ", which is not in the scene");
            }
            if (m.skin() >= skins.size() || m.skin() < -1) {
                throw ImportException.invalid(what + " uses skin " + m.skin() + ", but there are " + skins.size());
            }
            int targets = m.primitives().isEmpty() ? 0 : m.primitives().getFirst().morphTargetCount();
            for (int p = 1; p < m.primitives().size(); p++) {
                int count = m.primitives().get(p).morphTargetCount();
                if (count != targets) {
                    throw ImportException.invalid(what + " primitive " + p + " has " + count
                            + " morph targets but primitive 0 has " + targets);
                }
            }
            float[] morphWeights = m.morphWeights();
            if (morphWeights != null) {
                if (morphWeights.length != targets) {
                    throw ImportException.invalid(what + " has " + morphWeights.length + " default morph weights but "
                            + targets + " morph targets");
                }
                for (int i = 0; i < morphWeights.length; i++) {
                    if (!Float.isFinite(morphWeights[i])) {
                        throw ImportException.invalid(what + ": default morph weight " + i + " is not finite");
                    }
                }
            }
            for (int p = 0; p < m.primitives().size(); p++) {
                Primitive prim = m.primitives().get(p);
                requireFinite(prim.positions(), 3, what + " primitive " + p + ": the position of vertex ");
                requireFinite(prim.normals(), 3, what + " primitive " + p + ": the normal of vertex ");
                requireFinite(prim.tangents(), 4, what + " primitive " + p + ": the tangent of vertex ");
            }
            if (m.skin() >= 0) {
                int jointCount = skins.get(m.skin()).jointCount();
                for (int p = 0; p < m.primitives().size(); p++) {
                    Primitive prim = m.primitives().get(p);
                    int max = prim.maxUsedJoint();
                    if (max >= jointCount) {
                        throw ImportException.invalid(what + " primitive " + p + ": joint index " + max
                                + " is out of range for skin " + m.skin() + " with " + jointCount + " joints");
                    }
                    if (prim.influencesPerVertex() == 0) {
                        warnings.add(what + " primitive " + p + " is on a skinned node but has no joint weights;"
                                + " it is posed rigidly with its node");
                    }
                }
            }
            out.add(new MeshInstance(m.name(), rigIndexOf[m.node()], m.skin(), m.sourceMesh(), m.primitives(),
                    morphWeights));
        }
        // report instances in rig (parent-first) order, a stable order independent of file layout
        out.sort(java.util.Comparator.comparingInt(MeshInstance::node));
        return out;
    }

    /**
     * Fails when a vertex attribute holds NaN or infinity: posing would spread it (a NaN normal stays NaN, and is
     * answered as the string "NaN" in JSON). Not every importer checks every attribute it decodes; all pass here.
     */
    private static void requireFinite(float[] values, int perVertex, String what) {
        int bad = ArrayChecks.firstNonFinite(values);
        if (bad >= 0) {
            throw ImportException.invalid(what + bad / perVertex + " is not finite");
        }
    }

    private static List<Clip> buildClips(List<ImportScene.Clip> clips, List<ImportScene.Node> nodes, int[] rigIndexOf,
            List<MeshInstance> meshes, ImportWarnings warnings) {
        List<Clip> out = new ArrayList<>(clips.size());
        for (int ci = 0; ci < clips.size(); ci++) {
            ImportScene.Clip clip = clips.get(ci);
            String name = clip.name() == null || clip.name().isEmpty() ? "animation_" + ci : clip.name();
            Map<Long, Track> byTarget = new LinkedHashMap<>();
            for (Track t : clip.tracks()) {
                if (t.node() < 0 || t.node() >= rigIndexOf.length) {
                    throw ImportException.invalid("clip '" + name + "': a track targets node " + t.node()
                            + ", which is not in the scene");
                }
                int expected = switch (t.property()) {
                    case TRANSLATION, SCALE -> 3;
                    case ROTATION -> 4;
                    case WEIGHTS -> t.components();
                };
                if (t.components() != expected) {
                    throw ImportException.invalid("clip '" + name + "': a " + t.property().wireName() + " track has "
                            + t.components() + " components, not " + expected);
                }
                if (t.property() == TrackProperty.WEIGHTS
                        && !drivesMorphTargets(t, rigIndexOf[t.node()], meshes, name, describe(nodes.get(t.node()), t.node()))) {
                    warnings.add("clip '" + name + "': " + describe(nodes.get(t.node()), t.node())
                            + " has a weights track but no mesh with morph targets; the track is ignored");
                }
                Track remapped = normalizedRotations(t.withNode(rigIndexOf[t.node()]), name, warnings);
                long key = ((long) remapped.node() << 8) | t.property().ordinal();
                if (byTarget.put(key, remapped) != null) {
                    warnings.add("clip '" + name + "': node " + remapped.node() + " has two "
                            + t.property().wireName() + " tracks; the last one is used");
                }
            }
            List<NodeTransformTrack> programs = new ArrayList<>(clip.nodeTransforms().size());
            java.util.Set<Integer> programNodes = new java.util.HashSet<>();
            for (NodeTransformTrack p : clip.nodeTransforms()) {
                if (p.node() < 0 || p.node() >= rigIndexOf.length) {
                    throw ImportException.invalid("clip '" + name + "': a transform stack targets node " + p.node()
                            + ", which is not in the scene");
                }
                int node = rigIndexOf[p.node()];
                if (!programNodes.add(node)) {
                    throw ImportException.invalid("clip '" + name + "': node " + node + " has two transform stacks");
                }
                programs.add(p.withNode(node));
            }
            for (Track t : byTarget.values()) {
                if (t.property() != TrackProperty.WEIGHTS && programNodes.contains(t.node())) {
                    throw ImportException.invalid("clip '" + name + "': node " + t.node() + " has both a "
                            + t.property().wireName() + " track and a transform stack");
                }
            }
            Clip built = Clip.of(name, List.copyOf(byTarget.values()), programs);
            if (clip.duration() != null) {
                if (!(clip.duration() >= 0) || clip.duration().isInfinite()) {
                    throw ImportException.invalid("clip '" + name + "' has an invalid duration " + clip.duration());
                }
                built = new Clip(name, clip.duration(), built.tracks(), built.nodeTransforms());
            }
            if (!Double.isFinite(clip.sceneStart())) {
                throw ImportException.invalid("clip '" + name + "' has an invalid start " + clip.sceneStart());
            }
            out.add(built.withSceneStart(clip.sceneStart()));
        }
        return out;
    }

    /**
     * Whether a mesh with morph targets is placed on rig node {@code node}, the one a weights track drives; every
     * such mesh must have one target per component of the track.
     */
    private static boolean drivesMorphTargets(Track t, int node, List<MeshInstance> meshes, String clip,
            String nodeLabel) {
        boolean found = false;
        for (MeshInstance m : meshes) {
            if (m.node() != node || m.morphTargetCount() == 0) {
                continue;
            }
            if (m.morphTargetCount() != t.components()) {
                throw ImportException.invalid("clip '" + clip + "': the weights track of " + nodeLabel + " has "
                        + t.components() + " weights per key but mesh "
                        + (m.sourceMesh() >= 0 ? m.sourceMesh() : "'" + m.name() + "'") + " on that node has "
                        + m.morphTargetCount() + " morph targets");
            }
            found = true;
        }
        return found;
    }

    /**
     * Rotations within {@link #UNIT_TOLERANCE} of unit length are used exactly as stored, as the glTF spec's
     * slerp and three.js do (quantised or rounded keys such as {@code (0, 0, 0.707, 0.707)} are common and
     * valid). Keys further off would scale their node when composed into a matrix, so those are normalised,
     * with a warning. Cubic tracks are normalised after interpolation instead. The decoded values may be
     * shared with other tracks, so a normalised copy is made only when some key needs it.
     */
    private static Track normalizedRotations(Track t, String clip, ImportWarnings warnings) {
        if (t.property() != TrackProperty.ROTATION || t.interpolation() == Interpolation.CUBICSPLINE) {
            return t;
        }
        float[] v = t.values();
        float[] out = null;
        int fixed = 0;
        for (int k = 0; k < v.length; k += 4) {
            double len = Math.sqrt((double) v[k] * v[k] + (double) v[k + 1] * v[k + 1] + (double) v[k + 2] * v[k + 2]
                    + (double) v[k + 3] * v[k + 3]);
            if (!(Math.abs(len - 1) <= UNIT_TOLERANCE)) {
                if (out == null) {
                    out = v.clone();
                }
                Quaternions.normalize(out, k);
                fixed++;
            }
        }
        if (out == null) {
            return t;
        }
        warnings.add("clip '" + clip + "': " + fixed + " rotation keys of node " + t.node()
                + " are not unit quaternions; normalised");
        return new Track(t.node(), t.property(), t.interpolation(), t.components(), t.times(), out);
    }

    private static String describe(ImportScene.Node node, int importIndex) {
        int idx = node.sourceIndex() >= 0 ? node.sourceIndex() : importIndex;
        return "node " + idx + (node.name() == null ? "" : " ('" + node.name() + "')");
    }
}
