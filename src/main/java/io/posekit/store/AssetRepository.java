package io.posekit.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
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

    /**
     * @param store where uploads are kept
     * @param importers how they are parsed
     * @param cacheMaxBytes the cache budget: the most bytes of parsed models kept in memory
     * @param clock the time source for {@link StoredAsset#createdAt()}
     */
    public AssetRepository(AssetStore store, AssetImporters importers, long cacheMaxBytes, Clock clock) {
        this.store = store;
        this.importers = importers;
        this.clock = clock;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(cacheMaxBytes)
                .weigher((String id, Loaded loaded) -> (int) Math.min(Integer.MAX_VALUE, loaded.model().footprintBytes()))
                .recordStats()
                .build();
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
        String id = ContentId.of(files);
        Optional<Loaded> existing = find(id);
        if (existing.isPresent()) {
            return new Added(existing.get(), false);
        }
        AssetImporters.Imported imported = parse(files);
        long size = files.stream().mapToLong(SourceFile::size).sum();
        List<StoredAsset.StoredFile> stored = ContentId.canonicalOrder(files).stream()
                .map(f -> new StoredAsset.StoredFile(f.name(), f.size())).toList();
        StoredAsset meta = new StoredAsset(id, imported.main().baseName(), imported.model().format().wireName(), size,
                clock.instant(), stored);
        StoredAsset saved = store.save(meta, files);
        Loaded loaded = new Loaded(saved, imported.model());
        cache.put(id, loaded);
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
        return new Loaded(meta.get(), parse(files.get()).model());
    }

    private AssetImporters.Imported parse(List<SourceFile> files) {
        try {
            return importers.importUpload(files);
        } catch (ImportException e) {
            if (e.getCause() != null) {
                log.warn("importer failed unexpectedly on {}", files, e.getCause());
            }
            throw e;
        }
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
