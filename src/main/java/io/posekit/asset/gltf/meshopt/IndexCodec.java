package io.posekit.asset.gltf.meshopt;

import io.posekit.asset.DecodeBudget;

/**
 * The index codecs of the meshopt bitstream, written from the specification's Appendix A: mode 1 (triangle lists
 * against an edge FIFO and a vertex FIFO of 16 entries each) and mode 2 (LEB128 zigzag deltas against two baselines).
 * Indices are written little-endian as 16-bit (wrapping) or 32-bit values. A FIFO entry read before it was written,
 * a read past the stream, or bytes left over are {@link io.posekit.asset.ImportException}s (invalid).
 */
final class IndexCodec {

    private static final int TRIANGLE_HEADER = 0xE1;
    private static final int SEQUENCE_HEADER = 0xD1;
    private static final int CODEAUX_SIZE = 16;
    private static final int SEQUENCE_TAIL = 4;

    private IndexCodec() {
    }

    /**
     * Decodes {@code count} (a multiple of 3) triangle-list indices of {@code stride} (2 or 4) bytes into {@code out}.
     */
    static void decodeTriangles(byte[] src, int start, int length, int count, int stride, byte[] out, String where,
            DecodeBudget budget) {
        int triangles = count / 3;
        if (length < 1 + triangles + CODEAUX_SIZE) {
            throw Bitstream.malformed(where, length + " bytes cannot hold the header, " + triangles
                    + " triangle codes and the 16-byte table");
        }
        if ((src[start] & 0xFF) != TRIANGLE_HEADER) {
            throw Bitstream.malformed(where, String.format("triangle header byte 0x%02x is not 0xe1", src[start] & 0xFF));
        }
        int codeaux = start + length - CODEAUX_SIZE;
        Bitstream codes = new Bitstream(src, start + 1, start + 1 + triangles, where, budget);
        Bitstream data = new Bitstream(src, start + 1 + triangles, codeaux, where, budget);
        Fifo edgesA = new Fifo(where, "edge");
        Fifo edgesB = new Fifo(where, "edge");
        Fifo vertices = new Fifo(where, "vertex");
        int next = 0;
        int[] last = {0};
        IndexWriter writer = new IndexWriter(out, stride);
        for (int t = 0; t < triangles; t++) {
            codes.checkTime();
            int code = codes.u8("a triangle code");
            int hi = code >> 4;
            int lo = code & 15;
            int a;
            int b;
            int c;
            if (hi < 15) {
                a = edgesA.get(hi);
                b = edgesB.get(hi);
                if (lo == 0) {
                    c = next++;
                    vertices.push(c);
                } else if (lo < 13) {
                    c = vertices.get(lo);
                } else if (lo < 15) {
                    c = last[0] + (lo == 13 ? -1 : 1);
                    last[0] = c;
                    vertices.push(c);
                } else {
                    c = decodeIndex(data, last);
                    vertices.push(c);
                }
                edgesA.push(c);
                edgesB.push(b);
                edgesA.push(a);
                edgesB.push(c);
            } else {
                int zw;
                if (lo < 14) {
                    zw = src[codeaux + lo] & 0xFF;
                } else {
                    zw = data.u8("an explicit triangle's byte");
                    if (zw == 0) {
                        next = 0;
                    }
                }
                int z = zw >> 4;
                int w = zw & 15;
                if (lo == 15) {
                    a = decodeIndex(data, last);
                } else {
                    a = next++;
                }
                if (z == 0) {
                    b = next++;
                } else if (z < 15 || lo < 14) {
                    b = vertices.get(z - 1);
                } else {
                    b = decodeIndex(data, last);
                }
                if (w == 0) {
                    c = next++;
                } else if (w < 15 || lo < 14) {
                    c = vertices.get(w - 1);
                } else {
                    c = decodeIndex(data, last);
                }
                edgesA.push(b);
                edgesB.push(a);
                edgesA.push(c);
                edgesB.push(b);
                edgesA.push(a);
                edgesB.push(c);
                vertices.push(a);
                if (z == 0 || (z == 15 && lo >= 14)) {
                    vertices.push(b);
                }
                if (w == 0 || (w == 15 && lo >= 14)) {
                    vertices.push(c);
                }
            }
            writer.put(a);
            writer.put(b);
            writer.put(c);
        }
        if (data.remaining() != 0) {
            throw data.malformed(data.remaining() + " bytes of triangle data remain unread before the table");
        }
    }

    /** Decodes {@code count} indices of {@code stride} (2 or 4) bytes of an index sequence into {@code out}. */
    static void decodeSequence(byte[] src, int start, int length, int count, int stride, byte[] out, String where,
            DecodeBudget budget) {
        if (length < 1 + SEQUENCE_TAIL) {
            throw Bitstream.malformed(where, length + " bytes cannot hold the header and the 4-byte tail");
        }
        if ((src[start] & 0xFF) != SEQUENCE_HEADER) {
            throw Bitstream.malformed(where, String.format("index sequence header byte 0x%02x is not 0xd1",
                    src[start] & 0xFF));
        }
        Bitstream in = new Bitstream(src, start + 1, start + length - SEQUENCE_TAIL, where, budget);
        int[] baselines = new int[2];
        IndexWriter writer = new IndexWriter(out, stride);
        for (int i = 0; i < count; i++) {
            in.checkTime();
            int v = in.varint("an index delta");
            int baseline = v & 1;
            int delta = (v >>> 2) ^ -((v >>> 1) & 1);
            baselines[baseline] += delta;
            writer.put(baselines[baseline]);
        }
        if (in.remaining() != 0) {
            throw in.malformed(in.remaining() + " bytes remain unread before the tail");
        }
    }

    /** A zigzag delta from {@code last[0]} read as a varint from {@code data}; updates {@code last[0]}. */
    private static int decodeIndex(Bitstream data, int[] last) {
        int v = data.varint("an explicit index");
        last[0] += (v >>> 1) ^ -(v & 1);
        return last[0];
    }

    /** A 16-entry FIFO of 32-bit values; index 0 is the most recently pushed. */
    private static final class Fifo {
        private final int[] entries = new int[16];
        private final String where;
        private final String what;
        private int pushed;

        Fifo(String where, String what) {
            this.where = where;
            this.what = what;
        }

        void push(int v) {
            entries[pushed & 15] = v;
            pushed++;
        }

        int get(int index) {
            if (index >= pushed) {
                throw Bitstream.malformed(where, "the " + what + " FIFO is read at entry " + index + " before "
                        + (index + 1) + " entries were written");
            }
            return entries[(pushed - 1 - index) & 15];
        }
    }

    /** Little-endian 16-bit (wrapping) or 32-bit indices, written in order. */
    private static final class IndexWriter {
        private final byte[] out;
        private final int stride;
        private int at;

        IndexWriter(byte[] out, int stride) {
            this.out = out;
            this.stride = stride;
        }

        void put(int index) {
            out[at] = (byte) index;
            out[at + 1] = (byte) (index >>> 8);
            if (stride == 4) {
                out[at + 2] = (byte) (index >>> 16);
                out[at + 3] = (byte) (index >>> 24);
            }
            at += stride;
        }
    }
}
