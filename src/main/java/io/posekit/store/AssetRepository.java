package io.posekit.store;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import io.posekit.asset.AssetFormat;
import io.posekit.asset.AssetImporters;
import io.posekit.asset.ClipBinding;
import io.posekit.asset.ImportException;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.retarget.RetargetReport;
import io.posekit.retarget.RetargetRequest;
import io.posekit.retarget.Retargeter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Uploaded assets: stored durably in the {@link AssetStore}, parsed into runtime {@link Model}s on demand
 * and kept in a Caffeine cache weighed by each model's memory footprint ({@link Model#footprintBytes()}, within a
 * few per cent of the measured retained heap). An evicted model is parsed again from the store the next time it
 * is asked for, its files verified against the id first; concurrent requests for the same id parse it once.
 * Every parse runs on the {@link ParsingPool}, never on the caller's thread.
 *
 * <p>Assets belong to tenants ({@link Reference}): every operation names the tenant it acts for, which sees only
 * the assets it holds (any other is answered as if it did not exist), holds one by uploading it (or making it from
 * its own), and lets go of it by deleting it; the asset itself is deleted with its last reference. What a tenant may
 * hold is bounded by its {@link Quota}.
 *
 * <p>An upload is parsed before anything is stored: a file that fails to import leaves the store and the
 * cache exactly as they were. Concurrent uploads of the same content share one parse: one of them creates the
 * asset, the others find it. An upload a crash left staged in the store is published at the next start only if it
 * imports again ({@link #recoverUploads}). Thread-safe.
 *
 * <p>Metrics: {@code posekit.upload.size} (bytes per upload, tagged {@code outcome} created, existing or
 * rejected), {@code posekit.import.duration} (parse time, tagged {@code source} upload, reload or recovery,
 * {@code format} and {@code outcome}: success, invalid, unsupported, too_large, bug for an importer's
 * unexpected failure, error), {@code posekit.store.duration} (one store operation, tagged {@code op} stage, commit,
 * reference, read, list, delete or recover and {@code outcome} success, unavailable, corrupt or error), and the
 * cache's own ({@code cache.*}, {@code cache=assets}).
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
     * @param created true when the tenant did not hold it before (whether or not another tenant did: the answer must
     *     not tell), false when it did
     * @param reference the tenant's reference to it (its name as the tenant uploaded it)
     */
    public record Added(Loaded asset, boolean created, Reference reference) {
    }

    /**
     * What one tenant may hold.
     *
     * @param maxBytes the most stored bytes over its assets (0: no limit)
     * @param maxAssets the most assets (0: no limit)
     */
    public record Quota(long maxBytes, long maxAssets) {

        public static final Quota UNLIMITED = new Quota(0, 0);
    }

    /**
     * What a tenant holds now.
     *
     * @param bytes stored bytes over its assets
     * @param assets how many
     */
    public record Usage(long bytes, long assets) {
    }

    private final AssetStore store;
    private final AssetImporters importers;
    private final ParsingPool parsing;
    private final AsyncCache<String, Loaded> cache;
    private final Clock clock;
    private final MeterRegistry meters;
    /** Uploads being imported, by content id: an identical upload meanwhile waits for the first one. */
    private final ConcurrentHashMap<String, CompletableFuture<Added>> uploading = new ConcurrentHashMap<>();
    private final java.util.function.Function<String, Quota> quotas;
    /** Each tenant's usage, when known here (updated by this replica's uploads and deletions, re-read after a while). */
    private final Cache<String, Usage> usage = Caffeine.newBuilder().expireAfterWrite(java.time.Duration.ofSeconds(30))
            .maximumSize(100_000).executor(Runnable::run).build();

    /**
     * A repository parsing on a pool of its own (one thread per core, 16 waiting slots, the importers'
     * parse-time limit).
     */
    public AssetRepository(AssetStore store, AssetImporters importers, long cacheMaxBytes, Clock clock,
            MeterRegistry meters) {
        this(store, importers, new ParsingPool(ParsingPool.threadsFor(0), 16, importers.limits().parseTime(), meters),
                cacheMaxBytes, clock, meters);
    }

    /**
     * @param store where uploads are kept
     * @param importers how they are parsed
     * @param parsing where they are parsed
     * @param cacheMaxBytes the cache budget: the most bytes of parsed models kept in memory
     * @param clock the time source for {@link StoredAsset#createdAt()}
     * @param meters where metrics go
     */
    private final AtomicLong healthEpoch = new AtomicLong();
    private volatile boolean storeReachable = true;

    public AssetRepository(AssetStore store, AssetImporters importers, ParsingPool parsing, long cacheMaxBytes,
            Clock clock, MeterRegistry meters) {
        this(store, importers, parsing, cacheMaxBytes, clock, meters, t -> Quota.UNLIMITED);
    }

    /** @param quotas what each tenant may hold */
    public AssetRepository(AssetStore store, AssetImporters importers, ParsingPool parsing, long cacheMaxBytes,
            Clock clock, MeterRegistry meters, java.util.function.Function<String, Quota> quotas) {
        this.quotas = quotas;
        this.store = store;
        this.importers = importers;
        this.parsing = parsing;
        this.clock = clock;
        this.meters = meters;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(cacheMaxBytes)
                .weigher((String id, Loaded loaded) -> weight(loaded))
                .recordStats()
                // the cache's upkeep (read buffers, eviction) on the calling thread: handing it to the common pool
                // woke a thread per few hundred reads, a futex call and a context switch on a busy core (4 % of a
                // matrices request); the models are parsed on the ParsingPool either way
                .executor(Runnable::run)
                .buildAsync();
        CaffeineCacheMetrics.monitor(meters, cache, "assets");
    }

    /** The cache weight of a parsed asset: its model's footprint (capped at what a weight can hold). */
    static int weight(Loaded loaded) {
        return (int) Math.min(Integer.MAX_VALUE, loaded.model().footprintBytes());
    }

    /** The cache, for metrics and tests (a view of the parsed models at hand). */
    public Cache<String, Loaded> cache() {
        return cache.synchronous();
    }

    /** The importers uploads are parsed with (what their parse holds in memory: {@link AssetImporters#heldBytes}). */
    public AssetImporters importers() {
        return importers;
    }

    /**
     * A spool for the next upload's files, where the store would have them ({@link AssetStore#spoolDirectory()}), hashed
     * behind their writing on the parsing pool's hashing threads.
     */
    public UploadSpool newSpool() {
        return new UploadSpool(store.spoolDirectory(), parsing.hashing());
    }

    /** The pool every parse runs on. */
    public ParsingPool parsing() {
        return parsing;
    }

    /**
     * Stores and parses an upload for {@code tenant}.
     *
     * @param tenant who uploads it (and holds it after)
     * @param files the uploaded files (names unique, base names)
     * @throws ImportException when the upload cannot be imported (nothing is stored then), or its parse took
     *     longer than the parse-time budget
     * @throws QuotaExceededException when holding it would pass the tenant's quota (nothing is stored)
     * @throws ParsingBusyException when no parsing thread could take it
     */
    public Added add(String tenant, List<SourceFile> files) {
        checkNames(files);
        long size = files.stream().mapToLong(SourceFile::size).sum();
        String id = ContentId.of(files);
        Optional<Reference> held = observed(() -> store.reference(tenant, id));
        if (held.isPresent()) {
            Optional<Loaded> stored;
            try {
                stored = find(id);
            } catch (CorruptAssetException damaged) {
                stored = Optional.empty(); // the fresh upload repairs it
            }
            if (stored.isPresent()) {
                uploadSize("existing").record(size);
                return new Added(stored.get(), false, held.get());
            }
        } else {
            checkQuota(tenant, size);
        }
        // the model file, told from the names alone (a zip's from its central directory), once per upload
        Optional<String> main = importers.mainFileOf(files);
        Reference ref = held.orElseGet(() -> new Reference(tenant, id, baseName(main.orElse(files.getFirst().name())),
                main.flatMap(AssetFormat::byFileName).map(AssetFormat::wireName).orElse("unknown"), size,
                clock.instant()));
        CompletableFuture<Added> mine = new CompletableFuture<>();
        CompletableFuture<Added> first = uploading.putIfAbsent(id, mine);
        if (first != null) {
            return sameAs(first, size, ref);
        }
        try {
            Added added = importAndStore(files, main, id, size, ref);
            mine.complete(added);
            return added;
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            uploading.remove(id, mine);
        }
    }

    /** A file name without its directories (as {@link SourceFile#baseName()}). */
    private static String baseName(String name) {
        return name.substring(name.lastIndexOf('/') + 1);
    }

    /**
     * The outcome of an identical upload that was in progress (perhaps another tenant's): the asset it stored exists
     * now, and {@code ref} is added to it.
     */
    private Added sameAs(CompletableFuture<Added> first, long size, Reference ref) {
        try {
            Added theirs = first.get();
            Optional<Reference> added = timed("reference", () -> store.addReference(ref));
            if (added.isEmpty()) {
                throw new StoreUnavailableException("asset " + ref.id() + " was deleted while it was uploaded again; "
                        + "upload it again", new java.io.IOException("deleted during an upload"));
            }
            usage.invalidate(ref.tenant());
            uploadSize("existing").record(size);
            return new Added(theirs.asset(), added.get() == ref, added.get());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ImportException) {
                uploadSize("rejected").record(size);
            }
            throw ParsingPool.rethrow(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ParsingBusyException("interrupted while waiting for an identical upload", parsing.parseTime());
        }
    }

    /**
     * @param main the model file's name as the names tell it ({@link AssetImporters#mainFileOf}), empty when they do
     *     not (the reference's format is then {@code unknown} until the parse tells it, and the commit corrects it)
     */
    private Added importAndStore(List<SourceFile> files, Optional<String> main, String id, long size, Reference ref) {
        Optional<Loaded> existing;
        try {
            existing = find(id);
        } catch (CorruptAssetException damaged) {
            existing = Optional.empty(); // the fresh upload replaces the damaged copy
        }
        if (existing.isPresent()) {
            // another tenant's (or this one's, held meanwhile): only the reference is new
            Optional<Reference> added = timed("reference", () -> store.addReference(ref));
            if (added.isPresent()) {
                usage.invalidate(ref.tenant());
                uploadSize("existing").record(size);
                return new Added(existing.get(), added.get() == ref, added.get());
            }
            // deleted meanwhile: stored again below
        }
        // the files are written and synced to disk while the parse runs (the two take similar time), and become an
        // asset only if the parse succeeds; a failed parse leaves nothing behind
        CompletableFuture<AssetImporters.Imported> parse = parsing.submit(ParsingPool.Kind.UPLOAD,
                () -> parse(files, "upload"));
        List<StoredAsset.StoredFile> stored = ContentId.canonicalOrder(files).stream()
                .map(f -> new StoredAsset.StoredFile(f.name(), f.size())).toList();
        // the description too, when the file names already tell it (a zip's from its central directory): the commit
        // after the parse is then only the rename
        StoredAsset expected = main
                .flatMap(name -> AssetFormat.byFileName(name).map(format -> new StoredAsset(id, baseName(name),
                        format.wireName(), size, clock.instant(), stored)))
                .orElse(null);
        AssetStore.Staged staged;
        try {
            staged = timed("stage", () -> expected != null ? store.stage(expected, files, ref) : store.stage(id, files));
        } catch (RuntimeException e) {
            parse.cancel(true);
            throw e;
        }
        AssetImporters.Imported imported;
        try {
            imported = parsing.await(parse);
        } catch (RuntimeException | Error e) {
            store.discard(staged);
            if (e instanceof ImportException) {
                uploadSize("rejected").record(size);
            }
            throw e;
        }
        String name = imported.main().baseName();
        String format = imported.model().format().wireName();
        StoredAsset meta = expected != null && expected.name().equals(name) && expected.format().equals(format)
                ? expected
                : new StoredAsset(id, name, format, size, clock.instant(), stored);
        Reference mine = ref.name().equals(name) && ref.format().equals(format) ? ref
                : new Reference(ref.tenant(), id, name, format, size, ref.createdAt());
        StoredAsset saved = timed("commit", () -> store.commit(staged, meta, mine));
        Loaded loaded = new Loaded(saved, imported.model());
        cache.put(id, CompletableFuture.completedFuture(loaded));
        usage.invalidate(ref.tenant());
        uploadSize(saved == meta ? "created" : "existing").record(size);
        // the tenant did not hold it when the upload began (else it was answered above)
        Reference held = saved == meta ? mine : observed(() -> store.reference(mine.tenant(), id)).orElse(mine);
        return new Added(loaded, true, held);
    }

    /**
     * Publishes the uploads a crash left staged but maybe acknowledged ({@link AssetStore#recover}): each is parsed
     * again on the parsing pool as an upload (the same importers and limits; stored files of added clips and
     * retargetings as a re-parse reads them), one at a time, and kept only when it imports. Call once at start-up,
     * before serving; the models are not cached.
     *
     * @return the assets published
     * @throws StoreUnavailableException when the store could not publish them durably
     */
    public List<StoredAsset> recoverUploads() {
        // a store outside the file system (S3) spools in the temporary directory, which its own start-up does not tidy
        UploadSpool.removeLeftovers(store.spoolDirectory(), java.time.Duration.ofHours(1));
        return timed("recover", () -> store.recover((meta, files) -> {
            try {
                parsing.await(parsing.submit(ParsingPool.Kind.UPLOAD, () -> parseStored(files, "recovery")));
                return true;
            } catch (ImportException | io.posekit.retarget.RetargetException e) {
                log.info("a staged upload of asset {} ({}) does not import: {}", meta.id(), meta.name(), e.getMessage());
                return false;
            }
        }));
    }

    /**
     * Refuses what would pass {@code tenant}'s quota if it held {@code moreBytes} more in one more asset.
     *
     * @throws QuotaExceededException naming the limit
     */
    public void checkQuota(String tenant, long moreBytes) {
        Quota q = quotas.apply(tenant);
        if (q.maxBytes() <= 0 && q.maxAssets() <= 0) {
            return;
        }
        Usage now = usage(tenant);
        if (q.maxAssets() > 0 && now.assets() + 1 > q.maxAssets()) {
            throw new QuotaExceededException("the tenant holds " + now.assets() + " assets, its quota is "
                    + q.maxAssets() + "; delete some first");
        }
        if (q.maxBytes() > 0 && now.bytes() + moreBytes > q.maxBytes()) {
            throw new QuotaExceededException("the tenant holds " + now.bytes() + " bytes; " + moreBytes
                    + " more would pass its quota of " + q.maxBytes() + " bytes");
        }
    }

    /**
     * The byte quota checked before an upload's body is read, from what is known here without reading the store (so
     * it may run on an event loop): refuses an upload of {@code declaredBytes} that cannot fit in what the tenant has
     * left. The count of assets, and the bytes when the tenant's usage is not known here yet, are checked once the
     * body is read and its content known (an upload of content the tenant holds costs nothing).
     *
     * @throws QuotaExceededException naming the limit
     */
    public void checkQuotaIfKnown(String tenant, long declaredBytes) {
        Quota q = quotas.apply(tenant);
        if (q.maxBytes() <= 0 || declaredBytes <= 0) {
            return;
        }
        Usage now = usage.getIfPresent(tenant);
        long held = now == null ? 0 : now.bytes();
        if (held + declaredBytes > q.maxBytes()) {
            throw new QuotaExceededException((now == null ? "" : "the tenant holds " + held + " bytes; ")
                    + declaredBytes + " bytes would pass its quota of " + q.maxBytes() + " bytes");
        }
    }

    /** What {@code tenant} holds now (from the store, kept here a while). */
    public Usage usage(String tenant) {
        return usage.get(tenant, t -> {
            long bytes = 0;
            long count = 0;
            for (Reference r : timed("list", () -> store.references(t))) {
                bytes += r.sizeBytes();
                count++;
            }
            return new Usage(bytes, count);
        });
    }

    /**
     * The asset with this id, parsed (from the cache, or from the store on a miss, on the parsing pool).
     *
     * @throws CorruptAssetException when the stored files no longer match the id
     * @throws ParsingBusyException when a re-parse could not get a parsing thread or ran out of time
     */
    public Optional<Loaded> find(String id) {
        if (!ContentId.isWellFormed(id)) {
            return Optional.empty();
        }
        Optional<String> damage = store.corruption(id);
        if (damage.isPresent()) {
            cache.synchronous().invalidate(id);
            throw new CorruptAssetException(id, damage.get());
        }
        if (observed(() -> store.find(id)).isEmpty()) {
            cache.synchronous().invalidate(id); // deleted (a model cached by a racing upload must not linger)
            return Optional.empty();
        }
        CompletableFuture<Loaded> loaded = cache.get(id,
                (key, executor) -> parsing.submit(ParsingPool.Kind.RELOAD, () -> load(key)));
        return Optional.ofNullable(parsing.await(loaded));
    }

    /**
     * Whether {@link #find} would answer {@code id} at once, from memory: a malformed id (no asset), or an asset the
     * store knows fresh and sound whose model is parsed and cached. Such a lookup may run on an event loop.
     */
    public boolean isReady(String id) {
        if (!ContentId.isWellFormed(id)) {
            return true;
        }
        CompletableFuture<Loaded> loaded = cache.asMap().get(id); // not getIfPresent: a peek, not a cache get
        return loaded != null && loaded.isDone() && !loaded.isCompletedExceptionally() && store.isFresh(id);
    }

    /**
     * The asset {@code id} as {@code tenant} sees it: {@link #find(String)} when the tenant holds it, else empty (an
     * asset of another tenant is not there for it).
     */
    public Optional<Loaded> find(String tenant, String id) {
        if (!ContentId.isWellFormed(id) || observed(() -> store.reference(tenant, id)).isEmpty()) {
            return Optional.empty();
        }
        return find(id);
    }

    /** {@code tenant}'s reference to {@code id}, or empty when it holds none. */
    public Optional<Reference> reference(String tenant, String id) {
        if (!ContentId.isWellFormed(id)) {
            return Optional.empty();
        }
        return observed(() -> store.reference(tenant, id));
    }

    /** {@link #isReady(String)} for an asset {@code tenant} is known here to hold (or a malformed id). */
    public boolean isReady(String tenant, String id) {
        return !ContentId.isWellFormed(id) || store.isReferenceFresh(tenant, id) && isReady(id);
    }

    /** The assets {@code tenant} holds, oldest first. */
    public List<Reference> list(String tenant) {
        return timed("list", () -> store.references(tenant));
    }

    /** Every tenant's references, oldest first (the admin's view). */
    public List<Reference> references() {
        return timed("list", store::references);
    }

    /** What the store knows of asset {@code id}, whoever holds it (the admin's view). */
    public Optional<StoredAsset> stored(String id) {
        return ContentId.isWellFormed(id) ? observed(() -> store.find(id)) : Optional.empty();
    }

    /** What the store holds, oldest first. */
    public List<StoredAsset> list() {
        return timed("list", store::list);
    }

    /**
     * Lets {@code tenant} go of asset {@code id}; the asset is deleted from the store and the cache with its last
     * reference.
     *
     * @return false when the tenant did not hold it
     */
    public boolean delete(String tenant, String id) {
        if (!ContentId.isWellFormed(id)) {
            return false;
        }
        AssetStore.Removal removed = timed("delete", () -> store.removeReference(tenant, id));
        if (removed == AssetStore.Removal.ASSET) {
            cache.synchronous().invalidate(id);
        }
        usage.invalidate(tenant);
        return removed != AssetStore.Removal.NONE;
    }

    /** Deletes an asset from the store and the cache whoever holds it (the admin's); false when it did not exist. */
    public boolean delete(String id) {
        if (!ContentId.isWellFormed(id)) {
            return false;
        }
        boolean deleted = timed("delete", () -> store.delete(id));
        cache.synchronous().invalidate(id);
        usage.invalidateAll();
        return deleted;
    }

    private Loaded load(String id) {
        Optional<StoredAsset> meta = observed(() -> store.find(id));
        if (meta.isEmpty()) {
            return null;
        }
        Optional<List<SourceFile>> files = timed("read", () -> store.readFiles(id));
        if (files.isEmpty()) {
            return null;
        }
        log.debug("parsing stored asset {} ({})", id, meta.get().name());
        ParsingPool.parseStartsNow(); // read and hashed against its id: that was reading, not parsing
        return new Loaded(meta.get(), parseStored(files.get(), "reload").model());
    }

    /**
     * The result of adding clips to an asset.
     *
     * @param asset the combined asset
     * @param created whether it was stored now (false: it existed)
     * @param binding how the new clips were bound
     */
    public record AddedClips(Loaded asset, boolean created, ClipBinding.Bound binding) {
    }

    private record Made(Loaded asset, boolean created) {
    }

    /**
     * Stores an asset made from {@code base} (clips added, a retargeting) for {@code tenant}, or adds the tenant's
     * reference to it when it exists: named as the tenant named the base.
     */
    private Made storeMade(String tenant, String baseId, Loaded base, List<SourceFile> combined, long size, String id,
            Optional<Loaded> existing, Model model) {
        String name = observed(() -> store.reference(tenant, baseId)).map(Reference::name).orElse(base.meta().name());
        Reference ref = new Reference(tenant, id, name, base.meta().format(), size, clock.instant());
        if (existing.isPresent()) {
            Optional<Reference> added = timed("reference", () -> store.addReference(ref));
            if (added.isPresent()) {
                usage.invalidate(tenant);
                return new Made(existing.get(), added.get() == ref);
            }
        }
        checkQuota(tenant, size);
        StoredAsset original = base.meta();
        List<StoredAsset.StoredFile> stored = ContentId.canonicalOrder(combined).stream()
                .map(f -> new StoredAsset.StoredFile(f.name(), f.size())).toList();
        StoredAsset meta = new StoredAsset(id, original.name(), original.format(), size, clock.instant(), stored);
        StoredAsset saved = timed("commit", () -> store.save(meta, combined, ref));
        Loaded loaded = new Loaded(saved, model);
        cache.put(id, CompletableFuture.completedFuture(loaded));
        usage.invalidate(tenant);
        return new Made(loaded, saved == meta);
    }

    /**
     * Adds the clips of an animation-only upload to a stored asset, bound to its rig by node name
     * ({@link ClipBinding}), as a new asset: the original's files plus the upload's, stored under
     * {@code clips/<k>/} (k = 1, 2… for each addition), so the combined asset has its own content id and re-parses
     * the same way; the original is untouched.
     *
     * @return the combined asset, or empty when {@code baseId} does not exist
     * @throws ImportException when the upload cannot be imported or none of its clips binds
     * @throws CorruptAssetException when the original's stored files no longer match its id
     */
    public Optional<AddedClips> addClips(String tenant, String baseId, List<SourceFile> files) {
        checkNames(files);
        Optional<Loaded> base = find(tenant, baseId);
        if (base.isEmpty()) {
            return Optional.empty();
        }
        List<SourceFile> baseFiles = timed("read", () -> store.readFiles(baseId)).orElse(null);
        if (baseFiles == null) {
            return Optional.empty();
        }
        int group = nextGroup(baseFiles);
        List<SourceFile> combined = new ArrayList<>(baseFiles);
        for (SourceFile f : files) {
            combined.add(new SourceFile(CLIPS + group + "/" + f.name(), f.bytes()));
        }
        long size = combined.stream().mapToLong(SourceFile::size).sum();
        String id = ContentId.of(combined);
        Model baseModel = base.get().model();
        ClipBinding.Bound bound = parsing.await(parsing.submit(ParsingPool.Kind.UPLOAD, () ->
                ClipBinding.bind(baseModel, parse(files, "clips").model(), importers.limits().maxClips())));
        Optional<Loaded> existing;
        try {
            existing = find(id);
        } catch (CorruptAssetException damaged) {
            existing = Optional.empty();
        }
        Made made = storeMade(tenant, baseId, base.get(), combined, size, id, existing, bound.model());
        return Optional.of(new AddedClips(made.asset(), made.created(), bound));
    }

    /** Where the files of added clips are stored: {@code clips/<k>/<name>}. */
    static final String CLIPS = "clips/";

    /**
     * Where the files of a retargeting are stored: {@code retarget/<k>/source/<name>} for the source asset's stored
     * files (its own groups included) and {@code retarget/<k>/request.json} for the request ({@link RetargetRequests}).
     */
    static final String RETARGET = "retarget/";

    /** The number of the next group of a combined asset: groups of added clips and retargetings count together. */
    private static int nextGroup(List<SourceFile> files) {
        return 1 + (int) files.stream().map(f -> groupOf(f.name())).filter(g -> g > 0).distinct().count();
    }

    /** The prefix of the group a stored file belongs to ({@link #CLIPS} or {@link #RETARGET}), or null for its own. */
    private static String groupPrefix(String name) {
        return name.startsWith(CLIPS) ? CLIPS : name.startsWith(RETARGET) ? RETARGET : null;
    }

    /** The group of a stored file name ({@code clips/<k>/…} or {@code retarget/<k>/…} → k), or 0 for the asset's own. */
    private static int groupOf(String name) {
        String prefix = groupPrefix(name);
        if (prefix == null) {
            return 0;
        }
        int slash = name.indexOf('/', prefix.length());
        try {
            return slash < 0 ? 0 : Integer.parseInt(name.substring(prefix.length(), slash));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Imports stored files: the asset's own, then each group in order: added clips bound by name, or a retargeting
     * re-run on the stored source files (themselves parsed this way) with the stored request. Runs on a parsing
     * thread.
     */
    private AssetImporters.Imported parseStored(List<SourceFile> files, String source) {
        java.util.TreeMap<Integer, List<SourceFile>> groups = new java.util.TreeMap<>();
        java.util.Map<Integer, String> kinds = new java.util.HashMap<>();
        List<SourceFile> own = new ArrayList<>();
        for (SourceFile f : files) {
            int g = groupOf(f.name());
            if (g == 0) {
                own.add(f);
            } else {
                String prefix = groupPrefix(f.name());
                kinds.put(g, prefix);
                String rest = f.name().substring(f.name().indexOf('/', prefix.length()) + 1);
                groups.computeIfAbsent(g, k -> new ArrayList<>()).add(new SourceFile(rest, f.bytes()));
            }
        }
        AssetImporters.Imported imported = parse(own, source);
        Model model = imported.model();
        for (java.util.Map.Entry<Integer, List<SourceFile>> group : groups.entrySet()) {
            if (kinds.get(group.getKey()).equals(CLIPS)) {
                model = ClipBinding.bind(model, parse(group.getValue(), source).model(), importers.limits().maxClips())
                        .model();
            } else {
                model = retargetStored(model, group.getValue(), source);
            }
        }
        return new AssetImporters.Imported(model, imported.main());
    }

    /** Re-runs a stored retargeting onto {@code model}: the group's {@code request.json} and {@code source/…} files. */
    private Model retargetStored(Model model, List<SourceFile> group, String source) {
        RetargetRequest request = null;
        List<SourceFile> sourceFiles = new ArrayList<>();
        for (SourceFile f : group) {
            if (f.name().equals(RetargetRequests.FILE)) {
                request = RetargetRequests.read(f.bytes());
            } else if (f.name().startsWith(SOURCE)) {
                sourceFiles.add(new SourceFile(f.name().substring(SOURCE.length()), f.bytes()));
            }
        }
        if (request == null || sourceFiles.isEmpty()) {
            throw ImportException.invalid("a stored retargeting lacks its request or its source files");
        }
        Model sourceModel = parseStored(sourceFiles, source).model();
        return Retargeter.retarget(model, sourceModel, request, importers.limits().maxClips()).model();
    }

    private static final String SOURCE = "source/";

    /**
     * The result of a retargeting.
     *
     * @param asset the new asset: the target with the retargeted clips
     * @param created whether it was stored now (false: the same retargeting existed)
     * @param report what was paired and made
     */
    public record Retargeted(Loaded asset, boolean created, RetargetReport report) {
    }

    /**
     * Retargets clips of a stored source asset onto a stored target asset ({@link Retargeter}), as a new asset: the
     * target's files plus, under {@code retarget/<k>/}, the source's stored files and the request, so the new asset
     * has its own content id and re-parses (after eviction or a restart) by running the same retargeting again; the
     * target and source are untouched. The source may itself be a combined asset.
     *
     * @return the new asset, or empty when the target or the source does not exist
     * @throws io.posekit.retarget.RetargetException when the request cannot be carried out (bad joint map, unknown
     *     clip, nothing in common)
     * @throws ImportException (too large) past the clip limit
     * @throws CorruptAssetException when the target's or source's stored files no longer match their ids
     */
    public Optional<Retargeted> retarget(String tenant, String targetId, String sourceId, RetargetRequest request) {
        Optional<Loaded> target = find(tenant, targetId);
        Optional<Loaded> source = find(tenant, sourceId);
        if (target.isEmpty() || source.isEmpty()) {
            return Optional.empty();
        }
        List<SourceFile> targetFiles = timed("read", () -> store.readFiles(targetId)).orElse(null);
        List<SourceFile> sourceFiles = timed("read", () -> store.readFiles(sourceId)).orElse(null);
        if (targetFiles == null || sourceFiles == null) {
            return Optional.empty();
        }
        String prefix = RETARGET + nextGroup(targetFiles) + "/";
        List<SourceFile> combined = new ArrayList<>(targetFiles);
        for (SourceFile f : sourceFiles) {
            combined.add(new SourceFile(prefix + SOURCE + f.name(), f.bytes()));
        }
        combined.add(new SourceFile(prefix + RetargetRequests.FILE, RetargetRequests.write(request)));
        long size = combined.stream().mapToLong(SourceFile::size).sum();
        String id = ContentId.of(combined);
        Model targetModel = target.get().model();
        Model sourceModel = source.get().model();
        Retargeter.Result result = parsing.await(parsing.submit(ParsingPool.Kind.UPLOAD, () ->
                Retargeter.retarget(targetModel, sourceModel, request, importers.limits().maxClips())));
        Optional<Loaded> existing;
        try {
            existing = find(id);
        } catch (CorruptAssetException damaged) {
            existing = Optional.empty();
        }
        Made made = storeMade(tenant, targetId, target.get(), combined, size, id, existing, result.model());
        return Optional.of(new Retargeted(made.asset(), made.created(), result.report()));
    }

    /** Imports {@code files}, timing it. Runs on a parsing thread. */
    private AssetImporters.Imported parse(List<SourceFile> files, String source) {
        long start = System.nanoTime();
        String format = "unknown";
        String outcome = "success";
        try {
            AssetImporters.Imported imported = importers.importUpload(files);
            format = imported.model().format().wireName();
            return imported;
        } catch (ImportException e) {
            if (e.importerBug()) {
                // only the safety net's failures: a malformed file the importer reported (with a cause or not) is
                // the client's business, and one stack trace per bad upload would flood the log
                outcome = "bug";
                log.warn("importer failed unexpectedly on {}", files, e.getCause());
            } else {
                outcome = e.kind().name().toLowerCase(java.util.Locale.ROOT);
            }
            throw e;
        } catch (RuntimeException | Error e) {
            outcome = "error";
            throw e;
        } finally {
            Timer.builder("posekit.import.duration")
                    .description("time to parse an asset into its runtime model")
                    .tags("source", source, "format", format, "outcome", outcome)
                    .register(meters)
                    .record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Runs one store operation, timing it as {@code posekit.store.duration} with {@code op} (stage, commit,
     * reference, read, list, delete, recover) and {@code outcome} (success, unavailable, corrupt, error).
     */
    private <T> T timed(String op, java.util.function.Supplier<T> call) {
        long start = System.nanoTime();
        String outcome = "error";
        try {
            T result = call.get();
            outcome = "success";
            storeReached(true, op.equals("commit") || op.equals("delete") || op.equals("recover"));
            return result;
        } catch (StoreUnavailableException e) {
            outcome = "unavailable";
            storeReached(false, false);
            throw e;
        } catch (CorruptAssetException e) {
            outcome = "corrupt";
            storeReached(true, true);
            throw e;
        } finally {
            Timer.builder("posekit.store.duration")
                    .description("time of one asset store operation (the directory or the object store)")
                    .tags("op", op, "outcome", outcome)
                    .register(meters)
                    .record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
    }

    /** Runs a store call that is too frequent to time, noting what it tells of the store for {@link #healthEpoch}. */
    private <T> T observed(java.util.function.Supplier<T> call) {
        try {
            T result = call.get();
            storeReached(true, false);
            return result;
        } catch (StoreUnavailableException e) {
            storeReached(false, false);
            throw e;
        } catch (CorruptAssetException e) {
            storeReached(true, true);
            throw e;
        }
    }

    /** Counts the changes {@link #healthEpoch} names: reachability flips, and {@code changed} (stored or corrupt). */
    private void storeReached(boolean reachable, boolean changed) {
        if (changed || storeReachable != reachable) {
            storeReachable = reachable;
            healthEpoch.incrementAndGet();
        }
    }

    /**
     * A number that changes whenever what the store's health shows may have changed as seen by requests: an operation
     * failed as unavailable after one succeeded or the other way round, an asset was found corrupt, one was stored or
     * deleted. A health answer computed under another epoch is stale.
     */
    public long healthEpoch() {
        return healthEpoch.get();
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
