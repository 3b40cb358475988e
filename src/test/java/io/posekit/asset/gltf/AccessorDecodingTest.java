package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.GltfBuilder.BYTE;
import static io.posekit.asset.gltf.GltfBuilder.FLOAT;
import static io.posekit.asset.gltf.GltfBuilder.SHORT;
import static io.posekit.asset.gltf.GltfBuilder.UNSIGNED_BYTE;
import static io.posekit.asset.gltf.GltfBuilder.UNSIGNED_INT;
import static io.posekit.asset.gltf.GltfBuilder.UNSIGNED_SHORT;
import static io.posekit.asset.gltf.GltfBuilder.le;
import static io.posekit.asset.gltf.GltfTestSupport.assertInvalid;
import static io.posekit.asset.gltf.GltfTestSupport.failure;
import static io.posekit.asset.gltf.GltfTestSupport.floats;
import static io.posekit.asset.gltf.GltfTestSupport.ints;
import static io.posekit.asset.gltf.GltfTestSupport.reader;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportException;
import org.junit.jupiter.api.Test;

/** Known-answer tests of accessor decoding: component types, normalization, strides, offsets, sparse, matrices. */
class AccessorDecodingTest {

    private static float[] decode(int componentType, boolean normalized, int... raw) {
        GltfBuilder b = new GltfBuilder();
        int a = b.addIntAccessor(raw, componentType, "SCALAR", normalized);
        return floats(b, a);
    }

    @Test
    void plainIntegersDecodeToTheirValues() {
        assertThat(decode(BYTE, false, -128, -1, 0, 127)).containsExactly(-128, -1, 0, 127);
        assertThat(decode(UNSIGNED_BYTE, false, 0, 200, 255)).containsExactly(0, 200, 255);
        assertThat(decode(SHORT, false, -32768, 1234, 32767)).containsExactly(-32768, 1234, 32767);
        assertThat(decode(UNSIGNED_SHORT, false, 65535, 1, 0)).containsExactly(65535, 1, 0);
        assertThat(decode(UNSIGNED_INT, false, -1, 7)).containsExactly(4294967295f, 7);
    }

    @Test
    void normalizedIntegersUseTheSpecificationFormulas() {
        assertThat(decode(BYTE, true, -128, -127, 0, 127, 64)).containsExactly(-1, -1, 0, 1, 64 / 127f);
        assertThat(decode(UNSIGNED_BYTE, true, 0, 255, 51)).containsExactly(0, 1, 0.2f);
        assertThat(decode(SHORT, true, -32768, -32767, 32767, 16384)).containsExactly(-1, -1, 1, 16384 / 32767f);
        assertThat(decode(UNSIGNED_SHORT, true, 0, 65535, 13107)).containsExactly(0, 1, 0.2f);
    }

    @Test
    void floatsDecodeBitExactly() {
        GltfBuilder b = new GltfBuilder();
        int a = b.addFloatAccessor(new float[] {1.5f, -0f, Float.MIN_VALUE, 3.4e38f}, "VEC2");
        assertThat(floats(b, a)).containsExactly(1.5f, -0f, Float.MIN_VALUE, 3.4e38f);
    }

    @Test
    void integerReadsAreUnsignedForUnsignedTypes() {
        GltfBuilder b = new GltfBuilder();
        int ub = b.addIntAccessor(new int[] {0, 255, 128, 1}, UNSIGNED_BYTE, "VEC4");
        int us = b.addIntAccessor(new int[] {65535, 40000}, UNSIGNED_SHORT, "VEC2");
        int ui = b.addIntAccessor(new int[] {0x7FFFFFFF, -1}, UNSIGNED_INT, "SCALAR");
        assertThat(ints(b, ub)).containsExactly(0, 255, 128, 1);
        assertThat(ints(b, us)).containsExactly(65535, 40000);
        // above Integer.MAX_VALUE an unsigned int comes out negative (read with Integer.toUnsignedLong)
        assertThat(ints(b, ui)).containsExactly(0x7FFFFFFF, -1);
    }

    @Test
    void packedIntegersOfEveryComponentTypeAreCopiedWholeAcrossChunks() {
        // 20,003 components: more than two of the bulk copy's chunks (8,192) and a partial third; each value is the
        // component's index folded into the type's range, so a chunk copied to the wrong place or widened with the
        // wrong sign shows
        int total = 20_003;
        int[][] ranges = {{BYTE, -128, 256}, {UNSIGNED_BYTE, 0, 256}, {SHORT, -32768, 65536}, {UNSIGNED_SHORT, 0, 65536},
            {UNSIGNED_INT, 0, Integer.MAX_VALUE}};
        for (int[] r : ranges) {
            int[] values = new int[total];
            for (int i = 0; i < total; i++) {
                values[i] = r[1] + (int) ((i * 7919L) % r[2]);
            }
            values[total - 1] = r[0] == UNSIGNED_INT ? -1 : r[1] + r[2] - 1; // the type's largest
            GltfBuilder b = new GltfBuilder();
            b.addBufferView(le().u8(0xEE).toArray()); // the next view starts at an odd byte of the buffer
            int a = b.addIntAccessor(values, r[0], "SCALAR");
            assertThat(ints(b, a)).as("component type %d", r[0]).containsExactly(values);
        }
    }

    @Test
    void packedVec4JointsAfterAByteOffsetAreCopiedWhole() {
        // a packed run of 3 VEC4 unsigned shorts behind one junk element: the copy starts at the offset
        GltfBuilder b = new GltfBuilder();
        int view = b.addBufferView(le().u16(9, 9, 9, 9).u16(1, 2, 3, 65535).u16(4, 5, 6, 7).u16(0, 0, 40000, 1).toArray());
        int joints = b.addAccessor(view, 8, UNSIGNED_SHORT, "VEC4", 3, false);
        assertThat(ints(b, joints)).containsExactly(1, 2, 3, 65535, 4, 5, 6, 7, 0, 0, 40000, 1);
    }

    @Test
    void floatAccessorCannotBeReadAsIntegers() {
        GltfBuilder b = new GltfBuilder();
        int a = b.addFloatAccessor(new float[] {1}, "SCALAR");
        assertInvalid(() -> ints(b, a), "accessor 0: float components cannot be read as integers");
    }

    @Test
    void stridedInterleavedViewIsReadAtEachStride() {
        GltfBuilder b = new GltfBuilder();
        // 3 vertices of 20 bytes: position VEC3 float (12), colour VEC4 unsigned byte normalized (4), 4 junk bytes
        GltfBuilder.Bytes data = le();
        for (int v = 0; v < 3; v++) {
            data.f32(v, 10 * v, 100 * v).u8(255, 0, 51, v).u8(0xEE, 0xEE, 0xEE, 0xEE);
        }
        int view = b.addBufferView(data.toArray(), 20);
        int pos = b.addAccessor(view, 0, FLOAT, "VEC3", 3, false);
        int col = b.addAccessor(view, 12, UNSIGNED_BYTE, "VEC4", 3, true);
        assertThat(floats(b, pos)).containsExactly(0, 0, 0, 1, 10, 100, 2, 20, 200);
        assertThat(floats(b, col)).containsExactly(1, 0, 0.2f, 0, 1, 0, 0.2f, 1 / 255f, 1, 0, 0.2f, 2 / 255f);
    }

    @Test
    void floatsAtAnOffsetThatIsNotAMultipleOfFourAreStillReadAtEachStride() {
        // the specification requires 4-byte alignment for floats; the reader tolerates an accessor that breaks it,
        // reading it byte by byte rather than through a float view
        GltfBuilder b = new GltfBuilder();
        GltfBuilder.Bytes data = le().u8(0xEE, 0xEE);
        for (int v = 0; v < 3; v++) {
            data.f32(v + 0.5f, -v).u8(0xEE, 0xEE, 0xEE, 0xEE);
        }
        int view = b.addBufferView(data.pad4().toArray(), 12);
        int a = b.addAccessor(view, 2, FLOAT, "VEC2", 3, false);
        assertThat(floats(b, a)).containsExactly(0.5f, 0, 1.5f, -1, 2.5f, -2);
        // and packed, at the same odd offset: one bulk copy
        int packed = b.addBufferView(le().u8(0xEE).f32(1, 2, 3).pad4().toArray());
        assertThat(floats(b, b.addAccessor(packed, 1, FLOAT, "SCALAR", 3, false))).containsExactly(1, 2, 3);
    }

    @Test
    void packedFloatsAfterAByteOffsetAreCopiedWhole() {
        // a packed run of MAT4s behind one junk float: the bulk copy starts at the offset and takes count × 16 floats
        GltfBuilder b = new GltfBuilder();
        float[] m = new float[33];
        m[0] = 99;
        for (int i = 1; i < m.length; i++) {
            m[i] = i * 0.25f - 3;
        }
        int view = b.addBufferView(le().f32(m).toArray());
        int a = b.addAccessor(view, 4, FLOAT, "MAT4", 2, false);
        assertThat(floats(b, a)).containsExactly(java.util.Arrays.copyOfRange(m, 1, 33));
    }

    @Test
    void stridedIntegersOfEveryComponentTypeAreReadAtEachStride() {
        // 2 vertices of 16 bytes: joints VEC4 unsigned short (8), 2 × signed short (4), unsigned int (4)
        GltfBuilder b = new GltfBuilder();
        GltfBuilder.Bytes data = le();
        data.u16(1, 2, 3, 65535).u16(0x8000, 0x7FFF).u32(-1);
        data.u16(4, 5, 6, 7).u16(0xFFFF, 1).u32(0x12345678);
        int view = b.addBufferView(data.toArray(), 16);
        int joints = b.addAccessor(view, 0, UNSIGNED_SHORT, "VEC4", 2, false);
        int shorts = b.addAccessor(view, 8, SHORT, "VEC2", 2, false);
        int uints = b.addAccessor(view, 12, UNSIGNED_INT, "SCALAR", 2, false);
        int bytes = b.addAccessor(view, 0, UNSIGNED_BYTE, "VEC2", 2, false);
        assertThat(ints(b, joints)).containsExactly(1, 2, 3, 65535, 4, 5, 6, 7);
        assertThat(ints(b, shorts)).containsExactly(-32768, 32767, -1, 1);
        assertThat(ints(b, uints)).containsExactly(-1, 0x12345678);
        assertThat(ints(b, bytes)).containsExactly(1, 0, 4, 0);
    }

    @Test
    void byteOffsetIsAddedToTheViewOffset() {
        GltfBuilder b = new GltfBuilder();
        b.addBufferView(le().f32(99).toArray()); // shifts the next view within buffer 0
        int view = b.addBufferView(le().f32(-7, -8, 1, 2, 3).toArray());
        int a = b.addAccessor(view, 8, FLOAT, "SCALAR", 3, false);
        assertThat(floats(b, a)).containsExactly(1, 2, 3);
    }

    @Test
    void sparseWithoutBufferViewStartsFromZeros() {
        GltfBuilder b = new GltfBuilder();
        int indices = b.addBufferView(le().u16(1, 3).toArray());
        int values = b.addBufferView(le().f32(10, 30).toArray());
        int a = b.accessor(FLOAT, "SCALAR", 5).sparse(2, indices, 0, UNSIGNED_SHORT, values, 0).index();
        assertThat(floats(b, a)).containsExactly(0, 10, 0, 30, 0);
    }

    @Test
    void sparseOverBufferViewReplacesWholeElements() {
        GltfBuilder b = new GltfBuilder();
        int base = b.addBufferView(le().f32(1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4).toArray());
        int indices = b.addBufferView(le().u8(0, 0, 3).pad4().toArray());
        int values = b.addBufferView(le().f32(0, -1, -1, -1, -4, -4, -4).toArray());
        // indices at byteOffset 1 (0, 3), values at byteOffset 4 (skipping the 0 float)
        int a = b.accessor(FLOAT, "VEC3", 4).bufferView(base).sparse(2, indices, 1, UNSIGNED_BYTE, values, 4).index();
        assertThat(floats(b, a)).containsExactly(-1, -1, -1, 2, 2, 2, 3, 3, 3, -4, -4, -4);
    }

    @Test
    void sparseIntegersAndNormalizedSparseValues() {
        GltfBuilder b = new GltfBuilder();
        int base = b.addBufferView(le().u8(10, 20, 30, 40).toArray());
        int indices = b.addBufferView(le().u32(2).toArray());
        int values = b.addBufferView(le().u8(255).pad4().toArray());
        int a = b.accessor(UNSIGNED_BYTE, "SCALAR", 4).bufferView(base).sparse(1, indices, 0, UNSIGNED_INT, values, 0)
                .index();
        int n = b.accessor(UNSIGNED_BYTE, "SCALAR", 4).bufferView(base).normalized(true)
                .sparse(1, indices, 0, UNSIGNED_INT, values, 0).index();
        assertThat(ints(b, a)).containsExactly(10, 20, 255, 40);
        assertThat(floats(b, n)).containsExactly(10 / 255f, 20 / 255f, 1, 40 / 255f);
    }

    @Test
    void sparseIndicesMustIncreaseStrictlyAndStayBelowCount() {
        GltfBuilder b = new GltfBuilder();
        int values = b.addBufferView(le().f32(1, 2).toArray());
        int down = b.addBufferView(le().u16(3, 1).toArray());
        int same = b.addBufferView(le().u16(2, 2).toArray());
        int out = b.addBufferView(le().u16(0, 5).toArray());
        int a = b.accessor(FLOAT, "SCALAR", 5).sparse(2, down, 0, UNSIGNED_SHORT, values, 0).index();
        int c = b.accessor(FLOAT, "SCALAR", 5).sparse(2, same, 0, UNSIGNED_SHORT, values, 0).index();
        int d = b.accessor(FLOAT, "SCALAR", 5).sparse(2, out, 0, UNSIGNED_SHORT, values, 0).index();
        assertInvalid(() -> floats(b, a), "accessor 0: sparse index 1 = 1 is not greater than the previous index 3");
        assertInvalid(() -> floats(b, c), "accessor 1: sparse index 1 = 2 is not greater than the previous index 2");
        assertInvalid(() -> floats(b, d), "accessor 2: sparse index 1 = 5 is out of range for count 5");
    }

    @Test
    void sparseRangesAreChecked() {
        GltfBuilder b = new GltfBuilder();
        int small = b.addBufferView(le().u16(0, 1).toArray());
        int values = b.addBufferView(le().f32(1, 2, 3).toArray());
        int a = b.accessor(FLOAT, "SCALAR", 5).sparse(3, small, 0, UNSIGNED_SHORT, values, 0).index();
        int c = b.accessor(FLOAT, "SCALAR", 5).sparse(2, small, 0, UNSIGNED_SHORT, values, 8).index();
        int d = b.accessor(FLOAT, "SCALAR", 5).sparse(2, small, 0, FLOAT, values, 0).index();
        int e = b.accessor(FLOAT, "SCALAR", 2).sparse(3, small, 0, UNSIGNED_SHORT, values, 0).index();
        assertInvalid(() -> floats(b, a), "accessor 0: sparse indices count 3 × stride 2 exceeds bufferView 0 length 4");
        assertInvalid(() -> floats(b, c),
                "accessor 1: sparse values byteOffset 8 + count 2 × stride 4 exceeds bufferView 1 length 12");
        assertInvalid(() -> floats(b, d), "accessor 2 sparse indices: componentType 5126 must be 5121 (unsigned byte), "
                + "5123 (unsigned short) or 5125 (unsigned int)");
        assertInvalid(() -> floats(b, e), "accessor 3 sparse: count 3 must be between 1 and the accessor count 2");
    }

    @Test
    void mat2OfUnsignedBytesHasPaddedColumns() {
        GltfBuilder b = new GltfBuilder();
        // each 2-byte column is padded to 4 bytes: element = [a b _ _ c d _ _]
        int view = b.addBufferView(le().u8(1, 2, 0xEE, 0xEE, 3, 4, 0xEE, 0xEE, 5, 6, 0xEE, 0xEE, 7, 8, 0xEE, 0xEE)
                .toArray());
        int a = b.addAccessor(view, 0, UNSIGNED_BYTE, "MAT2", 2, false);
        assertThat(floats(b, a)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
    }

    @Test
    void mat3OfShortsHasPaddedColumns() {
        GltfBuilder b = new GltfBuilder();
        // each 6-byte column is padded to 8 bytes: 24-byte elements
        int view = b.addBufferView(le().i16(1, -2, 3, 0x7EEE, 4, -5, 6, 0x7EEE, 7, -8, 32767, 0x7EEE).toArray());
        int plain = b.addAccessor(view, 0, SHORT, "MAT3", 1, false);
        int normalized = b.addAccessor(view, 0, SHORT, "MAT3", 1, true);
        assertThat(floats(b, plain)).containsExactly(1, -2, 3, 4, -5, 6, 7, -8, 32767);
        assertThat(floats(b, normalized)).containsExactly(1 / 32767f, -2 / 32767f, 3 / 32767f, 4 / 32767f,
                -5 / 32767f, 6 / 32767f, 7 / 32767f, -8 / 32767f, 1);
    }

    @Test
    void mat3OfBytesHasPaddedColumnsAndMat4FloatsAreContiguous() {
        GltfBuilder b = new GltfBuilder();
        int view = b.addBufferView(le().i8(1, 2, 3, 99, 4, 5, 6, 99, 7, 8, -9, 99).toArray());
        int m3 = b.addAccessor(view, 0, BYTE, "MAT3", 1, false);
        float[] m = new float[32];
        for (int i = 0; i < 32; i++) {
            m[i] = i;
        }
        int m4 = b.addFloatAccessor(m, "MAT4");
        assertThat(floats(b, m3)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, -9);
        assertThat(floats(b, m4)).containsExactly(m);
    }

    @Test
    void accessorRunningPastItsViewIsRejectedWithTheNumbers() {
        GltfBuilder b = new GltfBuilder();
        int view = b.addBufferView(new byte[1024]);
        int a = b.addAccessor(view, 0, FLOAT, "VEC3", 4000, false);
        int c = b.addAccessor(view, 16, FLOAT, "VEC3", 85, false);
        int fits = b.addAccessor(view, 4, FLOAT, "VEC3", 85, false);
        assertInvalid(() -> floats(b, a), "accessor 0: count 4000 × stride 12 exceeds bufferView 0 length 1024");
        assertInvalid(() -> floats(b, c), "accessor 1: byteOffset 16 + count 85 × stride 12 exceeds bufferView 0 length 1024");
        assertThat(floats(b, fits)).hasSize(255);
    }

    @Test
    void lastElementMayEndExactlyAtTheViewEndEvenWithALargerStride() {
        GltfBuilder b = new GltfBuilder();
        // stride 16, 3 elements of 12 bytes: 16 + 16 + 12 = 44 bytes suffice
        int view = b.addBufferView(le().f32(1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9).toArray(), 16);
        int a = b.addAccessor(view, 0, FLOAT, "VEC3", 3, false);
        int over = b.addAccessor(view, 4, FLOAT, "VEC3", 3, false);
        assertThat(floats(b, a)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertInvalid(() -> floats(b, over), "accessor 1: byteOffset 4 + count 3 × stride 16 exceeds bufferView 0 length 44");
    }

    @Test
    void strideSmallerThanTheElementIsRejected() {
        GltfBuilder b = new GltfBuilder();
        int view = b.addBufferView(new byte[64], 8);
        int a = b.addAccessor(view, 0, FLOAT, "VEC3", 2, false);
        assertInvalid(() -> floats(b, a),
                "accessor 0: byteStride 8 of bufferView 0 is smaller than the 12-byte VEC3 float element");
    }

    @Test
    void malformedAccessorFieldsNameTheAccessor() {
        GltfBuilder b = new GltfBuilder();
        int view = b.addBufferView(new byte[16]);
        for (int i = 0; i < 9; i++) {
            b.addAccessor(view, 0, FLOAT, "SCALAR", 1, false);
        }
        b.set("accessors", 0, "count", "x");
        b.set("accessors", 1, "count", 0);
        b.set("accessors", 2, "bufferView", 9);
        b.set("accessors", 3, "bufferView", -1);
        b.set("accessors", 4, "componentType", 5124);
        b.set("accessors", 5, "type", "VEC5");
        b.set("accessors", 6, "count", 1.5);
        b.set("accessors", 7, "count", 3_000_000_000L);
        b.set("accessors", 8, "normalized", "yes");
        assertInvalid(() -> floats(b, 0), "accessor 0: count must be an integer, not \"x\"");
        assertInvalid(() -> floats(b, 1), "accessor 1: count 0 must be at least 1");
        assertInvalid(() -> floats(b, 2), "accessor 2: bufferView 9 does not exist (there are 1)");
        assertInvalid(() -> floats(b, 3), "accessor 3: bufferView -1 does not exist (there are 1)");
        assertInvalid(() -> floats(b, 4), "accessor 4: componentType 5124 is not a glTF component type "
                + "(5120, 5121, 5122, 5123, 5125 or 5126)");
        assertInvalid(() -> floats(b, 5), "accessor 5: type 'VEC5' is not SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3 or MAT4");
        assertInvalid(() -> floats(b, 6), "accessor 6: count 1.5 is not an integer");
        assertInvalid(() -> floats(b, 7), "accessor 7: count 3000000000 is out of range");
        assertInvalid(() -> floats(b, 8), "accessor 8: normalized must be true or false, not \"yes\"");
        assertInvalid(() -> floats(b, 9), "test: accessor 9 does not exist (there are 9)");
    }

    @Test
    void integralFloatCountIsAccepted() {
        GltfBuilder b = new GltfBuilder();
        int a = b.addFloatAccessor(new float[] {4, 5}, "SCALAR");
        b.set("accessors", a, "count", 2.0);
        assertThat(floats(b, a)).containsExactly(4, 5);
    }

    @Test
    void decodedArraysAreCachedPerAccessor() {
        GltfBuilder b = new GltfBuilder();
        int a = b.addIntAccessor(new int[] {1, 2}, UNSIGNED_SHORT, "SCALAR");
        AccessorReader r = reader(b);
        Accessor acc = r.accessor(a, "accessor", "test");
        assertThat(r.floats(acc)).isSameAs(r.floats(acc));
        assertThat(r.ints(acc)).isSameAs(r.ints(acc));
    }

    @Test
    void decodingIsChargedToTheBudgetBeforeAllocating() {
        GltfBuilder b = new GltfBuilder();
        int small = b.addFloatAccessor(new float[] {1, 2, 3}, "VEC3");
        // a view-less accessor claiming 100 million VEC4 elements: 1.6 GB of floats
        int huge = b.accessor(FLOAT, "VEC4", 100_000_000).index();
        AccessorReader r = reader(b, 1000);
        assertThat(r.floats(r.accessor(small, "accessor", "test"))).containsExactly(1, 2, 3);
        ImportException e = failure(() -> r.floats(r.accessor(huge, "accessor", "test")));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo("accessor 1 needs 1600000000 bytes, which takes the import past its "
                + "limit of 1000 decoded bytes (posekit.limits.decoded-bytes)");
    }
}
