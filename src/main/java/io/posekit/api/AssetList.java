package io.posekit.api;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** The stored assets, oldest first. */
record AssetList(List<Item> assets) {

    @Schema(name = "AssetListItem")
    record Item(String id, String name, String format, long sizeBytes) {
    }
}
