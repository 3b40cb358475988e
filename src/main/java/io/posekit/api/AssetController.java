package io.posekit.api;

import io.posekit.config.PosekitProperties;
import io.posekit.store.AssetRepository;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Uploading, listing, describing and deleting assets ({@code /api/v1/assets}).
 *
 * <p>An upload is identified by the SHA-256 of its content: uploading the same bytes again answers
 * {@code 200} with the stored asset instead of {@code 201}. Nothing is stored unless the upload imports.
 */
@RestController
@RequestMapping(path = "/api/v1/assets", produces = MediaType.APPLICATION_JSON_VALUE)
class AssetController {

    private final AssetRepository assets;
    private final UploadReader uploads;

    AssetController(AssetRepository assets, PosekitProperties properties) {
        this.assets = assets;
        this.uploads = new UploadReader(properties.upload().maxBytes().toBytes());
    }

    @PostMapping
    ResponseEntity<AssetSummary> upload(HttpServletRequest request) {
        AssetRepository.Added added = assets.add(uploads.read(request));
        String id = added.asset().meta().id();
        return ResponseEntity.status(added.created() ? HttpStatus.CREATED : HttpStatus.OK)
                .location(URI.create("/api/v1/assets/" + id))
                .body(AssetSummary.of(added.asset()));
    }

    @GetMapping
    AssetList list() {
        return new AssetList(assets.list().stream()
                .map(a -> new AssetList.Item(a.id(), a.name(), a.format(), a.sizeBytes()))
                .toList());
    }

    @GetMapping("/{id}")
    AssetSummary get(@PathVariable String id) {
        return AssetSummary.of(Assets.require(assets, id));
    }

    @DeleteMapping("/{id}")
    ResponseEntity<Void> delete(@PathVariable String id) {
        if (!assets.delete(id)) {
            throw Assets.unknownAsset(id);
        }
        return ResponseEntity.noContent().build();
    }
}
