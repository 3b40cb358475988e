package io.posekit.asset.gltf;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;

/**
 * Decodes glTF accessors into flat arrays, once per accessor per import: repeated requests return the same
 * (shared, never to be modified) array, so e.g. samplers sharing an input accessor share one {@code float[]}.
 *
 * <p>Elements are read at {@code byteOffset + i × stride} of their buffer view (stride = the view's
 * {@code byteStride}, or the packed element size); matrix columns honour the 4-byte column alignment.
 * Accessors without a buffer view start as zeros. Sparse substitutions are applied after checking that
 * sparse indices are strictly increasing and below {@code count}. Normalized integers decode with the
 * specification's formulas: byte {@code max(c/127, −1)}, unsigned byte {@code c/255}, short
 * {@code max(c/32767, −1)}, unsigned short {@code c/65535} (unsigned int {@code c/4294967295}).
 *
 * <p>Every array is charged to the import's {@link DecodeBudget} (4 bytes per component) before it is
 * allocated. Not thread-safe: one reader per import.
 */
final class AccessorReader {

    private final GltfDocument doc;
    private final BufferResolver buffers;
    private final DecodeBudget budget;
    private final Accessor[] accessors;
    private final float[][] floats;
    private final int[][] ints;

    /** Components per bulk copy of packed integers ({@link #copyPackedInts}): 16 KB of shorts at most. */
    private static final int PACKED_CHUNK = 8192;

    /** The import's budget (its limits and deadline). */
    DecodeBudget budget() {
        return budget;
    }

    AccessorReader(GltfDocument doc, BufferResolver buffers, DecodeBudget budget) {
        this.doc = doc;
        this.buffers = buffers;
        this.budget = budget;
        int n = doc.count("accessors");
        this.accessors = new Accessor[n];
        this.floats = new float[n][];
        this.ints = new int[n][];
    }

    /**
     * The validated description of accessor {@code index}.
     *
     * @param label the referring field, e.g. {@code input accessor}, for the message when it does not exist
     * @throws ImportException (invalid) when it does not exist or is malformed
     */
    Accessor accessor(int index, String label, String where) {
        Json.checkIndex(index, accessors.length, label, where);
        Accessor a = accessors[index];
        if (a == null) {
            a = Accessor.parse(doc, buffers, index);
            accessors[index] = a;
        }
        return a;
    }

    /**
     * The validated description of accessor {@code index}, checked for {@code usage}.
     *
     * @param label the role of the accessor, e.g. {@code POSITION}; messages read {@code <label> accessor N}
     */
    Accessor require(int index, AccessorUsage usage, String label, String where) {
        Accessor a = accessor(index, label + " accessor", where);
        usage.check(a, label, where);
        return a;
    }

    /**
     * Buffer view {@code index} of the file.
     *
     * @param label the referring field, for the message when it does not exist
     */
    BufferResolver.View view(int index, String label, String where) {
        return buffers.view(index, label, where);
    }

    /**
     * Makes {@code declared}'s elements the {@code data} a compression extension decoded for it (Draco: the accessors
     * of a compressed primitive have no data of their own). From then on the accessor reads {@code data}: its
     * elements tightly packed, in {@code declared}'s component type, little-endian.
     *
     * @throws ImportException (invalid) when the accessor was read before as stored data, or was supplied before with
     *     other data (two primitives decoding to one accessor must agree)
     */
    void supply(Accessor declared, java.nio.ByteBuffer data, String where) {
        int i = declared.index();
        Accessor current = accessors[i];
        if (current != null && current.view() != null && current.view().index() == SUPPLIED) {
            if (!current.view().data().equals(data)) {
                throw ImportException.invalid(where + ": " + declared.describe()
                        + " is decoded by another Draco primitive with other values");
            }
            return;
        }
        if (floats[i] != null || ints[i] != null) {
            throw ImportException.invalid(where + ": " + declared.describe()
                    + " is read as stored data elsewhere and decoded from Draco here");
        }
        int elementSize = declared.type().elementSize(declared.componentType().size);
        accessors[i] = new Accessor(i, new BufferResolver.View(SUPPLIED, data, 0), 0, declared.componentType(),
                declared.normalized(), declared.count(), declared.type(), elementSize, null);
    }

    /** The view index of data {@link #supply supplied} by an extension (no buffer view of the file). */
    static final int SUPPLIED = -1;

    /** All components of {@code a} as floats ({@code count × components}, normalized when flagged). Shared. */
    float[] floats(Accessor a) {
        float[] out = floats[a.index()];
        if (out == null) {
            out = decodeFloats(a);
            floats[a.index()] = out;
        }
        return out;
    }

    /**
     * All components of integer accessor {@code a} as ints (unsigned types zero-extended; unsigned int values
     * above {@link Integer#MAX_VALUE} come out negative, to be read with {@link Integer#toUnsignedLong}). Shared.
     *
     * @throws ImportException (invalid) when {@code a} holds floats
     */
    int[] ints(Accessor a) {
        int[] out = ints[a.index()];
        if (out == null) {
            out = decodeInts(a);
            ints[a.index()] = out;
        }
        return out;
    }

    private int allocate(Accessor a) {
        long total = a.totalComponents();
        budget.checkTimeNow();
        budget.charge(total, 4, a.describe());
        if (total > Integer.MAX_VALUE - 16) {
            throw ImportException.tooLarge(a.describe() + ": " + total + " components do not fit in one array");
        }
        return (int) total;
    }

    private float[] decodeFloats(Accessor a) {
        float[] out = new float[allocate(a)];
        int n = a.type().components;
        ComponentType ct = a.componentType();
        int[] offsets = a.type().componentOffsets(ct.size);
        if (a.view() != null && ct == ComponentType.FLOAT) {
            copyFloats(a.view().data(), a, n, offsets, out);
        } else if (a.view() != null) {
            ByteBuffer b = a.view().data();
            boolean norm = a.normalized();
            for (int i = 0, o = 0; i < a.count(); i++) {
                budget.checkTime();
                int base = a.byteOffset() + i * a.stride();
                for (int c = 0; c < n; c++) {
                    out[o++] = readFloat(b, base + offsets[c], ct, norm);
                }
            }
        }
        if (a.sparse() != null) {
            Accessor.Sparse s = a.sparse();
            int[] targets = sparseIndices(a);
            int elementSize = a.type().elementSize(ct.size);
            ByteBuffer b = s.values().data();
            for (int k = 0; k < s.count(); k++) {
                int base = s.valuesOffset() + k * elementSize;
                int o = targets[k] * n;
                for (int c = 0; c < n; c++) {
                    out[o + c] = readFloat(b, base + offsets[c], ct, a.normalized());
                }
            }
        }
        return out;
    }

    private int[] decodeInts(Accessor a) {
        ComponentType ct = a.componentType();
        if (!ct.isInteger()) {
            throw ImportException.invalid(a.describe() + ": float components cannot be read as integers");
        }
        int[] out = new int[allocate(a)];
        int n = a.type().components;
        int[] offsets = a.type().componentOffsets(ct.size);
        if (a.view() != null) {
            copyInts(a.view().data(), a, n, offsets, out);
        }
        if (a.sparse() != null) {
            Accessor.Sparse s = a.sparse();
            int[] targets = sparseIndices(a);
            int elementSize = a.type().elementSize(ct.size);
            ByteBuffer b = s.values().data();
            for (int k = 0; k < s.count(); k++) {
                int base = s.valuesOffset() + k * elementSize;
                int o = targets[k] * n;
                for (int c = 0; c < n; c++) {
                    out[o + c] = readInt(b, base + offsets[c], ct);
                }
            }
        }
        return out;
    }

    /**
     * FLOAT components of {@code a}'s buffer view straight into {@code out}: one bulk copy when the elements are packed
     * (the usual case), otherwise element by element through a float view of the buffer. Why not {@link #readFloat}
     * per component: its per-call switch and byte-buffer index checks were most of a BrainStem import. The accessor's
     * extent within its view was checked when it was parsed ({@link Accessor}); a float accessor's offsets are
     * multiples of 4 by the specification, and one that is not is read the general way.
     */
    private void copyFloats(ByteBuffer b, Accessor a, int n, int[] offsets, float[] out) {
        int count = a.count();
        int stride = a.stride();
        int start = a.byteOffset();
        if (count == 0) {
            return;
        }
        budget.checkTimeNow();
        if (stride == n * Float.BYTES) {
            b.slice(start, count * stride).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out, 0, count * n);
            return;
        }
        if ((start & 3) == 0 && (stride & 3) == 0) {
            FloatBuffer f = b.slice(start, (count - 1) * stride + n * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN)
                    .asFloatBuffer();
            int step = stride >> 2;
            for (int i = 0, o = 0; i < count; i++) {
                budget.checkTime();
                int base = i * step;
                for (int c = 0; c < n; c++) {
                    out[o++] = f.get(base + (offsets[c] >> 2));
                }
            }
            return;
        }
        for (int i = 0, o = 0; i < count; i++) {
            budget.checkTime();
            int base = start + i * stride;
            for (int c = 0; c < n; c++) {
                out[o++] = b.getFloat(base + offsets[c]);
            }
        }
    }

    /**
     * Integer components of {@code a}'s buffer view into {@code out}, one loop per component type (the type's switch
     * taken once per accessor rather than once per component: joints and indices are most of a mesh's integers).
     */
    private void copyInts(ByteBuffer b, Accessor a, int n, int[] offsets, int[] out) {
        int count = a.count();
        int stride = a.stride();
        int start = a.byteOffset();
        int size = a.componentType().size;
        if (count > 0 && stride == n * size && a.type().elementSize(size) == n * size) {
            copyPackedInts(b.slice(start, count * stride).order(ByteOrder.LITTLE_ENDIAN), a.componentType(), count * n,
                    out);
            return;
        }
        switch (a.componentType()) {
            case UNSIGNED_BYTE -> {
                for (int i = 0, o = 0; i < count; i++) {
                    budget.checkTime();
                    int base = start + i * stride;
                    for (int c = 0; c < n; c++) {
                        out[o++] = b.get(base + offsets[c]) & 0xFF;
                    }
                }
            }
            case UNSIGNED_SHORT -> {
                for (int i = 0, o = 0; i < count; i++) {
                    budget.checkTime();
                    int base = start + i * stride;
                    for (int c = 0; c < n; c++) {
                        out[o++] = b.getShort(base + offsets[c]) & 0xFFFF;
                    }
                }
            }
            case UNSIGNED_INT -> {
                for (int i = 0, o = 0; i < count; i++) {
                    budget.checkTime();
                    int base = start + i * stride;
                    for (int c = 0; c < n; c++) {
                        out[o++] = b.getInt(base + offsets[c]);
                    }
                }
            }
            default -> {
                ComponentType ct = a.componentType();
                for (int i = 0, o = 0; i < count; i++) {
                    budget.checkTime();
                    int base = start + i * stride;
                    for (int c = 0; c < n; c++) {
                        out[o++] = readInt(b, base + offsets[c], ct);
                    }
                }
            }
        }
    }

    /**
     * {@code total} packed integer components from {@code view} (little-endian, positioned at the first) into
     * {@code out}: a bulk copy into a chunk of the component type's array, widened from there. Why: reading component
     * by component through the byte buffer (as strided accessors are) was a third of a BrainStem upload's parse, its
     * joints and indices; the bulk copies are plain memory copies and the widening loops vectorise. The chunk bounds
     * the temporary memory, and the deadline is checked once per chunk.
     */
    private void copyPackedInts(ByteBuffer view, ComponentType ct, int total, int[] out) {
        if (ct == ComponentType.UNSIGNED_INT) {
            budget.checkTimeNow();
            view.asIntBuffer().get(out, 0, total);
            return;
        }
        boolean shorts = ct.size == Short.BYTES;
        // widening keeps the sign; the mask takes it off again for the unsigned types
        int mask = ct == ComponentType.UNSIGNED_SHORT ? 0xFFFF : ct == ComponentType.UNSIGNED_BYTE ? 0xFF : -1;
        java.nio.ShortBuffer shortView = shorts ? view.asShortBuffer() : null;
        short[] shortChunk = shorts ? new short[Math.min(total, PACKED_CHUNK)] : null;
        byte[] byteChunk = shorts ? null : new byte[Math.min(total, PACKED_CHUNK)];
        for (int done = 0; done < total; ) {
            budget.checkTimeNow();
            int len = Math.min(PACKED_CHUNK, total - done);
            if (shorts) {
                shortView.get(shortChunk, 0, len);
                for (int i = 0; i < len; i++) {
                    out[done + i] = shortChunk[i] & mask;
                }
            } else {
                view.get(byteChunk, 0, len);
                for (int i = 0; i < len; i++) {
                    out[done + i] = byteChunk[i] & mask;
                }
            }
            done += len;
        }
    }

    /** Reads and checks the sparse indices of {@code a}: strictly increasing, each below {@code a.count()}. */
    private int[] sparseIndices(Accessor a) {
        Accessor.Sparse s = a.sparse();
        budget.charge(s.count(), 4, a.describe() + " sparse indices");
        int[] out = new int[s.count()];
        ByteBuffer b = s.indices().data();
        long previous = -1;
        for (int k = 0; k < s.count(); k++) {
            long index = Integer.toUnsignedLong(readInt(b, s.indicesOffset() + k * s.indicesType().size, s.indicesType()));
            if (index >= a.count()) {
                throw ImportException.invalid(a.describe() + ": sparse index " + k + " = " + index
                        + " is out of range for count " + a.count());
            }
            if (index <= previous) {
                throw ImportException.invalid(a.describe() + ": sparse index " + k + " = " + index
                        + " is not greater than the previous index " + previous);
            }
            out[k] = (int) index;
            previous = index;
        }
        return out;
    }

    private static float readFloat(ByteBuffer b, int at, ComponentType ct, boolean normalized) {
        return switch (ct) {
            case FLOAT -> b.getFloat(at);
            case BYTE -> normalized ? Math.max(b.get(at) / 127f, -1f) : b.get(at);
            case UNSIGNED_BYTE -> normalized ? (b.get(at) & 0xFF) / 255f : b.get(at) & 0xFF;
            case SHORT -> normalized ? Math.max(b.getShort(at) / 32767f, -1f) : b.getShort(at);
            case UNSIGNED_SHORT -> normalized ? (b.getShort(at) & 0xFFFF) / 65535f : b.getShort(at) & 0xFFFF;
            case UNSIGNED_INT -> {
                long v = Integer.toUnsignedLong(b.getInt(at));
                yield normalized ? (float) (v / 4294967295.0) : (float) v;
            }
        };
    }

    private static int readInt(ByteBuffer b, int at, ComponentType ct) {
        return switch (ct) {
            case BYTE -> b.get(at);
            case UNSIGNED_BYTE -> b.get(at) & 0xFF;
            case SHORT -> b.getShort(at);
            case UNSIGNED_SHORT -> b.getShort(at) & 0xFFFF;
            case UNSIGNED_INT -> b.getInt(at);
            case FLOAT -> throw new IllegalStateException("float component read as integer");
        };
    }
}
