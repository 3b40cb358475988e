package io.posekit.api.http;

import io.netty.buffer.ByteBuf;
import io.posekit.asset.SourceFile;
import io.posekit.store.UploadSpool;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.http.MediaType;

/**
 * Receives the files of an upload request as its body streams in ({@link UploadSink}): the parts named {@code file} of
 * a {@code multipart/form-data} body, or a raw body whose media type (or {@code ?filename=}) tells what it is, each
 * written to the upload's {@link UploadSpool} as it arrives. Enforces the upload size limit on the total of all files
 * as they arrive; the server cuts the body at {@link #maxBody()}.
 */
public final class UploadReader {

    /** Raw body media types and the file name they imply. */
    private static final Map<String, String> RAW_TYPES = Map.of(
            "model/gltf-binary", "asset.glb",
            "model/gltf+json", "asset.gltf",
            "application/json", "asset.gltf",
            "application/zip", "asset.zip",
            "application/x-zip-compressed", "asset.zip",
            "model/vnd.collada+xml", "asset.dae");

    /** Room for boundaries and part headers on top of the upload limit. */
    static final long MULTIPART_OVERHEAD = 1 << 20;
    /** The most parts a multipart body may have (a .gltf with its .bin and many images). */
    static final int MAX_PARTS = 1000;

    /**
     * The memory an upload's parse holds: what the importers read whole, where they read the rest in place
     * ({@link UploadSink#heldBytes}, {@link UploadSink#heldAtLeast}).
     */
    public interface ParseMemory {

        /** Every file read whole: the memory is the upload's size. */
        ParseMemory WHOLE = new ParseMemory() {
            @Override
            public long held(List<SourceFile> files) {
                return files.stream().mapToLong(SourceFile::size).sum();
            }

            @Override
            public long heldAtLeast(String name, long declared) {
                return declared;
            }
        };

        /** The bytes the parse of these received files holds. */
        long held(List<SourceFile> files);

        /**
         * The least the parse of a body of {@code declared} bytes certainly holds, told from the headers alone: the
         * raw file's {@code name}, or {@code null} for a multipart body whose files are not known yet.
         */
        long heldAtLeast(String name, long declared);
    }

    private final long maxBytes;
    private final ParseMemory memory;

    /** A reader whose uploads are parsed whole ({@link ParseMemory#WHOLE}). */
    public UploadReader(long maxBytes) {
        this(maxBytes, ParseMemory.WHOLE);
    }

    /** A reader whose uploads' parse holds what {@code memory} says. */
    public UploadReader(long maxBytes, ParseMemory memory) {
        this.maxBytes = maxBytes;
        this.memory = java.util.Objects.requireNonNull(memory, "memory");
    }

    /** The most bytes an upload's body may have: the limit, plus room for multipart boundaries and headers. */
    public long maxBody() {
        return maxBytes + MULTIPART_OVERHEAD;
    }

    /** {@link #maxBody()} in words, for the 413's detail. */
    public String maxBodyText() {
        return "the upload limit of " + maxBytes + " bytes plus " + MULTIPART_OVERHEAD
                + " bytes for multipart boundaries and headers";
    }

    /**
     * Opens the sink an upload's body is streamed into: its files written to {@code spool} as they arrive.
     *
     * @param spool where the files go; the sink closes it
     * @throws ApiException 415 when the media type does not say what the body is, 400 for a multipart type without a
     *     boundary, 413 for a declared length over the limit (the spool is closed then)
     */
    public UploadSink open(Exchange request, UploadSpool spool) {
        try {
            String contentType = request.header("Content-Type");
            MediaType type;
            try {
                type = contentType == null ? null : MediaType.parseMediaType(contentType);
            } catch (RuntimeException e) {
                throw ApiException.unsupportedMediaType("Content-Type '" + contentType + "' is not a valid media type");
            }
            if (type != null && type.isCompatibleWith(MediaType.MULTIPART_FORM_DATA)) {
                return new MultipartSink(MultipartBody.boundary(contentType), spool);
            }
            return new RawSink(rawName(request, contentType, type), spool);
        } catch (RuntimeException e) {
            spool.close();
            throw e;
        }
    }

    /** The name a raw body's file gets: from {@code ?filename=}, else from its media type. */
    private String rawName(Exchange request, String contentType, MediaType type) {
        String filename = request.query("filename");
        String name;
        if (filename != null && !filename.isBlank()) {
            name = baseName(filename);
        } else if (type != null && RAW_TYPES.containsKey(type.getType() + "/" + type.getSubtype())) {
            name = RAW_TYPES.get(type.getType() + "/" + type.getSubtype());
        } else {
            throw ApiException.unsupportedMediaType("Content-Type '" + contentType + "' does not say what the file is:"
                    + " send multipart/form-data with parts named 'file', one of " + String.join(", ",
                            RAW_TYPES.keySet().stream().sorted().toList())
                    + ", or application/octet-stream with ?filename=");
        }
        if (type != null && type.isCompatibleWith(MediaType.APPLICATION_FORM_URLENCODED)) {
            throw ApiException.unsupportedMediaType("form-urlencoded bodies cannot carry files;"
                    + " use multipart/form-data with parts named 'file'");
        }
        if (name.isEmpty()) {
            throw ApiException.badRequest("File without a name", "?filename= names no file");
        }
        String length = request.header("Content-Length");
        if (length != null && Long.parseLong(length.strip()) > maxBytes) {
            throw ApiException.tooLarge("the body of " + length.strip() + " bytes exceeds the upload limit of " + maxBytes
                    + " bytes");
        }
        return name;
    }

    /** A raw body: one file, written as it comes. */
    private final class RawSink implements UploadSink {
        private final UploadSpool spool;
        private final UploadSpool.Writer file;
        private final String name;

        RawSink(String name, UploadSpool spool) {
            this.spool = spool;
            this.file = spool.create(name);
            this.name = name;
        }

        @Override
        public long heldAtLeast(long declared) {
            return memory.heldAtLeast(name, declared);
        }

        @Override
        public long heldBytes(List<SourceFile> files) {
            return memory.held(files);
        }

        @Override
        public int bufferBytes() {
            return 0; // each piece is written from the network buffer it came in
        }

        @Override
        public void write(ByteBuf piece) {
            if (file.size() + piece.readableBytes() > maxBytes) {
                throw ApiException.tooLarge("the body exceeds the upload limit of " + maxBytes + " bytes");
            }
            for (ByteBuffer b : piece.nioBuffers()) {
                file.write(b);
            }
            piece.skipBytes(piece.readableBytes());
        }

        @Override
        public List<SourceFile> finish() {
            if (file.size() == 0) {
                throw ApiException.badRequest("Empty body", "the request body is empty");
            }
            return List.of(file.finish());
        }

        @Override
        public void close() {
            spool.close();
        }
    }

    /** A multipart body: the parts named {@code file} written as they come, other parts skipped. */
    private final class MultipartSink implements UploadSink, MultipartBody.Parts {
        private final UploadSpool spool;
        private final MultipartBody body;
        private final List<UploadSpool.Writer> files = new ArrayList<>();
        private final Set<String> seen = new HashSet<>();
        private final Set<String> others = new java.util.TreeSet<>();
        private UploadSpool.Writer current;
        private long total;
        private ByteBuffer wrapper;

        MultipartSink(String boundary, UploadSpool spool) {
            this.spool = spool;
            this.body = new MultipartBody(boundary, MAX_PARTS, this);
        }

        @Override
        public int bufferBytes() {
            return MultipartBody.BUFFER_BYTES;
        }

        @Override
        public long heldAtLeast(long declared) {
            return memory.heldAtLeast(null, declared);
        }

        @Override
        public long heldBytes(List<SourceFile> files) {
            return memory.held(files);
        }

        @Override
        public void write(ByteBuf piece) {
            body.feed(piece);
        }

        @Override
        public void begin(String name, String filename) {
            if (!name.equals("file")) {
                others.add(name);
                current = null; // a plain field's content is skipped
                return;
            }
            String base = baseName(filename);
            if (base.isEmpty()) {
                throw ApiException.badRequest("File without a name",
                        "a part named 'file' has no filename; the file name's extension tells posekit the format");
            }
            if (!seen.add(base)) {
                throw ApiException.badRequest("Duplicate file name", "two uploaded files are named '" + base + "'");
            }
            current = spool.create(base);
            files.add(current);
        }

        @Override
        public void content(byte[] bytes, int offset, int length) {
            total += length;
            if (total > maxBytes) {
                throw current != null
                        ? ApiException.tooLarge("the uploaded files exceed the upload limit of " + maxBytes + " bytes")
                        : ApiException.tooLarge("the multipart body's fields exceed the upload limit of " + maxBytes
                                + " bytes");
            }
            if (current != null) {
                current.write(ByteBuffer.wrap(bytes, offset, length));
            }
        }

        @Override
        public void end() {
            current = null;
        }

        @Override
        public List<SourceFile> finish() {
            body.finish();
            if (files.isEmpty()) {
                throw ApiException.badRequest("No file", "the multipart body has no part named 'file'"
                        + (others.isEmpty() ? "" : " (it has " + String.join(", ", others) + ")"));
            }
            return files.stream().map(UploadSpool.Writer::finish).toList();
        }

        @Override
        public void close() {
            spool.close();
        }
    }

    /** The last segment of a client-supplied file name, whatever its path separators. */
    static String baseName(String original) {
        if (original == null) {
            return "";
        }
        String name = original.replace('\\', '/');
        name = name.substring(name.lastIndexOf('/') + 1).strip();
        if (name.equals(".") || name.equals("..") || name.indexOf('\0') >= 0) {
            return "";
        }
        return name;
    }
}
