package io.posekit.asset.gltf;

import com.openize.drako.DataType;
import com.openize.drako.Draco;
import com.openize.drako.DracoMesh;
import com.openize.drako.DracoPointCloud;
import com.openize.drako.DrakoException;
import com.openize.drako.IntList;
import com.openize.drako.PointAttribute;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * posekit's adapter of the Draco decoder it uses ({@code org.jmonkeyengine:drako}, a Java port of Google's decoder):
 * the only class that sees the library. It decodes one Draco mesh bitstream into its triangles and the attributes it
 * is asked for, per point, as raw little-endian values in Draco's own data type.
 *
 * <p>What it guards against, and why: the library answers {@code null} for data it cannot decode and catches its own
 * exceptions on the way; it allocates by the counts the stream declares; and it reads varints recursively (a run of
 * continuation bytes is a deep recursion). So the stream's header and counts are read and checked first
 * ({@link DracoStreamHeader}), the memory the decode needs is charged to the import's {@link DecodeBudget} by those
 * counts before it starts, and every failure (a {@code null}, an exception, a stack overflow, an allocation the heap
 * refuses) becomes an {@link ImportException}. The library does not look at the deadline, and on some corrupt
 * edgebreaker streams it loops for ever (a guard Google's decoder has is missing): so it runs on a thread of its own,
 * waited for until the import's deadline ({@link #watched}); a decode past it is a 422, and its thread, which cannot
 * be stopped, is counted: past {@link #MAX_RUNAWAY} of them Draco uploads are refused until a restart.
 *
 * <p>Values are read with {@link PointAttribute#getValue(int, byte[])}-style raw copies: the library's
 * {@code convertValue(int, int[])} reads one int32 whatever the type (16-bit joints would come out corrupt).
 *
 * <p>Stateless and thread-safe.
 */
final class DracoDecoder {

    /**
     * Bytes charged per triangle for the library's work (corner tables, traversal stacks, entropy-decoded symbols,
     * prediction buffers), besides {@link #WORK_BYTES_PER_STREAM}. Measured with the JVM's per-thread allocation
     * counter (every byte allocated, garbage included, so an upper bound of what is live at once) on the gltf-transform
     * {@code draco} variants of the conformance models: 569 to 601 bytes per triangle on average for the meshes of
     * 4,000 triangles and more (BrainStem, CesiumMan), rounded up (smaller meshes allocate more per triangle, which
     * the per-stream charge covers: Fox's 576 triangles 1,074 each, 0.6 MB in all). The default budget of 1 GiB so
     * admits Draco meshes of about 1.5 million triangles.
     */
    static final int WORK_BYTES_PER_FACE = 640;

    /**
     * Bytes charged per stream whatever its size (its entropy decoders' lookup tables): measured as above, up to
     * 222 KB for quad_skin's two triangles.
     */
    static final int WORK_BYTES_PER_STREAM = 512 * 1024;

    /**
     * One decoded attribute.
     *
     * @param uniqueId its Draco unique id (what {@code KHR_draco_mesh_compression.attributes} refers to)
     * @param dracoType the Draco data type's name (e.g. {@code UINT16}), for messages
     * @param componentType the glTF component type of the same representation, or {@code null} when glTF has none
     *     ({@code INT32}, {@code FLOAT64}, …)
     * @param components components per value
     * @param values the value of every point in point order, components little-endian and tightly packed
     */
    record Attribute(int uniqueId, String dracoType, ComponentType componentType, int components, byte[] values) {
    }

    /**
     * A decoded mesh.
     *
     * @param header its stream header
     * @param points the number of points (vertices) every attribute has a value for
     * @param indices three point indices per triangle, each below {@code points} (when attributes were asked for)
     * @param attributes the requested attributes by unique id
     */
    record Mesh(DracoStreamHeader header, int points, int[] indices, Map<Integer, Attribute> attributes) {
    }

    private DracoDecoder() {
    }

    /**
     * Decodes the Draco mesh in {@code length} bytes of {@code data} at {@code offset}.
     *
     * @param header its header, already read (and its counts checked by the caller)
     * @param wanted the unique ids of the attributes to return
     * @param where the element the stream belongs to, for messages
     * @throws ImportException (invalid) when the data does not decode, a wanted attribute is missing or a triangle
     *     names a point that does not exist; (too large) past the decode budget
     */
    static Mesh decode(byte[] data, int offset, int length, DracoStreamHeader header, Set<Integer> wanted,
            DecodeBudget budget, String where) {
        budget.charge(length, 1, where + " Draco data");
        budget.charge(header.faces() + WORK_BYTES_PER_STREAM / WORK_BYTES_PER_FACE, WORK_BYTES_PER_FACE,
                where + " Draco decoding");
        byte[] stream = Arrays.copyOfRange(data, offset, offset + length);
        DracoPointCloud decoded = watched(stream, budget, where);
        budget.checkTimeNow();
        if (!(decoded instanceof DracoMesh mesh)) {
            throw ImportException.invalid(where + ": the Draco data is corrupt (the decoder could not read its "
                    + header.methodName() + " mesh)");
        }
        int points = mesh.getNumPoints();
        int faces = mesh.getNumFaces();
        if (faces != header.faces()) {
            throw ImportException.invalid(where + ": the Draco data decoded to " + faces + " triangles but declares "
                    + header.faces());
        }
        // a stream without attributes holds only triangles (its point count may be 0): their bound is then the
        // accessors' count, which the mesh decoder checks
        int[] indices = indices(mesh, wanted.isEmpty() ? Integer.MAX_VALUE : points, budget, where);
        Map<Integer, Attribute> attributes = new HashMap<>();
        for (int id : wanted) {
            PointAttribute a = byUniqueId(mesh, id);
            if (a == null) {
                throw ImportException.invalid(where + ": the Draco data has no attribute with unique id " + id);
            }
            attributes.put(id, values(a, id, points, budget, where));
        }
        return new Mesh(header, points, indices, attributes);
    }

    /**
     * Decodes still running past their import's deadline: their streams made the library loop (it lacks the guard
     * Google's decoder has against a corner-table cycle in edgebreaker's split symbols: found by fuzzing), and a Java
     * thread cannot be stopped. Each keeps a daemon thread busy until the process ends.
     */
    private static final AtomicInteger RUNAWAY = new AtomicInteger();

    /** At most this many runaway decodes: past it Draco is refused rather than let more threads spin. */
    static final int MAX_RUNAWAY = 2;

    /** Runaway decodes now (for tests). */
    static int runaway() {
        return RUNAWAY.get();
    }

    /**
     * {@code Draco.decode} on a thread of its own, waited for until the import's deadline, so that a stream the
     * library loops on is a 422 within the parse time rather than a parsing thread lost for good; every failure of the
     * library an {@link ImportException}.
     */
    private static DracoPointCloud watched(byte[] stream, DecodeBudget budget, String where) {
        budget.checkTimeNow();
        if (RUNAWAY.get() >= MAX_RUNAWAY) {
            throw ImportException.invalid(where + ": Draco decoding is refused: " + MAX_RUNAWAY + " earlier corrupt "
                    + "Draco streams still hold the decoder (it loops on them until the service restarts)");
        }
        // 0 running, 1 finished, 2 abandoned (past the deadline)
        AtomicInteger state = new AtomicInteger();
        Object[] outcome = new Object[1];
        Thread worker = Thread.ofPlatform().daemon().name("draco-decode").stackSize(4L << 20).unstarted(() -> {
            try {
                outcome[0] = Draco.decode(stream);
            } catch (Throwable e) {
                outcome[0] = e;
            } finally {
                if (!state.compareAndSet(0, 1)) {
                    RUNAWAY.decrementAndGet();
                }
            }
        });
        worker.start();
        long remaining = budget.limits().parseTime().toNanos() - budget.elapsedNanos();
        try {
            worker.join(java.time.Duration.ofNanos(Math.max(1, remaining)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (state.compareAndSet(0, 2)) {
            RUNAWAY.incrementAndGet();
            if (Thread.currentThread().isInterrupted()) {
                budget.checkTimeNow(); // the parse was cancelled: that message
            }
            throw ImportException.invalid(where + ": the Draco data is corrupt or too slow to decode: its decoding did "
                    + "not end within the parse time of " + budget.limits().parseTime().toMillis() + " ms ("
                    + ImportLimits.PARSE_TIME + ")");
        }
        Object result = outcome[0];
        if (result instanceof StackOverflowError) {
            throw ImportException.invalid(where + ": the Draco data is corrupt (a value runs on past its bytes)");
        }
        if (result instanceof OutOfMemoryError) {
            // one allocation sized by a corrupt count, refused by the heap: nothing else was taken
            throw ImportException.tooLarge(where + ": the Draco data declares more than the heap can hold");
        }
        if (result instanceof DrakoException || result instanceof RuntimeException) {
            throw ImportException.invalid(where + ": the Draco data is corrupt (" + describe((Throwable) result) + ")");
        }
        if (result instanceof Error error) {
            throw error;
        }
        return (DracoPointCloud) result;
    }

    private static String describe(Throwable e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + Json.shorten(m, 120));
    }

    private static int[] indices(DracoMesh mesh, int points, DecodeBudget budget, String where) {
        IntList faces = mesh.getIndices();
        int n = faces.getCount();
        budget.charge(n, 4, where + " Draco indices");
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            int v = faces.get(i);
            if (v < 0 || v >= points) {
                throw ImportException.invalid(where + ": Draco triangle " + i / 3 + " names point "
                        + Integer.toUnsignedLong(v) + (points == Integer.MAX_VALUE ? "" : " of " + points));
            }
            out[i] = v;
        }
        return out;
    }

    private static PointAttribute byUniqueId(DracoMesh mesh, int id) {
        for (int i = 0; i < mesh.getNumAttributes(); i++) {
            PointAttribute a = mesh.attribute(i);
            if ((a.getUniqueId() & 0xFFFF) == id) {
                return a;
            }
        }
        return null;
    }

    /** Every point's value of {@code a}, copied raw through the point-to-value map. */
    private static Attribute values(PointAttribute a, int id, int points, DecodeBudget budget, String where) {
        int type = a.getDataType();
        int size = dataTypeSize(type);
        int components = a.getComponentsCount();
        String aw = where + " Draco attribute " + id;
        if (size == 0 || components < 1 || components > 16) {
            throw ImportException.invalid(aw + " has data type " + dataTypeName(type) + " with " + components
                    + " components, which glTF cannot hold");
        }
        int valueSize = size * components;
        budget.charge((long) points, valueSize, aw);
        byte[] out = new byte[points * valueSize];
        byte[] source = a.getBuffer() == null ? new byte[0] : a.getBuffer().getBuffer();
        int stride = a.getByteStride();
        int base = a.getByteOffset();
        int entries = a.getNumUniqueEntries();
        for (int p = 0; p < points; p++) {
            int entry = a.mappedIndex(p);
            long at = base + (long) stride * entry;
            if (entry < 0 || entry >= entries || at < 0 || at + valueSize > source.length) {
                throw ImportException.invalid(aw + ": point " + p + " maps to value " + entry + " of " + entries);
            }
            System.arraycopy(source, (int) at, out, p * valueSize, valueSize);
        }
        return new Attribute(id, dataTypeName(type), componentType(type), components, out);
    }

    private static int dataTypeSize(int type) {
        return switch (type) {
            case DataType.INT8, DataType.UINT8 -> 1;
            case DataType.INT16, DataType.UINT16 -> 2;
            case DataType.INT32, DataType.UINT32, DataType.FLOAT32 -> 4;
            case DataType.INT64, DataType.UINT64, DataType.FLOAT64 -> 8;
            default -> 0;
        };
    }

    private static ComponentType componentType(int type) {
        return switch (type) {
            case DataType.INT8 -> ComponentType.BYTE;
            case DataType.UINT8 -> ComponentType.UNSIGNED_BYTE;
            case DataType.INT16 -> ComponentType.SHORT;
            case DataType.UINT16 -> ComponentType.UNSIGNED_SHORT;
            case DataType.UINT32 -> ComponentType.UNSIGNED_INT;
            case DataType.FLOAT32 -> ComponentType.FLOAT;
            default -> null;
        };
    }

    private static String dataTypeName(int type) {
        return switch (type) {
            case DataType.INT8 -> "INT8";
            case DataType.UINT8 -> "UINT8";
            case DataType.INT16 -> "INT16";
            case DataType.UINT16 -> "UINT16";
            case DataType.INT32 -> "INT32";
            case DataType.UINT32 -> "UINT32";
            case DataType.INT64 -> "INT64";
            case DataType.UINT64 -> "UINT64";
            case DataType.FLOAT32 -> "FLOAT32";
            case DataType.FLOAT64 -> "FLOAT64";
            case DataType.BOOL -> "BOOL";
            default -> "type " + type;
        };
    }
}
