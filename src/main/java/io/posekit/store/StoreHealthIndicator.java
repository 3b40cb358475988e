package io.posekit.store;

import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health of the asset store: {@code UP} while it takes writes ({@link AssetStore#check}: a file can be created in
 * the directory; the bucket answers). Part of the readiness group.
 *
 * <p>When the store cannot be reached: a directory store, which is this instance's own, is {@code DOWN}, so the
 * instance receives no traffic it could not store. A shared object store is {@code DEGRADED} (HTTP 200, so the
 * instance stays ready): an outage affects every replica alike, and each keeps serving the assets it has parsed while
 * uploads and cache misses answer 503 with {@code Retry-After}. The overall health shows it either way.
 *
 * <p>Details: {@code type}, where it is, {@code assets} (how many this instance knows of), {@code corrupt} (the ids
 * of assets found corrupt, see {@link CorruptAssetException}) and, when it cannot be reached, {@code error}. Corrupt
 * assets do not make the store unhealthy: the damaged ones answer 410 until deleted or uploaded again.
 */
public final class StoreHealthIndicator implements HealthIndicator {

    /** The status of a shared store that cannot be reached. */
    public static final org.springframework.boot.health.contributor.Status DEGRADED =
            new org.springframework.boot.health.contributor.Status("DEGRADED",
                    "the shared store cannot be reached; parsed assets are still served");

    private final AssetStore store;

    public StoreHealthIndicator(AssetStore store) {
        this.store = store;
    }

    @Override
    public Health health() {
        try {
            Map<String, Object> details = store.check();
            return Health.up().withDetails(details).withDetail("corrupt", store.corruptIds()).build();
        } catch (RuntimeException e) {
            Health.Builder builder = store instanceof S3AssetStore ? Health.status(DEGRADED) : Health.down();
            return builder.withDetail("location", store.location()).withDetail("error", e.getMessage())
                    .withDetail("corrupt", store.corruptIds()).build();
        }
    }
}
