package io.posekit.api;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.AssetImporter;
import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.asset.gltf.GltfImporter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * Test importers for tests that need imports to take as long as they say: glTF only, and a file whose name
 * starts with {@code slow} blocks its parsing thread until {@link #release()} (or an interrupt, which it records).
 * Every parse is recorded by file name, in the order they start.
 */
@TestConfiguration(proxyBeanMethods = false)
public class SlowImports {

    static final List<String> PARSED = new CopyOnWriteArrayList<>();
    static final List<String> INTERRUPTED = new CopyOnWriteArrayList<>();
    private static volatile CountDownLatch gate = new CountDownLatch(1);

    /** Blocks slow files from now on. */
    static void close() {
        gate = new CountDownLatch(1);
        PARSED.clear();
        INTERRUPTED.clear();
    }

    /** Lets every blocked and future slow file through. */
    static void release() {
        gate.countDown();
    }

    @Bean
    @Primary
    AssetImporters slowImporters() {
        return new AssetImporters(List.of(new SlowGltf()), ImportLimits.DEFAULT);
    }

    private static final class SlowGltf implements AssetImporter {

        private final GltfImporter real = new GltfImporter();

        @Override
        public AssetFormat format() {
            return AssetFormat.GLTF;
        }

        @Override
        public ImportScene read(SourceFile main, SourceFiles upload, ImportLimits limits) {
            PARSED.add(main.name());
            if (main.name().startsWith("slow")) {
                try {
                    if (!gate.await(120, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the test never released " + main.name());
                    }
                } catch (InterruptedException e) {
                    INTERRUPTED.add(main.name());
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted");
                }
            }
            return real.read(main, upload, limits);
        }
    }
}
