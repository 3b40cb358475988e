package io.posekit.api.body;

import java.util.List;

/**
 * One page of every stored asset with the tenants that hold it (the admin's view), oldest first, and the link to the
 * next page ({@code null} on the last).
 */
public record AdminAssetList(List<Item> assets, String next) {

    /**
     * @param id the content id
     * @param name the model file's name in the store's manifest
     * @param format the format's wire name
     * @param sizeBytes stored bytes (once, whoever holds it)
     * @param tenants the tenants holding it, with the names they gave it
     */
    public record Item(String id, String name, String format, long sizeBytes, List<Holder> tenants) {
    }

    /** A tenant's hold on an asset. */
    public record Holder(String tenant, String name, String createdAt) {
    }
}
