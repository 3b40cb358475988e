package io.posekit.store;

import io.posekit.asset.SourceFile;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Uploaded files in an S3-compatible object store (AWS S3, MinIO, Ceph RGW, Cloudflare R2, GCS interoperability),
 * shared by every replica. Keys under the configured prefix, all named by the content id:
 * <ul>
 *   <li>{@code <prefix>files/<id>/<n>}: the n-th uploaded file in canonical order (its bytes, as uploaded);</li>
 *   <li>{@code <prefix>manifests/<id>.json}: the {@link StoredAsset}, written last: an asset exists exactly when its
 *       manifest does, so readers see all of it or none;</li>
 *   <li>{@code <prefix>refs/<tenant key>/<id>.json}: a tenant's {@link Reference} (listed by tenant, one LIST a
 *       thousand), and {@code <prefix>holders/<id>/<tenant key>}: an empty marker of it, listed by asset, so the last
 *       reference's removal is seen without listing every tenant. The marker is written before the reference and
 *       removed after it, so a crash leaves at worst a marker that keeps an asset stored, never a reference to a
 *       deleted one.</li>
 * </ul>
 * Every key is determined by the content, so writing the files is idempotent, and the manifest is written with
 * {@code If-None-Match: *}: when two replicas store the same upload at once, the first manifest wins and the other
 * replica answers with it (stores that do not implement conditional writes answer 501 to it; then the manifest is
 * written after a check that none exists, and the later of two racing writers replaces the other's creation time).
 * An acknowledged PUT is durable in the object store, so {@link #commit} returning means the asset survives this
 * process.
 *
 * <p>Removing the last reference deletes the manifest, then lists the markers again: a reference another replica
 * added meanwhile puts the manifest back (its files are still there); a tenant adding a reference checks after
 * writing it that the manifest is still there, and stores the asset again when it is not. Assets stored before
 * tenants (no marker at all) are given to the {@link Reference#DEFAULT_TENANT default tenant} the first time the store
 * is reached ({@code <prefix>refs-adopted} marks it done).
 *
 * <p>Nothing is written before {@link #commit}: {@link #stage} keeps the files (already in memory) so a failed parse
 * leaves nothing behind. Deletion removes the manifest first (the asset is gone at once), then the files; a crash
 * between the two leaves unreferenced files that the same upload overwrites. A delete racing another replica's
 * upload of the same content can leave a manifest without files: that asset reads as corrupt (410) until it is
 * deleted or uploaded again.
 *
 * <p>Files are verified against the id when read, as in every store. Failures to reach the store (connection
 * refused, timeouts, 5xx, throttling, access denied, a missing bucket) are {@link StoreUnavailableException}s. The
 * client retries with the SDK's standard strategy within the configured timeout.
 */
public final class S3AssetStore implements AssetStore {

    private static final Logger log = LoggerFactory.getLogger(S3AssetStore.class);
    /** The most bytes a manifest may have: one line per file, at most a thousand files. */
    static final int MAX_MANIFEST_BYTES = 1 << 20;
    /**
     * The longest a health check, or the confirmation of an asset this replica knows, waits for the store: beyond it
     * the store counts as unreachable and the known entry is answered (a hung store must not hold requests for
     * assets that are parsed here, nor health probes, for the whole operation timeout).
     */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
    /** The slowest transfer a PUT is given time for, in bytes per second, on top of the operation timeout. */
    static final long TRANSFER_BYTES_PER_SECOND = 10L << 20;
    /** Store requests one operation makes at once (manifests of a listing, files of an asset). */
    static final int PARALLEL = 16;

    /**
     * How to reach the store.
     *
     * @param bucket the bucket
     * @param prefix prepended to every key (empty, or ending with {@code /}, e.g. {@code posekit/})
     * @param endpoint the endpoint for S3-compatible stores ({@code http://minio:9000}); null for AWS's
     * @param region the signing region ({@code us-east-1} for most S3-compatible stores)
     * @param pathStyle path-style requests ({@code http://host/bucket/key}), which MinIO and Ceph need
     * @param accessKeyId the access key; null to use the SDK's default credentials chain (environment variables
     *     {@code AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY}, web identity tokens, profiles, instance roles)
     * @param secretAccessKey the secret key, with {@code accessKeyId}
     * @param createBucket whether to create the bucket when it does not exist
     * @param timeout the longest one store operation may take, retries included
     * @param revalidate how long a known asset is trusted before its manifest is looked at again
     */
    public record Settings(String bucket, String prefix, URI endpoint, String region, boolean pathStyle,
            String accessKeyId, String secretAccessKey, boolean createBucket, Duration timeout, Duration revalidate) {

        public Settings {
            if (bucket == null || bucket.isBlank()) {
                throw new IllegalArgumentException("the S3 store needs a bucket (posekit.store.s3.bucket)");
            }
            prefix = prefix == null ? "" : prefix;
            if (!prefix.isEmpty() && !prefix.endsWith("/")) {
                prefix = prefix + "/";
            }
            if ((accessKeyId == null) != (secretAccessKey == null)) {
                throw new IllegalArgumentException("an S3 access key id needs its secret access key, and vice versa");
            }
        }

        /** Without the secret key. */
        @Override
        public String toString() {
            return "Settings[bucket=" + bucket + ", prefix=" + prefix + ", endpoint=" + endpoint + ", region=" + region
                    + ", pathStyle=" + pathStyle + ", accessKeyId=" + accessKeyId + ", secretAccessKey="
                    + (secretAccessKey == null ? null : "******") + ", createBucket=" + createBucket + ", timeout="
                    + timeout + ", revalidate=" + revalidate + "]";
        }
    }

    private final S3Client s3;
    private final String bucket;
    private final String prefix;
    private final String location;
    private final boolean createBucket;
    private final Duration timeout;
    private final KnownAssets known;
    private final KnownReferences refs;
    private final JsonMapper json = JsonMapper.builder().build();
    /** False once the store answered 501 to a conditional write. */
    private volatile boolean conditionalWrites = true;
    private volatile boolean bucketReady;

    /**
     * A store on its own client, built from {@code settings}; closes it in {@link #close}. Does not contact the
     * store: an unreachable store is reported by {@link #check} and by the operations.
     */
    public static S3AssetStore open(Settings settings) {
        AwsCredentialsProvider credentials = settings.accessKeyId() == null
                ? DefaultCredentialsProvider.builder().build()
                : StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(settings.accessKeyId(), settings.secretAccessKey()));
        var builder = S3Client.builder()
                .region(Region.of(settings.region()))
                .credentialsProvider(credentials)
                .forcePathStyle(settings.pathStyle())
                // S3-compatible stores differ in the flexible checksums they take; content is verified against its
                // SHA-256 id on every read instead
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClient(Apache5HttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(2))
                        .socketTimeout(settings.timeout())
                        .maxConnections(64)
                        .build())
                .overrideConfiguration(o -> o.apiCallTimeout(settings.timeout()));
        if (settings.endpoint() != null) {
            builder.endpointOverride(settings.endpoint());
        }
        return new S3AssetStore(builder.build(), settings.bucket(), settings.prefix(), settings.createBucket(),
                settings.timeout(), settings.revalidate());
    }

    /**
     * A store on {@code s3} (which the caller owns) under {@code prefix} of {@code bucket}; {@code timeout} is the
     * client's operation timeout.
     */
    S3AssetStore(S3Client s3, String bucket, String prefix, boolean createBucket, Duration timeout,
            Duration revalidate) {
        this.s3 = s3;
        this.timeout = timeout;
        this.bucket = bucket;
        this.prefix = prefix;
        this.createBucket = createBucket;
        this.location = "s3://" + bucket + "/" + prefix;
        this.known = new KnownAssets(revalidate, System::nanoTime);
        this.refs = new KnownReferences(revalidate, System::nanoTime);
        try {
            ensureBucket();
            s3.headBucket(b -> b.bucket(bucket).overrideConfiguration(o -> o.apiCallTimeout(PROBE_TIMEOUT)));
            log.info("asset store at {}", location);
            adoptUnheld();
        } catch (SdkException | StoreUnavailableException e) {
            log.warn("asset store at {} is unavailable at start-up: {}", location, e.getMessage());
        }
    }

    /** Closes the client. */
    public void close() {
        s3.close();
    }

    @Override
    public String location() {
        return location;
    }

    @Override
    public Optional<StoredAsset> find(String id) {
        if (!ContentId.isWellFormed(id)) {
            return Optional.empty();
        }
        return known.find(id, this::readManifestOf);
    }

    @Override
    public Optional<String> corruption(String id) {
        return known.corruption(id);
    }

    @Override
    public boolean isFresh(String id) {
        return known.isFresh(id);
    }

    @Override
    public List<String> corruptIds() {
        return known.corruptIds();
    }

    @Override
    public List<StoredAsset> list() {
        Map<String, StoredAsset> listed = new ConcurrentHashMap<>();
        Set<String> damaged = ConcurrentHashMap.newKeySet();
        List<String> unknown = new ArrayList<>();
        String manifests = prefix + "manifests/";
        try {
            for (S3Object o : s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(manifests)).contents()) {
                String name = o.key().substring(manifests.length());
                if (!name.endsWith(".json") || !ContentId.isWellFormed(name.substring(0, name.length() - 5))) {
                    continue;
                }
                String id = name.substring(0, name.length() - 5);
                // a known manifest is not read again: a replaced copy is seen by find when its entry is revalidated
                known.known(id).ifPresentOrElse(meta -> listed.put(id, meta), () -> unknown.add(id));
            }
        } catch (SdkException e) {
            throw unavailable("cannot list the asset store at " + location, e);
        }
        readManifests(unknown, listed, damaged);
        damaged.addAll(known.corruptIds().stream().filter(listed::containsKey).toList());
        known.reconcile(listed, damaged);
        return known.assets();
    }

    /** Reads the manifests of {@code ids} into {@code listed} (or {@code damaged}), {@link #PARALLEL} at a time. */
    private void readManifests(List<String> ids, Map<String, StoredAsset> listed, Set<String> damaged) {
        inParallel(ids.size(), "listing the asset store", k -> {
            String id = ids.get(k);
            try {
                readManifestOf(id).ifPresent(meta -> listed.put(id, meta));
            } catch (CorruptAssetException e) {
                damaged.add(id);
                known.markCorrupt(id, null, e.reason());
            }
        });
    }

    /**
     * Runs {@code task} for 0 … n−1 on virtual threads, {@link #PARALLEL} at a time (each one store request, so a
     * replica's first listing of a large store, or an asset of many files, waits for one round trip per batch instead
     * of one per object); the first failure is rethrown once every task has ended.
     */
    private static void inParallel(int n, String what, java.util.function.IntConsumer task) {
        if (n == 1) {
            task.accept(0);
            return;
        }
        Semaphore slots = new Semaphore(PARALLEL);
        List<Future<?>> pending = new ArrayList<>(n);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int k = 0; k < n; k++) {
                int index = k;
                pending.add(threads.submit(() -> {
                    slots.acquireUninterruptibly();
                    try {
                        task.accept(index);
                    } finally {
                        slots.release();
                    }
                }));
            }
        } // waits for every task
        for (Future<?> f : pending) {
            try {
                f.get();
            } catch (ExecutionException e) {
                throw ParsingPool.rethrow(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreUnavailableException("interrupted while " + what, new IOException(e));
            }
        }
    }

    /** Files held in memory until {@link #commit}: nothing is written for an upload that fails to parse. */
    private record S3Staged(String id, List<SourceFile> files, S3AssetStore store) implements Staged {
    }

    @Override
    public Staged stage(String id, List<SourceFile> files) {
        return new S3Staged(id, ContentId.canonicalOrder(files), this);
    }

    @Override
    public void discard(Staged staged) {
        own(staged); // nothing was written
    }

    @Override
    public StoredAsset commit(Staged staged, StoredAsset meta, Reference ref) {
        S3Staged mine = own(staged);
        if (!mine.id().equals(meta.id()) || !ref.id().equals(meta.id())) {
            throw new IllegalArgumentException(!mine.id().equals(meta.id())
                    ? "files staged for " + mine.id() + " cannot be stored as " + meta.id()
                    : "a reference to " + ref.id() + " cannot hold asset " + meta.id());
        }
        String id = meta.id();
        Optional<StoredAsset> existing = find(id);
        boolean replacing = known.corruption(id).isPresent();
        if (existing.isPresent() && !replacing) {
            if (intact(id)) {
                Optional<Reference> added = addReference(ref);
                if (added.isPresent()) {
                    return existing.get();
                }
                // deleted by another replica meanwhile: stored again below, with this reference
            } else {
                replacing = true; // damaged where this replica did not look: the upload repairs it
            }
        }
        try {
            // outside the id's lock: the keys are named by the content, so writing them twice writes the same bytes
            inParallel(mine.files().size(), "storing asset " + id, i -> {
                SourceFile file = mine.files().get(i);
                String key = fileKey(id, i);
                Duration limit = transferTimeout(file.size());
                // a file spooled to disk is sent from there, never read whole into memory
                RequestBody body = !file.isOnDisk() ? RequestBody.fromBytes(file.bytes())
                        : RequestBody.fromContentProvider(file::open, file.size(), "application/octet-stream");
                s3.putObject(b -> b.bucket(bucket).key(key).contentLength((long) file.size())
                        .contentType("application/octet-stream").overrideConfiguration(o -> o.apiCallTimeout(limit)),
                        body);
            });
            putReference(ref);
            byte[] manifest = json.writeValueAsBytes(meta);
            synchronized (known.lock(id)) {
                Optional<StoredAsset> winner = putManifest(id, manifest, !replacing);
                if (winner.isPresent()) {
                    known.put(winner.get());
                    return winner.get();
                }
                known.put(meta);
            }
        } catch (SdkException e) {
            throw unavailable("cannot store asset " + id, e);
        }
        if (replacing) {
            log.info("replaced the corrupt copy of asset {} with a fresh upload", id);
        }
        return meta;
    }

    /**
     * Writes the manifest, when {@code exclusive} only if none exists.
     *
     * @return the manifest that won when another replica wrote one first; empty when this one was written
     */
    private Optional<StoredAsset> putManifest(String id, byte[] manifest, boolean exclusive) {
        String key = manifestKey(id);
        if (exclusive && conditionalWrites) {
            try {
                s3.putObject(b -> b.bucket(bucket).key(key).ifNoneMatch("*").contentType("application/json")
                        .contentLength((long) manifest.length), RequestBody.fromBytes(manifest));
                return Optional.empty();
            } catch (S3Exception e) {
                if (e.statusCode() == 412 || e.statusCode() == 409) {
                    // 412: another replica's manifest is there; 409: its write is in flight, and wins
                    return Optional.of(readManifestAfterRace(id));
                }
                if (e.statusCode() != 501) {
                    throw e;
                }
                conditionalWrites = false;
                log.warn("the object store at {} does not implement conditional writes (If-None-Match); manifests are"
                        + " written after checking that none exists", location);
            }
        }
        if (exclusive) {
            Optional<StoredAsset> there = readManifestOf(id);
            if (there.isPresent()) {
                return there;
            }
        }
        s3.putObject(b -> b.bucket(bucket).key(key).contentType("application/json")
                .contentLength((long) manifest.length), RequestBody.fromBytes(manifest));
        return Optional.empty();
    }

    private StoredAsset readManifestAfterRace(String id) {
        return readManifestOf(id).orElseThrow(() -> new StoreUnavailableException(
                "asset " + id + " was being stored by another replica and then deleted; upload it again",
                new IOException("manifest gone after a lost conditional write")));
    }

    /**
     * Whether the stored copy reads back as its id (another replica may have stored it, or seen it damaged, without
     * this one knowing): an upload of content that is already stored costs a read of it.
     */
    private boolean intact(String id) {
        try {
            return readFiles(id).isPresent();
        } catch (CorruptAssetException damaged) {
            return false;
        }
    }

    /**
     * How long the PUT of {@code bytes} may take: the operation timeout plus a second per 10 MB (the body is sent
     * within the call; reads stream after it, bounded by the socket timeout instead).
     */
    private Duration transferTimeout(long bytes) {
        return timeout.plusSeconds(bytes / TRANSFER_BYTES_PER_SECOND);
    }

    private S3Staged own(Staged staged) {
        if (staged instanceof S3Staged s && s.store() == this) {
            return s;
        }
        throw new IllegalArgumentException("files staged by another store");
    }

    @Override
    public Optional<Reference> reference(String tenant, String id) {
        if (!ContentId.isWellFormed(id)) {
            return Optional.empty();
        }
        return refs.find(tenant, id, this::readReference);
    }

    @Override
    public boolean isReferenceFresh(String tenant, String id) {
        return refs.isFresh(tenant, id);
    }

    /** A tenant's reference as the store holds it. */
    private Optional<Reference> readReference(String tenant, String id) {
        String key = referenceKey(tenant, id);
        byte[] bytes;
        try (ResponseInputStream<GetObjectResponse> in = s3.getObject(b -> b.bucket(bucket).key(key))) {
            Long length = in.response().contentLength();
            if (length == null || length > MAX_MANIFEST_BYTES) {
                return Optional.empty();
            }
            bytes = in.readNBytes(length.intValue());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw unavailable("cannot read a reference to asset " + id, e);
        } catch (IOException e) {
            throw new StoreUnavailableException("cannot read a reference to asset " + id + ": " + e.getMessage(), e);
        }
        try {
            Reference r = json.readValue(bytes, Reference.class);
            return r != null && r.tenant().equals(tenant) && r.id().equals(id) ? Optional.of(r) : Optional.empty();
        } catch (JacksonException | IllegalArgumentException | NullPointerException e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<Reference> addReference(Reference ref) {
        if (!ContentId.isWellFormed(ref.id()) || find(ref.id()).isEmpty()) {
            return Optional.empty();
        }
        try {
            Reference held = putReference(ref);
            // a removal of the last other reference may have deleted the manifest before it saw this one
            return exists(manifestKey(ref.id())) ? Optional.of(held) : Optional.empty();
        } catch (SdkException e) {
            throw unavailable("cannot add a reference to asset " + ref.id(), e);
        }
    }

    /** Writes the marker, then the reference (unless the tenant has one: that one is kept and returned). */
    private Reference putReference(Reference ref) {
        Optional<Reference> had = readReference(ref.tenant(), ref.id());
        if (had.isPresent()) {
            refs.put(had.get());
            return had.get();
        }
        s3.putObject(b -> b.bucket(bucket).key(holderKey(ref.id(), ref.tenant())).contentLength(0L),
                RequestBody.empty());
        byte[] body = json.writeValueAsBytes(ref);
        s3.putObject(b -> b.bucket(bucket).key(referenceKey(ref.tenant(), ref.id())).contentType("application/json")
                .contentLength((long) body.length), RequestBody.fromBytes(body));
        refs.put(ref);
        return ref;
    }

    @Override
    public Removal removeReference(String tenant, String id) {
        if (!ContentId.isWellFormed(id)) {
            return Removal.NONE;
        }
        synchronized (known.lock(id)) {
            try {
                if (readReference(tenant, id).isEmpty()) {
                    refs.forget(tenant, id);
                    return Removal.NONE;
                }
                s3.deleteObject(b -> b.bucket(bucket).key(referenceKey(tenant, id)));
                s3.deleteObject(b -> b.bucket(bucket).key(holderKey(id, tenant)));
                refs.forget(tenant, id);
                if (anyHolder(id)) {
                    return Removal.REFERENCE;
                }
                Optional<StoredAsset> meta = readManifestOf(id);
                s3.deleteObject(b -> b.bucket(bucket).key(manifestKey(id)));
                if (anyHolder(id) && meta.isPresent()) {
                    // another replica added a reference meanwhile: its asset stays
                    putManifest(id, json.writeValueAsBytes(meta.get()), true);
                    return Removal.REFERENCE;
                }
                known.forget(id);
                refs.forgetAsset(id);
                deleteFiles(id);
                return Removal.ASSET;
            } catch (SdkException e) {
                throw unavailable("cannot remove a reference to asset " + id, e);
            }
        }
    }

    private boolean anyHolder(String id) {
        String holders = prefix + "holders/" + id + "/";
        return s3.listObjectsV2(b -> b.bucket(bucket).prefix(holders).maxKeys(1)).keyCount() > 0;
    }

    @Override
    public List<Reference> references(String tenant) {
        String mine = prefix + "refs/" + Reference.tenantKey(tenant) + "/";
        List<String> ids = new ArrayList<>();
        try {
            for (S3Object o : s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(mine)).contents()) {
                String name = o.key().substring(mine.length());
                if (name.endsWith(".json") && ContentId.isWellFormed(name.substring(0, name.length() - 5))) {
                    ids.add(name.substring(0, name.length() - 5));
                }
            }
        } catch (SdkException e) {
            throw unavailable("cannot list the asset store at " + location, e);
        }
        Map<String, Reference> read = new ConcurrentHashMap<>();
        inParallel(ids.size(), "listing references", k -> {
            String id = ids.get(k);
            // references do not change: a known, fresh one is not read again
            refs.find(tenant, id, this::readReference).ifPresent(r -> read.put(id, r));
        });
        List<Reference> listed = new ArrayList<>(read.values());
        refs.reconcileTenant(tenant, listed);
        listed.sort(Reference.OLDEST_FIRST);
        return listed;
    }

    @Override
    public List<Reference> references() {
        String all = prefix + "refs/";
        Map<String, List<String>> byTenantKey = new java.util.HashMap<>();
        try {
            for (S3Object o : s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(all)).contents()) {
                String rest = o.key().substring(all.length());
                int slash = rest.indexOf('/');
                if (slash > 0 && rest.endsWith(".json")) {
                    byTenantKey.computeIfAbsent(rest.substring(0, slash), k -> new ArrayList<>())
                            .add(o.key());
                }
            }
        } catch (SdkException e) {
            throw unavailable("cannot list the asset store at " + location, e);
        }
        List<String> keys = byTenantKey.values().stream().flatMap(List::stream).toList();
        Map<String, Reference> read = new ConcurrentHashMap<>();
        inParallel(keys.size(), "listing references", k -> {
            try (ResponseInputStream<GetObjectResponse> in = s3.getObject(b -> b.bucket(bucket).key(keys.get(k)))) {
                Reference r = json.readValue(in.readNBytes(MAX_MANIFEST_BYTES), Reference.class);
                if (r != null && keys.get(k).equals(referenceKey(r.tenant(), r.id()))) {
                    read.put(keys.get(k), r);
                }
            } catch (NoSuchKeyException gone) {
                // removed meanwhile
            } catch (SdkException e) {
                throw unavailable("cannot list the asset store at " + location, e);
            } catch (IOException | JacksonException | IllegalArgumentException | NullPointerException e) {
                log.warn("unreadable reference {}: {}", keys.get(k), e.toString());
            }
        });
        List<Reference> listed = new ArrayList<>(read.values());
        refs.reconcile(listed);
        listed.sort(Reference.OLDEST_FIRST);
        return listed;
    }

    /**
     * Gives the assets stored before tenants (no holder marker) to the default tenant, once per store: the
     * {@code refs-adopted} marker says it was done.
     */
    private void adoptUnheld() {
        String marker = prefix + "refs-adopted";
        if (exists(marker)) {
            return;
        }
        int adopted = 0;
        for (StoredAsset meta : list()) {
            if (!anyHolder(meta.id())) {
                putReference(new Reference(Reference.DEFAULT_TENANT, meta.id(), meta.name(), meta.format(),
                        meta.sizeBytes(), meta.createdAt()));
                adopted++;
            }
        }
        s3.putObject(b -> b.bucket(bucket).key(marker).contentLength(0L), RequestBody.empty());
        if (adopted > 0) {
            log.info("{} assets stored before tenants now belong to tenant '{}'", adopted, Reference.DEFAULT_TENANT);
        }
    }

    @Override
    public Optional<List<SourceFile>> readFiles(String id) {
        return known.readFiles(id, this::readManifestOf, this::readAll);
    }

    /** The files of the copy {@code meta} describes, {@link #PARALLEL} at a time; null where one is missing. */
    private SourceFile[] readAll(StoredAsset meta) {
        SourceFile[] read = new SourceFile[meta.files().size()];
        inParallel(read.length, "reading asset " + meta.id(), i -> {
            StoredAsset.StoredFile file = meta.files().get(i);
            readObject(fileKey(meta.id(), i), file.sizeBytes(), meta.id(), meta, "file " + i + " (" + file.name() + ")")
                    .ifPresent(bytes -> read[i] = new SourceFile(file.name(), bytes));
        });
        return read;
    }

    /**
     * The bytes of one stored file, which the manifest says has {@code expected} bytes.
     *
     * @return empty when the object does not exist
     * @throws CorruptAssetException when it has another length
     */
    private Optional<byte[]> readObject(String key, long expected, String id, StoredAsset meta, String what) {
        try (ResponseInputStream<GetObjectResponse> in = s3.getObject(b -> b.bucket(bucket).key(key))) {
            Long length = in.response().contentLength();
            if (length == null || length != expected) {
                throw known.markCorrupt(id, meta, what + " has " + length + " bytes where " + expected
                        + " were stored");
            }
            return Optional.of(in.readNBytes((int) expected));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw unavailable("cannot read asset " + id, e);
        } catch (IOException e) {
            throw new StoreUnavailableException("cannot read asset " + id + ": " + e.getMessage(), e);
        }
    }

    @Override
    public boolean delete(String id) {
        if (!ContentId.isWellFormed(id)) {
            return false;
        }
        synchronized (known.lock(id)) {
            try {
                boolean existed = known.corruption(id).isPresent() || exists(manifestKey(id));
                if (!existed) {
                    known.forget(id);
                    return false;
                }
                // the manifest first: the asset is gone at once, whatever happens to the rest
                s3.deleteObject(b -> b.bucket(bucket).key(manifestKey(id)));
                known.forget(id);
                refs.forgetAsset(id);
                deleteFiles(id);
                String holders = prefix + "holders/" + id + "/";
                for (S3Object o : s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(holders)).contents()) {
                    String tenantKey = o.key().substring(holders.length());
                    s3.deleteObject(b -> b.bucket(bucket).key(prefix + "refs/" + tenantKey + "/" + id + ".json"));
                    s3.deleteObject(b -> b.bucket(bucket).key(o.key()));
                }
                return true;
            } catch (SdkException e) {
                throw unavailable("cannot delete asset " + id, e);
            }
        }
    }

    /** Checks that the bucket answers (creating it first when so configured). */
    @Override
    public Map<String, Object> check() {
        try {
            ensureBucket();
            s3.headBucket(b -> b.bucket(bucket).overrideConfiguration(o -> o.apiCallTimeout(PROBE_TIMEOUT)));
        } catch (SdkException e) {
            throw unavailable("the object store at " + location + " does not answer", e);
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("type", "s3");
        details.put("location", location);
        details.put("assets", known.size());
        return details;
    }

    private void ensureBucket() {
        if (!createBucket || bucketReady) {
            return;
        }
        try {
            s3.headBucket(b -> b.bucket(bucket).overrideConfiguration(o -> o.apiCallTimeout(PROBE_TIMEOUT)));
        } catch (NoSuchBucketException e) {
            s3.createBucket(b -> b.bucket(bucket));
            log.info("created bucket {}", bucket);
        } catch (S3Exception e) {
            if (e.statusCode() != 404) {
                throw unavailable("cannot reach bucket " + bucket, e);
            }
            s3.createBucket(b -> b.bucket(bucket));
            log.info("created bucket {}", bucket);
        } catch (SdkException e) {
            throw unavailable("cannot reach bucket " + bucket, e);
        }
        bucketReady = true;
    }

    private boolean exists(String key) {
        try {
            s3.headObject(b -> b.bucket(bucket).key(key));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return false;
            }
            throw e;
        }
    }

    /**
     * The manifest of asset {@code id} as stored now.
     *
     * @return empty when there is none
     * @throws CorruptAssetException when it cannot be read as a manifest of this asset
     */
    private Optional<StoredAsset> readManifestOf(String id) {
        return readManifestOf(id, false);
    }

    /** {@link #readManifestOf(String)}, within {@link #PROBE_TIMEOUT} when only confirming a known asset. */
    private Optional<StoredAsset> readManifestOf(String id, boolean revalidating) {
        byte[] bytes;
        try (ResponseInputStream<GetObjectResponse> in = s3.getObject(b -> {
            b.bucket(bucket).key(manifestKey(id));
            if (revalidating) {
                b.overrideConfiguration(o -> o.apiCallTimeout(PROBE_TIMEOUT));
            }
        })) {
            Long length = in.response().contentLength();
            if (length == null || length > MAX_MANIFEST_BYTES) {
                throw new CorruptAssetException(id, "its manifest has " + length + " bytes");
            }
            bytes = in.readNBytes(length.intValue());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw unavailable("cannot read asset " + id, e);
        } catch (IOException e) {
            throw new StoreUnavailableException("cannot read asset " + id + ": " + e.getMessage(), e);
        }
        StoredAsset meta;
        try {
            meta = json.readValue(bytes, StoredAsset.class);
        } catch (JacksonException e) {
            throw new CorruptAssetException(id, "its manifest is unreadable");
        }
        if (meta == null || !id.equals(meta.id())) {
            throw new CorruptAssetException(id, "its manifest describes another asset");
        }
        return Optional.of(meta);
    }

    private void deleteFiles(String id) {
        String files = prefix + "files/" + id + "/";
        for (S3Object o : s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(files)).contents()) {
            s3.deleteObject(b -> b.bucket(bucket).key(o.key()));
        }
    }

    private String referenceKey(String tenant, String id) {
        return prefix + "refs/" + Reference.tenantKey(tenant) + "/" + id + ".json";
    }

    private String holderKey(String id, String tenant) {
        return prefix + "holders/" + id + "/" + Reference.tenantKey(tenant);
    }

    private String manifestKey(String id) {
        return prefix + "manifests/" + id + ".json";
    }

    private String fileKey(String id, int n) {
        return prefix + "files/" + id + "/" + n;
    }

    private static StoreUnavailableException unavailable(String message, SdkException cause) {
        String why = cause instanceof S3Exception s3e && s3e.awsErrorDetails() != null
                ? s3e.statusCode() + " " + s3e.awsErrorDetails().errorCode()
                : cause.getClass().getSimpleName() + ": " + cause.getMessage();
        return new StoreUnavailableException(message + " (" + why + ")", new IOException(why, cause));
    }
}
