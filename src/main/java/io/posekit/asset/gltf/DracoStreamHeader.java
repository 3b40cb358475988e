package io.posekit.asset.gltf;

import io.posekit.asset.ImportException;

/**
 * The header of a Draco mesh bitstream and the counts its connectivity declares, read by posekit before the library
 * decodes anything (Draco bitstream specification: header, metadata, sequential and edgebreaker connectivity).
 *
 * <p>Why read it ourselves: the decoder ({@link DracoDecoder}) sizes its arrays by these counts and by the metadata's
 * lengths without comparing them to the data there is (a metadata name of 2³¹ bytes is one allocation), so the
 * counts are checked against the glTF's own declarations, and the metadata's every length against the bytes left,
 * before the library sees the stream. Versions 2.0 to 2.2 of meshes are read (what every Draco encoder since 2017
 * writes); point clouds are not.
 *
 * @param major the bitstream's major version (2)
 * @param minor its minor version (0 to 2)
 * @param method 0 sequential, 1 edgebreaker
 * @param faces the triangles the connectivity declares
 * @param vertices sequential: the points it declares; edgebreaker: the encoded vertices plus split symbols, an
 *     upper bound of the connectivity's vertices before attribute seams split them
 */
record DracoStreamHeader(int major, int minor, int method, long faces, long vertices) {

    /** Encoder methods. */
    static final int SEQUENTIAL = 0;
    static final int EDGEBREAKER = 1;

    private static final int TRIANGULAR_MESH = 1;
    private static final int METADATA_FLAG = 0x8000;

    /** Draco's limit of sub-metadata nesting (its decoder refuses deeper). */
    private static final int MAX_METADATA_DEPTH = 1000;

    /** The method's name, for messages. */
    String methodName() {
        return method == SEQUENTIAL ? "sequential" : "edgebreaker";
    }

    /**
     * Reads the header of the {@code length} bytes at {@code offset}.
     *
     * @param where the element the stream belongs to, for messages
     * @throws ImportException (invalid) when the bytes are not a Draco mesh of version 2.0–2.2, a length or count
     *     runs past the bytes, or a count is out of Draco's own range
     */
    static DracoStreamHeader read(byte[] data, int offset, int length, String where) {
        Reader in = new Reader(data, offset, length, where);
        if (length < 11 || data[offset] != 'D' || data[offset + 1] != 'R' || data[offset + 2] != 'A'
                || data[offset + 3] != 'C' || data[offset + 4] != 'O') {
            throw ImportException.invalid(where + ": the Draco data does not start with the DRACO magic");
        }
        in.skip(5);
        int major = in.u8();
        int minor = in.u8();
        if (major != 2 || minor > 2) {
            throw ImportException.invalid(where + ": Draco bitstream version " + major + "." + minor
                    + " is not read (2.0 to 2.2 are)");
        }
        int version = major * 10 + minor;
        int type = in.u8();
        if (type != TRIANGULAR_MESH) {
            throw ImportException.invalid(where + ": the Draco data is " + (type == 0 ? "a point cloud" : "of geometry "
                    + "type " + type) + ", not a triangular mesh");
        }
        int method = in.u8();
        if (method != SEQUENTIAL && method != EDGEBREAKER) {
            throw ImportException.invalid(where + ": Draco encoding method " + method
                    + " is neither sequential (0) nor edgebreaker (1)");
        }
        int flags = in.u16();
        if ((flags & METADATA_FLAG) != 0) {
            skipMetadata(in);
        }
        long faces;
        long vertices;
        if (method == SEQUENTIAL) {
            faces = version < 22 ? in.u32() : in.varint();
            vertices = version < 22 ? in.u32() : in.varint();
        } else {
            in.u8(); // the traversal: standard, predictive or valence
            if (version < 22) {
                long newVertices = version < 20 ? in.u32() : in.varint();
                if (newVertices > Integer.MAX_VALUE) {
                    throw ImportException.invalid(where + ": Draco declares " + newVertices + " new vertices");
                }
            }
            long encodedVertices = version < 20 ? in.u32() : in.varint();
            faces = version < 20 ? in.u32() : in.varint();
            in.u8(); // attribute data count
            long symbols = version < 20 ? in.u32() : in.varint();
            long splitSymbols = version < 20 ? in.u32() : in.varint();
            if (encodedVertices > 3 * faces || symbols > faces || splitSymbols > symbols) {
                throw ImportException.invalid(where + ": Draco edgebreaker counts are inconsistent (" + encodedVertices
                        + " vertices, " + faces + " faces, " + symbols + " symbols, " + splitSymbols + " split symbols)");
            }
            vertices = encodedVertices + splitSymbols;
        }
        // Draco's own bound (its corner indices are int32)
        if (faces > Integer.MAX_VALUE / 3 || vertices > Integer.MAX_VALUE / 3) {
            throw ImportException.invalid(where + ": Draco declares " + faces + " faces and " + vertices
                    + " vertices, more than Draco can index");
        }
        return new DracoStreamHeader(major, minor, method, faces, vertices);
    }

    /**
     * Steps over the metadata (per-attribute, then the geometry's), checking that every count and length fits in the
     * bytes left and that nesting stays within {@value #MAX_METADATA_DEPTH}.
     */
    private static void skipMetadata(Reader in) {
        long attributes = in.varint();
        in.fits(attributes, "Draco attribute metadata");
        for (long i = 0; i < attributes; i++) {
            in.varint(); // the attribute's unique id
            skipMetadataElement(in);
        }
        skipMetadataElement(in);
    }

    /** One metadata element and its sub-metadata, iteratively (the count of pending elements is checked as it grows). */
    private static void skipMetadataElement(Reader in) {
        // pending[d] = sub-metadata still to read at depth d + 1
        long[] pending = new long[MAX_METADATA_DEPTH + 2];
        int depth = 0;
        readElementBody(in, pending, depth);
        while (depth >= 0) {
            if (pending[depth] == 0) {
                depth--;
                continue;
            }
            pending[depth]--;
            if (depth + 1 > MAX_METADATA_DEPTH) {
                throw ImportException.invalid(in.where + ": Draco metadata nests deeper than " + MAX_METADATA_DEPTH);
            }
            in.bytes(in.varint(), "Draco metadata name");
            depth++;
            readElementBody(in, pending, depth);
        }
    }

    private static void readElementBody(Reader in, long[] pending, int depth) {
        long entries = in.varint();
        in.fits(entries, "Draco metadata entries");
        for (long e = 0; e < entries; e++) {
            in.bytes(in.varint(), "Draco metadata entry name");
            long size = in.varint();
            if (size == 0) {
                throw ImportException.invalid(in.where + ": a Draco metadata entry is empty");
            }
            in.bytes(size, "Draco metadata entry");
        }
        long subs = in.varint();
        in.fits(subs, "Draco sub-metadata");
        pending[depth] = subs;
    }

    /** Little-endian reads with bounds checks; every failure names the stream. */
    private static final class Reader {
        private final byte[] data;
        private final int end;
        private final String where;
        private int at;

        Reader(byte[] data, int offset, int length, String where) {
            this.data = data;
            this.at = offset;
            this.end = offset + length;
            this.where = where;
        }

        private void need(long n, String what) {
            if (n > end - at) {
                throw ImportException.invalid(where + ": the Draco data ends inside its " + what + " (" + n
                        + " bytes needed, " + (end - at) + " left)");
            }
        }

        void fits(long count, String what) {
            // every element takes at least one byte
            need(count, what);
        }

        void skip(int n) {
            need(n, "header");
            at += n;
        }

        void bytes(long n, String what) {
            need(n, what);
            at += (int) n;
        }

        int u8() {
            need(1, "header");
            return data[at++] & 0xFF;
        }

        int u16() {
            return u8() | u8() << 8;
        }

        long u32() {
            return (u16() | (long) u16() << 16) & 0xFFFFFFFFL;
        }

        /** An unsigned LEB128 value of at most 5 bytes (32 bits), as Draco writes its counts. */
        long varint() {
            long value = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                int b = u8();
                value |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    if (value > 0xFFFFFFFFL) {
                        break;
                    }
                    return value;
                }
            }
            throw ImportException.invalid(where + ": a Draco count is longer than 32 bits");
        }
    }
}
