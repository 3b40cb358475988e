package io.posekit.store;

import io.posekit.asset.SourceFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Uploaded files on the local file system, one directory per content id:
 * {@code <dir>/<id>/manifest.json} (a {@link StoredAsset}) and {@code <dir>/<id>/files/<n>} (the n-th file
 * in canonical order). An asset is written to a fresh {@code .incoming-*} directory, every file and the directory
 * fsynced, then renamed into place atomically and the store directory fsynced, so readers see a whole asset or
 * none, a saved asset survives a crash (kill -9, power loss) once {@link #save} has returned, and a crash leaves
 * only an incoming directory that the next start removes. A failed fsync fails the save. Deletion renames the
 * directory away, fsyncs the store directory (so an acknowledged delete stays deleted) and then removes it.
 * Start-up also removes what a crash can leave of the health probe ({@code .health-*}, see
 * {@link StoreHealthIndicator}).
 *
 * <p>Reading an asset's files verifies them against its id ({@link ContentId}): a missing file or content that
 * no longer hashes to the id marks the asset corrupt ({@link CorruptAssetException}, logged once), and so does an
 * entry whose manifest cannot be read at start-up. A corrupt asset is never served as something else; it stays
 * corrupt until it is deleted or the same content is saved again, which replaces the damaged copy.
 *
 * <p>The manifests are indexed in memory at start-up, so listing needs no disk access. Saves and deletes of the
 * same id are serialised. Thread-safe. I/O failures surface as {@link UncheckedIOException}.
 */
public final class AssetStore {

    private static final Logger log = LoggerFactory.getLogger(AssetStore.class);
    private static final String MANIFEST = "manifest.json";
    private static final String FILES = "files";
    /** Names of the store's own temporaries in the store directory: never assets, removed at start-up. */
    private static final List<String> TEMPORARY_PREFIXES = List.of(".incoming-", ".deleted-", ".health-");

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
    private final Map<String, StoredAsset> index = new ConcurrentHashMap<>();
    /** Corrupt assets: id → what is wrong. */
    private final Map<String, String> corrupt = new ConcurrentHashMap<>();
    private final Object[] locks = new Object[64];
    private final DirectorySync directorySync;

    /** Opens (creating if needed) the store at {@code root} and indexes what it holds. */
    public AssetStore(Path root) {
        this(root, DirectorySync.PLATFORM);
    }

    /** A store that makes directory entries durable with {@code directorySync} (tests). */
    AssetStore(Path root, DirectorySync directorySync) {
        this.root = root.toAbsolutePath().normalize();
        this.directorySync = directorySync;
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new Object();
        }
        try {
            Files.createDirectories(this.root);
            scan();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the asset store at " + this.root, e);
        }
    }

    /** The store directory. */
    public Path root() {
        return root;
    }

    /** The stored asset with this id. */
    public Optional<StoredAsset> find(String id) {
        return Optional.ofNullable(index.get(id));
    }

    /** What is wrong with this asset when it is known to be corrupt. */
    public Optional<String> corruption(String id) {
        return Optional.ofNullable(corrupt.get(id));
    }

    /** The ids of the assets known to be corrupt, sorted. */
    public List<String> corruptIds() {
        return corrupt.keySet().stream().sorted().toList();
    }

    /** Every stored asset, oldest first. */
    public List<StoredAsset> list() {
        return index.values().stream()
                .sorted(Comparator.comparing(StoredAsset::createdAt).thenComparing(StoredAsset::id))
                .toList();
    }

    /**
     * Stores {@code files} (any order) under {@code meta.id()} atomically and durably: when it returns, the asset
     * survives a crash. When the id is already stored (a concurrent upload of the same content won), the stored
     * one is returned unchanged; a corrupt copy is replaced. The same as {@link #commit commit}({@link #stage
     * stage(…)}, meta).
     *
     * @throws UncheckedIOException when the asset could not be written, or not made durable (then it is not
     *     indexed, though it may be found on disk at the next start or by saving it again)
     */
    public StoredAsset save(StoredAsset meta, List<SourceFile> files) {
        return commit(stage(meta.id(), files), meta);
    }

    /**
     * Files written and made durable under a temporary name that no reader sees (and that a restart removes), waiting
     * to be {@linkplain #commit committed} as an asset or {@linkplain #discard discarded}.
     */
    public static final class Staged {

        private final String id;
        private final Path incoming;

        private Staged(String id, Path incoming) {
            this.id = id;
            this.incoming = incoming;
        }
    }

    /**
     * The first half of {@link #save}: writes {@code files} (any order), the content {@code id} names, durably to a new
     * temporary directory. Takes no lock, so it can run while the upload is being parsed; nothing is visible until
     * {@link #commit}.
     *
     * @throws UncheckedIOException when the files could not be written or made durable (nothing is left behind)
     */
    public Staged stage(String id, List<SourceFile> files) {
        Path incoming = root.resolve(".incoming-" + UUID.randomUUID());
        try {
            Files.createDirectories(incoming.resolve(FILES));
            List<SourceFile> ordered = ContentId.canonicalOrder(files);
            for (int i = 0; i < ordered.size(); i++) {
                writeDurably(incoming.resolve(FILES).resolve(Integer.toString(i)), ordered.get(i).bytes());
            }
            directorySync.sync(incoming.resolve(FILES));
            return new Staged(id, incoming);
        } catch (IOException e) {
            deleteQuietly(incoming);
            throw new UncheckedIOException("cannot store asset " + id, e);
        }
    }

    /** Removes staged files that will not be committed (e.g. the upload failed to parse). */
    public void discard(Staged staged) {
        deleteQuietly(staged.incoming);
    }

    /**
     * The second half of {@link #save}: makes the staged files the asset {@code meta} describes, atomically and
     * durably; when the id is already stored the staged files are discarded and the stored asset returned, and a
     * corrupt copy is replaced.
     *
     * @throws IllegalArgumentException when the files were staged for another id
     * @throws UncheckedIOException when the asset could not be written or made durable (the staged files are removed)
     */
    public StoredAsset commit(Staged staged, StoredAsset meta) {
        if (!staged.id.equals(meta.id())) {
            discard(staged);
            throw new IllegalArgumentException("files staged for " + staged.id + " cannot be stored as " + meta.id());
        }
        synchronized (lock(meta.id())) {
            StoredAsset existing = index.get(meta.id());
            if (existing != null && !corrupt.containsKey(meta.id())) {
                discard(staged);
                return existing;
            }
            if (existing != null || corrupt.containsKey(meta.id())) {
                removeDamaged(meta.id());
            }
            return write(meta, staged.incoming);
        }
    }

    private StoredAsset write(StoredAsset meta, Path incoming) {
        Path target = root.resolve(meta.id());
        try {
            writeDurably(incoming.resolve(MANIFEST), json.writeValueAsBytes(meta));
            directorySync.sync(incoming);
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
                deleteTree(incoming);
                StoredAsset winner = readManifest(target);
                // the other rename may not be durable yet (or our own, if its fsync failed before): it is
                // acknowledged now, so it must be
                directorySync.sync(root);
                index.putIfAbsent(winner.id(), winner);
                return index.get(winner.id());
            }
            // the rename is durable only once the directory holding the new entry is synced
            directorySync.sync(root);
            index.put(meta.id(), meta);
            return meta;
        } catch (IOException e) {
            deleteQuietly(incoming);
            throw new UncheckedIOException("cannot store asset " + meta.id(), e);
        }
    }

    /** Moves a corrupt copy out of the way of a fresh one. Holds the id's lock. */
    private void removeDamaged(String id) {
        index.remove(id);
        try {
            moveAwayAndDelete(root.resolve(id));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the corrupt copy of asset " + id, e);
        }
        corrupt.remove(id);
        log.info("replacing the corrupt copy of asset {} with a fresh upload", id);
    }

    /**
     * Reads the files of a stored asset, with the names they were uploaded under, and verifies them against
     * the id.
     *
     * @return empty when the asset is not stored (or was deleted meanwhile)
     * @throws CorruptAssetException when a file is missing or the content does not hash to the id
     */
    public Optional<List<SourceFile>> readFiles(String id) {
        for (int attempt = 0; ; attempt++) {
            StoredAsset meta = index.get(id);
            String known = corrupt.get(id);
            if (known != null) {
                throw new CorruptAssetException(id, known);
            }
            if (meta == null) {
                return Optional.empty();
            }
            Path dir = root.resolve(id).resolve(FILES);
            List<SourceFile> out = new ArrayList<>(meta.files().size());
            int i = 0;
            try {
                for (; i < meta.files().size(); i++) {
                    out.add(new SourceFile(meta.files().get(i).name(), Files.readAllBytes(dir.resolve(Integer.toString(i)))));
                }
            } catch (java.nio.file.NoSuchFileException gone) {
                if (index.get(id) != meta) {
                    if (attempt < 2) {
                        continue; // deleted, or replaced by a fresh copy, while reading
                    }
                    return Optional.empty();
                }
                throw markCorrupt(id, meta, "file " + i + " (" + meta.files().get(i).name() + ") is missing");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read asset " + id, e);
            }
            if (!ContentId.of(out).equals(id)) {
                throw markCorrupt(id, meta, "content does not match its id");
            }
            return Optional.of(out);
        }
    }

    /** Records that the asset read as {@code meta} is corrupt, unless it was replaced meanwhile; logs it once. */
    private CorruptAssetException markCorrupt(String id, StoredAsset meta, String reason) {
        if (index.get(id) == meta && corrupt.putIfAbsent(id, reason) == null) {
            log.error("asset {} is corrupt in the store ({}): it answers 410 Gone until it is deleted or uploaded"
                    + " again", id, reason);
        }
        return new CorruptAssetException(id, reason);
    }

    /** Deletes a stored asset (corrupt or not); false when it was not stored. */
    public boolean delete(String id) {
        synchronized (lock(id)) {
            StoredAsset removed = index.remove(id);
            String damage = corrupt.remove(id);
            if (removed == null && damage == null) {
                return false;
            }
            try {
                moveAwayAndDelete(root.resolve(id));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete asset " + id, e);
            }
            return true;
        }
    }

    private void moveAwayAndDelete(Path dir) throws IOException {
        Path trash = root.resolve(".deleted-" + UUID.randomUUID());
        try {
            Files.move(dir, trash, StandardCopyOption.ATOMIC_MOVE);
        } catch (java.nio.file.NoSuchFileException alreadyGone) {
            return;
        }
        // without it a crash could bring the acknowledged-deleted asset back (the rename undone)
        directorySync.sync(root);
        deleteTree(trash);
    }

    private Object lock(String id) {
        return locks[Math.floorMod(id.hashCode(), locks.length)];
    }

    private void scan() throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (TEMPORARY_PREFIXES.stream().anyMatch(name::startsWith)) {
                    // left by a crash mid-write, mid-delete or mid-probe: never acknowledged, already deleted, or
                    // never an asset
                    deleteQuietly(entry);
                } else if (ContentId.isWellFormed(name) && Files.isDirectory(entry)) {
                    if (!Files.isRegularFile(entry.resolve(MANIFEST))) {
                        corruptOnStart(name, "its manifest is missing");
                        continue;
                    }
                    try {
                        StoredAsset meta = readManifest(entry);
                        if (meta.id().equals(name)) {
                            index.put(name, meta);
                        } else {
                            corruptOnStart(name, "its manifest describes another asset");
                        }
                    } catch (IOException | RuntimeException e) {
                        corruptOnStart(name, "its manifest is unreadable");
                    }
                }
            }
        }
        log.info("asset store at {} holds {} assets{}", root, index.size(),
                corrupt.isEmpty() ? "" : " and " + corrupt.size() + " corrupt entries");
    }

    private void corruptOnStart(String id, String reason) {
        corrupt.put(id, reason);
        log.error("store entry {} is corrupt ({}): it answers 410 Gone until it is deleted or uploaded again", id, reason);
    }

    private StoredAsset readManifest(Path dir) throws IOException {
        try {
            return json.readValue(Files.readAllBytes(dir.resolve(MANIFEST)), StoredAsset.class);
        } catch (JacksonException e) {
            throw new IOException("bad manifest in " + dir + ": " + e.getOriginalMessage(), e);
        }
    }

    private static void writeDurably(Path file, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static void deleteQuietly(Path dir) {
        try {
            deleteTree(dir);
        } catch (IOException e) {
            log.warn("could not remove {}: {}", dir, e.toString());
        }
    }
}
