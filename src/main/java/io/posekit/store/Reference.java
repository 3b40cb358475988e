package io.posekit.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A tenant's hold on a stored asset: the asset belongs to every tenant that has uploaded it (or made it, by adding
 * clips or retargeting), each with the name it uploaded it under and when. The bytes are stored once; the asset is
 * deleted when its last reference is. Immutable.
 *
 * @param tenant who holds it
 * @param id the asset's content id
 * @param name the model file's name as this tenant uploaded it
 * @param format the asset's format (wire name, e.g. {@code gltf})
 * @param sizeBytes the asset's stored bytes (what it counts against the tenant's quota)
 * @param createdAt when this tenant's reference was made
 */
public record Reference(String tenant, String id, String name, String format, long sizeBytes, Instant createdAt) {

    /**
     * The tenant of every request when posekit runs open, and the holder of the assets stored before assets had
     * tenants (adopted when a store is first opened by a version with tenants).
     */
    public static final String DEFAULT_TENANT = "default";

    public Reference {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /** The name a tenant's records are stored under: hex of the first 16 bytes of the SHA-256 of its name. */
    public static String tenantKey(String tenant) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(tenant.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Oldest first, then by id: the order of listings. */
    public static final java.util.Comparator<Reference> OLDEST_FIRST =
            java.util.Comparator.comparing(Reference::createdAt).thenComparing(Reference::id);
}
