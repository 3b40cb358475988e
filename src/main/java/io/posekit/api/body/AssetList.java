package io.posekit.api.body;

import java.util.List;

/**
 * One page of the caller's assets, oldest first, and the link to the next page ({@code null} on the last).
 *
 * @param assets this page
 * @param next the path and query of the next page, or {@code null}
 */
public record AssetList(List<Item> assets, String next) {

    /**
     * @param id the content id
     * @param name the model file's name as the caller uploaded it
     * @param format the format's wire name
     * @param sizeBytes stored bytes
     * @param createdAt when the caller uploaded it (ISO-8601)
     */
    public record Item(String id, String name, String format, long sizeBytes, String createdAt) {
    }
}
