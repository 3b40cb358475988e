package io.posekit.asset.gltf.meshopt;

import java.io.ByteArrayOutputStream;

/**
 * Test fixture: meshopt streams built in code, by the simplest encodings the bitstream allows: attributes as
 * version-1 literal blocks (every byte position control 3, zigzag byte deltas from a zero baseline) and indices as an
 * index sequence (mode 2, every delta against baseline 0). Enough to put any data into a compressed buffer view.
 */
public final class MeshoptFixtures {

    private MeshoptFixtures() {
    }

    /** {@code count} elements of {@code stride} bytes (a multiple of 4) as a version-1 attribute stream. */
    public static byte[] attributes(byte[] data, int count, int stride) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0xA1);
        int maxBlock = Math.min((8192 / stride) & ~15, 256);
        byte[] last = new byte[stride];
        for (int first = 0; first < count; first += maxBlock) {
            int n = Math.min(count - first, maxBlock);
            for (int c = 0; c < stride / 4; c++) {
                out.write(0xFF);
            }
            byte[] blockLast = last.clone();
            for (int k = 0; k < stride; k++) {
                int prev = blockLast[k] & 0xFF;
                for (int i = 0; i < n; i++) {
                    int v = data[(first + i) * stride + k] & 0xFF;
                    int delta = (byte) (v - prev);
                    out.write(((delta << 1) ^ (delta >> 31)) & 0xFF);
                    prev = v;
                }
                last[k] = data[(first + n - 1) * stride + k];
            }
        }
        int tail = stride + stride / 4;
        for (int i = tail; i < 24; i++) {
            out.write(0);
        }
        out.writeBytes(new byte[tail]);
        return out.toByteArray();
    }

    /** {@code indices} as an index sequence (mode 2). */
    public static byte[] indexSequence(int... indices) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0xD1);
        int last = 0;
        for (int index : indices) {
            int delta = index - last;
            last = index;
            int v = ((delta << 1) ^ (delta >> 31)) << 1;
            while ((v & ~0x7F) != 0) {
                out.write((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            out.write(v);
        }
        out.writeBytes(new byte[4]);
        return out.toByteArray();
    }
}
