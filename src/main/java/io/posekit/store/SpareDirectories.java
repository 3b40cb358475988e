package io.posekit.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Emptied asset directories, kept in the store directory ({@code .spare-<uuid>}, each with its empty subdirectories)
 * for the next uploads' staging instead of being removed and made again. Why: making a directory is the file system's
 * costliest step of an upload where directories come and go — ext4 without a journal (these machines') skips every
 * inode freed in the last minute when it makes one, reading each one's inode table block to find out, so a store that
 * deletes what it stored paid most of a small upload's CPU there; a renamed spare is one directory entry, whatever the
 * file system. Only directories are kept: a file of a deleted asset may still be mapped or read by a request in
 * flight, which must see its bytes, so files are unlinked as before.
 *
 * <p>A spare is never a reader's: it is renamed away from the asset's name (and that rename made durable) before it is
 * emptied, and its name is a temporary's, removed at start-up. At most {@code capacity} are kept; beyond, a directory
 * is removed. For a store directory of one process only: another one's start-up may remove a spare in use. Thread-safe.
 */
final class SpareDirectories {

    /** The name prefix of spare directories in the store directory (a temporary, removed at start-up). */
    static final String PREFIX = ".spare-";

    private final Path root;
    private final List<String> subdirectories;
    private final int capacity;
    private final ConcurrentLinkedDeque<Path> spares = new ConcurrentLinkedDeque<>();
    private final AtomicInteger count = new AtomicInteger();

    /**
     * @param root the store directory, where spares are kept
     * @param subdirectories the subdirectories every directory made or recycled here has
     * @param capacity how many spares are kept at most (0: none, every directory is made and removed)
     */
    SpareDirectories(Path root, List<String> subdirectories, int capacity) {
        this.root = root;
        this.subdirectories = List.copyOf(subdirectories);
        this.capacity = capacity;
    }

    /**
     * Makes {@code dir} (which must not exist) an empty directory holding the empty subdirectories: a spare renamed
     * there, or new ones. Nothing is synced.
     *
     * @throws IOException when {@code dir} could not be made
     */
    void make(Path dir) throws IOException {
        for (Path spare; (spare = spares.pollFirst()) != null; ) {
            count.decrementAndGet();
            try {
                Files.move(spare, dir, StandardCopyOption.ATOMIC_MOVE);
                return;
            } catch (IOException gone) {
                // removed by hand, or the rename refused: made below; the spare, if still there, goes at start-up
            }
        }
        // not createDirectories: it tries the deepest first and walks up through an exception per missing level; and a
        // store directory that is gone is an unavailable store, not one to make again
        Files.createDirectory(dir);
        for (String sub : subdirectories) {
            Files.createDirectory(dir.resolve(sub));
        }
    }

    /**
     * Empties {@code dir} — a directory no reader can reach any more — and keeps it as a spare, or removes it when
     * enough are kept or it lacks one of the subdirectories.
     *
     * @throws IOException when it could not be emptied or removed (what is left is a temporary that start-up removes)
     */
    void recycle(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        boolean whole = true;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                if (subdirectories.contains(entry.getFileName().toString()) && Files.isDirectory(entry)) {
                    try (DirectoryStream<Path> inner = Files.newDirectoryStream(entry)) {
                        for (Path file : inner) {
                            DurableFiles.deleteTree(file);
                        }
                    }
                } else {
                    DurableFiles.deleteTree(entry);
                }
            }
        }
        for (String sub : subdirectories) {
            whole &= Files.isDirectory(dir.resolve(sub));
        }
        if (whole && count.incrementAndGet() <= capacity) {
            Path spare = root.resolve(PREFIX + UUID.randomUUID());
            try {
                Files.move(dir, spare, StandardCopyOption.ATOMIC_MOVE);
                spares.addLast(spare);
                return;
            } catch (IOException refused) {
                // removed below instead
            }
        }
        if (whole) {
            count.decrementAndGet();
        }
        DurableFiles.deleteTree(dir);
    }

    /** How many spares are kept now. */
    int size() {
        return Math.max(0, count.get());
    }
}
