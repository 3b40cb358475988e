package io.posekit.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportException;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Uploaded assets: stored durably in the {@link AssetStore}, parsed into runtime {@link Model}s on demand
 * and kept in a Caffeine cache weighed by each model's memory footprint. An evicted model is parsed again
 * from the store the next time it is asked for; concurrent requests for the same id parse it once.
 *
 * <p>An upload is parsed before anything is stored: a file that fails to import leaves the store and the
 * cache exactly as they were. Thread-safe.
 *
 * <p>Metrics: {@code posekit.upload.size} (bytes per upload, tagged {@code outcome} created, existing or
 * rejected), {@code posekit.import.duration} (parse time, tagged {@code source} upload or reload,
 * {@code format} and {@code outcome}), and the cache's own ({@code cache.*}, {@code cache=assets}).
 */
public final class AssetRepository {

    private static final Logger log = LoggerFactory.getLogger(AssetRepository.class);

    /**
     * A stored asset with its parsed model.
     *
     * @param meta what the store knows of it
     * @param model the runtime model
     */
    public record Loaded(StoredAsset meta, Model model) {
    }

    /**
     * The outcome of an upload.
     *
     * @param asset the asset
     * @param created true when the content was new, false when the same content was already stored
     */
    public record Added(Loaded asset, boolean created) {
    }

    private final AssetStore store;
    private final AssetImporters importers;
    private final Cache<String, Loaded> cache;
    private final Clock clock;
    private final MeterRegistry meters;

    /**
     * @param store where uploads are kept
     * @param importers how they are parsed
     * @param cacheMaxBytes the cache budget: the most bytes of parsed models kept in memory
     * @param clock the time source for {@link StoredAsset#createdAt()}
     * @param meters where metrics go
     */
    public AssetRepository(AssetStore store, AssetImporters importers, long cacheMaxBytes, Clock clock,
            MeterRegistry meters) {
        this.store = store;
        this.importers = importers;
        this.clock = clock;
        this.meters = meters;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(cacheMaxBytes)
                .weigher((String id, Loaded loaded) -> (int) Math.min(Integer.MAX_VALUE, loaded.model().footprintBytes()))
                .recordStats()
                .build();
        CaffeineCacheMetrics.monitor(meters, cache, "assets");
    }

    /** The cache, for metrics. */
    public Cache<String, Loaded> cache() {
        return cache;
    }

    /**
     * Stores and parses an upload.
     *
     * @param files the uploaded files (names unique, base names)
     * @throws ImportException when the upload cannot be imported (nothing is stored then)
     */
    public Added add(List<SourceFile> files) {
        checkNames(files);
        long size = files.stream().mapToLong(SourceFile::size).sum();
        String id = ContentId.of(files);
        Optional<Loaded> existing = find(id);
        if (existing.isPresent()) {
            uploadSize("existing").record(size);
            return new Added(existing.get(), false);
        }
        AssetImporters.Imported imported;
        try {
            imported = parse(files, "upload");
        } catch (ImportException e) {
            uploadSize("rejected").record(size);
            throw e;
        }
        List<StoredAsset.StoredFile> stored = ContentId.canonicalOrder(files).stream()
                .map(f -> new StoredAsset.StoredFile(f.name(), f.size())).toList();
        StoredAsset meta = new StoredAsset(id, imported.main().baseName(), imported.model().format().wireName(), size,
                clock.instant(), stored);
        StoredAsset saved = store.save(meta, files);
        Loaded loaded = new Loaded(saved, imported.model());
        cache.put(id, loaded);
        uploadSize(saved == meta ? "created" : "existing").record(size);
        return new Added(loaded, saved == meta);
    }

    /** The asset with this id, parsed (from the cache, or from the store on a miss). */
    public Optional<Loaded> find(String id) {
        if (!ContentId.isWellFormed(id)) {
            return Optional.empty();
        }
        Loaded cached = cache.get(id, this::load);
        return Optional.ofNullable(cached);
    }

    /** What the store holds, oldest first. */
    public List<StoredAsset> list() {
        return store.list();
    }

    /** Deletes an asset from the store and the cache; false when it did not exist. */
    public boolean delete(String id) {
        if (!ContentId.isWellFormed(id)) {
            return false;
        }
        boolean deleted = store.delete(id);
        cache.invalidate(id);
        return deleted;
    }

    private Loaded load(String id) {
        Optional<StoredAsset> meta = store.find(id);
        if (meta.isEmpty()) {
            return null;
        }
        Optional<List<SourceFile>> files = store.readFiles(id);
        if (files.isEmpty()) {
            return null;
        }
        log.debug("parsing stored asset {} ({})", id, meta.get().name());
        return new Loaded(meta.get(), parse(files.get(), "reload").model());
    }

    private AssetImporters.Imported parse(List<SourceFile> files, String source) {
        long start = System.nanoTime();
        String format = "unknown";
        String outcome = "success";
        try {
            AssetImporters.Imported imported = importers.importUpload(files);
            format = imported.model().format().wireName();
            return imported;
        } catch (ImportException e) {
            outcome = e.kind().name().toLowerCase(java.util.Locale.ROOT);
            if (e.getCause() != null) {
                log.warn("importer failed unexpectedly on {}", files, e.getCause());
            }
            throw e;
        } finally {
            Timer.builder("posekit.import.duration")
                    .description("time to parse an asset into its runtime model")
                    .tags("source", source, "format", format, "outcome", outcome)
                    .register(meters)
                    .record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
    }

    private DistributionSummary uploadSize(String outcome) {
        return DistributionSummary.builder("posekit.upload.size")
                .description("bytes per upload, all files together")
                .baseUnit("bytes")
                .tag("outcome", outcome)
                .register(meters);
    }

    private static void checkNames(List<SourceFile> files) {
        if (files.isEmpty()) {
            throw new IllegalArgumentException("an upload needs at least one file");
        }
        Set<String> names = new HashSet<>();
        for (SourceFile f : files) {
            if (!names.add(f.name())) {
                throw new IllegalArgumentException("two uploaded files are named '" + f.name() + "'");
            }
        }
    }
}
