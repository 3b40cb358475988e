package io.posekit.api.body;

import java.util.List;

/** The stored assets, oldest first. */
public record AssetList(List<Item> assets) {

    public record Item(String id, String name, String format, long sizeBytes) {
    }
}
