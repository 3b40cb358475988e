package io.posekit.asset.gltf.meshopt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link MeshoptDecoder} on streams built in code: the specification's examples, known answers, hostile input. */
class MeshoptDecoderTest {

    private static byte[] decode(byte[] src, int count, int stride, MeshoptMode mode, MeshoptFilter filter) {
        return MeshoptDecoder.decode(src, 0, src.length, count, stride, mode, filter, new DecodeBudget(1 << 20), "view");
    }

    private static ImportException failure(byte[] src, int count, int stride, MeshoptMode mode) {
        return catchThrowableOfType(ImportException.class, () -> decode(src, count, stride, mode, MeshoptFilter.NONE));
    }

    /** Appendix A's 4-bit sentinel example: byte 0 of 16 elements, in a version 0 stream; bytes 1 to 3 all zero. */
    @Test
    void decodesTheSpecificationsSentinelExample() {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        s.write(0xA0);
        s.write(0x02); // group 0 of byte 0: mode 2 = 4-bit deltas in version 0
        s.writeBytes(new byte[] {0x17, 0x5f, (byte) 0xf0, (byte) 0xbc, 0x77, (byte) 0xa9, 0x21, 0x00, 0x34, (byte) 0xb5});
        s.writeBytes(new byte[] {0, 0, 0}); // bytes 1..3: mode 0 = all deltas zero
        s.writeBytes(new byte[28]); // tail padding to 32
        s.writeBytes(new byte[] {100, 7, 8, 9}); // baseline
        byte[] out = decode(s.toByteArray(), 16, 4, MeshoptMode.ATTRIBUTES, MeshoptFilter.NONE);
        int[] deltas = {-1, -4, -3, 26, -91, 0, -6, 6, -4, -4, 5, -5, 1, -1, 0, 0};
        int v = 100;
        for (int i = 0; i < 16; i++) {
            v = (v + deltas[i]) & 0xFF;
            assertThat(out[i * 4] & 0xFF).as("element %d byte 0", i).isEqualTo(v);
            assertThat(Arrays.copyOfRange(out, i * 4 + 1, i * 4 + 4)).containsExactly(7, 8, 9);
        }
    }

    @Test
    void literalAttributeStreamsRoundTripAcrossBlocks() {
        Random random = new Random(7);
        for (int stride : new int[] {4, 12, 64, 256}) {
            int count = 600;
            byte[] data = new byte[count * stride];
            random.nextBytes(data);
            byte[] stream = MeshoptFixtures.attributes(data, count, stride);
            assertThat(decode(stream, count, stride, MeshoptMode.ATTRIBUTES, MeshoptFilter.NONE)).as("stride %d", stride)
                    .isEqualTo(data);
        }
    }

    /** Two triangles of a quad: code 0xf0 with table entry 0x00 (three new vertices), then 0x00 (edge 0, next). */
    @Test
    void decodesTriangleCodes() {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        s.writeBytes(new byte[] {(byte) 0xE1, (byte) 0xF0, 0x00});
        s.writeBytes(new byte[16]);
        byte[] out = decode(s.toByteArray(), 6, 2, MeshoptMode.TRIANGLES, MeshoptFilter.NONE);
        short[] indices = new short[6];
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer().get(indices);
        assertThat(indices).containsExactly(0, 1, 2, 0, 2, 3);
    }

    /** 0xfe with an explicit byte: a new vertex and two read back from the vertex FIFO (Z=2, W=3); then 0x0f: an explicit index. */
    @Test
    void decodesExplicitTrianglesAndVaryingIndices() {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        s.writeBytes(new byte[] {(byte) 0xE1, (byte) 0xF0, (byte) 0xFE, (byte) 0x0F});
        // data in the order the codes read it: 0xfe's byte 0x23, then 0x0f's explicit index zigzag(+40) = 80
        s.writeBytes(new byte[] {0x23, 80});
        s.writeBytes(new byte[16]);
        byte[] out = decode(s.toByteArray(), 9, 4, MeshoptMode.TRIANGLES, MeshoptFilter.NONE);
        int[] indices = new int[9];
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(indices);
        // t0 = (0,1,2); t1 = (3, fifo[1], fifo[2]) = (3, 1, 0); t2: edge 0 = (a,c) of t1 = (3,0), c = 40
        assertThat(indices).containsExactly(0, 1, 2, 3, 1, 0, 3, 0, 40);
    }

    @Test
    void decodesIndexSequences() {
        byte[] stream = MeshoptFixtures.indexSequence(5, 3, 100000, 99999, 0);
        byte[] out = decode(stream, 5, 4, MeshoptMode.INDICES, MeshoptFilter.NONE);
        int[] indices = new int[5];
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(indices);
        assertThat(indices).containsExactly(5, 3, 100000, 99999, 0);
        assertThat(Arrays.copyOfRange(stream, 0, 3)).containsExactly(0xD1, 20, 6);
    }

    @Test
    void exponentialFilterIsExact() {
        int[] values = {(-2 << 24) | 3, (5 << 24) | (-7 & 0xFFFFFF), 0, (100 << 24) | 1};
        byte[] raw = new byte[16];
        ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(values);
        byte[] out = decode(MeshoptFixtures.attributes(raw, 1, 16), 1, 16, MeshoptMode.ATTRIBUTES,
                MeshoptFilter.EXPONENTIAL);
        float[] f = new float[4];
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(f);
        assertThat(f).containsExactly(0.75f, -224f, 0f, Math.scalb(1f, 100));
    }

    /** Octahedral (0, 0) with one = 127 is +Z; (127, 0) is +X; the fourth byte passes through. */
    @Test
    void octahedralFilterGivesUnitVectors() {
        byte[] raw = {0, 0, 127, 55, 127, 0, 127, -1, 0, -127, 127, 9};
        byte[] out = decode(MeshoptFixtures.attributes(raw, 3, 4), 3, 4, MeshoptMode.ATTRIBUTES,
                MeshoptFilter.OCTAHEDRAL);
        assertThat(out).containsExactly(0, 0, 127, 55, 127, 0, 0, -1, 0, -127, 0, 9);
    }

    /** Quaternion (0, 0, 0, 1): the largest component w (index 3) omitted, the others zero, scale 2^11 − 1. */
    @Test
    void quaternionFilterRestoresTheLargestComponent() {
        byte[] raw = new byte[8];
        ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer().put(new short[] {0, 0, 0, (short) (2044 | 3)});
        byte[] out = decode(MeshoptFixtures.attributes(raw, 1, 8), 1, 8, MeshoptMode.ATTRIBUTES,
                MeshoptFilter.QUATERNION);
        short[] q = new short[4];
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer().get(q);
        assertThat(q).containsExactly(0, 0, 0, 32767);
    }

    /** Colour: Y = 100, Co = Cg = 0, alpha 0xFF marks K = 8 → grey 100 with alpha 255. */
    @Test
    void colorFilterConvertsYCoCg() {
        byte[] raw = {100, 0, 0, (byte) 0xFF, 50, 20, 10, (byte) 0x80};
        byte[] out = decode(MeshoptFixtures.attributes(raw, 2, 4), 2, 4, MeshoptMode.ATTRIBUTES, MeshoptFilter.COLOR);
        // second: r = 50 + 20 − 10 = 60, g = 60, b = 20; alpha bits below the marker are 0 → 0
        assertThat(out).containsExactly(100, 100, 100, (byte) 255, 60, 60, 20, 0);
    }

    @Test
    void refusesTruncatedStreamsAtEveryLength() {
        byte[] data = new byte[40 * 8];
        new Random(3).nextBytes(data);
        byte[] attributes = MeshoptFixtures.attributes(data, 40, 8);
        byte[] sequence = MeshoptFixtures.indexSequence(1, 200, 70000, 3);
        for (int len = 0; len < attributes.length; len++) {
            assertThat(failure(Arrays.copyOf(attributes, len), 40, 8, MeshoptMode.ATTRIBUTES)).as("attributes cut at %d", len)
                    .isNotNull().hasMessageContaining("view");
        }
        for (int len = 0; len < sequence.length; len++) {
            assertThat(failure(Arrays.copyOf(sequence, len), 4, 4, MeshoptMode.INDICES)).as("sequence cut at %d", len)
                    .isNotNull();
        }
    }

    @Test
    void refusesLyingCountsAndLeftoverBytes() {
        byte[] data = new byte[40 * 8];
        byte[] attributes = MeshoptFixtures.attributes(data, 40, 8);
        assertThat(failure(attributes, 41, 8, MeshoptMode.ATTRIBUTES)).hasMessageContaining("meshopt stream is malformed");
        assertThat(failure(attributes, 39, 8, MeshoptMode.ATTRIBUTES)).hasMessageContaining("remain");
        byte[] sequence = MeshoptFixtures.indexSequence(1, 2, 3);
        assertThat(failure(sequence, 2, 2, MeshoptMode.INDICES)).hasMessageContaining("remain");
        assertThat(failure(sequence, 3000, 2, MeshoptMode.INDICES)).hasMessageContaining("needs 1 bytes");
    }

    @Test
    void refusesFifoReadsBeforeWrites() {
        byte[] stream = new byte[1 + 1 + 16];
        stream[0] = (byte) 0xE1;
        stream[1] = 0x30; // edge FIFO entry 3 of an empty FIFO
        assertThat(failure(stream, 3, 2, MeshoptMode.TRIANGLES)).hasMessageContaining("edge FIFO is read at entry 3");
    }

    @Test
    void refusesBadHeadersModesAndParameters() {
        byte[] stream = MeshoptFixtures.attributes(new byte[16], 4, 4);
        stream[0] = (byte) 0xA2;
        assertThat(failure(stream, 4, 4, MeshoptMode.ATTRIBUTES)).hasMessageContaining("0xa2");
        assertThat(failure(MeshoptFixtures.attributes(new byte[16], 4, 4), 4, 6, MeshoptMode.ATTRIBUTES))
                .hasMessageContaining("byteStride 6");
        assertThat(failure(new byte[20], 4, 2, MeshoptMode.TRIANGLES)).hasMessageContaining("multiple of 3");
        ImportException filter = catchThrowableOfType(ImportException.class, () -> decode(new byte[40], 1, 12,
                MeshoptMode.ATTRIBUTES, MeshoptFilter.QUATERNION));
        assertThat(filter).hasMessageContaining("filter QUATERNION does not allow byteStride 12");
        byte[] channels = MeshoptFixtures.attributes(new byte[16], 4, 4);
        channels[channels.length - 1] = 0x13; // channel mode 3 is invalid
        assertThat(failure(channels, 4, 4, MeshoptMode.ATTRIBUTES)).hasMessageContaining("channel 0 has invalid mode 0x13");
    }

    @Test
    void hugeDeclaredSizesAreChargedBeforeAllocation() {
        ImportException e = catchThrowableOfType(ImportException.class, () -> MeshoptDecoder.decode(new byte[64], 0, 64,
                Integer.MAX_VALUE / 4, 256, MeshoptMode.ATTRIBUTES, MeshoptFilter.NONE, new DecodeBudget(1 << 20), "view"));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e).hasMessageContaining("view decoded data");
    }
}
