package io.posekit.api;

import io.posekit.api.body.AdminAssetList;
import io.posekit.api.body.AssetList;
import io.posekit.api.body.AssetSummary;
import io.posekit.api.http.ApiException;
import io.posekit.api.http.ApiRoutes;
import io.posekit.api.http.Exchange;
import io.posekit.api.http.JsonBodies;
import io.posekit.api.http.Negotiation;
import io.posekit.api.http.Reply;
import io.posekit.api.http.Router;
import io.posekit.api.http.UploadReader;
import io.posekit.asset.AssetImporters;
import io.posekit.api.security.Scope;
import io.posekit.config.PosekitProperties;
import io.posekit.store.AssetRepository;
import io.posekit.store.ParsingPool;
import io.posekit.store.Reference;
import io.posekit.store.StoredAsset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Uploading, listing, describing and deleting assets ({@code /api/v1/assets}), each as the caller's tenant sees them,
 * and the admin's listing of every asset ({@code /api/v1/admin/assets}).
 *
 * <p>An upload is identified by the SHA-256 of its content: uploading bytes the tenant already holds answers
 * {@code 200} with its asset instead of {@code 201} — whether another tenant holds the same bytes is never told.
 * Nothing is stored unless the upload imports, and nothing past the tenant's quota (refused before the body is read
 * when its length is declared and the tenant's usage is known here). Uploads are parsed on the parsing pool: 503 with
 * {@code Retry-After} when it is saturated. The summary of a cached asset is answered on the event loop from bytes
 * made once per asset. Listings are pages ({@code limit}, {@code after}) with a {@code Link} to the next.
 */
@Component
class AssetRoutes implements ApiRoutes {

    /** The default and the largest page of a listing. */
    static final int PAGE = 100;
    static final int MAX_PAGE = 1000;

    private final AssetRepository assets;
    private final ParsingPool parsing;
    private final UploadReader uploads;
    private final JsonBodies json;
    private final Summaries summaries;

    AssetRoutes(AssetRepository assets, ParsingPool parsing, PosekitProperties properties, JsonBodies json) {
        this.assets = assets;
        this.parsing = parsing;
        AssetImporters importers = assets.importers();
        this.uploads = new UploadReader(properties.upload().maxBytes().toBytes(), new UploadReader.ParseMemory() {
            @Override
            public long held(java.util.List<io.posekit.asset.SourceFile> files) {
                return importers.heldBytes(files);
            }

            @Override
            public long heldAtLeast(String name, long declared) {
                return name == null ? 0 : importers.heldAtLeast(name, declared);
            }
        });
        this.json = json;
        this.summaries = new Summaries(json);
    }

    @Override
    public void register(Router.Builder routes) {
        routes.post("/api/v1/assets").scope(Scope.WRITE).query("filename").consumes(uploads.maxBody(), "*/*")
                .limitText(uploads.maxBodyText()).produces(Negotiation.JSON)
                .upload(e -> uploads.open(e, assets.newSpool()))
                .precheck(e -> assets.checkQuotaIfKnown(e.caller().tenant(), declaredLength(e)))
                .handle(e -> {
                    parsing.checkCapacity(ParsingPool.Kind.UPLOAD);
                    AssetRepository.Added added = assets.add(e.caller().tenant(), e.upload());
                    String id = added.asset().meta().id();
                    return Reply.of(added.created() ? 201 : 200, Negotiation.JSON,
                                    summaries.of(added.asset(), added.reference().name()))
                            .header("Location", "/api/v1/assets/" + id);
                });
        routes.get("/api/v1/assets").scope(Scope.READ).query("limit", "after").produces(Negotiation.JSON)
                .handle(this::list);
        routes.get("/api/v1/assets/{id}").scope(Scope.READ).produces(Negotiation.JSON)
                .inline(e -> Assets.ready(assets, e, e.variable("id")))
                .handle(e -> {
                    String id = e.variable("id");
                    AssetRepository.Loaded loaded = Assets.require(assets, e, id);
                    String name = assets.reference(e.caller().tenant(), id).map(Reference::name)
                            .orElse(loaded.meta().name());
                    return Reply.of(200, Negotiation.JSON, summaries.of(loaded, name));
                });
        routes.delete("/api/v1/assets/{id}").scope(Scope.DELETE).handle(e -> {
            String id = e.variable("id");
            if (!assets.delete(e.caller().tenant(), id)) {
                throw Assets.unknownAsset(id);
            }
            return Reply.empty(204);
        });
        routes.get("/api/v1/admin/assets").scope(Scope.ADMIN).query("limit", "after").produces(Negotiation.JSON)
                .handle(this::adminList);
    }

    /** The upload's declared length (0 when not declared: the quota is then checked once the body is read). */
    private static long declaredLength(Exchange e) {
        String length = e.header("Content-Length");
        try {
            return length == null ? 0 : Math.max(0, Long.parseLong(length.strip()));
        } catch (NumberFormatException bad) {
            return 0;
        }
    }

    private Reply list(Exchange e) {
        Page page = Page.of(e);
        List<Reference> mine = assets.list(e.caller().tenant());
        List<Reference> shown = page.of(mine);
        List<AssetList.Item> items = new ArrayList<>(shown.size());
        for (Reference r : shown) {
            items.add(new AssetList.Item(r.id(), r.name(), r.format(), r.sizeBytes(), r.createdAt().toString()));
        }
        String next = page.next("/api/v1/assets", mine, shown);
        return link(json.reply(200, new AssetList(items, next)), next);
    }

    private Reply adminList(Exchange e) {
        Page page = Page.of(e);
        Map<String, List<Reference>> byAsset = new LinkedHashMap<>();
        for (Reference r : assets.references()) {
            byAsset.computeIfAbsent(r.id(), k -> new ArrayList<>()).add(r);
        }
        // an asset in the order its first reference was made
        List<Reference> firsts = byAsset.values().stream().map(List::getFirst).toList();
        List<Reference> shown = page.of(firsts);
        List<AdminAssetList.Item> items = new ArrayList<>(shown.size());
        for (Reference first : shown) {
            Optional<StoredAsset> meta = assets.stored(first.id());
            List<AdminAssetList.Holder> holders = byAsset.get(first.id()).stream()
                    .map(r -> new AdminAssetList.Holder(r.tenant(), r.name(), r.createdAt().toString())).toList();
            items.add(new AdminAssetList.Item(first.id(), meta.map(StoredAsset::name).orElse(first.name()),
                    first.format(), first.sizeBytes(), holders));
        }
        String next = page.next("/api/v1/admin/assets", firsts, shown);
        return link(json.reply(200, new AdminAssetList(items, next)), next);
    }

    private static Reply link(Reply reply, String next) {
        return next == null ? reply : reply.header("Link", "<" + next + ">; rel=\"next\"");
    }

    /**
     * A page of a listing ordered oldest first: at most {@code limit} items after the cursor {@code after} (an opaque
     * token naming the last item of the previous page: its creation time and id).
     */
    private record Page(int limit, java.time.Instant afterTime, String afterId) {

        static Page of(Exchange e) {
            int limit = PAGE;
            String l = e.query("limit");
            if (l != null) {
                try {
                    limit = Integer.parseInt(l.strip());
                } catch (NumberFormatException bad) {
                    limit = -1;
                }
                if (limit < 1 || limit > MAX_PAGE) {
                    throw ApiException.badRequest("Invalid limit", "limit must be a whole number from 1 to " + MAX_PAGE
                            + ", not '" + l + "'");
                }
            }
            String after = e.query("after");
            if (after == null) {
                return new Page(limit, null, null);
            }
            String decoded;
            try {
                decoded = new String(Base64.getUrlDecoder().decode(after), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException bad) {
                decoded = "";
            }
            int bar = decoded.indexOf('|');
            try {
                return new Page(limit, java.time.Instant.parse(decoded.substring(0, bar)), decoded.substring(bar + 1));
            } catch (RuntimeException bad) {
                throw ApiException.badRequest("Invalid cursor", "after must be the cursor of a listing's next link");
            }
        }

        List<Reference> of(List<Reference> ordered) {
            int from = 0;
            if (afterTime != null) {
                while (from < ordered.size() && !isAfter(ordered.get(from))) {
                    from++;
                }
            }
            return ordered.subList(from, Math.min(ordered.size(), from + limit));
        }

        /** Whether {@code r} comes after the cursor in {@link Reference#OLDEST_FIRST} order. */
        private boolean isAfter(Reference r) {
            int byTime = r.createdAt().compareTo(afterTime);
            return byTime > 0 || byTime == 0 && r.id().compareTo(afterId) > 0;
        }

        /** The link to the page after {@code shown}, or null when it ends the listing. */
        String next(String path, List<Reference> ordered, List<Reference> shown) {
            if (shown.isEmpty() || shown.getLast() == ordered.getLast()) {
                return null;
            }
            Reference last = shown.getLast();
            String cursor = Base64.getUrlEncoder().withoutPadding().encodeToString(
                    (last.createdAt() + "|" + last.id()).getBytes(StandardCharsets.UTF_8));
            return path + "?limit=" + limit + "&after=" + cursor;
        }
    }

    /** Each asset's summary as JSON bytes, made once per loaded asset (held weakly by it) under its manifest's name. */
    private static final class Summaries {
        private final JsonBodies json;
        private final com.github.benmanes.caffeine.cache.Cache<AssetRepository.Loaded, byte[]> bytes =
                com.github.benmanes.caffeine.cache.Caffeine.newBuilder().weakKeys().executor(Runnable::run).build();

        Summaries(JsonBodies json) {
            this.json = json;
        }

        /** The summary named {@code name}: the kept bytes when that is the manifest's name, else made now. */
        byte[] of(AssetRepository.Loaded asset, String name) {
            if (name.equals(asset.meta().name())) {
                return bytes.get(asset, a -> json.mapper().writeValueAsBytes(AssetSummary.of(a)));
            }
            return json.mapper().writeValueAsBytes(AssetSummary.of(asset, name));
        }
    }
}
