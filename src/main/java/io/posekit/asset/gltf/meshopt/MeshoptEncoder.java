package io.posekit.asset.gltf.meshopt;

import java.util.Arrays;

/**
 * Encodes buffer views for {@code EXT_meshopt_compression}, written from the extension specification's Appendix A:
 * the attribute codec in bitstream version 0 (the only one {@code EXT_meshopt_compression} allows), the triangle codec
 * (mode 1) and the index-sequence codec (mode 2). Lossless: {@link MeshoptDecoder} gives back attributes and index
 * sequences bit for bit, and triangle lists as the same triangles in the same order with the same winding, each
 * possibly starting at another of its corners (as the reference encoder does: the codec reuses an edge of a recent
 * triangle in its stored direction). No filters (they are lossy); the data is expected to be quantized already.
 *
 * <p>Attributes: each block's byte positions are delta-coded against the previous element (the first block against
 * the baseline, element 0, stored in the tail), zigzag-coded, and each group of 16 deltas is stored in whichever of
 * the four group encodings (zero, 2-bit, 4-bit with escapes, raw bytes) is smallest. Triangles: each triangle is
 * rotated to reuse an edge of the 16 most recent ones when it can, its third vertex then coded as the next new index,
 * one of the 16 most recent vertices, or an explicit delta; a triangle sharing no recent edge is coded with the
 * lookup table (the reference encoder's table) or explicitly. Index sequences: zigzag varint deltas, switching
 * between the two baselines when a delta is large.
 *
 * <p>Stateless and thread-safe. The output arrays are sized to the worst case and trimmed.
 */
public final class MeshoptEncoder {

    /** The attribute stream header: version 0. */
    static final int ATTRIBUTE_HEADER = 0xA0;
    private static final int TRIANGLE_HEADER = 0xE1;
    private static final int SEQUENCE_HEADER = 0xD1;
    /** The tail of a version-0 attribute stream is padded to at least this many bytes. */
    private static final int TAIL_MIN = 32;
    /**
     * The 16-entry {@code codeaux} table (last two entries zero, no nibble 0xf): the common (b, c) FIFO codes of
     * triangles sharing no recent edge, from the frequencies the meshopt reference encoder measured.
     */
    private static final byte[] CODEAUX = {0x00, 0x76, (byte) 0x87, 0x56, 0x67, 0x78, (byte) 0xA9, (byte) 0x86, 0x65,
        (byte) 0x89, 0x68, (byte) 0x98, 0x01, 0x69, 0, 0};

    private MeshoptEncoder() {
    }

    // ---------------------------------------------------------------- mode 0: attributes

    /**
     * Encodes {@code count} elements of {@code stride} bytes (a multiple of 4 from 4 to 256) from
     * {@code data[0, count × stride)} as a version-0 attribute stream.
     *
     * @throws IllegalArgumentException for a stride the codec does not take or data shorter than
     *     {@code count × stride}
     */
    public static byte[] encodeAttributes(byte[] data, int count, int stride) {
        if (stride < 4 || stride > 256 || stride % 4 != 0) {
            throw new IllegalArgumentException("byteStride " + stride + " must be a multiple of 4 from 4 to 256");
        }
        if (count < 0 || (long) count * stride > data.length) {
            throw new IllegalArgumentException(count + " elements of " + stride + " bytes exceed the "
                    + data.length + "-byte data");
        }
        int maxBlock = Math.min((8192 / stride) & ~15, 256);
        // worst case per block and byte position: header bits + 16 raw bytes per group
        long worst = 1L + TAIL_MIN + stride;
        for (int first = 0; first < count; first += maxBlock) {
            int groups = (Math.min(count - first, maxBlock) + 15) >> 4;
            worst += (long) stride * (((groups + 3) >> 2) + 16L * groups);
        }
        if (worst > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("the attribute stream would exceed 2 GiB");
        }
        byte[] out = new byte[(int) worst];
        int at = 0;
        out[at++] = (byte) ATTRIBUTE_HEADER;
        byte[] last = new byte[stride];
        if (count > 0) {
            System.arraycopy(data, 0, last, 0, stride);
        }
        byte[] baseline = last.clone();
        int[] deltas = new int[maxBlock];
        for (int first = 0; first < count; first += maxBlock) {
            int n = Math.min(count - first, maxBlock);
            int groups = (n + 15) >> 4;
            for (int k = 0; k < stride; k++) {
                int prev = last[k] & 0xFF;
                for (int i = 0; i < n; i++) {
                    int v = data[(first + i) * stride + k] & 0xFF;
                    deltas[i] = zigzag8(v - prev);
                    prev = v;
                }
                // deltas past the block's end (the last group's unused slots) are zero: the cheapest to store
                Arrays.fill(deltas, n, groups << 4, 0);
                last[k] = (byte) prev;
                at = encodeBytes(deltas, groups, out, at);
            }
        }
        // zero padding, then the baseline element, so the tail takes at least 32 bytes
        at += Math.max(0, TAIL_MIN - stride);
        System.arraycopy(baseline, 0, out, at, stride);
        at += stride;
        return Arrays.copyOf(out, at);
    }

    /** One data block: the 2-bit group headers, then each group in its smallest encoding. */
    private static int encodeBytes(int[] deltas, int groups, byte[] out, int at) {
        int header = at;
        int headerBytes = (groups + 3) >> 2;
        Arrays.fill(out, header, header + headerBytes, (byte) 0);
        at += headerBytes;
        for (int g = 0; g < groups; g++) {
            int base = g << 4;
            int mode = cheapestMode(deltas, base);
            out[header + (g >> 2)] |= (byte) (mode << ((g & 3) << 1));
            at = encodeGroup(deltas, base, mode, out, at);
        }
        return at;
    }

    /** The group encoding (0: all zero, 1: 2-bit, 2: 4-bit, 3: raw) taking the fewest bytes for 16 deltas. */
    private static int cheapestMode(int[] deltas, int base) {
        int escapes2 = 0;
        int escapes4 = 0;
        boolean zero = true;
        for (int i = 0; i < 16; i++) {
            int d = deltas[base + i];
            zero &= d == 0;
            escapes2 += d >= 3 ? 1 : 0;
            escapes4 += d >= 15 ? 1 : 0;
        }
        if (zero) {
            return 0;
        }
        int size2 = 4 + escapes2;
        int size4 = 8 + escapes4;
        if (size2 <= size4 && size2 <= 16) {
            return 1;
        }
        return size4 <= 16 ? 2 : 3;
    }

    private static int encodeGroup(int[] deltas, int base, int mode, byte[] out, int at) {
        switch (mode) {
            case 0 -> {
                return at;
            }
            case 3 -> {
                for (int i = 0; i < 16; i++) {
                    out[at++] = (byte) deltas[base + i];
                }
                return at;
            }
            default -> {
                int bits = mode == 1 ? 2 : 4;
                int sentinel = (1 << bits) - 1;
                int packed = at;
                int packedBytes = bits * 2;
                Arrays.fill(out, packed, packed + packedBytes, (byte) 0);
                at += packedBytes;
                for (int i = 0; i < 16; i++) {
                    int d = deltas[base + i];
                    int code = Math.min(d, sentinel);
                    if (bits == 2) {
                        out[packed + (i >> 2)] |= (byte) (code << (6 - ((i & 3) << 1)));
                    } else {
                        out[packed + (i >> 1)] |= (byte) (code << (4 - ((i & 1) << 2)));
                    }
                    if (d >= sentinel) {
                        out[at++] = (byte) d;
                    }
                }
                return at;
            }
        }
    }

    /** Zigzag code of a byte difference taken modulo 256: 0, -1, 1, -2, … → 0, 1, 2, 3, …. */
    private static int zigzag8(int difference) {
        int d = (byte) difference;
        return ((d << 1) ^ (d >> 31)) & 0xFF;
    }

    // ---------------------------------------------------------------- mode 1: triangles

    /**
     * Encodes a triangle list ({@code indices.length} a multiple of 3, each index ≥ 0) as a mode-1 stream.
     *
     * @throws IllegalArgumentException when the length is not a multiple of 3 or an index is negative
     */
    public static byte[] encodeTriangles(int[] indices) {
        if (indices.length % 3 != 0) {
            throw new IllegalArgumentException(indices.length + " indices are not whole triangles");
        }
        for (int i : indices) {
            if (i < 0) {
                throw new IllegalArgumentException("index " + i + " is negative");
            }
        }
        int triangles = indices.length / 3;
        // header, one code per triangle, at most 16 data bytes per triangle (1 + 3 × 5), the 16-byte table
        long worst = 1L + triangles + 16L * triangles + CODEAUX.length;
        if (worst > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("the triangle stream would exceed 2 GiB");
        }
        byte[] codes = new byte[triangles];
        byte[] data = new byte[(int) (16L * triangles)];
        int dataAt = 0;
        int[] edgeA = new int[16];
        int[] edgeB = new int[16];
        int edges = 0;
        int[] vertices = new int[16];
        Arrays.fill(vertices, -1);
        int verticesPushed = 0;
        int next = 0;
        int[] last = {0};
        for (int t = 0; t < triangles; t++) {
            int i0 = indices[3 * t];
            int i1 = indices[3 * t + 1];
            int i2 = indices[3 * t + 2];
            int fe = -1;
            int a = 0;
            int b = 0;
            int c = 0;
            // an edge of the 16 most recent one matching the triangle in one of its three rotations (winding kept)
            for (int e = 0; e < Math.min(edges, 15) && fe < 0; e++) {
                int slot = (edges - 1 - e) & 15;
                int ea = edgeA[slot];
                int eb = edgeB[slot];
                if (ea == i0 && eb == i1) {
                    a = i0; b = i1; c = i2; fe = e;
                } else if (ea == i1 && eb == i2) {
                    a = i1; b = i2; c = i0; fe = e;
                } else if (ea == i2 && eb == i0) {
                    a = i2; b = i0; c = i1; fe = e;
                }
            }
            if (fe >= 0) {
                int fc = find(vertices, verticesPushed, c);
                int lo;
                if (fc >= 1 && fc < 13) {
                    lo = fc;
                } else if (c == next) {
                    lo = 0;
                    next++;
                } else if (c + 1 == last[0]) {
                    lo = 13;
                    last[0] = c;
                } else if (c == last[0] + 1) {
                    lo = 14;
                    last[0] = c;
                } else {
                    lo = 15;
                    dataAt = putIndex(data, dataAt, c, last);
                }
                codes[t] = (byte) ((fe << 4) | lo);
                if (lo == 0 || lo >= 13) {
                    vertices[verticesPushed++ & 15] = c;
                }
                edgeA[edges & 15] = c;
                edgeB[edges & 15] = b;
                edges++;
                edgeA[edges & 15] = a;
                edgeB[edges & 15] = c;
                edges++;
            } else {
                // rotate so that a is the next new index when one of the three is
                if (i1 == next) {
                    a = i1; b = i2; c = i0;
                } else if (i2 == next) {
                    a = i2; b = i0; c = i1;
                } else {
                    a = i0; b = i1; c = i2;
                }
                boolean reset = false;
                if (a == 0 && b == 1 && c == 2 && next > 0) {
                    // restart the sequence of new indices (concatenated meshes); forget the FIFO's vertices
                    reset = true;
                    next = 0;
                    Arrays.fill(vertices, -1);
                }
                int fb = find(vertices, verticesPushed, b);
                int fc = find(vertices, verticesPushed, c);
                // each corner: 1–14 = that FIFO slot, 0 = the next new index (which advances it), 15 = written out
                int fea = a == next ? 0 : 15;
                next += fea == 0 ? 1 : 0;
                int feb = fb >= 0 && fb < 14 ? fb + 1 : b == next ? 0 : 15;
                next += feb == 0 ? 1 : 0;
                int fec = fc >= 0 && fc < 14 ? fc + 1 : c == next ? 0 : 15;
                next += fec == 0 ? 1 : 0;
                int zw = (feb << 4) | fec;
                int table = -1;
                for (int k = 0; k < 14; k++) {
                    if ((CODEAUX[k] & 0xFF) == zw) {
                        table = k;
                        break;
                    }
                }
                if (fea == 0 && table >= 0 && !reset) {
                    codes[t] = (byte) (0xF0 | table);
                } else {
                    codes[t] = (byte) (0xF0 | 14 | (fea == 15 ? 1 : 0));
                    data[dataAt++] = (byte) zw;
                }
                if (fea == 15) {
                    dataAt = putIndex(data, dataAt, a, last);
                }
                if (feb == 15) {
                    dataAt = putIndex(data, dataAt, b, last);
                }
                if (fec == 15) {
                    dataAt = putIndex(data, dataAt, c, last);
                }
                vertices[verticesPushed++ & 15] = a;
                if (feb == 0 || feb == 15) {
                    vertices[verticesPushed++ & 15] = b;
                }
                if (fec == 0 || fec == 15) {
                    vertices[verticesPushed++ & 15] = c;
                }
                edgeA[edges & 15] = b;
                edgeB[edges & 15] = a;
                edges++;
                edgeA[edges & 15] = c;
                edgeB[edges & 15] = b;
                edges++;
                edgeA[edges & 15] = a;
                edgeB[edges & 15] = c;
                edges++;
            }
        }
        byte[] out = new byte[1 + triangles + dataAt + CODEAUX.length];
        out[0] = (byte) TRIANGLE_HEADER;
        System.arraycopy(codes, 0, out, 1, triangles);
        System.arraycopy(data, 0, out, 1 + triangles, dataAt);
        System.arraycopy(CODEAUX, 0, out, 1 + triangles + dataAt, CODEAUX.length);
        return out;
    }

    /**
     * The FIFO position of {@code v} (0: the most recently pushed) among the last 16 pushed vertices, or -1. Entries
     * not pushed yet, or forgotten at a reset (-1), never match an index.
     */
    private static int find(int[] fifo, int pushed, int v) {
        for (int i = 0; i < Math.min(pushed, 16); i++) {
            if (fifo[(pushed - 1 - i) & 15] == v) {
                return i;
            }
        }
        return -1;
    }

    /** An explicit index as the zigzag varint of its delta from {@code last[0]}, which then becomes it. */
    private static int putIndex(byte[] data, int at, int index, int[] last) {
        int d = index - last[0];
        last[0] = index;
        return putVarint(data, at, (d << 1) ^ (d >> 31));
    }

    private static int putVarint(byte[] data, int at, int v) {
        while ((v & ~0x7F) != 0) {
            data[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        data[at++] = (byte) v;
        return at;
    }

    // ---------------------------------------------------------------- mode 2: index sequences

    /**
     * Encodes any sequence of indices (each from 0 to 2<sup>30</sup> − 1, so every delta fits the codec's 31 bits)
     * as a mode-2 stream.
     *
     * @throws IllegalArgumentException when an index is out of that range
     */
    public static byte[] encodeIndices(int[] indices) {
        long worst = 1L + 5L * indices.length + 4;
        if (worst > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("the index stream would exceed 2 GiB");
        }
        byte[] out = new byte[(int) worst];
        int at = 0;
        out[at++] = (byte) SEQUENCE_HEADER;
        int[] baselines = new int[2];
        int current = 0;
        for (int index : indices) {
            if (index < 0 || index >= 1 << 30) {
                throw new IllegalArgumentException("index " + index + " is outside 0 to 2^30 - 1");
            }
            // switch baselines when the delta from the current one would not fit in one byte with its two flag bits
            if (Math.abs((long) index - baselines[current]) >= 30) {
                current ^= 1;
            }
            int d = index - baselines[current];
            int v = (d << 1) ^ (d >> 31);
            at = putVarint(out, at, (v << 1) | current);
            baselines[current] = index;
        }
        at += 4; // the reserved tail, zero
        return Arrays.copyOf(out, at);
    }
}
