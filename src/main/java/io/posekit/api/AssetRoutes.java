package io.posekit.api;

import io.posekit.api.body.AssetList;
import io.posekit.api.body.AssetSummary;
import io.posekit.api.http.ApiRoutes;
import io.posekit.api.http.JsonBodies;
import io.posekit.api.http.Negotiation;
import io.posekit.api.http.Reply;
import io.posekit.api.http.Router;
import io.posekit.api.http.UploadReader;
import io.posekit.config.PosekitProperties;
import io.posekit.store.AssetRepository;
import io.posekit.store.ParsingPool;
import org.springframework.stereotype.Component;

/**
 * Uploading, listing, describing and deleting assets ({@code /api/v1/assets}).
 *
 * <p>An upload is identified by the SHA-256 of its content: uploading the same bytes again answers
 * {@code 200} with the stored asset instead of {@code 201}. Nothing is stored unless the upload imports.
 * Uploads are parsed on the parsing pool: 503 with {@code Retry-After} when it is saturated. The summary of a cached
 * asset is answered on the event loop from bytes made once per asset.
 */
@Component
class AssetRoutes implements ApiRoutes {

    private final AssetRepository assets;
    private final ParsingPool parsing;
    private final UploadReader uploads;
    private final JsonBodies json;
    private final Summaries summaries;

    AssetRoutes(AssetRepository assets, ParsingPool parsing, PosekitProperties properties, JsonBodies json) {
        this.assets = assets;
        this.parsing = parsing;
        this.uploads = new UploadReader(properties.upload().maxBytes().toBytes());
        this.json = json;
        this.summaries = new Summaries(json);
    }

    @Override
    public void register(Router.Builder routes) {
        routes.post("/api/v1/assets").query("filename").consumes(uploads.maxBody(), "*/*")
                .limitText(uploads.maxBodyText()).produces(Negotiation.JSON)
                .handle(e -> {
                    parsing.checkCapacity(ParsingPool.Kind.UPLOAD);
                    AssetRepository.Added added = assets.add(uploads.read(e));
                    String id = added.asset().meta().id();
                    return Reply.of(added.created() ? 201 : 200, Negotiation.JSON, summaries.of(added.asset()))
                            .header("Location", "/api/v1/assets/" + id);
                });
        routes.get("/api/v1/assets").produces(Negotiation.JSON)
                .handle(e -> json.reply(200, new AssetList(assets.list().stream()
                        .map(a -> new AssetList.Item(a.id(), a.name(), a.format(), a.sizeBytes()))
                        .toList())));
        routes.get("/api/v1/assets/{id}").produces(Negotiation.JSON)
                .inline(e -> assets.isReady(e.variable("id")))
                .handle(e -> Reply.of(200, Negotiation.JSON, summaries.of(Assets.require(assets, e.variable("id")))));
        routes.delete("/api/v1/assets/{id}").handle(e -> {
            String id = e.variable("id");
            if (!assets.delete(id)) {
                throw Assets.unknownAsset(id);
            }
            return Reply.empty(204);
        });
    }

    /** Each asset's summary as JSON bytes, made once per loaded asset (held weakly by it). */
    private static final class Summaries {
        private final JsonBodies json;
        private final com.github.benmanes.caffeine.cache.Cache<AssetRepository.Loaded, byte[]> bytes =
                com.github.benmanes.caffeine.cache.Caffeine.newBuilder().weakKeys().executor(Runnable::run).build();

        Summaries(JsonBodies json) {
            this.json = json;
        }

        byte[] of(AssetRepository.Loaded asset) {
            return bytes.get(asset, a -> json.mapper().writeValueAsBytes(AssetSummary.of(a)));
        }
    }
}
