package io.posekit.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health of the asset store: {@code UP} while the store directory exists and a file can be created in it.
 * Part of the readiness group: an instance that cannot store uploads should not receive them.
 *
 * <p>Details: {@code dir}, {@code assets} (how many are stored) and {@code corrupt} (the ids of assets found
 * corrupt, see {@link CorruptAssetException}). Corrupt assets do not make the store {@code DOWN}: the instance
 * keeps serving every other asset, and the damaged ones answer 410 until deleted or uploaded again.
 *
 * <p>The probe is a {@code .health-*} file in the store directory; one left by a crash is removed when the store
 * next opens.
 */
public final class StoreHealthIndicator implements HealthIndicator {

    private final AssetStore store;

    public StoreHealthIndicator(AssetStore store) {
        this.store = store;
    }

    @Override
    public Health health() {
        Path root = store.root();
        try {
            Path probe = Files.createTempFile(root, ".health-", ".probe");
            Files.delete(probe);
            return Health.up().withDetail("dir", root.toString()).withDetail("assets", store.list().size())
                    .withDetail("corrupt", store.corruptIds()).build();
        } catch (IOException | RuntimeException e) {
            return Health.down().withDetail("dir", root.toString()).withDetail("error", e.toString())
                    .withDetail("corrupt", store.corruptIds()).build();
        }
    }
}
