package io.posekit.config;

import io.micrometer.core.instrument.MeterRegistry;
import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.render.RenderPool;
import io.posekit.store.AssetRepository;
import io.posekit.store.AssetStore;
import io.posekit.store.DirectoryAssetStore;
import io.posekit.store.S3AssetStore;
import io.posekit.store.ParsingPool;
import io.posekit.store.StoreHealthIndicator;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the core (importers) and the store into Spring. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PosekitProperties.class)
public class PosekitConfiguration {

    /** The store {@code posekit.store.type} names; an S3 store's client is closed with the context. */
    @Bean
    AssetStore assetStore(PosekitProperties properties) {
        PosekitProperties.Store store = properties.store();
        return switch (store.type()) {
            case DIRECTORY -> new DirectoryAssetStore(store.dir(), store.shared(), store.revalidate());
            case S3 -> {
                PosekitProperties.S3 s3 = store.s3();
                yield S3AssetStore.open(new S3AssetStore.Settings(s3.bucket(), s3.prefix(), s3.endpoint(), s3.region(),
                        s3.pathStyle(), blankToNull(s3.accessKeyId()), blankToNull(s3.secretAccessKey()),
                        s3.createBucket(), s3.timeout(), store.revalidate()));
            }
        };
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    @Bean
    AssetImporters assetImporters(PosekitProperties properties) {
        return AssetImporters.all(importLimits(properties), properties.limits().draco());
    }

    /** The import limits from {@code posekit.limits.*}; a zip may expand to at most the upload limit. */
    static ImportLimits importLimits(PosekitProperties properties) {
        PosekitProperties.Limits l = properties.limits();
        return new ImportLimits(l.decodedBytes().toBytes(), l.nodes(), l.jointsPerSkin(), l.vertices(),
                l.influencesPerVertex(), l.keysPerTrack(), l.clips(), l.xmlDepth(), l.xmlElements(), l.zipEntries(),
                properties.upload().maxBytes().toBytes(), l.zipRatio(), l.parseTime());
    }

    /** The parsing threads ({@code posekit.parsing.*}), bounded by the parse-time limit. */
    @Bean(destroyMethod = "close")
    ParsingPool parsingPool(PosekitProperties properties, MeterRegistry meters) {
        return new ParsingPool(ParsingPool.threadsFor(properties.parsing().threads()), properties.parsing().queue(),
                properties.limits().parseTime(), properties.parsing().nice(), meters);
    }

    /** The render threads ({@code posekit.render.*}). */
    @Bean(destroyMethod = "close")
    RenderPool renderPool(PosekitProperties properties) {
        return new RenderPool(RenderPool.threadsFor(properties.render().threads()), properties.render().queue());
    }

    /**
     * The repository, once the uploads a crash left staged are recovered ({@link AssetRepository#recoverUploads}):
     * before any request, as the store's durability promise needs.
     */
    @Bean
    AssetRepository assetRepository(AssetStore store, AssetImporters importers, ParsingPool parsing,
            PosekitProperties properties, MeterRegistry meters) {
        AssetRepository repository = new AssetRepository(store, importers, parsing,
                properties.cache().maxBytes().toBytes(), Clock.systemUTC(), meters, quotas(properties.quota()));
        repository.recoverUploads();
        return repository;
    }

    /** Each tenant's quota: its own ({@code posekit.quota.tenants.<name>.*}) where set, else the defaults. */
    static java.util.function.Function<String, AssetRepository.Quota> quotas(PosekitProperties.Quota q) {
        java.util.Map<String, PosekitProperties.Quota.Tenant> tenants = q.tenants() == null ? java.util.Map.of()
                : q.tenants();
        AssetRepository.Quota defaults = new AssetRepository.Quota(q.maxBytes().toBytes(), q.maxAssets());
        return tenant -> {
            PosekitProperties.Quota.Tenant t = tenants.get(tenant);
            if (t == null) {
                return defaults;
            }
            return new AssetRepository.Quota(t.maxBytes() != null ? t.maxBytes().toBytes() : defaults.maxBytes(),
                    t.maxAssets() != null ? t.maxAssets() : defaults.maxAssets());
        };
    }

    @Bean
    StoreHealthIndicator storeHealthIndicator(AssetStore store) {
        return new StoreHealthIndicator(store);
    }
}
