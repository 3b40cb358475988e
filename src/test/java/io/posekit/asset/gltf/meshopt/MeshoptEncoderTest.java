package io.posekit.asset.gltf.meshopt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.asset.DecodeBudget;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link MeshoptEncoder}: every stream it writes decodes with {@link MeshoptDecoder} (written independently from the
 * specification, checked against the reference decoder) to the input bit for bit; known answers for small inputs;
 * and smooth data gets smaller.
 */
class MeshoptEncoderTest {

    private static byte[] decode(byte[] src, int count, int stride, MeshoptMode mode) {
        return MeshoptDecoder.decode(src, 0, src.length, count, stride, mode, MeshoptFilter.NONE,
                new DecodeBudget(1 << 26), "view");
    }

    private static byte[] le(int[] indices, int stride) {
        ByteBuffer b = ByteBuffer.allocate(indices.length * stride).order(ByteOrder.LITTLE_ENDIAN);
        for (int i : indices) {
            if (stride == 2) {
                b.putShort((short) i);
            } else {
                b.putInt(i);
            }
        }
        return b.array();
    }

    @Test
    void randomAttributesRoundTripBitForBitAtEveryStrideAndBlockBoundary() {
        Random random = new Random(11);
        for (int stride = 4; stride <= 256; stride += 4) {
            for (int count : new int[] {0, 1, 15, 16, 17, 255, 256, 257, 1000}) {
                byte[] data = new byte[count * stride];
                random.nextBytes(data);
                byte[] stream = MeshoptEncoder.encodeAttributes(data, count, stride);
                assertThat(stream[0] & 0xFF).isEqualTo(0xA0);
                assertThat(decode(stream, count, stride, MeshoptMode.ATTRIBUTES)).as("stride %d count %d", stride, count)
                        .isEqualTo(data);
            }
        }
    }

    /** Small deltas of every size class, so each of the four group encodings (and escapes) is used. */
    @Test
    void smoothAttributesRoundTripAndShrink() {
        Random random = new Random(3);
        for (int spread : new int[] {0, 1, 2, 7, 20, 200}) {
            int count = 3000;
            int stride = 8;
            ByteBuffer b = ByteBuffer.allocate(count * stride).order(ByteOrder.LITTLE_ENDIAN);
            short x = 0;
            short y = 1000;
            for (int i = 0; i < count; i++) {
                x += (short) (spread == 0 ? 0 : random.nextInt(2 * spread + 1) - spread);
                y -= (short) (spread == 0 ? 0 : random.nextInt(spread + 1));
                b.putShort(x).putShort(y).putShort((short) (i & 0xFF)).putShort((short) 0);
            }
            byte[] data = b.array();
            byte[] stream = MeshoptEncoder.encodeAttributes(data, count, stride);
            assertThat(decode(stream, count, stride, MeshoptMode.ATTRIBUTES)).as("spread %d", spread).isEqualTo(data);
            if (spread <= 20) {
                assertThat(stream.length).as("spread %d", spread).isLessThan(data.length / 2);
            }
        }
    }

    /** A constant 4-byte element: the header, every group mode 0 (one header byte per byte position), the tail. */
    @Test
    void constantElementsTakeOnlyHeadersAndTheTail() {
        byte[] data = new byte[16 * 4];
        for (int i = 0; i < 16; i++) {
            data[4 * i] = 9;
            data[4 * i + 1] = 8;
            data[4 * i + 2] = 7;
            data[4 * i + 3] = 6;
        }
        byte[] stream = MeshoptEncoder.encodeAttributes(data, 16, 4);
        byte[] expected = new byte[1 + 4 + 28 + 4];
        expected[0] = (byte) 0xA0;
        expected[33] = 9;
        expected[34] = 8;
        expected[35] = 7;
        expected[36] = 6;
        assertThat(stream).isEqualTo(expected);
    }

    /** A quad: the first triangle from the table (entry 0: three new vertices), the second on edge 0 with next. */
    @Test
    void aQuadIsTwoCodeBytes() {
        byte[] stream = MeshoptEncoder.encodeTriangles(new int[] {0, 1, 2, 2, 1, 3});
        assertThat(stream).hasSize(1 + 2 + 16);
        assertThat(stream[0] & 0xFF).isEqualTo(0xE1);
        // triangle 0: 0xf0 (table entry 0 = 0x00); pushed edges (1,0), (2,1), (0,2): (2,1) is edge 1 from the top
        assertThat(stream[1] & 0xFF).isEqualTo(0xF0);
        assertThat(stream[2] & 0xFF).isEqualTo(0x10);
        assertThat(decode(stream, 6, 2, MeshoptMode.TRIANGLES)).isEqualTo(le(new int[] {0, 1, 2, 2, 1, 3}, 2));
    }

    private static int[] ints(byte[] le4) {
        int[] out = new int[le4.length / 4];
        ByteBuffer.wrap(le4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out);
        return out;
    }

    /** Each triangle rotated to its lexicographically smallest rotation: the same triangles, winding kept. */
    private static int[] canonical(int[] triangles) {
        int[] out = triangles.clone();
        for (int t = 0; t < out.length; t += 3) {
            int[] best = {out[t], out[t + 1], out[t + 2]};
            for (int r = 1; r < 3; r++) {
                int[] rot = {triangles[t + r], triangles[t + (r + 1) % 3], triangles[t + (r + 2) % 3]};
                if (java.util.Arrays.compare(rot, best) < 0) {
                    best = rot;
                }
            }
            System.arraycopy(best, 0, out, t, 3);
        }
        return out;
    }

    /**
     * Triangle lists come back as the same triangles in the same order with the same winding; like the reference
     * encoder, the codec may start a triangle at another of its corners (to reuse a recent edge).
     */
    @Test
    void gridsAndRandomTrianglesRoundTrip() {
        // a 60 × 60 grid in row order (edges and FIFO hits), then the same shuffled, then random and degenerate ones
        int w = 60;
        int[] grid = new int[(w - 1) * (w - 1) * 6];
        int k = 0;
        for (int r = 0; r < w - 1; r++) {
            for (int c = 0; c < w - 1; c++) {
                int a = r * w + c;
                grid[k++] = a;
                grid[k++] = a + w;
                grid[k++] = a + 1;
                grid[k++] = a + 1;
                grid[k++] = a + w;
                grid[k++] = a + w + 1;
            }
        }
        Random random = new Random(5);
        int[] shuffled = grid.clone();
        for (int t = shuffled.length / 3 - 1; t > 0; t--) {
            int u = random.nextInt(t + 1);
            for (int i = 0; i < 3; i++) {
                int tmp = shuffled[3 * t + i];
                shuffled[3 * t + i] = shuffled[3 * u + i];
                shuffled[3 * u + i] = tmp;
            }
        }
        int[] wild = new int[3000];
        for (int i = 0; i < wild.length; i++) {
            wild[i] = i % 7 == 0 ? wild[Math.max(0, i - 1)] : random.nextInt(i % 5 == 0 ? 70_000 : 40);
        }
        // two meshes concatenated: the second restarts at 0 (a reset code)
        int[] twice = new int[grid.length * 2];
        System.arraycopy(grid, 0, twice, 0, grid.length);
        System.arraycopy(grid, 0, twice, grid.length, grid.length);
        for (int[] indices : new int[][] {grid, shuffled, wild, twice, {}, {5, 5, 5}, {7, 3, 1, 1, 3, 0}}) {
            int max = 0;
            for (int i : indices) {
                max = Math.max(max, i);
            }
            int stride = max < 0xFFFF ? 2 : 4;
            byte[] stream = MeshoptEncoder.encodeTriangles(indices);
            int[] decoded = ints(decode(stream, indices.length, 4, MeshoptMode.TRIANGLES));
            assertThat(canonical(decoded)).as("%d indices", indices.length).isEqualTo(canonical(indices));
            assertThat(decode(stream, indices.length, stride, MeshoptMode.TRIANGLES)).isEqualTo(le(decoded, stride));
        }
        // a grid in strip order costs little more than a byte per triangle
        assertThat(MeshoptEncoder.encodeTriangles(grid).length).isLessThan(grid.length / 3 * 3 / 2);
    }

    @Test
    void indexSequencesRoundTrip() {
        Random random = new Random(9);
        int[] lines = new int[4000];
        for (int i = 0; i < lines.length; i++) {
            lines[i] = i % 2 == 0 ? i / 2 : random.nextInt(1 << 20);
        }
        for (int[] indices : new int[][] {lines, {}, {0}, {(1 << 30) - 1, 0, (1 << 30) - 1}, {3, 2, 1, 0, 100, 99}}) {
            byte[] stream = MeshoptEncoder.encodeIndices(indices);
            assertThat(decode(stream, indices.length, 4, MeshoptMode.INDICES)).isEqualTo(le(indices, 4));
        }
        // known answer: 0, 1, 2 against baseline 0 are deltas 0, +1, +1 → (zigzag << 1) = 0, 4, 4; the tail 4 zeros
        assertThat(MeshoptEncoder.encodeIndices(new int[] {0, 1, 2}))
                .containsExactly(0xD1 - 256, 0, 4, 4, 0, 0, 0, 0);
    }

    @Test
    void refusesWhatTheCodecsCannotHold() {
        assertThatThrownBy(() -> MeshoptEncoder.encodeAttributes(new byte[6], 1, 6))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("byteStride 6");
        assertThatThrownBy(() -> MeshoptEncoder.encodeAttributes(new byte[4], 2, 4))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MeshoptEncoder.encodeTriangles(new int[] {0, 1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whole triangles");
        assertThatThrownBy(() -> MeshoptEncoder.encodeIndices(new int[] {1 << 30}))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
