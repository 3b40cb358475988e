package io.posekit.api;

import static io.posekit.api.docs.ApiDocs.PROBLEM_JSON;

import io.posekit.api.body.AssetSummary;
import io.posekit.api.docs.ApiDocs;
import io.posekit.api.docs.ReadsStoredAsset;
import io.posekit.api.http.UploadReader;
import io.posekit.asset.ClipBinding;
import io.posekit.config.PosekitProperties;
import io.posekit.store.AssetRepository;
import io.posekit.store.ParsingPool;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Clips from another file ({@code POST /api/v1/assets/{id}/clips}): an animation file (glTF, COLLADA, BVH, .x, FBX…)
 * whose clips are bound to the asset's rig by joint name ({@link ClipBinding}) and added to a new, combined asset with
 * its own content id; the original asset is untouched.
 */
@RestController
@RequestMapping(path = "/api/v1/assets/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "assets")
class ClipController {

    private final AssetRepository assets;
    private final ParsingPool parsing;
    private final UploadReader uploads;

    ClipController(AssetRepository assets, ParsingPool parsing, PosekitProperties properties) {
        this.assets = assets;
        this.parsing = parsing;
        this.uploads = new UploadReader(properties.upload().maxBytes().toBytes());
    }

    /**
     * What adding clips did.
     *
     * @param asset the combined asset
     * @param clips how each added clip was bound
     * @param skipped clips of the file none of whose tracks targets a joint of the asset
     */
    @Schema(name = "ClipsAdded")
    record ClipsAdded(AssetSummary asset, List<BoundClip> clips, List<String> skipped) {
    }

    /**
     * One added clip.
     *
     * @param name its name in the combined asset (made unique with " (2)"… when the asset already has one so named)
     * @param sourceName its name in the uploaded file
     * @param tracks tracks bound
     * @param unmatched names of the file's animated nodes that the asset has no node for
     * @param notAnimated asset joints the clip does not animate (at most 50 listed)
     * @param notAnimatedCount how many in all
     */
    @Schema(name = "BoundClip")
    record BoundClip(String name, String sourceName, int tracks, List<String> unmatched, List<String> notAnimated,
            int notAnimatedCount) {

        static BoundClip of(ClipBinding.ClipReport r) {
            return new BoundClip(r.name(), r.sourceName(), r.tracks(), r.unmatched(), r.notAnimated(), r.notAnimatedCount());
        }
    }

    @PostMapping(path = "/clips")
    @ReadsStoredAsset
    @Operation(operationId = "addClips", summary = "Add clips from another file",
            description = "Uploads an animation file (as for an upload: multipart 'file' parts or a raw body) and binds"
                    + " its clips to this asset's rig by node name. The result is a new asset (the original's files plus"
                    + " this one, its own content id); the original is untouched. 201 when new, 200 when the same"
                    + " combination exists.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {
                @Content(mediaType = MediaType.MULTIPART_FORM_DATA_VALUE, schema = @Schema(implementation = AssetController.UploadForm.class)),
                @Content(mediaType = "model/gltf-binary", schema = @Schema(type = "string", format = "binary")),
                @Content(mediaType = "model/gltf+json", schema = @Schema(type = "string", format = "binary")),
                @Content(mediaType = "application/zip", schema = @Schema(type = "string", format = "binary")),
                @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM_VALUE, schema = @Schema(type = "string", format = "binary"))}),
            parameters = @Parameter(name = "filename", in = ParameterIn.QUERY, example = "walk.bvh",
                    description = "File name of a raw body (its extension selects the format).",
                    schema = @Schema(type = "string")),
            responses = {
                @ApiResponse(responseCode = "201", description = "The combined asset was stored.",
                        headers = @Header(name = "Location", description = "The combined asset's URL.", schema = @Schema(type = "string")),
                        content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ClipsAdded.class))),
                @ApiResponse(responseCode = "200", description = "The same combination was already stored.",
                        headers = @Header(name = "Location", description = "The combined asset's URL.", schema = @Schema(type = "string")),
                        content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ClipsAdded.class))),
                @ApiResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "413", description = ApiDocs.TOO_LARGE,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "415", description = ApiDocs.UNSUPPORTED,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "422", description = ApiDocs.CLIPS_INVALID,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "503", description = ApiDocs.BUSY_UPLOAD,
                        headers = @Header(name = HttpHeaders.RETRY_AFTER, description = ApiDocs.RETRY_AFTER,
                                schema = @Schema(type = "integer")),
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class)))})
    ResponseEntity<ClipsAdded> addClips(@Parameter(description = ApiDocs.ID, example = ApiDocs.ID_EXAMPLE) @PathVariable String id,
            @Parameter(hidden = true) HttpServletRequest request) {
        parsing.checkCapacity(ParsingPool.Kind.UPLOAD);
        AssetRepository.AddedClips added = assets.addClips(id, uploads.read(request))
                .orElseThrow(() -> Assets.unknownAsset(id));
        String newId = added.asset().meta().id();
        return ResponseEntity.status(added.created() ? HttpStatus.CREATED : HttpStatus.OK)
                .location(URI.create("/api/v1/assets/" + newId))
                .body(new ClipsAdded(AssetSummary.of(added.asset()),
                        added.binding().clips().stream().map(BoundClip::of).toList(), added.binding().skipped()));
    }
}
