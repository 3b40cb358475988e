package io.posekit.store;

import java.time.Instant;
import java.util.List;

/**
 * What the store knows of an uploaded asset without parsing it: its content id, display name, format,
 * total size of the uploaded files and when it was first stored.
 *
 * @param id lowercase hex SHA-256 content id (see {@link ContentId})
 * @param name the model file's name, e.g. {@code Fox.glb}
 * @param format the format's wire name, e.g. {@code gltf}
 * @param sizeBytes total bytes of the uploaded files
 * @param createdAt when the asset was first stored
 * @param files the uploaded files in canonical (name) order
 */
public record StoredAsset(String id, String name, String format, long sizeBytes, Instant createdAt,
        List<StoredFile> files) {

    public StoredAsset {
        files = List.copyOf(files);
    }

    /**
     * One uploaded file.
     *
     * @param name its name as uploaded (base name)
     * @param sizeBytes its length
     */
    public record StoredFile(String name, long sizeBytes) {
    }
}
