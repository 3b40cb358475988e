package io.posekit.api;

import static io.posekit.api.docs.ApiDocs.PROBLEM_JSON;

import io.posekit.api.body.SamplingQuery;
import io.posekit.api.docs.ApiDocs;
import io.posekit.api.docs.ReadsStoredAsset;
import io.posekit.api.http.ApiException;
import io.posekit.api.http.Negotiation;
import io.posekit.asset.Model;
import io.posekit.store.AssetRepository;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The whole posed asset as a static glTF 2.0 binary ({@code /api/v1/assets/{id}/posed.glb}): every mesh instance
 * posed at the clip and time, positions and normals in model space, with the source's indices, texture coordinates
 * and materials (see {@link io.posekit.export.GlbWriter}). A single instance is served by
 * {@code GET …/meshes/{mesh}/skinned} with {@code Accept: model/gltf-binary}.
 */
@RestController
@RequestMapping("/api/v1/assets/{id}")
@Tag(name = "sampling")
class PosedGlbController {

    static final String FILENAME = "posed.glb";

    private final AssetRepository assets;

    PosedGlbController(AssetRepository assets) {
        this.assets = assets;
    }

    @GetMapping(path = "/posed.glb", produces = Negotiation.GLTF_BINARY)
    @ReadsStoredAsset
    @Operation(operationId = "getPosedGlb", summary = "The posed asset as glTF binary",
            description = "Every mesh instance posed at the clip and time as a static glTF 2.0 binary: one node and mesh"
                    + " per instance, positions and normals in model space, the source's indices, modes, texture"
                    + " coordinates and materials; no skins or animations.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The posed asset.",
                        headers = @Header(name = HttpHeaders.CONTENT_DISPOSITION, description = ApiDocs.GLB_DISPOSITION,
                                schema = @Schema(type = "string")),
                        content = @Content(mediaType = Negotiation.GLTF_BINARY, schema = @Schema(type = "string", format = "binary"))),
                @ApiResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "404", description = ApiDocs.NOT_FOUND_OR_NO_MESHES,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "422", description = ApiDocs.NOT_WRITABLE,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class)))})
    ResponseEntity<byte[]> posed(@Parameter(description = ApiDocs.ID, example = ApiDocs.ID_EXAMPLE) @PathVariable String id,
            @ParameterObject SamplingQuery query) {
        Model model = Assets.require(assets, id).model();
        Sampling s = Sampling.parse(model, query);
        if (model.meshes().isEmpty()) {
            throw ApiException.notFound("No meshes", "asset '" + id + "' has no meshes to pose");
        }
        int[] all = new int[model.meshes().size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return PosedGlb.response(id, model, s, FILENAME, all);
    }
}
