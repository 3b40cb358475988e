package io.posekit.export;

import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.Primitive;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A whole {@link Model} as an animated glTF 2.0 asset: the converter from any upload to what web frontends load.
 *
 * <p>What is written:
 * <ul>
 *   <li>Nodes: every rig node, in rig order (so node {@code i} of the file is rig node {@code i}), with its name,
 *       rest translation, rotation (normalised when far from unit length) and scale, and its children; the scene's roots are the rig's roots.
 *       In glTF's coordinates ({@link Coordinates#GLTF}, the default) a model whose file declares another space
 *       (FBX: {@code GlobalSettings} in centimetres, Z-up, …) gets one root node {@value #SPACE_ROOT} above every
 *       rig root, whose {@code matrix} converts it to metres and Y-up ({@link io.posekit.asset.ModelSpace}).
 *       Otherwise, when the joints of a skin have no common ancestor (glTF requires one) an extra root node
 *       {@code posekit:root} with no transform is added above every rig root.</li>
 *   <li>Meshes: one glTF mesh per distinct list of primitives. A rigid instance's mesh is on the instance's node; a
 *       second instance on the same node goes onto an extra child node without transform (its model matrix is its
 *       parent's), and so do the primitives of a skinned instance that carry no influences (posekit poses them
 *       rigidly with the node). A skinned mesh is placed as the glTF specification recommends, on a scene root
 *       without transform (skinning ignores the node's own and its parents' transforms, in posekit as in glTF): on
 *       the instance's node when that is a root with the identity rest transform that no exported clip animates and no
 *       root is added above the rig's,
 *       else on an extra root node named after the instance.
 *       Per primitive: {@code POSITION} (with {@code min}/{@code max}), {@code NORMAL} (unit), {@code TANGENT}
 *       (unit direction, w ±1), every {@code TEXCOORD_n}, {@code COLOR_0} (float RGBA), indices, mode, material (factors and the embedded base colour
 *       image) and, on skinned instances, every influence set ({@link InfluenceSets}); morph targets as position
 *       and normal displacements, with the instance's default weights on its node and the first instance's on the
 *       mesh.</li>
 *   <li>Skins: joints and inverse bind matrices as the model holds them (a COLLADA bind shape matrix is folded into
 *       them at import, so skinning matrices are the source's bit for bit).</li>
 *   <li>Animations: the selected clips ({@link AnimationWriter}): keyframe tracks glTF can express as they are
 *       (STEP, LINEAR with exact slerp, CUBICSPLINE, morph weights), everything else resampled and reduced
 *       ({@link ClipResampler}, {@link KeyReduction}) within the tolerance, the key counts and the largest error
 *       reported per clip ({@link Report}).</li>
 * </ul>
 *
 * <p>The output is deterministic. Not thread-safe; build one per request.
 */
public final class AnimatedGltf {

    /** The node name of the extra root added when a skin's joints have no common ancestor. */
    public static final String EXTRA_ROOT = "posekit:root";
    /**
     * The node name of the root that converts the file's model space to glTF's ({@link Coordinates#GLTF}): its
     * {@code matrix} is {@link io.posekit.asset.ModelSpace#toGltf()}, its children the rig's roots.
     */
    public static final String SPACE_ROOT = "posekit:space";

    private final GltfWriter doc;
    private final Report report;
    private final Map<String, Object> extras = new LinkedHashMap<>();

    /**
     * What to export and how.
     *
     * @param clips the names of the clips to write, in the order given; {@code null} for every clip in file order
     * @param fps when not {@code null}, every translation, rotation and scale channel is resampled on this grid
     *     (frames per second, {@code > 0}) and then reduced; when {@code null}, only what glTF cannot express is
     *     resampled, on the check grid (60 Hz plus the source's key times)
     * @param tolerance the reduction tolerance ({@code ≥ 0}): the rotation error allowed, in radians; translation may
     *     be off by {@code tolerance / 10} of the skeleton's size, scale by {@code tolerance / 10} relative
     * @param compression how vertex data is stored ({@link Compression}); when it quantizes, the positions of every
     *     mesh are quantized in one box (around all of them, in their mesh space), a rigid mesh sits on an extra child
     *     node of its node carrying the dequantization, and every skin a skinned mesh uses has it folded into its
     *     inverse bind matrices
     * @param coordinates {@link Coordinates#GLTF}: the model's space is converted to glTF's metres and Y-up by a root
     *     node {@value #SPACE_ROOT} carrying {@link io.posekit.asset.ModelSpace#toGltf()} as its {@code matrix}, above
     *     every rig root (no node is added when the conversion is the identity); {@link Coordinates#FILE}: the file's
     *     own model space, as posekit samples it
     */
    public record Options(List<String> clips, Double fps, double tolerance, Compression compression,
            Coordinates coordinates) {

        /** Options with float32 vertex data ({@link Compression#NONE}), converted to glTF's space. */
        public Options(List<String> clips, Double fps, double tolerance) {
            this(clips, fps, tolerance, Compression.NONE);
        }

        /** Options converted to glTF's space ({@link Coordinates#GLTF}). */
        public Options(List<String> clips, Double fps, double tolerance, Compression compression) {
            this(clips, fps, tolerance, compression, Coordinates.GLTF);
        }

        /** The default tolerance: 1e-4 rad, 1e-5 of the skeleton's size. */
        public static final double DEFAULT_TOLERANCE = 1e-4;
        /** Every clip, resampled only where needed, at the default tolerance, in glTF's space. */
        public static final Options DEFAULT = new Options(null, null, DEFAULT_TOLERANCE);

        public Options {
            clips = clips == null ? null : List.copyOf(clips);
            if (fps != null && !(fps > 0 && Double.isFinite(fps))) {
                throw new IllegalArgumentException("fps " + fps + " is not a positive number");
            }
            if (!(tolerance >= 0) || Double.isInfinite(tolerance)) {
                throw new IllegalArgumentException("tolerance " + tolerance + " is not a non-negative number");
            }
            Objects.requireNonNull(compression, "compression");
            Objects.requireNonNull(coordinates, "coordinates");
        }

        /** These options with {@code coordinates}. */
        public Options with(Coordinates coordinates) {
            return new Options(clips, fps, tolerance, compression, coordinates);
        }
    }

    /**
     * What the export did to the clips.
     *
     * @param skeletonSize the size translation tolerances are relative to: the diagonal of the box around the rig's
     *     node origins in the rest pose (scene units; 1 when that is 0)
     * @param clips one entry per written clip
     */
    public record Report(double skeletonSize, List<ClipReport> clips) {

        public Report {
            clips = List.copyOf(clips);
        }

        /** Keys of the resampled channels before reduction, over all clips. */
        public long keysBefore() {
            return clips.stream().mapToLong(ClipReport::keysBefore).sum();
        }

        /** Keys of the resampled channels after reduction, over all clips. */
        public long keysAfter() {
            return clips.stream().mapToLong(ClipReport::keysAfter).sum();
        }

        /** The largest rotation error of any clip, radians. */
        public double maxRotationError() {
            return clips.stream().mapToDouble(ClipReport::maxRotationError).max().orElse(0);
        }

        /** The largest translation error of any clip, scene units. */
        public double maxTranslationError() {
            return clips.stream().mapToDouble(ClipReport::maxTranslationError).max().orElse(0);
        }

        /** The largest relative scale error of any clip. */
        public double maxScaleError() {
            return clips.stream().mapToDouble(ClipReport::maxScaleError).max().orElse(0);
        }
    }

    /**
     * One clip's export.
     *
     * @param name the clip's name
     * @param channels glTF channels written
     * @param exactChannels of these, channels written as the source has them
     * @param resampledChannels of these, channels resampled and reduced
     * @param keysBefore keys of the resampled channels before reduction
     * @param keysAfter keys of the resampled channels after reduction
     * @param maxRotationError the largest rotation error at a check frame, radians (0 when nothing was resampled)
     * @param maxTranslationError the largest translation error, scene units
     * @param maxScaleError the largest relative scale error
     */
    public record ClipReport(String name, int channels, int exactChannels, int resampledChannels, long keysBefore,
            long keysAfter, double maxRotationError, double maxTranslationError, double maxScaleError) {
    }

    private AnimatedGltf(Model model, Options options) {
        Rig rig = model.rig();
        doc = new GltfWriter(options.compression());
        if (options.compression().quantizes()) {
            List<float[]> positions = new ArrayList<>();
            for (MeshInstance instance : model.meshes()) {
                for (Primitive p : instance.primitives()) {
                    positions.add(p.positions());
                }
            }
            doc.positions = PositionQuantization.around(positions);
        }
        Set<Integer> skinnedBy = new HashSet<>();
        List<Clip> clips = selectedClips(model, options.clips());
        // an asset of nodes alone (COLLADA's cameras.dae, lights.dae; a BVH-less empty scene) is still a scene
        // glTF can hold: assimp and three.js export its nodes, and so does posekit
        if (rig.nodeCount() == 0) {
            throw new IllegalArgumentException("the asset has no nodes to export");
        }
        int n = rig.nodeCount();
        List<List<Integer>> children = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            children.add(new ArrayList<>());
        }
        List<Integer> roots = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            (rig.parent(i) < 0 ? roots : children.get(rig.parent(i))).add(i);
        }
        List<NodeJson> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add(NodeJson.rest(rig, i));
        }
        // meshes: a node carries at most one mesh in glTF
        Map<Integer, List<int[]>> carriers = new LinkedHashMap<>();
        Set<Integer> animated = transformAnimated(clips);
        List<Integer> skinnedRoots = new ArrayList<>();
        boolean convert = options.coordinates().converts(model.space());
        // a root above the rig's roots (the conversion, or the joints' missing common ancestor) makes no rig root a
        // scene root any more
        boolean extraRoot = convert || !commonRoots(model);
        MeshWriter meshWriter = new MeshWriter(doc);
        for (MeshInstance instance : model.meshes()) {
            List<Primitive> skinned = new ArrayList<>();
            List<Primitive> rigid = new ArrayList<>();
            for (Primitive p : instance.primitives()) {
                (instance.skinned() && p.influencesPerVertex() > 0 ? skinned : rigid).add(p);
            }
            for (List<Primitive> part : List.of(skinned, rigid)) {
                if (part.isEmpty()) {
                    continue;
                }
                boolean skin = part == skinned;
                int mesh = meshWriter.mesh(instance, part, skin ? model.skins().get(instance.skin()) : null);
                if (mesh < 0) {
                    continue;
                }
                int carrier = instance.node();
                if (skin) {
                    skinnedBy.add(instance.skin());
                }
                if (!skin && doc.positions != null) {
                    // the dequantization on a child node of its own: the instance's node may be animated
                    carrier = nodes.size();
                    NodeJson child = NodeJson.extra(instance.name());
                    child.translation = new float[] {doc.positions.cx(), doc.positions.cy(), doc.positions.cz()};
                    child.scale = new float[] {doc.positions.h(), doc.positions.h(), doc.positions.h()};
                    nodes.add(child);
                    children.add(new ArrayList<>());
                    children.get(instance.node()).add(carrier);
                } else if (skin && (extraRoot || rig.parent(carrier) >= 0 || nodes.get(carrier).hasTransform()
                        || animated.contains(carrier) || nodes.get(carrier).mesh >= 0)) {
                    // glTF: a skinned mesh's node should be a root without transform (NODE_SKINNED_MESH_NON_ROOT,
                    // NODE_SKINNED_MESH_LOCAL_TRANSFORMS, ANIMATION_CHANNEL_TARGET_NODE_SKIN)
                    carrier = nodes.size();
                    nodes.add(NodeJson.extra(instance.name()));
                    children.add(new ArrayList<>());
                    skinnedRoots.add(carrier);
                } else if (!skin && nodes.get(carrier).mesh >= 0) {
                    carrier = nodes.size();
                    nodes.add(NodeJson.extra(instance.name()));
                    children.add(new ArrayList<>());
                    children.get(instance.node()).add(carrier);
                }
                NodeJson node = nodes.get(carrier);
                node.mesh = mesh;
                node.skin = skin ? instance.skin() : -1;
                node.weights = instance.morphWeights();
                carriers.computeIfAbsent(instance.node(), k -> new ArrayList<>()).add(new int[] {carrier, instance.morphTargetCount()});
            }
        }
        for (int s = 0; s < model.skins().size(); s++) {
            skin(model.skins().get(s), skinnedBy.contains(s) ? doc.positions : null);
        }
        if (extraRoot) {
            // one root above the rig's: the conversion to glTF's space (a root transform, as ufbx's
            // UFBX_SPACE_CONVERSION_TRANSFORM_ROOT: joints, clips and inverse binds stay the file's, so skinning in
            // glTF gives C · model(joint) · inverseBind exactly), which is also the joints' common ancestor
            int extra = nodes.size();
            NodeJson root = NodeJson.extra(convert ? SPACE_ROOT : EXTRA_ROOT);
            if (convert) {
                root.matrix = model.space().toGltf();
            }
            nodes.add(root);
            children.add(new ArrayList<>(roots));
            roots = List.of(extra);
        }
        double size = skeletonSize(rig);
        ClipResampler.Tolerances tolerances = new ClipResampler.Tolerances(options.tolerance(),
                options.tolerance() / 10 * size, options.tolerance() / 10);
        AnimationWriter animations = new AnimationWriter(doc, rig, carriers, options.fps(), tolerances);
        List<ClipReport> reports = new ArrayList<>();
        for (Clip clip : clips) {
            ClipReport r = animations.write(clip);
            if (r != null) {
                reports.add(r);
            }
        }
        for (int i = 0; i < nodes.size(); i++) {
            doc.nodes.add(nodes.get(i).json(children.get(i)));
        }
        doc.sceneNodes.addAll(roots);
        doc.sceneNodes.addAll(skinnedRoots);
        this.report = new Report(size, reports);
        extras.put("source", model.format().wireName());
        extras.put("clips", reports.size());
        extras.put("resampledKeysBefore", report.keysBefore());
        extras.put("resampledKeysAfter", report.keysAfter());
        extras.put("maxRotationError", report.maxRotationError());
        extras.put("maxTranslationError", report.maxTranslationError());
        extras.put("tolerance", options.tolerance());
        if (options.fps() != null) {
            extras.put("fps", options.fps());
        }
        if (options.compression() != Compression.NONE) {
            extras.put("compression", options.compression().wireName());
        }
        if (!model.space().isGltf()) {
            // only where the choice matters: a glTF-space model's export is the same either way
            extras.put("coordinates", options.coordinates().wireName());
            extras.put("fileSpace", model.space().describe());
        }
    }

    /**
     * Builds the export of {@code model}.
     *
     * @throws IllegalArgumentException when a named clip is not in the model (the message names it), the asset has
     *     no nodes (an asset of nodes alone, without meshes, skins or clips, is exported as its nodes), a clip would
     *     take more than
     *     {@value ClipResampler#MAX_FRAMES} frames to resample, or the output would exceed 2 GiB
     */
    public static AnimatedGltf of(Model model, Options options) {
        return new AnimatedGltf(model, Objects.requireNonNull(options, "options"));
    }

    /** What the export did to the clips. */
    public Report report() {
        return report;
    }

    /** The asset as a GLB. @throws IllegalArgumentException past the 2 GiB one output can hold */
    public byte[] glb() {
        return doc.glb(extras);
    }

    /** The asset as glTF JSON with the buffer embedded. @throws IllegalArgumentException past the size one output can hold */
    public byte[] gltf() {
        return doc.gltfJson(extras);
    }

    /** How far from 1 a quaternion's length may be and still be written as it is. */
    static final double UNIT_SLACK = 1e-3;

    /**
     * Normalises the quaternion at {@code q[o..o+3]} when its length is off by more than {@link #UNIT_SLACK}: posekit
     * uses the values as they are, so a nearly unit one is kept bit for bit (the round trip stays exact), a far one
     * is made unit (glTF requires unit rotations).
     */
    static void normalizeIfFar(float[] q, int o) {
        if (Math.abs(io.posekit.math.Quaternions.length(q, o) - 1) > UNIT_SLACK) {
            io.posekit.math.Quaternions.normalize(q, o);
        }
    }

    /** The clips named in {@code names} (every clip when {@code null}). */
    static List<Clip> selectedClips(Model model, List<String> names) {
        if (names == null) {
            return model.clips();
        }
        List<Clip> out = new ArrayList<>();
        for (String name : names) {
            Clip found = null;
            for (Clip c : model.clips()) {
                if (c.name().equals(name)) {
                    found = c;
                    break;
                }
            }
            if (found == null) {
                throw new IllegalArgumentException("unknown clip '" + name + "'");
            }
            out.add(found);
        }
        return out;
    }

    /** Whether the joints of every skin have a common ancestor-or-self (glTF's requirement). */
    /** The rig nodes whose translation, rotation or scale some clip of {@code clips} animates. */
    private static Set<Integer> transformAnimated(List<Clip> clips) {
        Set<Integer> out = new HashSet<>();
        for (Clip clip : clips) {
            for (var track : clip.tracks()) {
                if (track.property() != io.posekit.clip.TrackProperty.WEIGHTS) {
                    out.add(track.node());
                }
            }
            for (var stack : clip.nodeTransforms()) {
                out.add(stack.node());
            }
        }
        return out;
    }

    private static boolean commonRoots(Model model) {
        Rig rig = model.rig();
        for (Skin s : model.skins()) {
            if (s.jointCount() == 0) {
                continue;
            }
            int root = s.jointNode(0);
            while (rig.parent(root) >= 0) {
                root = rig.parent(root);
            }
            for (int j : s.jointNodes()) {
                while (rig.parent(j) >= 0) {
                    j = rig.parent(j);
                }
                if (j != root) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The diagonal of the box around the node origins in the rest pose, or 1 when that is 0. */
    static double skeletonSize(Rig rig) {
        io.posekit.sampling.Pose rest = io.posekit.sampling.Pose.evaluate(rig, null, 0);
        float[] m = rest.modelMatrices();
        double[] min = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        double[] max = {-Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE};
        for (int i = 0; i < rig.nodeCount(); i++) {
            for (int c = 0; c < 3; c++) {
                min[c] = Math.min(min[c], m[16 * i + 12 + c]);
                max[c] = Math.max(max[c], m[16 * i + 12 + c]);
            }
        }
        double d = Math.sqrt(Math.pow(max[0] - min[0], 2) + Math.pow(max[1] - min[1], 2) + Math.pow(max[2] - min[2], 2));
        return d > 0 && Double.isFinite(d) ? d : 1;
    }

    /** Writes skin {@code s}, with {@code dequantize} folded into its inverse bind matrices when not {@code null}. */
    private void skin(Skin s, PositionQuantization dequantize) {
        StringBuilder joints = new StringBuilder("[");
        for (int k = 0; k < s.jointCount(); k++) {
            joints.append(k == 0 ? "" : ",").append(s.jointNode(k));
        }
        joints.append(']');
        StringBuilder json = new StringBuilder("{");
        if (s.name() != null) {
            json.append("\"name\":").append(GltfJson.string(s.name())).append(',');
        }
        if (s.jointCount() > 0) {
            float[] matrices = dequantize == null ? s.inverseBindMatrices() : dequantize.foldInto(s.inverseBindMatrices());
            int ibm = doc.accessor(new GltfWriter.FloatBlock(matrices), 0, GltfWriter.FLOAT, "MAT4",
                    s.jointCount(), "");
            json.append("\"inverseBindMatrices\":").append(ibm).append(',');
        }
        doc.skins.add(json.append("\"joints\":").append(joints).append('}').toString());
    }

}
