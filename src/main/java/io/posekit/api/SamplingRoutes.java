package io.posekit.api;

import io.posekit.api.body.LayerEcho;
import io.posekit.api.body.MeshResponses;
import io.posekit.api.body.SamplingBody;
import io.posekit.api.body.SamplingQuery;
import io.posekit.api.security.Scope;
import io.posekit.api.http.ApiException;
import io.posekit.api.http.ApiRoutes;
import io.posekit.api.http.Exchange;
import io.posekit.api.http.JsonBodies;
import io.posekit.api.http.Negotiation;
import io.posekit.api.http.Reply;
import io.posekit.api.http.Router;
import io.posekit.api.json.JsonOut;
import io.posekit.asset.Model;
import io.posekit.export.Coordinates;
import io.posekit.export.PosedMeshes;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.Pose;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.MeshPoser;
import io.posekit.skinning.NonRigidJointException;
import io.posekit.skinning.PosedPrimitive;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.SkinningDualQuaternionsJob;
import io.posekit.skinning.SkinningMethod;
import io.posekit.skinning.VertexAttribute;
import io.posekit.store.AssetRepository;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.springframework.stereotype.Component;

/**
 * Sampling an asset at a clip and time ({@code /api/v1/assets/{id}/…}): poses, skinning matrices, bind-shape
 * geometry and skinned vertices. Every sampling endpoint takes {@code clip}, {@code time} and {@code loop}
 * (see {@link Sampling}) and echoes them with the clip-local time it sampled. Model-space answers are in the file's
 * own model space; {@code coordinates=gltf} ({@link #coordinates}) converts them to glTF's metres and Y-up by the
 * model's {@link io.posekit.asset.ModelSpace}, as {@code animated.glb}'s conversion root does.
 *
 * <p>Matrices and skinned vertices are also available as raw little-endian float32 with
 * {@code Accept: application/octet-stream}; the {@code Posekit-Layout} header then says what the floats are.
 *
 * <p>Answers for a cached asset whose body is small are made on the event loop; the others on the worker pool (see
 * {@link io.posekit.api.http.ApiServer}).
 */
@Component
class SamplingRoutes implements ApiRoutes {

    static final String LAYOUT_HEADER = "Posekit-Layout";
    /** Query parameters of every sampling operation (see {@link SamplingQuery}). */
    static final String[] SAMPLING = {"clip", "time", "frame", "fps", "normalized", "speed", "loop", "layer", "threshold",
        "timeBase"};
    /** Query parameters of root-motion extraction (see {@link PostProcessing}). */
    static final String[] ROOT_MOTION = {"rootMotion", "rootJoint", "rootComponents", "previousTime"};
    /** Answers of up to this many vertices (over all primitives) are skinned on the event loop. */
    static final int INLINE_VERTICES = 1024;

    private final AssetRepository assets;
    private final JsonBodies json;
    private final JointNames jointNames = new JointNames();

    SamplingRoutes(AssetRepository assets, JsonBodies json) {
        this.assets = assets;
        this.json = json;
    }

    @Override
    public void register(Router.Builder routes) {
        String base = "/api/v1/assets/{id}";
        Predicate<Exchange> cached = e -> Assets.ready(assets, e, e.variable("id"));
        routes.get(base + "/pose").scope(Scope.READ).query(with(with(SAMPLING, ROOT_MOTION), "space", "coordinates"))
                .repeatable("layer").produces(Negotiation.JSON).immutable().inline(cached)
                .handle(e -> pose(e, model -> sampling(model, e), e.query("space")));
        routes.post(base + "/pose").scope(Scope.READ).query("space", "coordinates").consumes(SamplingBody.MAX_BYTES, Negotiation.JSON)
                .produces(Negotiation.JSON).inline(cached)
                .handle(e -> pose(e, model -> sampling(model, json.read(e, SamplingBody.class)), e.query("space")));
        routes.get(base + "/skins/{skin}/matrices").scope(Scope.READ)
                .query(with(with(SAMPLING, ROOT_MOTION), "form", "coordinates"))
                .repeatable("layer").produces(Negotiation.JSON, Negotiation.OCTET_STREAM).immutable().inline(cached)
                .handle(e -> skinMatrices(e, model -> sampling(model, e)));
        routes.post(base + "/skins/{skin}/matrices").scope(Scope.READ).query("form", "coordinates")
                .consumes(SamplingBody.MAX_BYTES, Negotiation.JSON)
                .produces(Negotiation.JSON, Negotiation.OCTET_STREAM).inline(cached)
                .handle(e -> skinMatrices(e, model -> sampling(model, json.read(e, SamplingBody.class))));
        routes.get(base + "/meshes/{mesh}").scope(Scope.READ).produces(Negotiation.JSON).immutable().handle(this::geometry);
        Predicate<Exchange> smallMesh = e -> cached.test(e) && small(e);
        routes.get(base + "/meshes/{mesh}/skinned").scope(Scope.READ)
                .query(with(with(SAMPLING, ROOT_MOTION), "attributes", "skinning", "coordinates")).repeatable("layer")
                .produces(Negotiation.JSON, Negotiation.OCTET_STREAM, Negotiation.GLTF_BINARY).immutable()
                .inline(smallMesh)
                .handle(e -> skinned(e, model -> sampling(model, e), true));
        routes.post(base + "/meshes/{mesh}/skinned").scope(Scope.READ).query("attributes", "skinning", "coordinates")
                .consumes(SamplingBody.MAX_BYTES, Negotiation.JSON)
                .produces(Negotiation.JSON, Negotiation.OCTET_STREAM, Negotiation.GLTF_BINARY).inline(smallMesh)
                .handle(e -> skinned(e, model -> sampling(model, json.read(e, SamplingBody.class)), true));
    }

    static String[] with(String[] common, String... more) {
        String[] out = java.util.Arrays.copyOf(common, common.length + more.length);
        System.arraycopy(more, 0, out, common.length, more.length);
        return out;
    }

    /**
     * The {@code coordinates} query parameter: {@code file} (the file's own model space) or {@code gltf} (converted to
     * glTF's metres and Y-up by the model's {@link io.posekit.asset.ModelSpace}); {@code dflt} when absent or empty.
     *
     * @throws ApiException 400 naming the parameter for any other value
     */
    static Coordinates coordinates(String text, Coordinates dflt) {
        if (text == null || text.isEmpty()) {
            return dflt;
        }
        return Coordinates.byWireName(text.strip()).orElseThrow(() -> ApiException.badRequest("Invalid coordinates",
                "coordinates '" + text + "' is not one of file, gltf"));
    }

    /**
     * Whether a sampling answer's model-space values go from the file's space to glTF's: {@code coordinates=gltf} asked
     * for ({@link #coordinates}; the file's space by default) and the model not in glTF's space already.
     */
    private static boolean toGltf(Exchange e, Model model) {
        return coordinates(e.query("coordinates"), Coordinates.FILE).converts(model.space());
    }

    /** The sampling and root-motion parameters of the query string, resolved against {@code model}. */
    static Sampling sampling(Model model, Exchange e) {
        return Sampling.parse(model, query(e)).with(PostProcessing.parse(model, e.query("rootMotion"),
                e.query("rootJoint"), e.query("rootComponents"), e.query("previousTime")));
    }

    /** A POST body's sampling, root motion and IK, resolved against {@code model}. */
    static Sampling sampling(Model model, SamplingBody b) {
        Sampling s = Sampling.parse(model, b);
        return s.with(PostProcessing.parse(model, b.rootMotion(), b.rootJoint(), b.rootComponents(), b.previousTime(),
                b.ik()));
    }

    /** The sampling parameters of the query string. */
    static SamplingQuery query(Exchange e) {
        List<String> layers = e.queryAll("layer");
        return new SamplingQuery(e.query("clip"), e.query("time"), e.query("frame"), e.query("fps"),
                e.query("normalized"), e.query("speed"), e.query("loop"), layers.isEmpty() ? null : layers,
                e.query("threshold"), e.query("timeBase"));
    }

    /** Whether the mesh the request names is small enough to skin on the event loop (only asked of a cached asset). */
    private boolean small(Exchange e) {
        Model model = assets.find(e.caller().tenant(), e.variable("id")).map(AssetRepository.Loaded::model).orElse(null);
        if (model == null) {
            return true;
        }
        String mesh = e.variable("mesh");
        int index;
        try {
            index = Integer.parseInt(mesh);
        } catch (NumberFormatException x) {
            return true;
        }
        if (index < 0 || index >= model.meshes().size()) {
            return true;
        }
        int vertices = 0;
        for (Primitive p : model.meshes().get(index).primitives()) {
            vertices += p.vertexCount();
        }
        return vertices <= INLINE_VERTICES;
    }

    private Reply pose(Exchange e, Function<Model, Sampling> sampling, String space) {
        String id = e.variable("id");
        Model model = Assets.require(assets, e, id).model();
        if (space != null && !space.isEmpty() && !space.equals("local") && !space.equals("model")) {
            throw ApiException.badRequest("Invalid space", "space '" + space + "' is not one of local, model");
        }
        boolean toGltf = toGltf(e, model);
        Sampling s = sampling.apply(model);
        Sampling.Evaluation evaluation = s.evaluation(model);
        Pose pose = evaluation.pose();
        Rig rig = model.rig();
        int n = rig.nodeCount();
        boolean modelSpace = "model".equals(space);
        float[] modelMatrices = pose.modelMatrices();
        if (modelSpace && toGltf) {
            // local transforms are the file's (the conversion sits above the roots, as animated.glb's root node)
            modelMatrices = modelMatrices.clone();
            model.space().convertMatrices(modelMatrices);
        }
        JsonOut out = echo(JsonOut.get().raw('{'), s).raw(",\"space\":").raw(modelSpace ? "\"model\"" : "\"local\"")
                .raw(",\"nodes\":[");
        LocalPose local = pose.local();
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out.comma();
            }
            out.raw("{\"name\":").string(rig.name(i));
            if (modelSpace) {
                out.raw(",\"matrix\":").floats(modelMatrices, 16 * i, 16);
            } else {
                out.raw(",\"translation\":").floats(local.translations(), 3 * i, 3)
                        .raw(",\"rotation\":").floats(local.rotations(), 4 * i, 4)
                        .raw(",\"scale\":").floats(local.scales(), 3 * i, 3);
            }
            out.raw('}');
        }
        out.raw(']');
        post(layers(out, s), evaluation).raw('}');
        return Reply.of(200, Negotiation.JSON, out.toByteBuf());
    }

    /** {@code "clip":…,"time":…,"loop":…,"localTime":…} (no braces). */
    private static JsonOut echo(JsonOut out, Sampling s) {
        return out.raw("\"clip\":").string(s.clipName()).raw(",\"time\":").number(s.time())
                .raw(",\"loop\":\"").raw(s.loop().wireName()).raw("\",\"localTime\":").number(s.localTime());
    }

    /**
     * {@code ,"rootMotion":{…}} when the root motion was extracted and {@code ,"ik":[{"reached":…}]} when IK was
     * applied; nothing otherwise.
     */
    static JsonOut post(JsonOut out, Sampling.Evaluation e) {
        Sampling.Motion m = e.motion();
        if (m != null) {
            out.raw(",\"rootMotion\":{\"joint\":").string(m.joint()).raw(",\"components\":[");
            for (int i = 0; i < m.components().size(); i++) {
                if (i > 0) {
                    out.comma();
                }
                out.string(m.components().get(i));
            }
            out.raw("],\"loops\":").raw(Long.toString(m.loops()));
            motion(out, "", m.total());
            motion(out, "cycle", m.cycle());
            if (m.delta() != null) {
                motion(out, "delta", m.delta());
            }
            out.raw('}');
        }
        if (e.reached() != null) {
            out.raw(",\"ik\":[");
            for (int i = 0; i < e.reached().length; i++) {
                if (i > 0) {
                    out.comma();
                }
                out.raw(e.reached()[i] ? "{\"reached\":true}" : "{\"reached\":false}");
            }
            out.raw(']');
        }
        return out;
    }

    /** {@code ,"<prefix>translation":[…],"<prefix>rotation":[…]} (camel case after a prefix). */
    private static void motion(JsonOut out, String prefix, io.posekit.motion.RigidMotion m) {
        float[] f = new float[7];
        m.write(f, 0);
        out.raw(",\"").raw(prefix.isEmpty() ? "translation" : prefix + "Translation").raw("\":").floats(f, 0, 3)
                .raw(",\"").raw(prefix.isEmpty() ? "rotation" : prefix + "Rotation").raw("\":").floats(f, 3, 4);
    }

    /** {@code ,"layers":[…]} for a blend; nothing otherwise. */
    private static JsonOut layers(JsonOut out, Sampling s) {
        List<LayerEcho> layers = s.layers();
        if (layers == null) {
            return out;
        }
        out.raw(",\"layers\":[");
        for (int i = 0; i < layers.size(); i++) {
            LayerEcho l = layers.get(i);
            if (i > 0) {
                out.comma();
            }
            out.raw("{\"clip\":").string(l.clip()).raw(",\"weight\":").number(l.weight())
                    .raw(",\"mode\":").string(l.mode()).raw(",\"time\":").number(l.time())
                    .raw(",\"localTime\":").number(l.localTime()).raw('}');
        }
        return out.raw(']');
    }

    private Reply skinMatrices(Exchange e, Function<Model, Sampling> sampling) {
        String id = e.variable("id");
        String form = e.query("form");
        String accept = e.header("Accept");
        Model model = Assets.require(assets, e, id).model();
        int skinIndex = index(e.variable("skin"), model.skins().size(), "skin");
        Sampling s = sampling.apply(model);
        Skin skin = model.skins().get(skinIndex);
        boolean dualQuaternion = "dualQuaternion".equals(form);
        if (form != null && !form.isEmpty() && !dualQuaternion && !"matrix".equals(form)) {
            throw ApiException.badRequest("Invalid form", "form '" + form + "' is not one of matrix, dualQuaternion");
        }
        Sampling.Evaluation evaluation = s.evaluation(model);
        float[] matrices = MeshPoser.skinningMatrices(skin, evaluation.pose().modelMatrices());
        if (toGltf(e, model)) {
            // C · model(joint) · inverseBind: bind-shape vertices of the file to glTF's space, as glTF skins them
            // under animated.glb's conversion root (fresh matrices: converted in place)
            model.space().convertMatrices(matrices);
        }
        FiniteValues.check(matrices, "a skinning matrix of skin " + skinIndex);
        if (dualQuaternion) {
            return dualQuaternions(model, skinIndex, skin, matrices, evaluation, s, accept);
        }
        if (Negotiation.wantsBinary(accept)) {
            return binary(matrices, matrices.length, "matrix:" + skin.jointCount() + "x16");
        }
        JsonOut out = JsonOut.get().raw("{\"skin\":").number(skinIndex).comma();
        echo(out, s).raw(",\"joints\":").raw(jointNames.of(model, skin)).raw(",\"matrices\":[");
        for (int k = 0; k < skin.jointCount(); k++) {
            if (k > 0) {
                out.comma();
            }
            out.floats(matrices, 16 * k, 16);
        }
        out.raw(']');
        post(layers(out, s), evaluation).raw('}');
        return Reply.of(200, Negotiation.JSON, out.toByteBuf());
    }

    /** The skinning matrices as dual quaternions and uniform scales (9 floats per joint in binary). */
    private Reply dualQuaternions(Model model, int skinIndex, Skin skin, float[] matrices, Sampling.Evaluation evaluation,
            Sampling s, String accept) {
        int n = skin.jointCount();
        SkinningDualQuaternionsJob job = new SkinningDualQuaternionsJob();
        job.skinningMatrices = matrices;
        job.outDualQuaternions = new float[8 * n];
        job.outScales = new float[n];
        try {
            job.run();
        } catch (NonRigidJointException x) {
            throw ApiException.notRigid(x, model, skinIndex, "");
        }
        if (Negotiation.wantsBinary(accept)) {
            float[] packed = new float[9 * n];
            for (int j = 0; j < n; j++) {
                System.arraycopy(job.outDualQuaternions, 8 * j, packed, 9 * j, 8);
                packed[9 * j + 8] = job.outScales[j];
            }
            return binary(packed, packed.length, "dualQuaternion:" + n + "x9");
        }
        JsonOut out = JsonOut.get().raw("{\"skin\":").number(skinIndex).comma();
        echo(out, s).raw(",\"joints\":").raw(jointNames.of(model, skin)).raw(",\"dualQuaternions\":[");
        for (int k = 0; k < n; k++) {
            if (k > 0) {
                out.comma();
            }
            out.floats(job.outDualQuaternions, 8 * k, 8);
        }
        out.raw("],\"scales\":").floats(job.outScales);
        post(layers(out, s), evaluation).raw('}');
        return Reply.of(200, Negotiation.JSON, out.toByteBuf());
    }

    private Reply geometry(Exchange e) {
        Model model = Assets.require(assets, e, e.variable("id")).model();
        int meshIndex = index(e.variable("mesh"), model.meshes().size(), "mesh");
        MeshInstance mesh = model.meshes().get(meshIndex);
        List<MeshResponses.GeometryPrimitive> prims = new ArrayList<>();
        for (Primitive p : mesh.primitives()) {
            prims.add(new MeshResponses.GeometryPrimitive(p.mode().wireName(), p.vertexCount(), p.positions(),
                    p.normals(), p.tangents(), jointSets(p), weightSets(p), p.indices()));
        }
        return json.reply(200, new MeshResponses.Geometry(meshIndex, mesh.name(), mesh.skinned() ? mesh.skin() : null,
                prims));
    }

    private Reply skinned(Exchange e, Function<Model, Sampling> sampling, boolean glbAllowed) {
        String id = e.variable("id");
        String accept = e.header("Accept");
        String skinningParam = e.query("skinning");
        Model model = Assets.require(assets, e, id).model();
        int meshIndex = index(e.variable("mesh"), model.meshes().size(), "mesh");
        Set<VertexAttribute> wanted = attributes(e.query("attributes"));
        Sampling s = sampling.apply(model);
        if (glbAllowed && Negotiation.wantsGltfBinary(accept)) {
            // a GLB is in glTF's space unless asked otherwise, as posed.glb
            return PosedGlb.response(id, model, s, "mesh-" + meshIndex + ".glb", io.posekit.export.Compression.NONE,
                    coordinates(e.query("coordinates"), Coordinates.GLTF), meshIndex);
        }
        boolean toGltf = toGltf(e, model);
        MeshInstance mesh = model.meshes().get(meshIndex);
        Sampling.Evaluation evaluation = s.evaluation(model);
        Pose pose = evaluation.pose();
        float[] skinning = mesh.skinned()
                ? MeshPoser.skinningMatrices(model.skins().get(mesh.skin()), pose.modelMatrices()) : null;
        SkinningMethod method = skinningParam == null || skinningParam.isEmpty() ? SkinningMethod.AUTHORED
                : SkinningMethod.byWireName(skinningParam).orElseThrow(() -> ApiException.badRequest("Invalid skinning",
                        "skinning '" + skinningParam + "' is not one of linear, dq, authored"));
        List<PosedPrimitive> posed;
        try {
            posed = MeshPoser.pose(mesh, s.morphWeights(model).weights(meshIndex), skinning, pose.modelMatrices(), wanted,
                    method);
        } catch (NonRigidJointException x) {
            throw ApiException.notRigid(x, model, mesh.skin(), "");
        }
        if (toGltf) {
            PosedMeshes.convert(posed, model.space());
        }
        for (int p = 0; p < posed.size(); p++) {
            FiniteValues.check(posed.get(p).positions(), "a skinned position of primitive " + p);
            FiniteValues.check(posed.get(p).normals(), "a skinned normal of primitive " + p);
            FiniteValues.check(posed.get(p).tangents(), "a skinned tangent of primitive " + p);
        }
        if (Negotiation.wantsBinary(accept)) {
            return skinnedBinary(posed);
        }
        JsonOut out = JsonOut.get().raw("{\"mesh\":").number(meshIndex).comma();
        echo(out, s).raw(",\"primitives\":[");
        for (int i = 0; i < posed.size(); i++) {
            PosedPrimitive p = posed.get(i);
            if (i > 0) {
                out.comma();
            }
            out.raw("{\"vertexCount\":").number(p.vertexCount());
            if (p.positions() != null) {
                out.raw(",\"positions\":").floats(p.positions());
            }
            if (p.normals() != null) {
                out.raw(",\"normals\":").floats(p.normals());
            }
            if (p.tangents() != null) {
                out.raw(",\"tangents\":").floats(p.tangents());
            }
            out.raw('}');
        }
        out.raw(']');
        post(layers(out, s), evaluation).raw('}');
        return Reply.of(200, Negotiation.JSON, out.toByteBuf());
    }

    private static Reply skinnedBinary(List<PosedPrimitive> posed) {
        int floats = 0;
        StringBuilder layout = new StringBuilder();
        for (PosedPrimitive p : posed) {
            if (!layout.isEmpty()) {
                layout.append(';');
            }
            List<String> parts = new ArrayList<>();
            if (p.positions() != null) {
                floats += p.positions().length;
                parts.add("position:" + p.vertexCount() + "x3");
            }
            if (p.normals() != null) {
                floats += p.normals().length;
                parts.add("normal:" + p.vertexCount() + "x3");
            }
            if (p.tangents() != null) {
                floats += p.tangents().length;
                parts.add("tangent:" + p.vertexCount() + "x4");
            }
            layout.append(String.join(",", parts));
        }
        ByteBuf buf = ByteBufAllocator.DEFAULT.directBuffer(4 * floats);
        FloatBuffer out = buf.nioBuffer(0, 4 * floats).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        for (PosedPrimitive p : posed) {
            for (float[] a : new float[][] {p.positions(), p.normals(), p.tangents()}) {
                if (a != null) {
                    out.put(a); // bulk copies, not a checked write per float
                }
            }
        }
        buf.writerIndex(4 * floats);
        return Reply.of(200, Negotiation.OCTET_STREAM, buf).header(LAYOUT_HEADER, layout.toString());
    }

    /** {@code count} floats as little-endian float32 in a pooled buffer. */
    private static Reply binary(float[] floats, int count, String layout) {
        ByteBuf buf = ByteBufAllocator.DEFAULT.directBuffer(4 * count);
        // one bulk copy (a memcpy on little-endian machines), not a checked write per float
        buf.nioBuffer(0, 4 * count).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(floats, 0, count);
        buf.writerIndex(4 * count);
        return Reply.of(200, Negotiation.OCTET_STREAM, buf).header(LAYOUT_HEADER, layout);
    }

    private static Set<VertexAttribute> attributes(String param) {
        if (param == null || param.isBlank()) {
            return EnumSet.of(VertexAttribute.POSITION, VertexAttribute.NORMAL);
        }
        Set<VertexAttribute> out = EnumSet.noneOf(VertexAttribute.class);
        for (String raw : param.split(",")) {
            String name = raw.strip();
            out.add(VertexAttribute.byWireName(name).orElseThrow(() -> ApiException.badRequest("Invalid attributes",
                    "attribute '" + name + "' is not one of position, normal, tangent")));
        }
        return out;
    }

    /**
     * The index a path segment names, among {@code count}.
     *
     * @throws ApiException 404 naming the valid range
     */
    static int index(String param, int count, String what) {
        if (param.isEmpty() || param.length() > 9 || !param.chars().allMatch(c -> c >= '0' && c <= '9')
                || Integer.parseInt(param) >= count) {
            throw ApiException.notFound("Unknown " + what, what + " '" + param + "' does not exist; the asset has "
                    + count + " " + what + (count == 1 ? "" : what.endsWith("h") ? "es" : "s")
                    + (count == 0 ? "" : " (0.." + (count - 1) + ")"));
        }
        return Integer.parseInt(param);
    }

    private static List<int[]> jointSets(Primitive p) {
        List<int[]> sets = new ArrayList<>(p.influenceSets());
        int n = p.vertexCount();
        int k = p.influencesPerVertex();
        for (int s = 0; s < p.influenceSets(); s++) {
            int[] set = new int[4 * n];
            for (int v = 0; v < n; v++) {
                System.arraycopy(p.joints(), v * k + 4 * s, set, 4 * v, 4);
            }
            sets.add(set);
        }
        return sets;
    }

    private static List<float[]> weightSets(Primitive p) {
        List<float[]> sets = new ArrayList<>(p.influenceSets());
        int n = p.vertexCount();
        int k = p.influencesPerVertex();
        for (int s = 0; s < p.influenceSets(); s++) {
            float[] set = new float[4 * n];
            for (int v = 0; v < n; v++) {
                System.arraycopy(p.weights(), v * k + 4 * s, set, 4 * v, 4);
            }
            sets.add(set);
        }
        return sets;
    }
}
