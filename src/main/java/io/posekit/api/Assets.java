package io.posekit.api;

import io.posekit.api.http.ApiException;
import io.posekit.store.AssetRepository;

/** Lookups shared by the controllers, failing with the API's 404 problems. */
final class Assets {

    private Assets() {
    }

    static AssetRepository.Loaded require(AssetRepository assets, String id) {
        return assets.find(id).orElseThrow(() -> unknownAsset(id));
    }

    static ApiException unknownAsset(String id) {
        return ApiException.notFound("Unknown asset", "no asset with id '" + id + "'");
    }
}
