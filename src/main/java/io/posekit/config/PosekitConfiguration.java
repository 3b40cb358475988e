package io.posekit.config;

import io.micrometer.core.instrument.MeterRegistry;
import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.store.AssetRepository;
import io.posekit.store.AssetStore;
import io.posekit.store.StoreHealthIndicator;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the core (importers) and the store into Spring. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PosekitProperties.class)
public class PosekitConfiguration {

    @Bean
    AssetStore assetStore(PosekitProperties properties) {
        return new AssetStore(properties.store().dir());
    }

    @Bean
    AssetImporters assetImporters(PosekitProperties properties) {
        // a zip may expand to at most the upload limit, so a zip upload is no bigger than a plain one
        ImportLimits d = ImportLimits.DEFAULT;
        long upload = properties.upload().maxBytes().toBytes();
        return AssetImporters.all(new ImportLimits(d.maxDecodedBytes(), d.maxNodes(), d.maxZipEntries(), upload,
                d.maxZipRatio()));
    }

    @Bean
    AssetRepository assetRepository(AssetStore store, AssetImporters importers, PosekitProperties properties,
            MeterRegistry meters) {
        return new AssetRepository(store, importers, properties.cache().maxBytes().toBytes(), Clock.systemUTC(), meters);
    }

    @Bean
    StoreHealthIndicator storeHealthIndicator(AssetStore store) {
        return new StoreHealthIndicator(store);
    }
}
