package io.posekit.store;

import io.posekit.asset.SourceFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file operations of {@link DirectoryAssetStore}: a file of an upload put in place (moved from its spool, or
 * written), fsyncs issued together and awaited ({@link #durably}), trees removed. Thread-safe.
 */
final class DurableFiles {

    private static final Logger log = LoggerFactory.getLogger(DurableFiles.class);

    private final Path root;
    private final GroupSync rootSync;
    private final DirectoryAssetStore.DirectorySync directorySync;

    /**
     * @param root the store directory, whose syncs go through {@code rootSync} (shared by concurrent callers)
     * @param directorySync how any other directory is synced
     */
    DurableFiles(Path root, GroupSync rootSync, DirectoryAssetStore.DirectorySync directorySync) {
        this.root = root;
        this.rootSync = rootSync;
        this.directorySync = directorySync;
    }

    /**
     * Puts a file of an upload at {@code target}: a file spooled on this file system is moved there (its bytes are
     * neither copied nor read); any other is written. The channel returned is open for {@link #durably}'s sync.
     */
    static FileChannel place(Path target, SourceFile file) throws IOException {
        if (file.path() != null) {
            try {
                Files.move(file.path(), target, StandardCopyOption.ATOMIC_MOVE);
                return FileChannel.open(target, StandardOpenOption.WRITE);
            } catch (java.nio.file.NoSuchFileException | AtomicMoveNotSupportedException elsewhere) {
                // staged before (and moved), or spooled on another file system: copied from its channel below
            }
        }
        if (file.channel() == null) {
            return write(target, file.buffer());
        }
        FileChannel ch = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            for (long at = 0; at < file.size(); ) {
                long n = file.channel().transferTo(at, file.size() - at, ch);
                if (n <= 0) {
                    throw new IOException(file.name() + " ended after " + at + " of " + file.size() + " bytes");
                }
                at += n;
            }
            return ch;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }


    static FileChannel write(Path file, byte[] bytes) throws IOException {
        return write(file, ByteBuffer.wrap(bytes));
    }

    /** Writes {@code buf}'s remaining bytes to a new file, the channel returned open for {@link #durably}'s sync. */
    static FileChannel write(Path file, ByteBuffer buf) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            return ch;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * Makes written files (closing them) and directories' entries durable: every fsync issued at once, the last on
     * the calling thread, and all of them awaited. Why at once: each fsync on its own waits for the disk (on a
     * journaling file system for a journal commit of its own; on this project's journal-less ext4 machines for a
     * write and a cache flush of its own); issued together, their waits overlap (a journal commit serves all of them;
     * the block layer merges the flushes that arrive while one is in flight). Concurrent uploads' syncs overlap the
     * same way; the store directory, which every upload's sync round holds, is synced once for all of the uploads
     * waiting for it ({@link GroupSync}).
     *
     * @throws IOException the first failure, once every sync has ended (then nothing may be acknowledged)
     */
    void durably(List<FileChannel> files, List<Path> dirs) throws IOException {
        List<IoTask> syncs = new ArrayList<>(files.size() + dirs.size());
        for (FileChannel ch : files) {
            syncs.add(() -> {
                try (ch) {
                    ch.force(true);
                }
            });
        }
        for (Path dir : dirs) {
            syncs.add(dir.equals(root) ? rootSync::sync : () -> directorySync.sync(dir));
        }
        List<java.util.concurrent.Future<?>> others = new ArrayList<>(syncs.size() - 1);
        IOException failed = null;
        try {
            for (IoTask sync : syncs.subList(0, syncs.size() - 1)) {
                others.add(SYNCS.submit(() -> {
                    sync.run();
                    return null;
                }));
            }
        } catch (java.util.concurrent.RejectedExecutionException e) {
            failed = new IOException("cannot sync: " + e.getMessage(), e);
        }
        try {
            syncs.getLast().run();
        } catch (IOException e) {
            failed = first(failed, e);
        }
        boolean interrupted = false;
        for (java.util.concurrent.Future<?> other : others) {
            while (true) {
                try {
                    other.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the sync runs on regardless: wait for it, then keep the interrupt
                } catch (java.util.concurrent.ExecutionException e) {
                    failed = first(failed, e.getCause() instanceof IOException io ? io
                            : new IOException("sync failed: " + e.getCause(), e.getCause()));
                    break;
                }
            }
        }
        if (failed == null && others.size() < syncs.size() - 1) {
            failed = new IOException("cannot sync: not every sync could be started");
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failed != null) {
            closeQuietly(files);
            throw failed;
        }
    }

    private static IOException first(IOException had, IOException now) {
        if (had == null) {
            return now;
        }
        had.addSuppressed(now);
        return had;
    }

    static void closeQuietly(List<FileChannel> channels) {
        for (FileChannel ch : channels) {
            try {
                ch.close();
            } catch (IOException e) {
                log.debug("closing {} failed: {}", ch, e.toString());
            }
        }
    }

    /** An I/O step of {@link #durably}. */
    @FunctionalInterface
    private interface IoTask {
        void run() throws IOException;
    }

    /**
     * The threads {@link #durably} issues fsyncs on besides the caller's (shared by every store: they only wait for the
     * disk). Daemon threads, created as needed and ended after a minute unused.
     */
    private static final java.util.concurrent.ExecutorService SYNCS = java.util.concurrent.Executors.newCachedThreadPool(
            Thread.ofPlatform().daemon().name("posekit-store-sync-", 0).factory());

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    static void deleteQuietly(Path dir) {
        try {
            deleteTree(dir);
        } catch (IOException e) {
            log.warn("could not remove {}: {}", dir, e.toString());
        }
    }
}
