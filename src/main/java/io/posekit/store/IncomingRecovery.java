package io.posekit.store;

import io.posekit.asset.SourceFile;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recovery step of {@link DirectoryAssetStore}: the staged ({@code .incoming-*}) directories a crash may have left
 * holding an acknowledged upload (a commit renames its staged directory into place without syncing the store
 * directory), kept when the store opens and published again at start-up. docs/design.md ("An upload's way to the
 * disk") tells why this is enough. Thread-safe.
 */
final class IncomingRecovery {

    private static final Logger log = LoggerFactory.getLogger(IncomingRecovery.class);

    /** How the store reads a staged directory's manifest and references (its layout, its JSON). */
    interface Reader {
        /** The manifest in {@code dir}. */
        StoredAsset manifest(Path dir) throws IOException;

        /** The whole references to asset {@code id} in {@code dir}. */
        List<Reference> references(Path dir, String id);

        /** The {@code index}-th file of the staged directory {@code dir}. */
        Path file(Path dir, int index);
    }

    /** A staged directory published again: its manifest and the references it holds. */
    private record Recovered(StoredAsset meta, List<Reference> refs) {
    }

    private final Path root;
    private final KnownAssets known;
    private final KnownReferences refs;
    private final GroupSync rootSync;
    private final Reader reader;
    /** Incoming directories found at start-up that may hold an acknowledged upload, until {@link #recover}. */
    private final java.util.Queue<Path> unpublished = new java.util.concurrent.ConcurrentLinkedQueue<>();

    IncomingRecovery(Path root, KnownAssets known, KnownReferences refs, GroupSync rootSync, Reader reader) {
        this.root = root;
        this.known = known;
        this.refs = refs;
        this.rootSync = rootSync;
        this.reader = reader;
    }

    /**
     * Keeps {@code incoming} for {@link #recover} when it may hold an acknowledged upload: a whole manifest of a
     * well-formed id and a whole reference to it, which every commit makes durable before its rename.
     *
     * @return whether it was kept (else it is the caller's to remove)
     */
    boolean keepIfAcknowledged(Path incoming) {
        try {
            StoredAsset meta = reader.manifest(incoming);
            if (ContentId.isWellFormed(meta.id()) && !reader.references(incoming, meta.id()).isEmpty()) {
                unpublished.add(incoming);
                return true;
            }
        } catch (IOException | RuntimeException notWhole) {
            // not whole: never acknowledged
        }
        return false;
    }

    /**
     * Publishes every kept directory whose files read back as its id and which {@code check} says imports; removes
     * the others (a failed upload's leftovers whose removal did not reach the disk, files a crash cut short) and those
     * whose id is in place already (the copy a second upload of the same content found). The store directory is
     * synced once after all the renames. A store that is never asked keeps them for the next start.
     *
     * @return the assets published
     * @throws StoreUnavailableException when a published one could not be renamed or the renames made durable
     */
    List<StoredAsset> recover(AssetStore.RecoveryCheck check) {
        List<Recovered> published = new ArrayList<>();
        for (Path incoming; (incoming = unpublished.poll()) != null; ) {
            recoverOne(incoming, check).ifPresent(published::add);
        }
        if (published.isEmpty()) {
            return List.of();
        }
        try {
            rootSync.sync();
        } catch (IOException e) {
            throw new StoreUnavailableException("cannot make the " + published.size()
                    + " recovered uploads durable in " + root, e);
        }
        for (Recovered r : published) {
            known.put(r.meta());
            r.refs().forEach(refs::put);
        }
        log.info("recovered {} uploads a crash had left unpublished: {}", published.size(),
                published.stream().map(r -> r.meta().id()).toList());
        return published.stream().map(Recovered::meta).toList();
    }

    /** Publishes one incoming directory that passes every check of {@link #recover}, or removes it. */
    private Optional<Recovered> recoverOne(Path incoming, AssetStore.RecoveryCheck check) {
        StoredAsset meta;
        List<SourceFile> files;
        List<Reference> held;
        try {
            meta = reader.manifest(incoming);
            held = reader.references(incoming, meta.id());
            files = readStaged(incoming, meta);
        } catch (IOException | RuntimeException e) {
            if (Files.isDirectory(incoming)) {
                drop(incoming, "it cannot be read (" + e.getMessage() + ")");
            }
            return Optional.empty(); // else another replica sharing the directory took it meanwhile
        }
        String wrong = files == null ? "its files are missing or have other lengths"
                : !ContentId.of(files).equals(meta.id()) ? "its files do not hash to its id"
                : held.isEmpty() ? "it holds no reference" : null;
        if (wrong != null) {
            drop(incoming, wrong);
            return Optional.empty();
        }
        Path target = root.resolve(meta.id());
        if (Files.exists(target)) {
            drop(incoming, "asset " + meta.id() + " is in place");
            return Optional.empty();
        }
        boolean imports;
        try {
            imports = check.importsAgain(meta, files);
        } catch (RuntimeException e) {
            log.warn("could not decide whether {} (asset {}) imports; kept for the next start", incoming, meta.id(), e);
            return Optional.empty();
        }
        if (!imports) {
            drop(incoming, "its files do not import");
            return Optional.empty();
        }
        synchronized (known.lock(meta.id())) {
            try {
                Files.move(incoming, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (java.nio.file.NoSuchFileException gone) {
                return Optional.empty(); // another replica took it meanwhile
            } catch (FileSystemException raced) {
                if (Files.isDirectory(target)) {
                    drop(incoming, "asset " + meta.id() + " was stored meanwhile");
                    return Optional.empty();
                }
                throw new StoreUnavailableException("cannot recover asset " + meta.id() + " from " + incoming, raced);
            } catch (IOException e) {
                throw new StoreUnavailableException("cannot recover asset " + meta.id() + " from " + incoming, e);
            }
        }
        return Optional.of(new Recovered(meta, held));
    }

    private static void drop(Path incoming, String why) {
        log.info("removing {} left by a crash: {}", incoming.getFileName(), why);
        DurableFiles.deleteQuietly(incoming);
    }

    /** The files of a staged directory, named as its manifest says; null when one is missing or has another length. */
    private List<SourceFile> readStaged(Path incoming, StoredAsset meta) throws IOException {
        List<SourceFile> files = new ArrayList<>(meta.files().size());
        for (int i = 0; i < meta.files().size(); i++) {
            StoredAsset.StoredFile f = meta.files().get(i);
            Path file = reader.file(incoming, i);
            if (!Files.isRegularFile(file) || Files.size(file) != f.sizeBytes()) {
                return null;
            }
            files.add(SourceFile.map(f.name(), file));
        }
        return files.isEmpty() ? null : files;
    }
}
