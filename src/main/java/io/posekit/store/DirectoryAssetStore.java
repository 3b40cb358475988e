package io.posekit.store;

import io.posekit.asset.SourceFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Uploaded files in a directory, one directory per content id: {@code <id>/manifest.json} (a {@link StoredAsset}),
 * {@code <id>/files/<n>} (the n-th file in canonical order) and {@code <id>/refs/<tenant key>.json} (each tenant's
 * {@link Reference}; the asset is deleted with its last one). Assets found without {@code refs} (stored before tenants)
 * are adopted by the {@link Reference#DEFAULT_TENANT default tenant} when the store opens.
 *
 * <p>Durability: a committed asset survives a crash (kill -9, power loss), and readers see a whole asset or none. An
 * upload is staged ({@link #stage}: a synced {@code .incoming-*} directory, while it is parsed), committed by an
 * atomic rename ({@link #commit}) and, when a crash undid that rename, published again at start-up
 * ({@link IncomingRecovery}); docs/design.md ("An upload's way to the disk") tells the whole story. Start-up removes
 * the other temporaries a crash can leave: spooled files ({@code .spool-*}), deletions ({@code .deleted-*}), emptied
 * directories kept for the next uploads ({@code .spare-*}, see {@link SpareDirectories}), health probes
 * ({@code .health-*}, see {@link StoreHealthIndicator}).
 *
 * <p>Reads verify an asset's files against its id ({@link ContentId}): a missing file, content that no longer hashes to
 * the id or an unreadable manifest marks it corrupt ({@link CorruptAssetException}, logged once) until it is deleted or
 * the same content is saved again, which replaces the damaged copy.
 *
 * <p>The directory may be shared by several processes (a volume every replica mounts): an asset another process stored
 * is found on the first {@link #find} for it, its deletion within the revalidation interval; start-up then removes (or
 * recovers) only temporaries older than {@link #SHARED_STALE_AFTER}. Saves and deletes of one id are serialised in a
 * process, and across processes by the atomic renames. Thread-safe. I/O failures surface as
 * {@link StoreUnavailableException}.
 */
public final class DirectoryAssetStore implements AssetStore {

    private static final Logger log = LoggerFactory.getLogger(DirectoryAssetStore.class);
    /** How old a temporary in a shared store directory must be to count as left by a crash. */
    static final Duration SHARED_STALE_AFTER = Duration.ofHours(1);
    private static final String MANIFEST = "manifest.json";
    private static final String FILES = "files";
    private static final String REFS = "refs";
    private static final String JSON = ".json";
    private static final String INCOMING = ".incoming-";
    /**
     * Names of the store's own temporaries in the store directory: never assets; removed at start-up, but for an
     * incoming directory that may hold an acknowledged upload (see {@link #recover}).
     */
    private static final List<String> TEMPORARY_PREFIXES = List.of(INCOMING, ".deleted-", ".health-",
            UploadSpool.PREFIX, SpareDirectories.PREFIX);
    /** How many emptied asset directories an unshared store keeps for the next uploads ({@link SpareDirectories}). */
    private static final int SPARE_DIRECTORIES = 64;

    /**
     * How the store makes a directory's entries durable (new files, renames into and out of it): fsync(2) on the
     * directory. Replaceable in tests, to observe the order of syncs or make one fail.
     */
    @FunctionalInterface
    interface DirectorySync {

        /** Makes the entries of {@code dir} durable, or throws. */
        void sync(Path dir) throws IOException;

        /**
         * fsync of the directory; nothing on Windows, where Java cannot open a directory to sync it. A failure to
         * open or sync is an error everywhere else: the save it belongs to is not acknowledged.
         */
        DirectorySync PLATFORM = System.getProperty("os.name", "").startsWith("Windows") ? dir -> { } : dir -> {
            try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
                ch.force(true);
            }
        };
    }

    private final Path root;
    private final JsonMapper json = JsonMapper.builder().build();
    private final KnownAssets known;
    private final KnownReferences refs;
    private final boolean shared;
    private final DirectorySync directorySync;
    /** Writes, moves, syncs and removes the store's files. */
    private final DurableFiles disk;
    /** The store directory's fsync, shared by concurrent callers (group commit). */
    private final GroupSync rootSync;
    /** The incoming directories found at start-up that may hold an acknowledged upload. */
    private final IncomingRecovery recovery;
    /** Emptied asset directories for the next uploads' staging (none kept when the directory is shared). */
    private final SpareDirectories spares;

    /**
     * Opens (creating if needed) the store at {@code root}, used by this process alone, and indexes what it holds.
     */
    public DirectoryAssetStore(Path root) {
        this(root, false, Duration.ofSeconds(10), DirectorySync.PLATFORM);
    }

    /**
     * @param root the store directory (created if needed)
     * @param shared whether other processes use the directory too (then start-up keeps their recent temporaries)
     * @param revalidate how long a known asset is trusted before its manifest is looked at again
     */
    public DirectoryAssetStore(Path root, boolean shared, Duration revalidate) {
        this(root, shared, revalidate, DirectorySync.PLATFORM);
    }

    /** A store that makes directory entries durable with {@code directorySync} (tests). */
    DirectoryAssetStore(Path root, DirectorySync directorySync) {
        this(root, false, Duration.ofSeconds(10), directorySync);
    }

    /** A store, shared or not, that makes directory entries durable with {@code directorySync} (tests). */
    DirectoryAssetStore(Path root, boolean shared, Duration revalidate, DirectorySync directorySync) {
        this.root = root.toAbsolutePath().normalize();
        this.directorySync = directorySync;
        this.rootSync = new GroupSync(() -> directorySync.sync(this.root));
        this.disk = new DurableFiles(this.root, rootSync, directorySync);
        this.known = new KnownAssets(revalidate, System::nanoTime);
        this.refs = new KnownReferences(revalidate, System::nanoTime);
        this.shared = shared;
        this.spares = new SpareDirectories(this.root, List.of(FILES, REFS), shared ? 0 : SPARE_DIRECTORIES);
        this.recovery = new IncomingRecovery(this.root, known, refs, rootSync, new IncomingRecovery.Reader() {
            @Override
            public StoredAsset manifest(Path dir) throws IOException {
                return readManifest(dir);
            }

            @Override
            public List<Reference> references(Path dir, String id) {
                return referencesIn(dir.resolve(REFS), id);
            }

            @Override
            public Path file(Path dir, int index) {
                return dir.resolve(FILES).resolve(Integer.toString(index));
            }
        });
        try {
            Files.createDirectories(this.root);
            removeTemporaries(shared ? SHARED_STALE_AFTER : Duration.ZERO);
            scan();
            scanReferences(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the asset store at " + this.root, e);
        }
        log.info("asset store at {} holds {} assets{}", this.root, known.size(),
                known.corruptIds().isEmpty() ? "" : " and " + known.corruptIds().size() + " corrupt entries");
    }

    /** The store directory. */
    public Path root() {
        return root;
    }

    @Override
    public String location() {
        return root.toString();
    }

    @Override
    public Optional<StoredAsset> find(String id) {
        if (!ContentId.isWellFormed(id)) {
            return Optional.empty();
        }
        return known.find(id, (i, revalidating) -> readManifestOf(i));
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

    /** Every stored asset, oldest first, as the directory holds them now. */
    @Override
    public List<StoredAsset> list() {
        try {
            scan();
        } catch (IOException e) {
            throw unavailable("cannot list the asset store at " + root, e);
        }
        return known.assets();
    }

    /**
     * Files written and made durable under a temporary name that no reader sees (and that a restart removes), waiting
     * to be {@linkplain #commit committed} as an asset or {@linkplain #discard discarded}.
     */
    private record DirectoryStaged(String id, Path incoming, StoredAsset manifest, Reference ref,
            DirectoryAssetStore store) implements Staged {
    }

    /**
     * Writes {@code files} (any order) durably to a new temporary directory (the commit then writes and syncs the
     * manifest and the reference before its rename).
     *
     * @throws StoreUnavailableException when the files could not be written or made durable (nothing is left behind)
     */
    @Override
    public Staged stage(String id, List<SourceFile> files) {
        return stage(id, files, null, null);
    }

    /**
     * Writes {@code files} (any order) and the manifest {@code meta} durably to a new temporary directory; a
     * {@link #commit} with an equal {@code meta} then only writes and syncs the reference before its rename.
     *
     * @throws StoreUnavailableException when the files could not be written or made durable (nothing is left behind)
     */
    @Override
    public Staged stage(StoredAsset meta, List<SourceFile> files) {
        return stage(meta.id(), files, meta, null);
    }

    /**
     * Writes {@code files}, the manifest {@code meta} and the uploading tenant's {@code ref} durably to a new
     * temporary directory, whole and self-describing (what {@link #recover} needs); a {@link #commit} with an equal
     * manifest and reference then only renames it into place, without a sync (unless the store is shared): an upload
     * costs one round of syncs, and it overlaps the parse.
     *
     * @throws StoreUnavailableException when the files could not be written or made durable (nothing is left behind)
     */
    @Override
    public Staged stage(StoredAsset meta, List<SourceFile> files, Reference ref) {
        return stage(meta.id(), files, meta, ref);
    }

    private Staged stage(String id, List<SourceFile> files, StoredAsset manifest, Reference ref) {
        Path incoming = root.resolve(INCOMING + UUID.randomUUID());
        List<FileChannel> written = new ArrayList<>(files.size() + 2);
        try {
            Path filesDir = incoming.resolve(FILES);
            spares.make(incoming); // with empty files and refs directories
            List<SourceFile> ordered = ContentId.canonicalOrder(files);
            for (int i = 0; i < ordered.size(); i++) {
                written.add(DurableFiles.place(filesDir.resolve(Integer.toString(i)), ordered.get(i)));
            }
            List<Path> dirs = new ArrayList<>(List.of(filesDir));
            if (!shared) {
                // the incoming directory's own entry: the commit does not sync the store directory after its rename,
                // so until that rename reaches the disk a crash leaves this name, which start-up then recovers
                dirs.add(root);
            }
            if (manifest != null) {
                written.add(DurableFiles.write(incoming.resolve(MANIFEST), json.writeValueAsBytes(manifest)));
                // the incoming directory itself is synced at commit when its manifest is written then
                dirs.add(incoming);
            }
            if (ref != null) {
                Path refsDir = incoming.resolve(REFS);
                written.add(DurableFiles.write(refsDir.resolve(Reference.tenantKey(ref.tenant()) + JSON), json.writeValueAsBytes(ref)));
                dirs.add(refsDir);
            }
            disk.durably(written, dirs);
            return new DirectoryStaged(id, incoming, manifest, ref, this);
        } catch (IOException e) {
            DurableFiles.closeQuietly(written);
            DurableFiles.deleteQuietly(incoming);
            throw unavailable("cannot store asset " + id, e);
        }
    }

    @Override
    public void discard(Staged staged) {
        recycleQuietly(own(staged).incoming());
    }

    /** Empties a directory no reader reaches any more and keeps it for a next upload, or removes it. */
    private void recycleQuietly(Path dir) {
        try {
            spares.recycle(dir);
        } catch (IOException e) {
            log.warn("could not remove {}: {}", dir, e.toString());
        }
    }

    /**
     * Renames the staged directory into place (first writing and syncing in it the manifest and references that were
     * not staged); the store directory is not synced after the rename unless the store is shared, since a staged
     * directory left by a crash is published again at the next start ({@link #recover}). When the id is already
     * stored the staged files are discarded, the stored asset returned and {@code ref} added to it; a corrupt copy is
     * replaced (keeping the references other tenants held to it).
     *
     * @throws StoreUnavailableException when the asset could not be written or made durable (then it is not indexed,
     *     though it may be found on disk at the next start or by saving it again; the staged files are removed)
     */
    @Override
    public StoredAsset commit(Staged staged, StoredAsset meta, Reference ref) {
        DirectoryStaged mine = own(staged);
        if (!mine.id().equals(meta.id()) || !ref.id().equals(meta.id())) {
            discard(staged);
            throw new IllegalArgumentException(!mine.id().equals(meta.id())
                    ? "files staged for " + mine.id() + " cannot be stored as " + meta.id()
                    : "a reference to " + ref.id() + " cannot hold asset " + meta.id());
        }
        synchronized (known.lock(meta.id())) {
            Optional<StoredAsset> existing;
            try {
                existing = known.find(meta.id(), (i, revalidating) -> readManifestOf(i));
            } catch (RuntimeException e) {
                discard(staged);
                throw e;
            }
            boolean damaged = known.corruption(meta.id()).isPresent();
            if (existing.isPresent() && !damaged) {
                if (intact(meta.id())) {
                    discard(staged);
                    addReferenceLocked(ref);
                    return existing.get();
                }
                damaged = true; // damaged where this process did not look: the upload repairs it
            }
            List<Reference> kept = List.of();
            if (existing.isPresent() || damaged || Files.exists(root.resolve(meta.id()))) {
                kept = referencesOnDisk(meta.id());
                removeDamaged(meta.id());
            }
            StoredAsset saved = write(meta, mine, ref, kept);
            if (saved != meta) {
                addReferenceLocked(ref); // another process stored it first
            }
            return saved;
        }
    }

    /**
     * Whether the stored copy reads back as its id (another process may have stored it, or seen it damaged, without
     * this one knowing): an upload of content that is already stored costs a read of it.
     */
    private boolean intact(String id) {
        try {
            return readFiles(id).isPresent();
        } catch (CorruptAssetException damaged) {
            return false;
        } catch (StoreUnavailableException e) {
            return false; // unreadable: replaced by the fresh copy
        }
    }

    private DirectoryStaged own(Staged staged) {
        if (staged instanceof DirectoryStaged d && d.store() == this) {
            return d;
        }
        throw new IllegalArgumentException("files staged by another store");
    }

    private StoredAsset write(StoredAsset meta, DirectoryStaged staged, Reference ref, List<Reference> kept) {
        Path target = root.resolve(meta.id());
        Path incoming = staged.incoming();
        try {
            List<FileChannel> written = new ArrayList<>();
            List<Path> dirs = new ArrayList<>();
            if (!meta.equals(staged.manifest())) {
                // staged with another description, or none: this one replaces it, durably, before the rename
                Files.deleteIfExists(incoming.resolve(MANIFEST));
                written.add(DurableFiles.write(incoming.resolve(MANIFEST), json.writeValueAsBytes(meta)));
                dirs.add(incoming);
            }
            List<Reference> held = new ArrayList<>(kept);
            held.removeIf(r -> r.tenant().equals(ref.tenant()));
            if (!ref.equals(staged.ref())) {
                held.add(ref);
            }
            if (!held.isEmpty()) {
                Path refsDir = Files.createDirectories(incoming.resolve(REFS));
                for (Reference r : held) {
                    Path file = refsDir.resolve(Reference.tenantKey(r.tenant()) + JSON);
                    Files.deleteIfExists(file);
                    written.add(DurableFiles.write(file, json.writeValueAsBytes(r)));
                }
                dirs.add(refsDir);
                dirs.add(incoming);
            }
            if (!written.isEmpty()) {
                disk.durably(written, dirs.stream().distinct().toList());
            }
            try {
                Files.move(incoming, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the store directory does not support atomic renames", e);
            } catch (FileSystemException raced) {
                // rename(2) onto an existing asset directory fails (ENOTEMPTY, reported as a plain
                // FileSystemException): another process sharing the directory stored the same content first
                if (!Files.isDirectory(target)) {
                    throw raced;
                }
                DurableFiles.deleteTree(incoming);
                StoredAsset winner = readManifest(target);
                // the other rename may not be durable yet (or our own, if its fsync failed before): it is
                // acknowledged now, so it must be
                rootSync.sync();
                known.put(winner);
                return winner;
            }
            // unshared, the rename is not synced: the staged directory (its name in the store directory included) is
            // durable and whole, so a crash that undoes the rename leaves it to recovery, which publishes it again
            // (recover). Shared, another replica's start-up keeps a young temporary and would not recover it in time.
            if (shared) {
                syncRenameOrUndo(target);
            }
            known.put(meta);
            refs.put(ref);
            kept.forEach(r -> {
                if (!r.tenant().equals(ref.tenant())) {
                    refs.put(r);
                }
            });
            return meta;
        } catch (IOException e) {
            DurableFiles.deleteQuietly(incoming);
            throw unavailable("cannot store asset " + meta.id(), e);
        }
    }

    /**
     * Makes the rename of a new asset to {@code target} durable by syncing the store directory.
     *
     * @throws IOException when the sync failed; the asset is then renamed away again (not acknowledged, so not kept)
     */
    private void syncRenameOrUndo(Path target) throws IOException {
        try {
            rootSync.sync();
        } catch (IOException notDurable) {
            // best effort: the store stays as it was (a restart may still find it)
            try {
                Path trash = root.resolve(".deleted-" + UUID.randomUUID());
                Files.move(target, trash, StandardCopyOption.ATOMIC_MOVE);
                DurableFiles.deleteQuietly(trash);
            } catch (IOException e) {
                notDurable.addSuppressed(e);
            }
            throw notDurable;
        }
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

    /** A tenant's reference as the disk holds it; empty when absent, or not whole (a write a crash cut short). */
    private Optional<Reference> readReference(String tenant, String id) {
        Path file = root.resolve(id).resolve(REFS).resolve(Reference.tenantKey(tenant) + JSON);
        try {
            if (!Files.exists(file)) {
                // the usual answer for a new upload, told without an exception and its stack trace
                requireRoot("cannot read a reference to asset " + id);
                return Optional.empty();
            }
            Reference r = json.readValue(Files.readAllBytes(file), Reference.class);
            return r.tenant().equals(tenant) && r.id().equals(id) ? Optional.of(r) : Optional.empty();
        } catch (java.nio.file.NoSuchFileException | java.nio.file.NotDirectoryException gone) {
            requireRoot("cannot read a reference to asset " + id);
            return Optional.empty();
        } catch (IOException e) {
            throw unavailable("cannot read a reference to asset " + id, e);
        } catch (JacksonException | IllegalArgumentException | NullPointerException notWhole) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<Reference> addReference(Reference ref) {
        if (!ContentId.isWellFormed(ref.id())) {
            return Optional.empty();
        }
        synchronized (known.lock(ref.id())) {
            if (known.find(ref.id(), (i, revalidating) -> readManifestOf(i)).isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(addReferenceLocked(ref));
        }
    }

    /** Adds {@code ref} to its stored asset (holding the id's lock); the tenant's existing one is kept. */
    private Reference addReferenceLocked(Reference ref) {
        Optional<Reference> had = readReference(ref.tenant(), ref.id());
        if (had.isPresent()) {
            refs.put(had.get());
            return had.get();
        }
        Path assetDir = root.resolve(ref.id());
        Path refsDir = assetDir.resolve(REFS);
        try {
            boolean newDir = !Files.isDirectory(refsDir);
            Files.createDirectories(refsDir);
            Path file = refsDir.resolve(Reference.tenantKey(ref.tenant()) + JSON);
            Files.deleteIfExists(file); // a write a crash cut short: never acknowledged
            disk.durably(List.of(DurableFiles.write(file, json.writeValueAsBytes(ref))), newDir ? List.of(refsDir, assetDir) : List.of(refsDir));
            refs.put(ref);
            return ref;
        } catch (IOException e) {
            throw unavailable("cannot add a reference to asset " + ref.id(), e);
        }
    }

    @Override
    public Removal removeReference(String tenant, String id) {
        if (!ContentId.isWellFormed(id)) {
            return Removal.NONE;
        }
        synchronized (known.lock(id)) {
            Path assetDir = root.resolve(id);
            Path refsDir = assetDir.resolve(REFS);
            Path file = refsDir.resolve(Reference.tenantKey(tenant) + JSON);
            try {
                if (readReference(tenant, id).isEmpty()) {
                    refs.forget(tenant, id);
                    return Removal.NONE;
                }
                Files.delete(file);
                directorySync.sync(refsDir);
                refs.forget(tenant, id);
                if (!referencesOnDisk(id).isEmpty()) {
                    return Removal.REFERENCE;
                }
                // the last one: the asset goes too, unless another process added a reference meanwhile (it is then
                // found in the renamed directory, which is put back)
                Path trash = root.resolve(".deleted-" + UUID.randomUUID());
                try {
                    Files.move(assetDir, trash, StandardCopyOption.ATOMIC_MOVE);
                } catch (java.nio.file.NoSuchFileException alreadyGone) {
                    known.forget(id);
                    refs.forgetAsset(id);
                    return Removal.ASSET;
                }
                rootSync.sync();
                if (hasReferenceFiles(trash.resolve(REFS))) {
                    Files.move(trash, assetDir, StandardCopyOption.ATOMIC_MOVE);
                    rootSync.sync();
                    return Removal.REFERENCE;
                }
                spares.recycle(trash);
                known.forget(id);
                refs.forgetAsset(id);
                return Removal.ASSET;
            } catch (IOException e) {
                throw unavailable("cannot remove a reference to asset " + id, e);
            }
        }
    }

    @Override
    public List<Reference> references(String tenant) {
        if (shared && refs.scanIsStale()) {
            refreshReferences();
        }
        return refs.of(tenant);
    }

    @Override
    public List<Reference> references() {
        if (shared && refs.scanIsStale()) {
            refreshReferences();
        }
        return refs.all();
    }

    private void refreshReferences() {
        try {
            scan();
            scanReferences(false);
        } catch (IOException e) {
            throw unavailable("cannot list the asset store at " + root, e);
        }
    }

    /** Whether a refs directory holds a reference file. */
    private static boolean hasReferenceFiles(Path refsDir) throws IOException {
        if (!Files.isDirectory(refsDir)) {
            return false;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(refsDir, "*" + JSON)) {
            return entries.iterator().hasNext();
        }
    }

    /** The whole references an asset's directory holds. */
    private List<Reference> referencesOnDisk(String id) {
        return referencesIn(root.resolve(id).resolve(REFS), id);
    }

    /** The whole references to asset {@code id} in {@code refsDir}. */
    private List<Reference> referencesIn(Path refsDir, String id) {
        List<Reference> out = new ArrayList<>();
        if (!Files.isDirectory(refsDir)) {
            return out;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(refsDir, "*" + JSON)) {
            for (Path entry : entries) {
                try {
                    Reference r = json.readValue(Files.readAllBytes(entry), Reference.class);
                    if (r.id().equals(id) && entry.getFileName().toString().equals(Reference.tenantKey(r.tenant()) + JSON)) {
                        out.add(r);
                    }
                } catch (JacksonException | IllegalArgumentException | NullPointerException notWhole) {
                    // cut short by a crash before it was acknowledged: not a reference
                }
            }
        } catch (IOException e) {
            throw unavailable("cannot read the references to asset " + id, e);
        }
        return out;
    }

    /**
     * Reads every asset's references into the index. At start-up ({@code adopt}) an asset without a {@code refs}
     * directory (stored before tenants) is given to the default tenant, and one whose references are all gone (a
     * crash between removing the last reference and the asset) is deleted.
     */
    private void scanReferences(boolean adopt) throws IOException {
        List<Reference> all = new ArrayList<>();
        for (StoredAsset meta : known.assets()) {
            Path refsDir = root.resolve(meta.id()).resolve(REFS);
            if (!Files.isDirectory(refsDir)) {
                if (adopt && Files.isDirectory(root.resolve(meta.id()))) {
                    Reference legacy = new Reference(Reference.DEFAULT_TENANT, meta.id(), meta.name(), meta.format(),
                            meta.sizeBytes(), meta.createdAt());
                    synchronized (known.lock(meta.id())) {
                        all.add(addReferenceLocked(legacy));
                    }
                    log.info("asset {} ({}) stored before tenants now belongs to tenant '{}'", meta.id(), meta.name(),
                            Reference.DEFAULT_TENANT);
                }
                continue;
            }
            List<Reference> held = referencesOnDisk(meta.id());
            if (held.isEmpty() && adopt && !shared) {
                log.info("asset {} has no references left (its deletion was cut short): deleting it", meta.id());
                delete(meta.id());
                continue;
            }
            all.addAll(held);
        }
        refs.reconcile(all);
    }

    /** Moves a corrupt copy out of the way of a fresh one. Holds the id's lock. */
    private void removeDamaged(String id) {
        try {
            moveAwayAndDelete(root.resolve(id));
        } catch (IOException e) {
            throw unavailable("cannot remove the corrupt copy of asset " + id, e);
        }
        known.forget(id);
        log.info("replacing the corrupt copy of asset {} with a fresh upload", id);
    }

    @Override
    public Optional<List<SourceFile>> readFiles(String id) {
        return known.readFiles(id, (i, revalidating) -> readManifestOf(i), this::readAll);
    }

    /** The files of the copy {@code meta} describes; null where one is missing. */
    private SourceFile[] readAll(StoredAsset meta) {
        Path dir = root.resolve(meta.id()).resolve(FILES);
        SourceFile[] read = new SourceFile[meta.files().size()];
        for (int i = 0; i < read.length; i++) {
            try {
                // mapped: a format that reads in place (a GLB) never holds the file in the heap
                read[i] = SourceFile.map(meta.files().get(i).name(), dir.resolve(Integer.toString(i)));
            } catch (java.nio.file.NoSuchFileException gone) {
                read[i] = null;
            } catch (IOException e) {
                throw unavailable("cannot read asset " + meta.id(), e);
            }
        }
        return read;
    }

    @Override
    public boolean delete(String id) {
        if (!ContentId.isWellFormed(id)) {
            return false;
        }
        synchronized (known.lock(id)) {
            boolean wasKnown = known.known(id).isPresent() || known.corruption(id).isPresent();
            Path dir = root.resolve(id);
            if (!wasKnown && !Files.isDirectory(dir)) {
                requireRoot("cannot delete asset " + id);
                return false;
            }
            try {
                boolean moved = moveAwayAndDelete(dir);
                known.forget(id);
                refs.forgetAsset(id);
                return moved;
            } catch (IOException e) {
                throw unavailable("cannot delete asset " + id, e);
            }
        }
    }

    /**
     * Checks that a file can be created in the store directory (the health probe: a {@code .health-*} file, removed
     * again; one left by a crash is removed when the store next opens).
     */
    @Override
    public Map<String, Object> check() {
        try {
            Path probe = Files.createTempFile(root, ".health-", ".probe");
            Files.delete(probe);
        } catch (IOException e) {
            throw unavailable("cannot create a file in the asset store at " + root, e);
        }
        Map<String, Object> details = new java.util.LinkedHashMap<>();
        details.put("type", "directory");
        details.put("dir", root.toString());
        details.put("assets", known.size());
        return details;
    }

    /**
     * Throws when the store directory itself is gone (an unmounted volume), which says nothing about an asset that
     * is not found in it.
     */
    private void requireRoot(String what) {
        if (!Files.isDirectory(root)) {
            throw unavailable(what, new java.nio.file.NotDirectoryException(root + " (the store directory is gone)"));
        }
    }

    private static StoreUnavailableException unavailable(String message, IOException cause) {
        return new StoreUnavailableException(message, cause);
    }

    /** Renames {@code dir} away durably, then removes it; false when it was not there. */
    private boolean moveAwayAndDelete(Path dir) throws IOException {
        Path trash = root.resolve(".deleted-" + UUID.randomUUID());
        try {
            Files.move(dir, trash, StandardCopyOption.ATOMIC_MOVE);
        } catch (java.nio.file.NoSuchFileException alreadyGone) {
            return false;
        }
        // without it a crash could bring the acknowledged-deleted asset back (the rename undone)
        rootSync.sync();
        spares.recycle(trash);
        return true;
    }

    /**
     * Removes what a crash can leave (an incoming write, a deletion, a health probe: never acknowledged, already
     * deleted, or never an asset) when last modified at least {@code olderThan} ago; an incoming directory with a
     * whole manifest and reference is kept for {@link #recover} instead (its commit may have been acknowledged).
     */
    private void removeTemporaries(Duration olderThan) throws IOException {
        java.time.Instant cutoff = java.time.Instant.now().minus(olderThan);
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (TEMPORARY_PREFIXES.stream().anyMatch(name::startsWith)
                        && (olderThan.isZero() || Files.getLastModifiedTime(entry).toInstant().isBefore(cutoff))) {
                    if (!name.startsWith(INCOMING) || !recovery.keepIfAcknowledged(entry)) {
                        DurableFiles.deleteQuietly(entry);
                    }
                }
            }
        }
    }

    /**
     * Publishes what a crash may have left acknowledged but not in place: every incoming directory kept when the store
     * opened whose files read back as its id and import again ({@link IncomingRecovery}). Call once, at start-up,
     * before the store serves.
     *
     * @return the assets published
     * @throws StoreUnavailableException when a published one could not be renamed or the renames made durable (the
     *     store is then not fit to serve)
     */
    @Override
    public List<StoredAsset> recover(RecoveryCheck check) {
        return recovery.recover(check);
    }

    /** Reads the directory's entries into the index: new ids added, vanished ones forgotten. */
    private void scan() throws IOException {
        Map<String, StoredAsset> listed = new java.util.HashMap<>();
        java.util.Set<String> damaged = new java.util.HashSet<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (!ContentId.isWellFormed(name) || !Files.isDirectory(entry)) {
                    continue;
                }
                Optional<StoredAsset> had = known.known(name);
                if (had.isPresent()) {
                    listed.put(name, had.get()); // manifests do not change; a replaced copy is seen by find
                    continue;
                }
                try {
                    readManifestOf(name).ifPresent(meta -> listed.put(name, meta));
                } catch (CorruptAssetException e) {
                    damaged.add(name);
                    known.markCorrupt(name, null, e.reason());
                }
            }
        }
        damaged.addAll(known.corruptIds().stream().filter(id -> Files.isDirectory(root.resolve(id))).toList());
        known.reconcile(listed, damaged);
    }

    /**
     * The manifest of the asset directory {@code id} as stored now.
     *
     * @return empty when there is no such directory
     * @throws CorruptAssetException when the directory has no readable manifest of this asset
     */
    private Optional<StoredAsset> readManifestOf(String id) {
        Path dir = root.resolve(id);
        if (!Files.isDirectory(dir)) {
            requireRoot("cannot read asset " + id);
            return Optional.empty();
        }
        if (!Files.isRegularFile(dir.resolve(MANIFEST))) {
            if (!Files.isDirectory(dir)) {
                return Optional.empty(); // renamed away by a delete meanwhile
            }
            throw new CorruptAssetException(id, "its manifest is missing");
        }
        StoredAsset meta;
        try {
            meta = readManifest(dir);
        } catch (java.nio.file.NoSuchFileException gone) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            throw new CorruptAssetException(id, "its manifest is unreadable");
        }
        if (!meta.id().equals(id)) {
            throw new CorruptAssetException(id, "its manifest describes another asset");
        }
        return Optional.of(meta);
    }

    private StoredAsset readManifest(Path dir) throws IOException {
        try {
            return json.readValue(Files.readAllBytes(dir.resolve(MANIFEST)), StoredAsset.class);
        } catch (JacksonException e) {
            throw new IOException("bad manifest in " + dir + ": " + e.getOriginalMessage(), e);
        }
    }

    /** The store directory itself: staging an upload's spooled files only renames them. */
    @Override
    public Path spoolDirectory() {
        return root;
    }
}
