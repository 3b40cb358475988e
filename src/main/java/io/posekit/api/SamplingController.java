package io.posekit.api;

import static io.posekit.api.docs.ApiDocs.PROBLEM_JSON;

import io.posekit.api.body.MeshResponses;
import io.posekit.api.body.PoseResponses;
import io.posekit.api.body.SamplingBody;
import io.posekit.api.body.SamplingQuery;
import io.posekit.api.docs.ApiDocs;
import io.posekit.api.docs.ReadsStoredAsset;
import io.posekit.api.http.ApiException;
import io.posekit.api.http.Negotiation;
import io.posekit.asset.Model;
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
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Sampling an asset at a clip and time ({@code /api/v1/assets/{id}/…}): poses, skinning matrices, bind-shape
 * geometry and skinned vertices. Every sampling endpoint takes {@code clip}, {@code time} and {@code loop}
 * (see {@link Sampling}) and echoes them with the clip-local time it sampled.
 *
 * <p>Matrices and skinned vertices are also available as raw little-endian float32 with
 * {@code Accept: application/octet-stream}; the {@code Posekit-Layout} header then says what the floats are.
 */
@RestController
@RequestMapping("/api/v1/assets/{id}")
@Tag(name = "sampling", description = "Poses, skinning matrices and skinned meshes at a clip and time.")
class SamplingController {

    static final String LAYOUT_HEADER = "Posekit-Layout";

    private final AssetRepository assets;

    SamplingController(AssetRepository assets) {
        this.assets = assets;
    }

    @GetMapping(path = "/pose", produces = MediaType.APPLICATION_JSON_VALUE)
    @ReadsStoredAsset
    @Operation(operationId = "getPose", summary = "Pose of every node",
            description = "The pose of every node (in summary order) at the clip and time: local TRS or model matrices.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The pose.", content = @Content(
                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                        schema = @Schema(oneOf = {PoseResponses.LocalPose.class, PoseResponses.ModelPose.class}))),
                @ApiResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "422", description = ApiDocs.OUT_OF_RANGE,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class)))})
    Object pose(@Parameter(description = ApiDocs.ID, example = ApiDocs.ID_EXAMPLE) @PathVariable String id,
            @ParameterObject SamplingQuery query,
            @Parameter(description = "local (default): each node's translation, rotation and scale relative to its parent;"
                    + " model: each node's matrix in model space.", example = "model",
                    schema = @Schema(type = "string", allowableValues = {"local", "model"}, defaultValue = "local"))
            @RequestParam(required = false) String space) {
        return pose(id, model -> Sampling.parse(model, query), space);
    }

    @PostMapping(path = "/pose", consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    @ReadsStoredAsset
    @Operation(operationId = "postPose", summary = "Pose of every node",
            description = "As GET, with the clip or blend and the time in a JSON body.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The pose.", content = @Content(
                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                        schema = @Schema(oneOf = {PoseResponses.LocalPose.class, PoseResponses.ModelPose.class}))),
                @ApiResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "422", description = ApiDocs.OUT_OF_RANGE,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class)))})
    Object posePost(@Parameter(description = ApiDocs.ID, example = ApiDocs.ID_EXAMPLE) @PathVariable String id,
            @RequestBody SamplingBody body,
            @Parameter(description = "local (default): each node's translation, rotation and scale relative to its parent;"
                    + " model: each node's matrix in model space.", example = "model",
                    schema = @Schema(type = "string", allowableValues = {"local", "model"}, defaultValue = "local"))
            @RequestParam(required = false) String space) {
        return pose(id, model -> Sampling.parse(model, body), space);
    }

    private Object pose(String id, Function<Model, Sampling> sampling, String space) {
        Model model = Assets.require(assets, id).model();
        if (space != null && !space.isEmpty() && !space.equals("local") && !space.equals("model")) {
            throw ApiException.badRequest("Invalid space", "space '" + space + "' is not one of local, model");
        }
        Sampling s = sampling.apply(model);
        Pose pose = s.evaluate(model);
        Rig rig = model.rig();
        int n = rig.nodeCount();
        if ("model".equals(space)) {
            List<PoseResponses.ModelNode> nodes = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                nodes.add(new PoseResponses.ModelNode(rig.name(i), slice(pose.modelMatrices(), 16 * i, 16)));
            }
            return new PoseResponses.ModelPose(s.clipName(), s.time(), s.loop().wireName(), s.localTime(), "model", nodes,
                    s.layers());
        }
        LocalPose local = pose.local();
        List<PoseResponses.LocalNode> nodes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            nodes.add(new PoseResponses.LocalNode(rig.name(i), slice(local.translations(), 3 * i, 3),
                    slice(local.rotations(), 4 * i, 4), slice(local.scales(), 3 * i, 3)));
        }
        return new PoseResponses.LocalPose(s.clipName(), s.time(), s.loop().wireName(), s.localTime(), "local", nodes,
                s.layers());
    }

    @GetMapping(path = "/skins/{skin}/matrices",
            produces = {MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_OCTET_STREAM_VALUE})
    @ReadsStoredAsset
    @Operation(operationId = "getSkinMatrices", summary = "Skinning matrices of a skin",
            description = "Matrix k = model(joint k) · inverseBind k, in the skin's joint order. With Accept:"
                    + " application/octet-stream: raw little-endian float32, 16 per joint.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The skinning matrices.",
                        headers = @Header(name = LAYOUT_HEADER, description = "For binary responses, what the floats are, e.g. matrix:24x16.",
                                schema = @Schema(type = "string")),
                        content = {
                            @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(oneOf = {PoseResponses.SkinMatrices.class, PoseResponses.SkinDualQuaternions.class})),
                            @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM_VALUE, schema = @Schema(type = "string", format = "binary"))}),
                @ApiResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "422", description = ApiDocs.NOT_RIGID,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class)))})
    ResponseEntity<?> skinMatrices(@Parameter(description = ApiDocs.ID, example = ApiDocs.ID_EXAMPLE) @PathVariable String id,
            @Parameter(description = ApiDocs.SKIN, example = "0", schema = @Schema(type = "integer", minimum = "0"))
            @PathVariable("skin") String skinParam,
            @ParameterObject SamplingQuery query,
            @Parameter(description = ApiDocs.FORM, example = "dualQuaternion",
                    schema = @Schema(type = "string", allowableValues = {"matrix", "dualQuaternion"}, defaultValue = "matrix"))
            @RequestParam(required = false) String form,
            @Parameter(hidden = true) @RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept) {
        return skinMatrices(id, skinParam, model -> Sampling.parse(model, query), form, accept);
    }

    @PostMapping(path = "/skins/{skin}/matrices", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = {MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_OCTET_STREAM_VALUE})
    @ReadsStoredAsset
    @Operation(operationId = "postSkinMatrices", summary = "Skinning matrices of a skin",
            description = "As GET, with the clip or blend and the time in a JSON body.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The skinning matrices.",
                        headers = @Header(name = LAYOUT_HEADER, description = "For binary responses, what the floats are, e.g. matrix:24x16.",
                                schema = @Schema(type = "string")),
                        content = {
                            @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(oneOf = {PoseResponses.SkinMatrices.class, PoseResponses.SkinDualQuaternions.class})),
                            @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM_VALUE, schema = @Schema(type = "string", format = "binary"))}),
                @ApiResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "422", description = ApiDocs.NOT_RIGID,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class)))})
    ResponseEntity<?> skinMatricesPost(@Parameter(description = ApiDocs.ID, example = ApiDocs.ID_EXAMPLE) @PathVariable String id,
            @Parameter(description = ApiDocs.SKIN, example = "0", schema = @Schema(type = "integer", minimum = "0"))
            @PathVariable("skin") String skinParam,
            @RequestBody SamplingBody body,
            @Parameter(description = ApiDocs.FORM, example = "dualQuaternion",
                    schema = @Schema(type = "string", allowableValues = {"matrix", "dualQuaternion"}, defaultValue = "matrix"))
            @RequestParam(required = false) String form,
            @Parameter(hidden = true) @RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept) {
        return skinMatrices(id, skinParam, model -> Sampling.parse(model, body), form, accept);
    }

    private ResponseEntity<?> skinMatrices(String id, String skinParam, Function<Model, Sampling> sampling, String form,
            String accept) {
        Model model = Assets.require(assets, id).model();
        int skinIndex = index(skinParam, model.skins().size(), "skin");
        Sampling s = sampling.apply(model);
        Skin skin = model.skins().get(skinIndex);
        boolean dualQuaternion = "dualQuaternion".equals(form);
        if (form != null && !form.isEmpty() && !dualQuaternion && !"matrix".equals(form)) {
            throw ApiException.badRequest("Invalid form", "form '" + form + "' is not one of matrix, dualQuaternion");
        }
        float[] matrices = MeshPoser.skinningMatrices(skin, s.evaluate(model).modelMatrices());
        FiniteValues.check(matrices, "a skinning matrix of skin " + skinIndex);
        if (dualQuaternion) {
            return dualQuaternions(model, skinIndex, skin, matrices, s, accept);
        }
        if (Negotiation.wantsBinary(accept)) {
            return binary(matrices, "matrix:" + skin.jointCount() + "x16");
        }
        List<String> joints = new ArrayList<>(skin.jointCount());
        List<float[]> list = new ArrayList<>(skin.jointCount());
        for (int k = 0; k < skin.jointCount(); k++) {
            joints.add(model.rig().name(skin.jointNode(k)));
            list.add(slice(matrices, 16 * k, 16));
        }
        return json(new PoseResponses.SkinMatrices(skinIndex, s.clipName(), s.time(), s.loop().wireName(),
                s.localTime(), joints, list, s.layers()));
    }

    /** The skinning matrices as dual quaternions and uniform scales (9 floats per joint in binary). */
    private static ResponseEntity<?> dualQuaternions(Model model, int skinIndex, Skin skin, float[] matrices, Sampling s,
            String accept) {
        int n = skin.jointCount();
        SkinningDualQuaternionsJob job = new SkinningDualQuaternionsJob();
        job.skinningMatrices = matrices;
        job.outDualQuaternions = new float[8 * n];
        job.outScales = new float[n];
        try {
            job.run();
        } catch (NonRigidJointException e) {
            throw ApiException.notRigid(e, model, skinIndex, "");
        }
        if (Negotiation.wantsBinary(accept)) {
            float[] packed = new float[9 * n];
            for (int j = 0; j < n; j++) {
                System.arraycopy(job.outDualQuaternions, 8 * j, packed, 9 * j, 8);
                packed[9 * j + 8] = job.outScales[j];
            }
            return binary(packed, "dualQuaternion:" + n + "x9");
        }
        List<String> joints = new ArrayList<>(n);
        List<float[]> dqs = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            joints.add(model.rig().name(skin.jointNode(k)));
            dqs.add(slice(job.outDualQuaternions, 8 * k, 8));
        }
        return json(new PoseResponses.SkinDualQuaternions(skinIndex, s.clipName(), s.time(), s.loop().wireName(),
                s.localTime(), joints, dqs, job.outScales, s.layers()));
    }

    @GetMapping(path = "/meshes/{mesh}", produces = MediaType.APPLICATION_JSON_VALUE)
    @ReadsStoredAsset
    @Operation(operationId = "getMeshGeometry", summary = "Bind-shape geometry of a mesh instance",
            description = "Positions, normals, tangents, influences and indices of each primitive in mesh space, as stored in the file.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The geometry.", content = @Content(
                        mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = MeshResponses.Geometry.class)))})
    MeshResponses.Geometry geometry(@Parameter(description = ApiDocs.ID, example = ApiDocs.ID_EXAMPLE) @PathVariable String id,
            @Parameter(description = ApiDocs.MESH, example = "0", schema = @Schema(type = "integer", minimum = "0"))
            @PathVariable("mesh") String meshParam) {
        Model model = Assets.require(assets, id).model();
        int meshIndex = index(meshParam, model.meshes().size(), "mesh");
        MeshInstance mesh = model.meshes().get(meshIndex);
        List<MeshResponses.GeometryPrimitive> prims = new ArrayList<>();
        for (Primitive p : mesh.primitives()) {
            prims.add(new MeshResponses.GeometryPrimitive(p.mode().wireName(), p.vertexCount(), p.positions(),
                    p.normals(), p.tangents(), jointSets(p), weightSets(p), p.indices()));
        }
        return new MeshResponses.Geometry(meshIndex, mesh.name(), mesh.skinned() ? mesh.skin() : null, prims);
    }

    @GetMapping(path = "/meshes/{mesh}/skinned",
            produces = {MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_OCTET_STREAM_VALUE, Negotiation.GLTF_BINARY})
    @ReadsStoredAsset
    @Operation(operationId = "getSkinnedMesh", summary = "Skinned vertices of a mesh instance",
            description = "Vertices in model space, same order as the bind-shape geometry. With Accept:"
                    + " application/octet-stream: raw little-endian float32, per primitive its positions, normals, tangents"
                    + " (as requested and present), described by the Posekit-Layout header. With Accept: model/gltf-binary:"
                    + " the posed instance as a static glTF 2.0 binary.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The skinned vertices.",
                        headers = {@Header(name = LAYOUT_HEADER, description = "For binary responses, per primitive (;-separated)"
                                + " the attribute blocks in order, e.g. position:1728x3,normal:1728x3.", schema = @Schema(type = "string")),
                            @Header(name = HttpHeaders.CONTENT_DISPOSITION, description = ApiDocs.GLB_DISPOSITION,
                                    schema = @Schema(type = "string"))},
                        content = {
                            @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = MeshResponses.Skinned.class)),
                            @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM_VALUE, schema = @Schema(type = "string", format = "binary")),
                            @Content(mediaType = Negotiation.GLTF_BINARY, schema = @Schema(type = "string", format = "binary"))}),
                @ApiResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "422", description = ApiDocs.NOT_RIGID,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class)))})
    ResponseEntity<?> skinned(@Parameter(description = ApiDocs.ID, example = ApiDocs.ID_EXAMPLE) @PathVariable String id,
            @Parameter(description = ApiDocs.MESH, example = "0", schema = @Schema(type = "integer", minimum = "0"))
            @PathVariable("mesh") String meshParam,
            @ParameterObject SamplingQuery query,
            @Parameter(description = "Comma-separated attributes to produce (position, normal, tangent); normals and"
                    + " tangents only where the primitive has them.", example = "position,normal,tangent",
                    schema = @Schema(type = "string", defaultValue = "position,normal"))
            @RequestParam(required = false) String attributes,
            @Parameter(description = ApiDocs.SKINNING, example = "dq",
                    schema = @Schema(type = "string", allowableValues = {"linear", "dq"}, defaultValue = "linear"))
            @RequestParam(required = false) String skinning,
            @Parameter(hidden = true) @RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept) {
        return skinned(id, meshParam, model -> Sampling.parse(model, query), attributes, skinning, accept);
    }

    @PostMapping(path = "/meshes/{mesh}/skinned", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = {MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_OCTET_STREAM_VALUE})
    @ReadsStoredAsset
    @Operation(operationId = "postSkinnedMesh", summary = "Skinned vertices of a mesh instance",
            description = "As GET, with the clip or blend and the time in a JSON body.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The skinned vertices.",
                        headers = @Header(name = LAYOUT_HEADER, description = "For binary responses, per primitive (;-separated)"
                                + " the attribute blocks in order, e.g. position:1728x3,normal:1728x3.", schema = @Schema(type = "string")),
                        content = {
                            @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = MeshResponses.Skinned.class)),
                            @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM_VALUE, schema = @Schema(type = "string", format = "binary"))}),
                @ApiResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "422", description = ApiDocs.NOT_RIGID,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class)))})
    ResponseEntity<?> skinnedPost(@Parameter(description = ApiDocs.ID, example = ApiDocs.ID_EXAMPLE) @PathVariable String id,
            @Parameter(description = ApiDocs.MESH, example = "0", schema = @Schema(type = "integer", minimum = "0"))
            @PathVariable("mesh") String meshParam,
            @RequestBody SamplingBody body,
            @Parameter(description = "Comma-separated attributes to produce (position, normal, tangent); normals and"
                    + " tangents only where the primitive has them.", example = "position,normal,tangent",
                    schema = @Schema(type = "string", defaultValue = "position,normal"))
            @RequestParam(required = false) String attributes,
            @Parameter(description = ApiDocs.SKINNING, example = "dq",
                    schema = @Schema(type = "string", allowableValues = {"linear", "dq"}, defaultValue = "linear"))
            @RequestParam(required = false) String skinning,
            @Parameter(hidden = true) @RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept) {
        return skinned(id, meshParam, model -> Sampling.parse(model, body), attributes, skinning, accept);
    }

    private ResponseEntity<?> skinned(String id, String meshParam, Function<Model, Sampling> sampling, String attributes,
            String skinningParam, String accept) {
        Model model = Assets.require(assets, id).model();
        int meshIndex = index(meshParam, model.meshes().size(), "mesh");
        Set<VertexAttribute> wanted = attributes(attributes);
        Sampling s = sampling.apply(model);
        if (Negotiation.wantsGltfBinary(accept)) {
            return PosedGlb.response(id, model, s, "mesh-" + meshIndex + ".glb", meshIndex);
        }
        MeshInstance mesh = model.meshes().get(meshIndex);
        Pose pose = s.evaluate(model);
        float[] skinning = mesh.skinned()
                ? MeshPoser.skinningMatrices(model.skins().get(mesh.skin()), pose.modelMatrices()) : null;
        SkinningMethod method = skinningParam == null || skinningParam.isEmpty() ? SkinningMethod.LINEAR
                : SkinningMethod.byWireName(skinningParam).orElseThrow(() -> ApiException.badRequest("Invalid skinning",
                        "skinning '" + skinningParam + "' is not one of linear, dq"));
        List<PosedPrimitive> posed;
        try {
            posed = MeshPoser.pose(mesh, s.morphWeights(model).weights(meshIndex), skinning, pose.modelMatrices(), wanted,
                    method);
        } catch (NonRigidJointException e) {
            throw ApiException.notRigid(e, model, mesh.skin(), "");
        }
        for (int p = 0; p < posed.size(); p++) {
            FiniteValues.check(posed.get(p).positions(), "a skinned position of primitive " + p);
            FiniteValues.check(posed.get(p).normals(), "a skinned normal of primitive " + p);
            FiniteValues.check(posed.get(p).tangents(), "a skinned tangent of primitive " + p);
        }
        if (Negotiation.wantsBinary(accept)) {
            return skinnedBinary(posed);
        }
        List<MeshResponses.SkinnedPrimitive> prims = posed.stream()
                .map(p -> new MeshResponses.SkinnedPrimitive(p.vertexCount(), p.positions(), p.normals(), p.tangents()))
                .toList();
        return json(new MeshResponses.Skinned(meshIndex, s.clipName(), s.time(), s.loop().wireName(), s.localTime(),
                prims, s.layers()));
    }

    private static ResponseEntity<byte[]> skinnedBinary(List<PosedPrimitive> posed) {
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
        float[] all = new float[floats];
        int o = 0;
        for (PosedPrimitive p : posed) {
            for (float[] a : new float[][] {p.positions(), p.normals(), p.tangents()}) {
                if (a != null) {
                    System.arraycopy(a, 0, all, o, a.length);
                    o += a.length;
                }
            }
        }
        return binary(all, layout.toString());
    }

    private static ResponseEntity<byte[]> binary(float[] floats, String layout) {
        ByteBuffer buf = ByteBuffer.allocate(4 * floats.length).order(ByteOrder.LITTLE_ENDIAN);
        buf.asFloatBuffer().put(floats);
        return ResponseEntity.ok()
                .contentType(MediaType.APPLICATION_OCTET_STREAM)
                .header(LAYOUT_HEADER, layout)
                .body(buf.array());
    }

    private static ResponseEntity<Object> json(Object body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
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

    private static int index(String param, int count, String what) {
        if (param.isEmpty() || param.length() > 9 || !param.chars().allMatch(Character::isDigit)
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

    private static float[] slice(float[] a, int from, int length) {
        return Arrays.copyOfRange(a, from, from + length);
    }
}
