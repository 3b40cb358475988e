package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Status;

class StoreHealthIndicatorTest {

    @TempDir
    Path dir;

    @Test
    void upWhileTheStoreIsWritableDownWhenItIsGone() throws IOException {
        Path root = dir.resolve("store");
        DirectoryAssetStore store = new DirectoryAssetStore(root);
        StoreHealthIndicator health = new StoreHealthIndicator(store);
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
        assertThat(health.health().getDetails()).containsEntry("assets", 0);
        Files.delete(root);
        assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.health().getDetails()).containsKey("error");
    }
}
