package io.posekit.api;

import io.posekit.api.http.ApiException;
import io.posekit.api.http.Exchange;
import io.posekit.store.AssetRepository;

/**
 * Lookups shared by the controllers, failing with the API's 404 problems. An asset is looked up as the caller's
 * tenant sees it: another tenant's is answered exactly as one that does not exist.
 */
final class Assets {

    private Assets() {
    }

    /** The asset {@code id} as the exchange's caller sees it. */
    static AssetRepository.Loaded require(AssetRepository assets, Exchange e, String id) {
        return assets.find(e.caller().tenant(), id).orElseThrow(() -> unknownAsset(id));
    }

    /** Whether the exchange's caller's asset {@code id} can be answered at once (on the event loop). */
    static boolean ready(AssetRepository assets, Exchange e, String id) {
        return assets.isReady(e.caller().tenant(), id);
    }

    static ApiException unknownAsset(String id) {
        return ApiException.notFound("Unknown asset", "no asset with id '" + id + "'");
    }
}
