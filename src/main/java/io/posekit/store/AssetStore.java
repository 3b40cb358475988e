package io.posekit.store;

import io.posekit.asset.SourceFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
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
 * in canonical order). An asset is written to a fresh {@code .incoming-*} directory, every file fsynced,
 * then renamed into place atomically, so readers see a whole asset or none, and a crash leaves only an
 * incoming directory that the next start removes. Deletion renames the directory away before removing it.
 *
 * <p>The manifests are indexed in memory at start-up, so listing needs no disk access. Thread-safe.
 * I/O failures surface as {@link UncheckedIOException}.
 */
public final class AssetStore {

    private static final Logger log = LoggerFactory.getLogger(AssetStore.class);
    private static final String MANIFEST = "manifest.json";
    private static final String FILES = "files";

    private final Path root;
    private final JsonMapper json = JsonMapper.builder().build();
    private final Map<String, StoredAsset> index = new ConcurrentHashMap<>();

    /** Opens (creating if needed) the store at {@code root} and indexes what it holds. */
    public AssetStore(Path root) {
        this.root = root.toAbsolutePath().normalize();
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

    /** Every stored asset, oldest first. */
    public List<StoredAsset> list() {
        return index.values().stream()
                .sorted(Comparator.comparing(StoredAsset::createdAt).thenComparing(StoredAsset::id))
                .toList();
    }

    /**
     * Stores {@code files} (any order) under {@code meta.id()} atomically and durably. When the id is
     * already stored (a concurrent upload of the same content won), the stored one is returned unchanged.
     */
    public StoredAsset save(StoredAsset meta, List<SourceFile> files) {
        StoredAsset existing = index.get(meta.id());
        if (existing != null) {
            return existing;
        }
        Path incoming = root.resolve(".incoming-" + UUID.randomUUID());
        Path target = root.resolve(meta.id());
        try {
            Files.createDirectories(incoming.resolve(FILES));
            List<SourceFile> ordered = ContentId.canonicalOrder(files);
            for (int i = 0; i < ordered.size(); i++) {
                writeDurably(incoming.resolve(FILES).resolve(Integer.toString(i)), ordered.get(i).bytes());
            }
            writeDurably(incoming.resolve(MANIFEST), json.writeValueAsBytes(meta));
            fsyncDirectory(incoming.resolve(FILES));
            fsyncDirectory(incoming);
            try {
                Files.move(incoming, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException raced) {
                deleteTree(incoming);
                StoredAsset winner = readManifest(target);
                index.putIfAbsent(winner.id(), winner);
                return index.get(winner.id());
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the store directory does not support atomic renames", e);
            }
            fsyncDirectory(root);
            index.put(meta.id(), meta);
            return meta;
        } catch (IOException e) {
            deleteQuietly(incoming);
            throw new UncheckedIOException("cannot store asset " + meta.id(), e);
        }
    }

    /**
     * Reads the files of a stored asset, with the names they were uploaded under.
     *
     * @return empty when the asset is not stored (or was deleted meanwhile)
     */
    public Optional<List<SourceFile>> readFiles(String id) {
        StoredAsset meta = index.get(id);
        if (meta == null) {
            return Optional.empty();
        }
        Path dir = root.resolve(id).resolve(FILES);
        List<SourceFile> out = new ArrayList<>(meta.files().size());
        try {
            for (int i = 0; i < meta.files().size(); i++) {
                out.add(new SourceFile(meta.files().get(i).name(), Files.readAllBytes(dir.resolve(Integer.toString(i)))));
            }
        } catch (java.nio.file.NoSuchFileException deletedMeanwhile) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read asset " + id, e);
        }
        return Optional.of(out);
    }

    /** Deletes a stored asset; false when it was not stored. */
    public boolean delete(String id) {
        StoredAsset removed = index.remove(id);
        if (removed == null) {
            return false;
        }
        Path dir = root.resolve(id);
        Path trash = root.resolve(".deleted-" + UUID.randomUUID());
        try {
            Files.move(dir, trash, StandardCopyOption.ATOMIC_MOVE);
            deleteTree(trash);
        } catch (java.nio.file.NoSuchFileException alreadyGone) {
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete asset " + id, e);
        }
        return true;
    }

    private void scan() throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (name.startsWith(".incoming-") || name.startsWith(".deleted-")) {
                    // left by a crash mid-write or mid-delete: never acknowledged, or already deleted
                    deleteQuietly(entry);
                } else if (ContentId.isWellFormed(name) && Files.isRegularFile(entry.resolve(MANIFEST))) {
                    try {
                        StoredAsset meta = readManifest(entry);
                        if (meta.id().equals(name)) {
                            index.put(name, meta);
                        } else {
                            log.warn("store entry {} has a manifest for {}; skipped", name, meta.id());
                        }
                    } catch (IOException | RuntimeException e) {
                        log.warn("store entry {} has an unreadable manifest; skipped: {}", name, e.toString());
                    }
                }
            }
        }
        log.info("asset store at {} holds {} assets", root, index.size());
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

    private static void fsyncDirectory(Path dir) {
        // makes the directory entries (new files, the rename) durable; not every platform allows it
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // best effort: Windows cannot open directories
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
