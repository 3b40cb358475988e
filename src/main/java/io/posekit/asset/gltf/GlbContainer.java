package io.posekit.asset.gltf;

import io.posekit.asset.ImportException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The chunks of a binary glTF (GLB) file: where its JSON chunk lies in the file and a view of its optional
 * BIN chunk. Nothing is copied; the BIN view shares the file's bytes (an array, or a file mapped into memory, so a
 * large BIN chunk is read only where accessors point).
 *
 * <p>Layout (all integers little-endian uint32): a 12-byte header {@code magic "glTF", version 2, length},
 * then chunks of {@code length, type, data}. Chunk 0 must be JSON ({@code 0x4E4F534A}); chunk 1 may be BIN
 * ({@code 0x004E4942}); chunks of unknown type are skipped.
 *
 * @param jsonOffset offset of the JSON chunk's data within the file
 * @param jsonLength byte length of the JSON chunk's data
 * @param bin the BIN chunk's data (little-endian, position 0), or {@code null} when the file has none
 */
record GlbContainer(int jsonOffset, int jsonLength, ByteBuffer bin) {

    /** {@code "glTF"} read as a little-endian uint32. */
    static final int MAGIC = 0x46546C67;
    /** Chunk type of the JSON chunk ({@code "JSON"}). */
    static final int CHUNK_JSON = 0x4E4F534A;
    /** Chunk type of the binary buffer chunk ({@code "BIN\0"}). */
    static final int CHUNK_BIN = 0x004E4942;

    private static final int HEADER = 12;
    private static final int CHUNK_HEADER = 8;

    /** Whether {@code bytes} starts with the GLB magic. */
    static boolean hasMagic(byte[] bytes) {
        return bytes.length >= 4 && le32(bytes, 0) == MAGIC;
    }

    /**
     * Splits a GLB file into its chunks.
     *
     * @throws ImportException (invalid) when the file is shorter than 20 bytes, has the wrong magic or
     *     version, a header length different from the file length, a chunk running past the end, or a first
     *     chunk that is not JSON
     */
    static GlbContainer parse(byte[] file) {
        return parse(ByteBuffer.wrap(file));
    }

    /**
     * Splits a GLB file, held in {@code buffer} from position 0 to its capacity, into its chunks.
     *
     * @throws ImportException as {@link #parse(byte[])}
     */
    static GlbContainer parse(ByteBuffer buffer) {
        ByteBuffer file = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int size = file.capacity();
        if (size < HEADER + CHUNK_HEADER) {
            throw ImportException.invalid("GLB file is truncated: " + size
                    + " bytes, but a GLB needs at least 20 (a 12-byte header and an 8-byte chunk header)");
        }
        int magic = le32(file, 0);
        if (magic != MAGIC) {
            throw ImportException.invalid("not a GLB file: magic is " + hex(magic) + ", not 0x46546C67 ('glTF')");
        }
        long version = Integer.toUnsignedLong(le32(file, 4));
        if (version != 2) {
            throw ImportException.invalid("GLB version " + version + " is not supported; only version 2 (glTF 2.0) is");
        }
        long declared = Integer.toUnsignedLong(le32(file, 8));
        if (declared > size) {
            throw ImportException.invalid("GLB file is truncated: its header declares " + declared
                    + " bytes but the file has " + size);
        }
        if (declared != size) {
            throw ImportException.invalid("GLB header declares a length of " + declared + " bytes but the file has "
                    + size);
        }
        int offset = HEADER;
        int chunk = 0;
        int jsonOffset = -1;
        int jsonLength = 0;
        ByteBuffer bin = null;
        while (offset < size) {
            int remaining = size - offset;
            if (remaining < CHUNK_HEADER) {
                throw ImportException.invalid("GLB chunk " + chunk + " is truncated: its 8-byte header has only "
                        + remaining + " bytes");
            }
            long length = Integer.toUnsignedLong(le32(file, offset));
            int type = le32(file, offset + 4);
            long available = remaining - CHUNK_HEADER;
            if (length > available) {
                throw ImportException.invalid("GLB chunk " + chunk + " (" + typeName(type) + ") declares " + length
                        + " bytes but only " + available + " remain");
            }
            int dataOffset = offset + CHUNK_HEADER;
            int len = (int) length;
            if (chunk == 0) {
                if (type != CHUNK_JSON) {
                    throw ImportException.invalid("GLB chunk 0 must be JSON (0x4E4F534A) but is " + typeName(type));
                }
                jsonOffset = dataOffset;
                jsonLength = len;
            } else if (type == CHUNK_JSON) {
                throw ImportException.invalid("GLB chunk " + chunk + " is a second JSON chunk");
            } else if (type == CHUNK_BIN) {
                if (chunk != 1) {
                    throw ImportException.invalid("GLB chunk " + chunk + " is a BIN chunk; only chunk 1 may be BIN");
                }
                bin = file.slice(dataOffset, len).order(ByteOrder.LITTLE_ENDIAN);
            }
            // chunks of other types are skipped, as the specification requires
            offset = dataOffset + len;
            chunk++;
        }
        return new GlbContainer(jsonOffset, jsonLength, bin);
    }

    private static int le32(ByteBuffer b, int o) {
        return b.getInt(o);
    }

    private static int le32(byte[] b, int o) {
        return (b[o] & 0xFF) | (b[o + 1] & 0xFF) << 8 | (b[o + 2] & 0xFF) << 16 | (b[o + 3] & 0xFF) << 24;
    }

    private static String typeName(int type) {
        return switch (type) {
            case CHUNK_JSON -> "JSON";
            case CHUNK_BIN -> "BIN";
            default -> "type " + hex(type);
        };
    }

    private static String hex(int v) {
        return String.format("0x%08X", v);
    }
}
