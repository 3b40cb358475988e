package io.posekit.api;

import io.posekit.api.body.AssetSummary;
import io.posekit.api.security.Scope;
import io.posekit.api.http.ApiRoutes;
import io.posekit.api.http.JsonBodies;
import io.posekit.api.http.Negotiation;
import io.posekit.api.http.Router;
import io.posekit.api.http.UploadReader;
import io.posekit.asset.ClipBinding;
import io.posekit.config.PosekitProperties;
import io.posekit.store.AssetRepository;
import io.posekit.store.ParsingPool;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Clips from another file ({@code POST /api/v1/assets/{id}/clips}): an animation file (glTF, COLLADA, BVH, .x, FBX…)
 * whose clips are bound to the asset's rig by joint name ({@link ClipBinding}) and added to a new, combined asset with
 * its own content id; the original asset is untouched.
 */
@Component
class ClipRoutes implements ApiRoutes {

    private final AssetRepository assets;
    private final ParsingPool parsing;
    private final UploadReader uploads;
    private final JsonBodies json;

    ClipRoutes(AssetRepository assets, ParsingPool parsing, PosekitProperties properties, JsonBodies json) {
        this.assets = assets;
        this.parsing = parsing;
        this.uploads = new UploadReader(properties.upload().maxBytes().toBytes());
        this.json = json;
    }

    /**
     * What adding clips did.
     *
     * @param asset the combined asset
     * @param clips how each added clip was bound
     * @param skipped clips of the file none of whose tracks targets a joint of the asset
     */
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
    record BoundClip(String name, String sourceName, int tracks, List<String> unmatched, List<String> notAnimated,
            int notAnimatedCount) {

        static BoundClip of(ClipBinding.ClipReport r) {
            return new BoundClip(r.name(), r.sourceName(), r.tracks(), r.unmatched(), r.notAnimated(), r.notAnimatedCount());
        }
    }

    @Override
    public void register(Router.Builder routes) {
        routes.post("/api/v1/assets/{id}/clips").scope(Scope.WRITE).query("filename").consumes(uploads.maxBody(), "*/*")
                .limitText(uploads.maxBodyText())
                .precheck(e -> assets.checkQuotaIfKnown(e.caller().tenant(), 0))
                .produces(Negotiation.JSON).handle(e -> {
                    String id = e.variable("id");
                    parsing.checkCapacity(ParsingPool.Kind.UPLOAD);
                    AssetRepository.AddedClips added = assets.addClips(e.caller().tenant(), id, uploads.read(e))
                            .orElseThrow(() -> Assets.unknownAsset(id));
                    String newId = added.asset().meta().id();
                    return json.reply(added.created() ? 201 : 200, new ClipsAdded(AssetSummary.of(added.asset()),
                            added.binding().clips().stream().map(BoundClip::of).toList(), added.binding().skipped()))
                            .header("Location", "/api/v1/assets/" + newId);
                });
    }
}
