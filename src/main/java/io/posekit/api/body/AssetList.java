package io.posekit.api.body;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** The stored assets, oldest first. */
public record AssetList(List<Item> assets) {

    @Schema(name = "AssetListItem")
    public record Item(String id, String name, String format, long sizeBytes) {
    }
}
