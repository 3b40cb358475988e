package io.posekit.asset.gltf.meshopt;

import io.posekit.asset.DecodeBudget;
import java.util.Arrays;

/**
 * The attribute codec (mode 0, versions 0 and 1) of the meshopt bitstream, written from the specification's
 * Appendix A ({@code KHR_meshopt_compression}, whose version 0 is {@code EXT_meshopt_compression}'s format).
 *
 * <p>Layout: header byte {@code 0xa0}/{@code 0xa1}; attribute blocks of up to {@code min((8192 / stride) & ~15, 256)}
 * elements, each holding (version 1) a 2-bit control per byte position and then one data block per byte position of
 * per-group (16 elements) header bits and sentinel-coded deltas; zero padding; and the tail: the baseline element and
 * (version 1) one channel mode per 4 bytes. The blocks must end exactly where the padded tail begins.
 */
final class VertexCodec {

    /** Delta bit widths by group header value: version 0, version 1 control 0, version 1 control 1. */
    private static final int[] BITS_V0 = {0, 2, 4, 8};
    private static final int[] BITS_V1_CONTROL0 = {0, 1, 2, 4};
    private static final int[] BITS_V1_CONTROL1 = {1, 2, 4, 8};

    private VertexCodec() {
    }

    /**
     * Decodes {@code count} elements of {@code stride} bytes (a multiple of 4, 4 to 256) from {@code src[start,
     * start + length)} into {@code out} (at least {@code count × stride} bytes).
     *
     * @throws io.posekit.asset.ImportException (invalid) when the stream is malformed, naming {@code where}
     */
    static void decode(byte[] src, int start, int length, int count, int stride, byte[] out, String where,
            DecodeBudget budget) {
        if (length < 1) {
            throw Bitstream.malformed(where, "the stream is empty");
        }
        int header = src[start] & 0xFF;
        if ((header & 0xF0) != 0xA0 || (header & 0x0F) > 1) {
            throw Bitstream.malformed(where, String.format("attribute header byte 0x%02x is not 0xa0 or 0xa1", header));
        }
        int version = header & 0x0F;
        int channels = stride / 4;
        int tailSize = stride + (version == 1 ? channels : 0);
        int tailPadded = Math.max(tailSize, version == 1 ? 24 : 32);
        if (length < 1 + tailPadded) {
            throw Bitstream.malformed(where, length + " bytes cannot hold the header and the " + tailPadded
                    + "-byte tail of " + stride + "-byte elements");
        }
        int end = start + length;
        int tail = end - tailSize;
        int[] last = new int[stride];
        for (int k = 0; k < stride; k++) {
            last[k] = src[tail + k] & 0xFF;
        }
        int[] channelModes = new int[channels];
        if (version == 1) {
            for (int c = 0; c < channels; c++) {
                int m = src[tail + stride + c] & 0xFF;
                int kind = m & 0x0F;
                if (kind > 2 || (kind < 2 && m >> 4 != 0)) {
                    throw Bitstream.malformed(where, String.format("channel %d has invalid mode 0x%02x", c, m));
                }
                channelModes[c] = m;
            }
        }
        Bitstream in = new Bitstream(src, start + 1, end - tailPadded, where, budget);
        int maxBlock = Math.min((8192 / stride) & ~15, 256);
        int[] deltas = new int[maxBlock * stride];
        for (int first = 0; first < count; first += maxBlock) {
            int blockElements = Math.min(count - first, maxBlock);
            int groups = (blockElements + 15) >> 4;
            int aligned = groups << 4;
            int control = version == 1 ? in.skip(channels, "the control header") : -1;
            for (int k = 0; k < stride; k++) {
                int mode = version == 1 ? (in.at(control + (k >> 2)) >> ((k & 3) << 1)) & 3 : 0;
                decodeBytes(in, version, mode, blockElements, deltas, k * aligned);
            }
            reconstruct(deltas, aligned, blockElements, stride, channelModes, last, out, first * stride);
        }
        if (in.remaining() != 0) {
            throw in.malformed(in.remaining() + " bytes remain between the attribute blocks and the tail");
        }
    }

    /**
     * The deltas of one byte position of a block into {@code deltas[at…]}: {@code elements} of them, rounded up to
     * whole groups of 16 except in a literal block, which stores exactly {@code elements} bytes.
     */
    private static void decodeBytes(Bitstream in, int version, int control, int elements, int[] deltas, int at) {
        int groups = (elements + 15) >> 4;
        if (version == 1 && control == 2) {
            Arrays.fill(deltas, at, at + (groups << 4), 0);
            return;
        }
        if (version == 1 && control == 3) {
            int from = in.skip(elements, "a literal data block");
            for (int i = 0; i < elements; i++) {
                deltas[at + i] = in.at(from + i);
            }
            return;
        }
        int[] bitsByMode = version == 0 ? BITS_V0 : control == 0 ? BITS_V1_CONTROL0 : BITS_V1_CONTROL1;
        int header = in.skip((groups + 3) >> 2, "the group header bits");
        for (int g = 0; g < groups; g++) {
            in.checkTime();
            int mode = (in.at(header + (g >> 2)) >> ((g & 3) << 1)) & 3;
            decodeGroup(in, bitsByMode[mode], deltas, at + (g << 4));
        }
    }

    /** 16 deltas of {@code bits} bits (0: all zero; 8: raw bytes; 1, 2, 4: packed, the all-ones value escaping). */
    private static void decodeGroup(Bitstream in, int bits, int[] deltas, int at) {
        switch (bits) {
            case 0 -> Arrays.fill(deltas, at, at + 16, 0);
            case 8 -> {
                int from = in.skip(16, "a raw delta group");
                for (int i = 0; i < 16; i++) {
                    deltas[at + i] = in.at(from + i);
                }
            }
            default -> {
                int packed = in.skip(bits * 2, "a packed delta group");
                int sentinel = (1 << bits) - 1;
                for (int i = 0; i < 16; i++) {
                    int v;
                    if (bits == 1) {
                        v = (in.at(packed + (i >> 3)) >> (i & 7)) & 1;
                    } else if (bits == 2) {
                        v = (in.at(packed + (i >> 2)) >> (6 - ((i & 3) << 1))) & 3;
                    } else {
                        v = (in.at(packed + (i >> 1)) >> (4 - ((i & 1) << 2))) & 15;
                    }
                    deltas[at + i] = v == sentinel ? in.u8("an escaped delta") : v;
                }
            }
        }
    }

    /** Applies a block's deltas channel by channel, element by element, to {@code last}, writing each element. */
    private static void reconstruct(int[] deltas, int aligned, int blockElements, int stride, int[] channelModes,
            int[] last, byte[] out, int outAt) {
        for (int c = 0; c < channelModes.length; c++) {
            int k0 = c << 2;
            int mode = channelModes[c] & 0x0F;
            for (int i = 0; i < blockElements; i++) {
                int o = outAt + i * stride + k0;
                switch (mode) {
                    case 0 -> {
                        for (int k = k0; k < k0 + 4; k++) {
                            int d = deltas[k * aligned + i];
                            last[k] = (last[k] + unzigzag(d)) & 0xFF;
                        }
                    }
                    case 1 -> {
                        for (int k = k0; k < k0 + 4; k += 2) {
                            int d = deltas[k * aligned + i] | deltas[(k + 1) * aligned + i] << 8;
                            int v = ((last[k] | last[k + 1] << 8) + unzigzag(d)) & 0xFFFF;
                            last[k] = v & 0xFF;
                            last[k + 1] = v >>> 8;
                        }
                    }
                    default -> {
                        int d = deltas[k0 * aligned + i] | deltas[(k0 + 1) * aligned + i] << 8
                                | deltas[(k0 + 2) * aligned + i] << 16 | deltas[(k0 + 3) * aligned + i] << 24;
                        int prev = last[k0] | last[k0 + 1] << 8 | last[k0 + 2] << 16 | last[k0 + 3] << 24;
                        int v = prev ^ Integer.rotateRight(d, channelModes[c] >>> 4);
                        for (int k = 0; k < 4; k++) {
                            last[k0 + k] = (v >>> (k << 3)) & 0xFF;
                        }
                    }
                }
                for (int k = 0; k < 4; k++) {
                    out[o + k] = (byte) last[k0 + k];
                }
            }
        }
    }

    /** Zigzag decoding of a non-negative value: even codes are {@code v/2}, odd ones {@code ~(v/2)}. */
    private static int unzigzag(int v) {
        return (v >>> 1) ^ -(v & 1);
    }
}
