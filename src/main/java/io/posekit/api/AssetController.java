package io.posekit.api;

import static io.posekit.api.docs.ApiDocs.PROBLEM_JSON;

import io.posekit.api.body.AssetList;
import io.posekit.api.body.AssetSummary;
import io.posekit.api.docs.ApiDocs;
import io.posekit.api.docs.ReadsStoredAsset;
import io.posekit.api.http.UploadReader;
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
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;

/**
 * Uploading, listing, describing and deleting assets ({@code /api/v1/assets}).
 *
 * <p>An upload is identified by the SHA-256 of its content: uploading the same bytes again answers
 * {@code 200} with the stored asset instead of {@code 201}. Nothing is stored unless the upload imports.
 * Uploads are parsed on the parsing pool: 503 with {@code Retry-After} when it is saturated.
 */
@RestController
@RequestMapping(path = "/api/v1/assets", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "assets", description = "Uploading, listing, describing and deleting assets.")
class AssetController {

    private final AssetRepository assets;
    private final ParsingPool parsing;
    private final UploadReader uploads;

    AssetController(AssetRepository assets, ParsingPool parsing, PosekitProperties properties) {
        this.assets = assets;
        this.parsing = parsing;
        this.uploads = new UploadReader(properties.upload().maxBytes().toBytes());
    }

    @PostMapping
    @Operation(operationId = "uploadAsset", summary = "Upload an asset",
            description = "One model file plus its companions, as multipart parts named 'file' or a raw body; the id"
                    + " is the SHA-256 of the content. 201 for new content, 200 when the same content is stored.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {
                @Content(mediaType = MediaType.MULTIPART_FORM_DATA_VALUE, schema = @Schema(implementation = UploadForm.class)),
                @Content(mediaType = "model/gltf-binary", schema = @Schema(type = "string", format = "binary")),
                @Content(mediaType = "model/gltf+json", schema = @Schema(type = "string", format = "binary")),
                @Content(mediaType = "application/zip", schema = @Schema(type = "string", format = "binary")),
                @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM_VALUE, schema = @Schema(type = "string", format = "binary"))}),
            parameters = @Parameter(name = "filename", in = ParameterIn.QUERY, example = "Fox.glb",
                    description = "File name of a raw body (its extension selects the format).",
                    schema = @Schema(type = "string")),
            responses = {
                @ApiResponse(responseCode = "201", description = "The content was new; the asset was stored.",
                        headers = @Header(name = "Location", description = "The asset's URL.", schema = @Schema(type = "string")),
                        content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = AssetSummary.class))),
                @ApiResponse(responseCode = "200", description = "The same content was already stored.",
                        headers = @Header(name = "Location", description = "The asset's URL.", schema = @Schema(type = "string")),
                        content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = AssetSummary.class))),
                @ApiResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "413", description = ApiDocs.TOO_LARGE,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "415", description = ApiDocs.UNSUPPORTED,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "422", description = ApiDocs.INVALID_OR_SLOW,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "503", description = ApiDocs.BUSY_UPLOAD,
                        headers = @Header(name = HttpHeaders.RETRY_AFTER, description = ApiDocs.RETRY_AFTER,
                                schema = @Schema(type = "integer")),
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class)))})
    ResponseEntity<AssetSummary> upload(@Parameter(hidden = true) HttpServletRequest request) {
        parsing.checkCapacity(ParsingPool.Kind.UPLOAD); // before reading a raw body that could not be parsed now
        AssetRepository.Added added = assets.add(uploads.read(request));
        String id = added.asset().meta().id();
        return ResponseEntity.status(added.created() ? HttpStatus.CREATED : HttpStatus.OK)
                .location(URI.create("/api/v1/assets/" + id))
                .body(AssetSummary.of(added.asset()));
    }

    @GetMapping
    @Operation(operationId = "listAssets", summary = "List stored assets", description = "Every stored asset, oldest first.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The stored assets.",
                        content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = AssetList.class))),
                @ApiResponse(responseCode = "503", description = ApiDocs.STORE_UNAVAILABLE,
                        headers = @Header(name = HttpHeaders.RETRY_AFTER, description = ApiDocs.RETRY_AFTER,
                                schema = @Schema(type = "integer")),
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class)))})
    AssetList list() {
        return new AssetList(assets.list().stream()
                .map(a -> new AssetList.Item(a.id(), a.name(), a.format(), a.sizeBytes()))
                .toList());
    }

    @GetMapping("/{id}")
    @ReadsStoredAsset
    @Operation(operationId = "getAsset", summary = "Describe an asset",
            description = "Nodes, skins, mesh instances, clips and import warnings of an asset.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The asset's summary.",
                        content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = AssetSummary.class)))})
    AssetSummary get(@Parameter(description = ApiDocs.ID, example = ApiDocs.ID_EXAMPLE) @PathVariable String id) {
        return AssetSummary.of(Assets.require(assets, id));
    }

    @DeleteMapping("/{id}")
    @Operation(operationId = "deleteAsset", summary = "Delete an asset", description = "Removes the asset from the store and the cache.",
            responses = {
                @ApiResponse(responseCode = "204", description = "Deleted."),
                @ApiResponse(responseCode = "404", description = ApiDocs.NOT_FOUND,
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class))),
                @ApiResponse(responseCode = "503", description = ApiDocs.STORE_UNAVAILABLE,
                        headers = @Header(name = HttpHeaders.RETRY_AFTER, description = ApiDocs.RETRY_AFTER,
                                schema = @Schema(type = "integer")),
                        content = @Content(mediaType = PROBLEM_JSON, schema = @Schema(implementation = ProblemDetail.class)))})
    ResponseEntity<Void> delete(@Parameter(description = ApiDocs.ID, example = ApiDocs.ID_EXAMPLE) @PathVariable String id) {
        if (!assets.delete(id)) {
            throw Assets.unknownAsset(id);
        }
        return ResponseEntity.noContent().build();
    }

    /** The multipart form of an upload, for the API documentation. */
    @Schema(name = "UploadForm")
    record UploadForm(
            @Schema(description = "The asset's files (one model file plus its companions).", requiredMode = Schema.RequiredMode.REQUIRED)
            List<MultipartFile> file) {
    }
}
