package io.posekit.api;

import io.posekit.api.security.Scope;
import io.posekit.api.http.ApiException;
import io.posekit.api.http.ApiRoutes;
import io.posekit.api.http.Negotiation;
import io.posekit.api.http.Router;
import io.posekit.asset.Model;
import io.posekit.export.Compression;
import io.posekit.export.Coordinates;
import io.posekit.store.AssetRepository;
import org.springframework.stereotype.Component;

/**
 * The whole posed asset as a static glTF 2.0 binary ({@code /api/v1/assets/{id}/posed.glb}): every mesh instance
 * posed at the clip and time, positions and normals in model space, with the source's indices, texture coordinates
 * and materials (see {@link io.posekit.export.GlbWriter}). A single instance is served by
 * {@code GET …/meshes/{mesh}/skinned} with {@code Accept: model/gltf-binary}. Query: the sampling parameters,
 * {@code compress} ({@link #compression}) and {@code coordinates} ({@code gltf}, the default: the file's model space
 * converted to glTF's metres and Y-up; {@code file}: as sampled). Written on the worker pool.
 */
@Component
class PosedGlbRoutes implements ApiRoutes {

    static final String FILENAME = "posed.glb";

    private final AssetRepository assets;

    PosedGlbRoutes(AssetRepository assets) {
        this.assets = assets;
    }

    /**
     * The {@code compress} query parameter: {@code none} (default), {@code quantize}, {@code meshopt} or
     * {@code draco}.
     *
     * @throws ApiException 400 naming the parameter for any other value
     */
    static Compression compression(String text) {
        if (text == null) {
            return Compression.NONE;
        }
        Compression c = Compression.byWireName(text.strip());
        if (c == null) {
            throw ApiException.badRequest("Invalid compress", "compress '" + text + "' is not one of "
                    + java.util.Arrays.stream(Compression.values()).map(Compression::wireName)
                            .collect(java.util.stream.Collectors.joining(", ")));
        }
        return c;
    }

    @Override
    public void register(Router.Builder routes) {
        routes.get("/api/v1/assets/{id}/posed.glb").scope(Scope.READ).query(SamplingRoutes.with(SamplingRoutes.SAMPLING, "compress", "coordinates")).repeatable("layer").produces(Negotiation.GLTF_BINARY)
                .immutable().handle(e -> {
                    String id = e.variable("id");
                    Model model = Assets.require(assets, e, id).model();
                    Sampling s = Sampling.parse(model, SamplingRoutes.query(e));
                    Compression compression = compression(e.query("compress"));
                    Coordinates coordinates = SamplingRoutes.coordinates(e.query("coordinates"), Coordinates.GLTF);
                    if (model.meshes().isEmpty()) {
                        throw ApiException.notFound("No meshes", "asset '" + id + "' has no meshes to pose");
                    }
                    int[] all = new int[model.meshes().size()];
                    for (int i = 0; i < all.length; i++) {
                        all[i] = i;
                    }
                    return PosedGlb.response(id, model, s, FILENAME, compression, coordinates, all);
                });
    }
}
