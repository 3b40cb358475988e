package io.posekit.store;

import io.posekit.asset.SourceFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * One upload's files written to disk as their bytes arrive, before the repository stages them: one file per uploaded
 * file ({@code .spool-<uuid>-<n>}, in {@link AssetStore#spoolDirectory()}, which a store on a file system sets to its
 * own so that staging only renames; no directory of their own, since each new directory is an inode the file system
 * must find room for), each hashed (SHA-256) as it is written: behind the writer by a hashing executor that reads
 * back what was written (so that an event loop only writes, and the hashing runs where the service's own priorities
 * put it), but for a file's first {@value Hasher#INLINE_BYTES} bytes, which the writer hashes itself while no task is
 * behind (a small file costs less to hash than to hand over). Nothing of a body is held in
 * memory but the piece being written. The files become {@link SourceFile#onDisk} files read through the channels they
 * were written with, which stay open (and readable after a store has moved the file into place) until {@link #close()},
 * which also removes those still in the spool. Not thread-safe: one upload's bytes arrive in order on one thread.
 */
public final class UploadSpool implements AutoCloseable {

    /**
     * The name prefix of spooled files (and of the spool directories of earlier versions), which a store removes at
     * start-up as a crash's leftovers.
     */
    public static final String PREFIX = ".spool-";

    /** The size past which a file's data is synced ahead of the store's sync ({@link Writer#finish()}). */
    static final int SYNC_AHEAD_BYTES = 1 << 16;

    /** Where the fsyncs started at a file's last byte run: they only wait for the disk. */
    private static final java.util.concurrent.Executor SYNC_AHEAD = java.util.concurrent.Executors
            .newThreadPerTaskExecutor(Thread.ofVirtual().name("posekit-spool-sync-", 0).factory());

    private final Path parent;
    /** The name of this spool's files but for their index. */
    private final String prefix;
    private final java.util.concurrent.Executor hashing;
    private final List<FileChannel> channels = new ArrayList<>();
    private final List<Path> paths = new ArrayList<>();
    private boolean closed;

    /**
     * A spool that will write its files in {@code parent} (created with the first file if need be), each hashed on
     * {@code hashing} (one task at a time per file, reading back what was written) past its first
     * {@value Hasher#INLINE_BYTES} bytes, which the writing thread hashes.
     */
    public UploadSpool(Path parent, java.util.concurrent.Executor hashing) {
        this.parent = parent;
        this.prefix = PREFIX + UUID.randomUUID() + "-";
        this.hashing = java.util.Objects.requireNonNull(hashing, "hashing");
    }

    /**
     * Removes the spooled files a crash left in {@code parent} (and spool directories of earlier versions): those last
     * modified more than {@code olderThan} ago (a younger one may be an upload in progress, perhaps another process's
     * sharing the directory).
     */
    public static void removeLeftovers(Path parent, java.time.Duration olderThan) {
        java.time.Instant cutoff = java.time.Instant.now().minus(olderThan);
        try (var entries = Files.newDirectoryStream(parent, PREFIX + "*")) {
            for (Path spool : entries) {
                if (Files.getLastModifiedTime(spool).toInstant().isBefore(cutoff)) {
                    DurableFiles.deleteTree(spool);
                }
            }
        } catch (IOException e) {
            org.slf4j.LoggerFactory.getLogger(UploadSpool.class).warn("could not remove old spools in {}: {}", parent,
                    e.toString());
        }
    }

    /** The files this spool created, whether still there or moved away by a store. */
    List<Path> files() {
        return List.copyOf(paths);
    }

    /**
     * Starts the next file.
     *
     * @param name the file's name in the upload
     * @throws StoreUnavailableException when the file cannot be created
     */
    public Writer create(String name) {
        if (closed) {
            throw new IllegalStateException("the spool is closed");
        }
        try {
            Path path = parent.resolve(prefix + channels.size());
            FileChannel channel;
            try {
                channel = createNew(path);
            } catch (java.nio.file.NoSuchFileException noParent) {
                // made only when missing: createDirectories on one that exists fails inside with an exception
                Files.createDirectories(parent);
                channel = createNew(path);
            }
            channels.add(channel);
            paths.add(path);
            return new Writer(name, path, channel, hashing);
        } catch (IOException e) {
            throw new StoreUnavailableException("cannot write an upload to " + parent + ": " + e.getMessage(), e);
        }
    }

    private static FileChannel createNew(Path path) throws IOException {
        return FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /** One file being written: its bytes in order, then {@link #finish()}. */
    public static final class Writer {
        private final String name;
        private final Path path;
        private final FileChannel channel;
        private final Hasher behind;
        private long size;

        private Writer(String name, Path path, FileChannel channel, java.util.concurrent.Executor hashing) {
            this.name = name;
            this.path = path;
            this.channel = channel;
            this.behind = new Hasher(path, channel, hashing);
        }

        /** The bytes written so far. */
        public long size() {
            return size;
        }

        /**
         * Appends the buffer's remaining bytes (consuming them).
         *
         * @throws StoreUnavailableException when the disk refuses them (full, unmounted)
         */
        public void write(ByteBuffer piece) {
            ByteBuffer hashed = behind.mayHashInline(size + piece.remaining()) ? piece.duplicate() : null;
            try {
                while (piece.hasRemaining()) {
                    size += channel.write(piece);
                }
            } catch (IOException e) {
                throw new StoreUnavailableException("cannot write an upload to " + path + ": " + e.getMessage(), e);
            }
            if (hashed == null || !behind.hashInline(hashed, size)) {
                behind.advance(size, false);
            }
        }

        /**
         * The file, read through the channel it was written with (open until the spool is closed); its SHA-256 is
         * waited for when asked ({@link SourceFile#sha256()}). Past {@value #SYNC_AHEAD_BYTES} bytes its data's fsync is
         * started now, in the background, so that the disk works while the upload is dispatched and parsed; the store's
         * own sync when it stages the file then finds little or nothing left to write. A smaller file's data goes with
         * that sync: written once, it costs the disk one flush rather than two.
         */
        public SourceFile finish() {
            if (size > SYNC_AHEAD_BYTES) {
                SYNC_AHEAD.execute(() -> {
                    try {
                        channel.force(false);
                    } catch (IOException | RuntimeException closedOrFailed) {
                        // only a head start: the staging sync is the one that counts, and reports failures
                    }
                });
            }
            behind.advance(size, true);
            return SourceFile.onDisk(name, channel, Math.toIntExact(size), behind::digest, path);
        }
    }

    /**
     * Hashes a file behind its writer, on an executor: one task at a time, each reading what was written since the
     * last (through the channel, from the page cache) until it has caught up, the last one completing the digest. Only
     * when the executor refuses a task (it is shutting down) does the thread that asks for the digest hash the rest.
     * A file's first {@link #INLINE_BYTES} are hashed by the writer as it writes them, while no task is behind: a
     * small upload is hashed without a task (and its thread's wake-up and switch) at all.
     */
    private static final class Hasher implements Runnable {
        private static final int BUFFER_BYTES = 1 << 16;
        /** How much of a file its writer hashes itself: a network buffer's worth, some 40 µs of SHA-256. */
        static final int INLINE_BYTES = 1 << 16;

        private final Path path;
        private final FileChannel channel;
        private final java.util.concurrent.Executor executor;
        /** Whether a task is queued or running: at most one at a time. */
        private final java.util.concurrent.atomic.AtomicBoolean scheduled = new java.util.concurrent.atomic.AtomicBoolean();
        private final java.util.concurrent.CompletableFuture<String> digest = new java.util.concurrent.CompletableFuture<>();
        /** The bytes written so far (set by the writer after it wrote them). */
        private volatile long written;
        private volatile boolean last;
        private volatile boolean refused;
        /** Guards the digest, the count of bytes hashed and the read buffer: one thread hashes at a time. */
        private final Object lock = new Object();
        private final MessageDigest sha = ContentId.newDigest();
        private long hashed;
        private ByteBuffer buffer;

        Hasher(Path path, FileChannel channel, java.util.concurrent.Executor executor) {
            this.path = path;
            this.channel = channel;
            this.executor = executor;
        }

        /** Whether the writer may hash a piece itself that makes the file {@code sizeAfter} bytes long. */
        boolean mayHashInline(long sizeAfter) {
            return sizeAfter <= INLINE_BYTES && !scheduled.get();
        }

        /**
         * Hashes a piece the writer has just written, which made the file {@code sizeAfter} bytes long, on the writer's
         * thread; false (nothing done: a task reads it back) when a task is behind or the digest has failed.
         */
        boolean hashInline(ByteBuffer piece, long sizeAfter) {
            synchronized (lock) {
                if (scheduled.get() || digest.isDone() || hashed != written) {
                    return false;
                }
                sha.update(piece);
                hashed = sizeAfter;
                written = sizeAfter;
                return true;
            }
        }

        /** The writer has written {@code size} bytes, and when {@code finished} no more will come. */
        void advance(long size, boolean finished) {
            written = size;
            if (finished) {
                last = true;
                if (!scheduled.get()) {
                    synchronized (lock) {
                        // all of it hashed already (by the writer, or a task that has caught up): no task needed
                        if (!scheduled.get() && hashed == size && !digest.isDone()) {
                            complete();
                            return;
                        }
                    }
                }
            }
            if (scheduled.compareAndSet(false, true)) {
                try {
                    executor.execute(this);
                } catch (java.util.concurrent.RejectedExecutionException stopped) {
                    // the executor is shutting down: what it did not hash, the digest's caller hashes
                    refused = true;
                    scheduled.set(false);
                }
            }
        }

        /** The digest in lowercase hex, once every byte is hashed (waiting for the executor's tasks). */
        String digest() {
            if (refused) {
                synchronized (lock) {
                    if (catchUp() && last && hashed == written) {
                        complete();
                    }
                }
            }
            try {
                return digest.join();
            } catch (java.util.concurrent.CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
        }

        /** An executor's task: hashes what was written until it has caught up with the writer. */
        @Override
        public void run() {
            while (true) {
                synchronized (lock) {
                    if (!catchUp()) {
                        return;
                    }
                    if (last && hashed == written) {
                        complete();
                        return; // stays scheduled: nothing more comes
                    }
                }
                scheduled.set(false);
                // the writer may have written, or finished, after the catch-up and found this task still scheduled
                boolean behind;
                synchronized (lock) {
                    behind = !digest.isDone() && (hashed < written || last);
                }
                if (!behind || !scheduled.compareAndSet(false, true)) {
                    return;
                }
            }
        }

        private void complete() {
            digest.complete(HexFormat.of().formatHex(sha.digest()));
            buffer = null;
        }

        /**
         * Hashes up to what is written now (holding the lock); false once the digest is done or failed. A failure to
         * read (the spool closed under it: the upload was refused or abandoned; or the disk) fails the digest.
         */
        private boolean catchUp() {
            if (digest.isDone()) {
                return false;
            }
            long target = written;
            try {
                if (hashed < target && buffer == null) {
                    buffer = ByteBuffer.allocate(BUFFER_BYTES);
                }
                while (hashed < target) {
                    buffer.clear().limit((int) Math.min(buffer.capacity(), target - hashed));
                    int n = channel.read(buffer, hashed);
                    if (n <= 0) {
                        throw new IOException("the file ended after " + hashed + " of " + target + " bytes");
                    }
                    sha.update(buffer.array(), 0, n);
                    hashed += n;
                }
                return true;
            } catch (IOException | RuntimeException e) {
                digest.completeExceptionally(new StoreUnavailableException("cannot hash the upload written to " + path
                        + ": " + e, e instanceof IOException io ? io : new IOException(e)));
                buffer = null;
                return false;
            }
        }
    }

    /** Closes every file and removes those still in the spool (files a store moved away are not touched). */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (FileChannel channel : channels) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing a read channel fails only when the file system is gone; the directory removal reports that
            }
        }
        for (Path p : paths) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                org.slf4j.LoggerFactory.getLogger(UploadSpool.class).warn("could not remove {}: {}", p, e.toString());
            }
        }
    }
}
