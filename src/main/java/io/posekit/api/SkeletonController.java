package io.posekit.api;

import static io.posekit.api.docs.ApiDocs.PROBLEM_JSON;

import io.posekit.api.body.SamplingQuery;
import io.posekit.api.body.ShapeResponses;
import io.posekit.api.docs.ApiDocs;
import io.posekit.api.docs.ReadsStoredAsset;
import io.posekit.api.http.ApiException;
import io.posekit.asset.Model;
import io.posekit.rig.Rig;
import io.posekit.rig.SkeletonLines;
import io.posekit.sampling.Pose;
import io.posekit.store.AssetRepository;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.ArrayList;
import java.util.List;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Skeleton lines at a clip and time ({@code /api/v1/assets/{id}/skeleton}): what a debug draw of the rig shows,
 * model-space joint positions and parent→child segments (see {@link SkeletonLines}).
 */
@RestController
@RequestMapping("/api/v1/assets/{id}")
@Tag(name = "sampling")
class SkeletonController {

    private final AssetRepository assets;

    SkeletonController(AssetRepository assets) {
        this.assets = assets;
    }

    @GetMapping(path = "/skeleton", produces = MediaType.APPLICATION_JSON_VALUE)
    @ReadsStoredAsset
    @Operation(operationId = "getSkeleton", summary = "Skeleton lines",
            description = "Model-space positions of the skin joints (or of every node) and the segment from each to its"
                    + " nearest shown ancestor, at the clip and time.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The skeleton.", content = @Content(
                        mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ShapeResponses.Skeleton.class))),
                @ApiResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "422", description = ApiDocs.OUT_OF_RANGE,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class)))})
    ShapeResponses.Skeleton skeleton(@Parameter(description = ApiDocs.ID, example = ApiDocs.ID_EXAMPLE) @PathVariable String id,
            @ParameterObject SamplingQuery query,
            @Parameter(description = "joints (default): the joints of every skin, or every node when the asset has no"
                    + " skin; all: every node.", example = "joints",
                    schema = @Schema(type = "string", allowableValues = {"joints", "all"}, defaultValue = "joints"))
            @RequestParam(required = false) String nodes) {
        Model model = Assets.require(assets, id).model();
        boolean all = "all".equals(nodes);
        if (nodes != null && !nodes.isEmpty() && !all && !"joints".equals(nodes)) {
            throw ApiException.badRequest("Invalid nodes", "nodes '" + nodes + "' is not one of joints, all");
        }
        Sampling s = Sampling.parse(model, query);
        Pose pose = s.evaluate(model);
        Rig rig = model.rig();
        SkeletonLines lines = SkeletonLines.of(rig, model.skins(), all);
        float[] m = pose.modelMatrices();
        List<ShapeResponses.Joint> joints = new ArrayList<>(lines.nodes().length);
        for (int k = 0; k < lines.nodes().length; k++) {
            int node = lines.nodes()[k];
            joints.add(new ShapeResponses.Joint(rig.name(node), node, lines.parents()[k],
                    new float[] {m[16 * node + 12], m[16 * node + 13], m[16 * node + 14]}));
        }
        List<int[]> segments = new ArrayList<>(lines.segmentCount());
        float[] flat = new float[6 * lines.segmentCount()];
        int o = 0;
        for (int k = 0; k < lines.nodes().length; k++) {
            int parent = lines.parents()[k];
            if (parent < 0) {
                continue;
            }
            segments.add(new int[] {parent, k});
            System.arraycopy(joints.get(parent).position(), 0, flat, o, 3);
            System.arraycopy(joints.get(k).position(), 0, flat, o + 3, 3);
            o += 6;
        }
        return new ShapeResponses.Skeleton(s.clipName(), s.time(), s.loop().wireName(), s.localTime(),
                all ? "all" : "joints", joints, segments, flat, s.layers());
    }
}
