package io.posekit.api;

import java.util.List;

/** The stored assets, oldest first. */
record AssetList(List<Item> assets) {

    record Item(String id, String name, String format, long sizeBytes) {
    }
}
