package io.posekit.api;

import static io.posekit.api.docs.ApiDocs.PROBLEM_JSON;

import io.posekit.api.body.BakeSpec;
import io.posekit.api.docs.ApiDocs;
import io.posekit.api.docs.ReadsStoredAsset;
import io.posekit.api.http.ApiException;
import io.posekit.api.http.Negotiation;
import io.posekit.asset.Model;
import io.posekit.bake.FrameEvaluator;
import io.posekit.config.PosekitProperties;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.NonRigidJointException;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.SkinningDualQuaternionsJob;
import io.posekit.skinning.SkinningMethod;
import io.posekit.store.AssetRepository;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Baking ({@code POST /api/v1/assets/{id}/bake}): many frames of a clip in one streamed response, binary or NDJSON
 * (see {@link BakeWriter} for both layouts). The request is validated whole ({@link BakePlan}) before anything is
 * written; frames are then evaluated one at a time into reused buffers and written at once.
 */
@RestController
@RequestMapping("/api/v1/assets/{id}")
@Tag(name = "sampling")
class BakeController {

    static final String NDJSON = "application/x-ndjson";
    static final String FRAMES_HEADER = "Posekit-Frames";

    private final AssetRepository assets;
    private final int maxFrames;
    private final long maxBytes;

    BakeController(AssetRepository assets, PosekitProperties properties) {
        this.assets = assets;
        this.maxFrames = properties.bake().maxFrames();
        this.maxBytes = properties.bake().maxBytes().toBytes();
    }

    @PostMapping(path = "/bake", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = {NDJSON, MediaType.APPLICATION_OCTET_STREAM_VALUE})
    @ReadsStoredAsset
    @Operation(operationId = "bake", summary = "Bake many frames",
            description = "Evaluates the clip at every requested time and streams the frames: NDJSON (one frame per line;"
                    + " the default) or, with Accept: application/octet-stream, a self-describing binary layout (magic PKBK,"
                    + " version, JSON header with counts and offsets, then float32 LE times and frames).",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = BakeSpec.class))),
            responses = {
                @ApiResponse(responseCode = "200", description = "The frames, streamed.",
                        headers = @Header(name = FRAMES_HEADER, description = "How many frames follow.",
                                schema = @Schema(type = "integer")),
                        content = {
                            @Content(mediaType = NDJSON, schema = @Schema(type = "string")),
                            @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM_VALUE, schema = @Schema(type = "string", format = "binary"))}),
                @ApiResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "422", description = ApiDocs.NOT_RIGID,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class)))})
    void bake(@Parameter(description = ApiDocs.ID, example = ApiDocs.ID_EXAMPLE) @PathVariable String id,
            @Parameter(hidden = true) @RequestBody JsonNode body,
            @Parameter(hidden = true) @RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept,
            HttpServletResponse response) throws IOException {
        Model model = Assets.require(assets, id).model();
        BakePlan plan = BakePlan.parse(body, model, maxFrames, maxBytes);
        boolean posed = plan.outputs().contains(BakePlan.Output.SKINNED_POSITIONS)
                || plan.outputs().contains(BakePlan.Output.SKINNED_NORMALS)
                || plan.outputs().contains(BakePlan.Output.BOUNDS);
        boolean matrices = plan.outputs().contains(BakePlan.Output.SKINNING_MATRICES)
                || plan.outputs().contains(BakePlan.Output.SKINNING_DUAL_QUATERNIONS);
        FrameEvaluator frames = new FrameEvaluator(model, plan.clip(),
                plan.blend() == null ? null : plan.blend().evaluator(), matrices ? plan.skins() : new int[0],
                posed ? plan.meshes() : new int[0], plan.outputs().contains(BakePlan.Output.SKINNED_NORMALS),
                plan.outputs().contains(BakePlan.Output.BOUNDS), plan.skinning());
        checkDualQuaternions(model, plan, posed);
        response.setStatus(200);
        response.setHeader(FRAMES_HEADER, Integer.toString(plan.times().length));
        if (Negotiation.wantsBinary(accept)) {
            response.setContentType(MediaType.APPLICATION_OCTET_STREAM_VALUE);
            response.setContentLengthLong(BakeWriter.binaryLength(plan));
            BakeWriter.writeBinary(plan, frames, response.getOutputStream());
        } else {
            response.setContentType(NDJSON);
            response.setCharacterEncoding("UTF-8");
            BakeWriter.writeNdjson(plan, frames, response.getOutputStream());
        }
    }

    /**
     * Evaluates every frame's skinning matrices once before streaming when dual quaternions are involved, so a joint
     * they cannot represent is a 422 naming the frame, not a broken stream: for {@code skinningDualQuaternions} every
     * joint of the selected skins, for {@code skinning=dq} the joints the selected meshes use.
     */
    private static void checkDualQuaternions(Model model, BakePlan plan, boolean posed) {
        boolean output = plan.outputs().contains(BakePlan.Output.SKINNING_DUAL_QUATERNIONS);
        boolean skinning = posed && plan.skinning() == SkinningMethod.DUAL_QUATERNION;
        if (!output && !skinning) {
            return;
        }
        int skinCount = model.skins().size();
        boolean[][] used = new boolean[skinCount][];
        boolean[] all = new boolean[skinCount];
        if (output) {
            for (int s : plan.skins()) {
                all[s] = true;
            }
        }
        if (skinning) {
            for (int m : plan.meshes()) {
                MeshInstance mesh = model.meshes().get(m);
                if (!mesh.skinned()) {
                    continue;
                }
                int s = mesh.skin();
                if (used[s] == null) {
                    used[s] = new boolean[model.skins().get(s).jointCount()];
                }
                for (Primitive p : mesh.primitives()) {
                    SkinningDualQuaternionsJob.markUsedJoints(p, used[s]);
                }
            }
        }
        int[] skins = java.util.stream.IntStream.range(0, skinCount).filter(s -> all[s] || used[s] != null).toArray();
        FrameEvaluator probe = new FrameEvaluator(model, plan.clip(),
                plan.blend() == null ? null : plan.blend().evaluator(), skins, new int[0], false, false,
                SkinningMethod.LINEAR);
        SkinningDualQuaternionsJob job = new SkinningDualQuaternionsJob();
        double[] scratch = new double[plan.blend() == null ? 0 : plan.blend().timings().size()];
        int most = 0;
        for (int s : skins) {
            most = Math.max(most, model.skins().get(s).jointCount());
        }
        job.outDualQuaternions = new float[8 * most];
        job.outScales = new float[most];
        for (int f = 0; f < plan.times().length; f++) {
            plan.evaluate(probe, f, scratch);
            for (int k = 0; k < skins.length; k++) {
                job.skinningMatrices = probe.skinningMatrices(k);
                job.usedJoints = all[skins[k]] ? null : used[skins[k]];
                try {
                    job.run();
                } catch (NonRigidJointException e) {
                    throw ApiException.notRigid(e, model, skins[k], "frame " + f + " (t = " + plan.times()[f] + "): ");
                }
            }
        }
    }
}
