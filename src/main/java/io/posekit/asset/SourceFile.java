package io.posekit.asset;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * One file of an upload: a name (a relative path with {@code /} separators, e.g. {@code Fox.glb} or
 * {@code textures/skin.png} inside a zip) and its content, either in memory, in a file on disk read through a channel
 * (an upload streamed to disk as it arrived, {@link #onDisk}), or in a stored file mapped into memory ({@link #map}).
 *
 * <p>In memory, the byte array is shared, not copied: whoever creates a SourceFile hands the array over and must not
 * modify it afterwards. On disk, the content is read through a channel that its creator keeps open (and unchanged)
 * while the file is in use; {@link #bytes()} then reads the whole file at each call, so a consumer asks once. Reads
 * are positional, so several threads may read one file at once.
 */
public final class SourceFile {

    /** The most bytes read from disk in one call. */
    private static final int READ_CHUNK = 1 << 20;

    private final String name;
    private final byte[] bytes;
    private final FileChannel channel;
    private final ByteBuffer mapped;
    private final int size;
    private final java.util.function.Supplier<String> sha256;
    private final java.nio.file.Path path;

    /**
     * A file held in memory.
     *
     * @param name relative path of the file within the upload
     * @param bytes the content (handed over, not copied)
     */
    public SourceFile(String name, byte[] bytes) {
        this(name, Objects.requireNonNull(bytes, "bytes"), null, null, bytes.length, null, null);
    }

    private SourceFile(String name, byte[] bytes, FileChannel channel, ByteBuffer mapped, int size,
            java.util.function.Supplier<String> sha256, java.nio.file.Path path) {
        this.name = Objects.requireNonNull(name, "name");
        this.bytes = bytes;
        this.channel = channel;
        this.mapped = mapped;
        this.size = size;
        this.sha256 = sha256;
        this.path = path;
    }

    /**
     * A file whose content is on disk.
     *
     * @param channel open for reading, its content {@code size} bytes long, left open and unchanged while this file is
     *     used (its creator closes it)
     * @param sha256 gives the lowercase hex SHA-256 of the content, computed as it was written (waiting for the hashing
     *     to catch up with the writing; unchecked exceptions when it failed), or {@code null} when it was not computed
     * @param path where the file was written (it may be moved meanwhile: the channel still reads it)
     */
    public static SourceFile onDisk(String name, FileChannel channel, int size,
            java.util.function.Supplier<String> sha256, java.nio.file.Path path) {
        return new SourceFile(name, null, Objects.requireNonNull(channel, "channel"), null, size, sha256,
                Objects.requireNonNull(path, "path"));
    }

    /**
     * A stored file, mapped into memory read-only: nothing is read until used, and a consumer that reads in place
     * ({@link #buffer()}) touches only the pages it reads. The file must not change while it is used (a store's files
     * never do; moving or removing it is harmless: the mapping keeps the content).
     *
     * @throws IOException when the file cannot be opened or mapped, or is larger than an array can hold
     */
    public static SourceFile map(String name, java.nio.file.Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, java.nio.file.StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE - 8) {
                throw new IOException(file + " is larger than an array can hold");
            }
            return new SourceFile(name, null, null, ch.map(FileChannel.MapMode.READ_ONLY, 0, size), (int) size, null,
                    null);
        }
    }

    /** Where the file was written when on disk (a store may have moved it away since), else {@code null}. */
    public java.nio.file.Path path() {
        return path;
    }

    /** Relative path of the file within the upload. */
    public String name() {
        return name;
    }

    /**
     * The content: the array itself when in memory; read from disk into a new array at each call when on disk.
     *
     * @throws UncheckedIOException when the file on disk cannot be read whole
     */
    public byte[] bytes() {
        if (bytes != null) {
            return bytes;
        }
        byte[] read = new byte[size];
        if (mapped != null) {
            mapped.get(0, read);
            return read;
        }
        try {
            for (int at = 0; at < size; ) {
                // a megabyte at a time: the JDK reads into a heap array through a temporary direct buffer as large as
                // the request, and keeps it for the thread (a 200 MB read would pin 200 MB of native memory)
                int n = channel.read(ByteBuffer.wrap(read, at, Math.min(READ_CHUNK, size - at)), at);
                if (n < 0) {
                    throw new IOException("the file ended after " + at + " of " + size + " bytes");
                }
                at += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
        return read;
    }

    /**
     * A copy of {@code length} bytes of the content from {@code offset}, without reading the rest when on disk (a zip's
     * directory at its end, its first bytes).
     *
     * @throws IndexOutOfBoundsException when the range is not within the content
     * @throws UncheckedIOException when the file on disk cannot be read
     */
    public byte[] read(long offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, size);
        if (bytes != null) {
            return java.util.Arrays.copyOfRange(bytes, (int) offset, (int) offset + length);
        }
        byte[] read = new byte[length];
        if (mapped != null) {
            mapped.get((int) offset, read);
            return read;
        }
        try {
            for (int at = 0; at < length; ) {
                int n = channel.read(ByteBuffer.wrap(read, at, Math.min(READ_CHUNK, length - at)), offset + at);
                if (n < 0) {
                    throw new IOException("the file ended after " + (offset + at) + " of " + size + " bytes");
                }
                at += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
        return read;
    }

    /**
     * The content as a read-only buffer, without reading it into the heap when on disk: the file is memory-mapped (its
     * pages come from the operating system's page cache as they are touched, so a 1 GB GLB whose mesh takes a few
     * megabytes costs those megabytes). In memory, the array wrapped (shared: readers must not write to it). Byte
     * order is the buffer default (big-endian): set it on the buffer or slices taken.
     *
     * @throws UncheckedIOException when the file on disk cannot be mapped
     */
    public ByteBuffer buffer() {
        if (bytes != null) {
            return ByteBuffer.wrap(bytes);
        }
        if (mapped != null) {
            return mapped.duplicate();
        }
        try {
            // the mapping outlives a move or removal of the file (Linux keeps the inode while it is mapped) and is
            // released with the buffer's last reference
            return channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map " + name, e);
        }
    }

    /** Whether the content is on disk ({@link #onDisk}, {@link #map}), so {@link #buffer()} does not wrap an array. */
    public boolean isOnDisk() {
        return bytes == null;
    }

    /** The content as a stream, without reading it all into memory when on disk. */
    public InputStream open() {
        if (bytes != null) {
            return new java.io.ByteArrayInputStream(bytes);
        }
        if (mapped != null) {
            return new InputStream() {
                private final ByteBuffer left = mapped.duplicate();

                @Override
                public int read() {
                    return left.hasRemaining() ? left.get() & 0xff : -1;
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    if (!left.hasRemaining()) {
                        return len == 0 ? 0 : -1;
                    }
                    int n = Math.min(len, left.remaining());
                    left.get(b, off, n);
                    return n;
                }
            };
        }
        return new InputStream() {
            private long position;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (position >= size) {
                    return -1;
                }
                int n = channel.read(ByteBuffer.wrap(b, off, (int) Math.min(Math.min(len, READ_CHUNK),
                        size - position)), position);
                if (n > 0) {
                    position += n;
                }
                return n;
            }
        };
    }

    /** The channel the content is read from when on disk ({@link #onDisk}), else {@code null}. */
    public FileChannel channel() {
        return channel;
    }

    /**
     * The lowercase hex SHA-256 of the content when it is computed as the file is written, else {@code null}; waits
     * for that hashing to finish.
     */
    public String sha256() {
        return sha256 == null ? null : sha256.get();
    }

    /** The last path segment of {@link #name()}. */
    public String baseName() {
        int slash = name.lastIndexOf('/');
        return slash < 0 ? name : name.substring(slash + 1);
    }

    /** The content's length, bytes. */
    public int size() {
        return size;
    }

    @Override
    public String toString() {
        return name + " (" + size + " bytes)";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SourceFile other && name.equals(other.name) && size == other.size
                && java.util.Arrays.equals(bytes(), other.bytes());
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + size;
    }
}
