package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.EmscriptenHost.call;

import com.dylibso.chicory.runtime.ByteArrayMemory;
import com.dylibso.chicory.runtime.ImportValues;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Memory;
import com.dylibso.chicory.wasm.types.MemoryLimits;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.gltf.draco.DracoWasm;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * posekit's adapter of the Draco decoder it uses: Google's own decoder ({@code draco_decoder_gltf.wasm} of npm
 * {@code draco3dgltf} 1.5.7, vendored in {@code src/main/wasm/draco} with its Apache-2.0 licence), compiled from
 * WebAssembly to JVM classes at build time ({@link DracoWasm}, by Chicory's compiler) and run by Chicory's runtime. The
 * only class that sees the module or the runtime. It decodes one Draco mesh bitstream into its triangles and the
 * attributes it is asked for, per point, as raw little-endian values in Draco's own data type.
 *
 * <p>Why WebAssembly: the decoder is Google's with Google's guards (its output is the golden files' by construction),
 * and a WebAssembly instance is bounded by construction. Each decode gets an instance of its own whose linear memory
 * (the decoder's whole heap, stack and data) is capped at {@link #memoryCap} bytes, checked against what is left of
 * the import's {@link DecodeBudget} before it starts and given back when it ends: an allocation past the cap fails
 * inside the decoder (a 413 naming the cap), never the JVM's heap. The decode runs on a thread of its own,
 * interrupted at the import's deadline: the compiled module checks its thread's interrupt on every loop and call, so
 * a stream that would make the decoder run long stops there (a 422) and its thread ends; no thread is left running.
 *
 * <p>What the module imports, and what stands in for it (Emscripten's names; the module's are minified, {@code a.a}
 * to {@code a.d}, mapped by its npm glue {@code draco_decoder_gltf_nodejs.js}): {@code abort} and
 * {@code __cxa_throw} end the decode ({@link Failure}); {@code emscripten_resize_heap} grows the memory up to the
 * cap; {@code emscripten_memcpy_big} copies within it. The exports are called by their minified names too (the
 * table {@code E_*} below, from the same glue): they are only valid for the vendored file, which
 * {@code tools/draco-golden/run.sh} checks is npm's.
 *
 * <p>Stateless and thread-safe (an instance per decode).
 */
final class DracoDecoder {

    /** Bytes of a WebAssembly page. */
    private static final int PAGE = EmscriptenHost.PAGE;

    /**
     * The module's own initial memory (256 pages, 16 MiB: its data, its 5 MiB stack and the start of its heap):
     * every decode's memory starts at it.
     */
    static final long BASE_MEMORY = 256L * PAGE;

    /**
     * Bytes of decoder memory allowed per declared triangle beyond {@link #BASE_MEMORY} and the stream's own bytes:
     * the decoder's corner table, traversal and attribute buffers, and the triangles and values copied out. Measured
     * (the instance's pages after the decode; docs/performance.md): every primitive of the conformance models' Draco
     * variants stays within the 16 MiB base (BrainStem's largest has 3,000 triangles), and an edgebreaker grid of
     * 977,202 triangles takes 62 MiB, 50 bytes a triangle; the values copied out add 12 bytes a triangle for the
     * indices and up to 216 for the attributes of three unshared points of 72 bytes each (a sequential stream of
     * positions, normals, tangents, two texture coordinate sets, joints and weights), so a decoder's copy and ours
     * fit in 512.
     */
    static final int MEMORY_PER_FACE = 512;

    /** The largest memory a 32-bit WebAssembly instance addresses: 65,536 pages, 4 GiB. */
    private static final long MAX_MEMORY = 65_536L * PAGE;

    /**
     * The memory cap of one decode, in bytes: {@link #BASE_MEMORY}, {@link #MEMORY_PER_FACE} per declared triangle
     * and twice the stream's length (its copy in the decoder's memory and its decoder buffer), rounded up to whole
     * pages. Checked against what is left of the import's budget before the decode starts; the decode's memory is
     * given back when it ends (only the values it returns stay charged).
     */
    static long memoryCap(DracoStreamHeader header, int length) {
        long bytes = BASE_MEMORY + (long) MEMORY_PER_FACE * header.faces() + 2L * length;
        return (bytes + PAGE - 1) / PAGE * PAGE;
    }

    // the exports, by their minified names (see the class comment)
    private static final String E_CTORS = "f";
    private static final String E_MALLOC = "Qb";
    private static final String E_DECODER = "Ja";
    private static final String E_MESH = "P";
    private static final String E_DECODE_ARRAY_TO_MESH = "La";
    private static final String E_STATUS_CODE = "W";
    private static final String E_STATUS_MESSAGE = "Y";
    private static final String E_MESH_FACES = "Q";
    private static final String E_MESH_POINTS = "S";
    private static final String E_ATTRIBUTE_BY_UNIQUE_ID = "Qa";
    private static final String E_ATTRIBUTE_DATA_TYPE = "u";
    private static final String E_ATTRIBUTE_COMPONENTS = "v";
    private static final String E_TRIANGLES_UINT32 = "Wa";
    private static final String E_ATTRIBUTE_DATA_FOR_ALL_POINTS = "eb";

    /**
     * One decoded attribute.
     *
     * @param uniqueId its Draco unique id (what {@code KHR_draco_mesh_compression.attributes} refers to)
     * @param dracoType the Draco data type's name (e.g. {@code UINT16}), for messages
     * @param componentType the glTF component type of the same representation, or {@code null} when glTF has none
     *     ({@code INT32})
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
     * @throws ImportException (invalid) when the data does not decode, the decode outlives the import's deadline, a
     *     wanted attribute is missing or a triangle names a point that does not exist; (too large) past the decode
     *     budget, or when the decoder needs more memory than its cap
     */
    static Mesh decode(byte[] data, int offset, int length, DracoStreamHeader header, Set<Integer> wanted,
            DecodeBudget budget, String where) {
        return decode(data, offset, length, header, wanted, budget, where, memoryCap(header, length));
    }

    /**
     * {@link #decode(byte[], int, int, DracoStreamHeader, Set, DecodeBudget, String)} with a memory cap of {@code cap}
     * bytes (whole pages) instead of {@link #memoryCap}.
     */
    static Mesh decode(byte[] data, int offset, int length, DracoStreamHeader header, Set<Integer> wanted,
            DecodeBudget budget, String where, long cap) {
        if (cap > budget.remaining() || cap > MAX_MEMORY) {
            throw ImportException.tooLarge(where + " Draco decoding needs " + cap + " bytes"
                    + (cap > MAX_MEMORY ? ", more than a WebAssembly decoder addresses (" + MAX_MEMORY + ")"
                            : ", which takes the import past its limit of " + budget.limitBytes()
                                    + " decoded bytes (" + ImportLimits.DECODED_BYTES + ")"));
        }
        budget.checkTimeNow();
        Duration remaining = budget.limits().parseTime().minusNanos(budget.elapsedNanos());
        Decoded decoded = watched(() -> run(data, offset, length, wanted, cap), remaining, budget, where, cap);
        budget.checkTimeNow();
        if (decoded.error != null) {
            throw ImportException.invalid(where + ": the Draco data is corrupt (Google's decoder: "
                    + Json.shorten(decoded.error, 120) + ")");
        }
        if (decoded.faces != header.faces()) {
            throw ImportException.invalid(where + ": the Draco data decoded to " + decoded.faces
                    + " triangles but declares " + header.faces());
        }
        int points = decoded.points;
        // a stream without attributes holds only triangles (its point count may be 0): their bound is then the
        // accessors' count, which the mesh decoder checks
        int bound = wanted.isEmpty() ? Integer.MAX_VALUE : points;
        int[] indices = decoded.indices;
        for (int i = 0; i < indices.length; i++) {
            int v = indices[i];
            if (v < 0 || v >= bound) {
                throw ImportException.invalid(where + ": Draco triangle " + i / 3 + " names point "
                        + Integer.toUnsignedLong(v) + (bound == Integer.MAX_VALUE ? "" : " of " + points));
            }
        }
        Map<Integer, Attribute> attributes = new HashMap<>();
        for (int id : wanted) {
            RawAttribute a = decoded.attributes.get(id);
            String aw = where + " Draco attribute " + id;
            if (a == null) {
                throw ImportException.invalid(where + ": the Draco data has no attribute with unique id " + id);
            }
            if (a.values == null) {
                throw ImportException.invalid(aw + " has data type " + dataTypeName(a.type) + " with " + a.components
                        + " components, which glTF cannot hold");
            }
            attributes.put(id, new Attribute(id, dataTypeName(a.type), componentType(a.type), a.components, a.values));
        }
        return new Mesh(header, points, indices, attributes);
    }

    /** What the decoder gave, copied out of its memory; {@code error} when it refused the stream. */
    private record Decoded(String error, int faces, int points, int[] indices, Map<Integer, RawAttribute> attributes) {
    }

    /** One attribute as the decoder holds it; {@code values} null when glTF has no such type. */
    private record RawAttribute(int type, int components, byte[] values) {
    }

    /** The module ended the decode: {@code abort}, a C++ exception, or a refused allocation. */
    static final class Failure extends RuntimeException {
        Failure(String message) {
            super(message, null, false, false);
        }
    }

    /** The decoder asked for more memory than its cap ({@code emscripten_resize_heap} refused). */
    static final class OutOfMemory extends RuntimeException {
        OutOfMemory() {
            super(null, null, false, false);
        }
    }

    private static final ImportValues IMPORTS = EmscriptenHost.imports(() -> new Failure("abort"),
            () -> new Failure("a C++ exception"), cap -> new OutOfMemory());

    /** One decode in a fresh instance whose memory is capped at {@code cap} bytes. */
    private static Decoded run(byte[] data, int offset, int length, Set<Integer> wanted, long cap) {
        int maxPages = (int) (cap / PAGE);
        Instance instance = Instance.builder(DracoWasm.load())
                .withMachineFactory(DracoWasm::create)
                .withImportValues(IMPORTS)
                .withMemoryFactory(limits -> new ByteArrayMemory(new MemoryLimits(limits.initialPages(), maxPages)))
                .build();
        Memory memory = instance.memory();
        call(instance, E_CTORS);
        int decoder = call(instance, E_DECODER);
        int mesh = call(instance, E_MESH);
        int in = malloc(instance, length);
        memory.write(in, data, offset, length);
        int status = call(instance, E_DECODE_ARRAY_TO_MESH, decoder, in, length, mesh);
        if (call(instance, E_STATUS_CODE, status) != 0) {
            return new Decoded(cString(memory, call(instance, E_STATUS_MESSAGE, status), 200), 0, 0, null, null);
        }
        int faces = call(instance, E_MESH_FACES, mesh);
        int points = call(instance, E_MESH_POINTS, mesh);
        int indexBytes = Math.multiplyExact(faces, 12);
        int out = malloc(instance, indexBytes);
        if (call(instance, E_TRIANGLES_UINT32, decoder, mesh, indexBytes, out) == 0) {
            return new Decoded("its triangles could not be read", 0, 0, null, null);
        }
        int[] indices = new int[faces * 3];
        for (int i = 0; i < indices.length; i++) {
            indices[i] = memory.readInt(out + 4 * i);
        }
        Map<Integer, RawAttribute> attributes = new HashMap<>();
        for (int id : wanted) {
            int attribute = call(instance, E_ATTRIBUTE_BY_UNIQUE_ID, decoder, mesh, id);
            if (attribute == 0) {
                continue;
            }
            int type = call(instance, E_ATTRIBUTE_DATA_TYPE, attribute);
            int components = call(instance, E_ATTRIBUTE_COMPONENTS, attribute);
            int size = dataTypeSize(type);
            // 64-bit and boolean values: the decoder has no reader for them, and glTF no type
            if (size == 0 || size == 8 || components < 1 || components > 16) {
                attributes.put(id, new RawAttribute(type, components, null));
                continue;
            }
            int bytes = Math.multiplyExact(Math.multiplyExact(points, components), size);
            int values = malloc(instance, bytes);
            if (call(instance, E_ATTRIBUTE_DATA_FOR_ALL_POINTS, decoder, mesh, attribute, type, bytes, values) == 0) {
                return new Decoded("attribute " + id + "'s values could not be read", 0, 0, null, null);
            }
            attributes.put(id, new RawAttribute(type, components, memory.readBytes(values, bytes)));
        }
        return new Decoded(null, faces, points, indices, attributes);
    }

    private static int malloc(Instance instance, int bytes) {
        return EmscriptenHost.malloc(instance, E_MALLOC, bytes, OutOfMemory::new);
    }

    private static String cString(Memory memory, int at, int max) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < max && at != 0; i++) {
            int c = memory.read(at + i) & 0xFF;
            if (c == 0) {
                break;
            }
            b.append(c >= 32 && c < 127 ? (char) c : '?');
        }
        return b.toString();
    }

    /**
     * {@code task} on a platform thread of its own (the compiled module recurses on the JVM's stack: 4 MiB),
     * interrupted at the import's deadline or when the importing thread is; every failure an {@link ImportException}.
     */
    private static Decoded watched(java.util.concurrent.Callable<Decoded> task, Duration remaining,
            DecodeBudget budget, String where, long cap) {
        Object[] outcome = new Object[1];
        Thread worker = Thread.ofPlatform().daemon().name("draco-decode").stackSize(4L << 20).unstarted(() -> {
            try {
                outcome[0] = task.call();
            } catch (Throwable e) {
                outcome[0] = e;
            }
        });
        worker.start();
        boolean cancelled = false;
        try {
            if (remaining.isPositive()) {
                worker.join(remaining);
            }
        } catch (InterruptedException e) {
            cancelled = true;
        }
        if (worker.isAlive()) {
            worker.interrupt();
            // the module sees the interrupt at its next loop iteration or call: microseconds
            boolean ended = joinQuietly(worker, Duration.ofSeconds(5));
            if (cancelled) {
                Thread.currentThread().interrupt();
                budget.checkTimeNow(); // the parse was cancelled: that message
            }
            throw ImportException.invalid(where + ": the Draco data is corrupt or too slow to decode: its decoding did "
                    + "not end within the parse time of " + budget.limits().parseTime().toMillis() + " ms ("
                    + ImportLimits.PARSE_TIME + ")" + (ended ? "" : " and its thread did not stop"));
        }
        if (cancelled) {
            Thread.currentThread().interrupt();
        }
        Object result = outcome[0];
        if (result instanceof Decoded d) {
            return d;
        }
        if (result instanceof OutOfMemory) {
            throw ImportException.tooLarge(where + ": the Draco data needs more than the " + cap
                    + " bytes of memory its decoder is given (16 MiB, " + MEMORY_PER_FACE + " a declared triangle and "
                    + "twice the stream's length)");
        }
        if (result instanceof Failure f) {
            throw ImportException.invalid(where + ": the Draco data is corrupt (Google's decoder stopped: "
                    + f.getMessage() + ")");
        }
        if (result instanceof StackOverflowError) {
            throw ImportException.invalid(where + ": the Draco data is corrupt (its decoding recursed too deeply)");
        }
        if (result instanceof ArithmeticException) {
            throw ImportException.tooLarge(where + ": the Draco data decodes to more values than an array holds");
        }
        if (result instanceof RuntimeException e) {
            // a trap (an out-of-bounds access or unreachable code inside the module): Google's decoder reached a state
            // it does not expect on this stream
            throw ImportException.invalid(where + ": the Draco data is corrupt (Google's decoder trapped: "
                    + describe(e) + ")");
        }
        if (result instanceof Error error) {
            throw error;
        }
        throw new IllegalStateException("the decode gave " + result);
    }

    private static boolean joinQuietly(Thread t, Duration d) {
        try {
            return t.join(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !t.isAlive();
        }
    }

    private static String describe(Throwable e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + Json.shorten(m, 120));
    }

    // Draco's DataType enum (draco/core/draco_types.h)
    private static final int INT8 = 1;
    private static final int UINT8 = 2;
    private static final int INT16 = 3;
    private static final int UINT16 = 4;
    private static final int INT32 = 5;
    private static final int UINT32 = 6;
    private static final int INT64 = 7;
    private static final int UINT64 = 8;
    private static final int FLOAT32 = 9;
    private static final int FLOAT64 = 10;
    private static final int BOOL = 11;

    private static int dataTypeSize(int type) {
        return switch (type) {
            case INT8, UINT8 -> 1;
            case INT16, UINT16 -> 2;
            case INT32, UINT32, FLOAT32 -> 4;
            case INT64, UINT64, FLOAT64 -> 8;
            default -> 0;
        };
    }

    private static ComponentType componentType(int type) {
        return switch (type) {
            case INT8 -> ComponentType.BYTE;
            case UINT8 -> ComponentType.UNSIGNED_BYTE;
            case INT16 -> ComponentType.SHORT;
            case UINT16 -> ComponentType.UNSIGNED_SHORT;
            case UINT32 -> ComponentType.UNSIGNED_INT;
            case FLOAT32 -> ComponentType.FLOAT;
            default -> null;
        };
    }

    private static String dataTypeName(int type) {
        return switch (type) {
            case INT8 -> "INT8";
            case UINT8 -> "UINT8";
            case INT16 -> "INT16";
            case UINT16 -> "UINT16";
            case INT32 -> "INT32";
            case UINT32 -> "UINT32";
            case INT64 -> "INT64";
            case UINT64 -> "UINT64";
            case FLOAT32 -> "FLOAT32";
            case FLOAT64 -> "FLOAT64";
            case BOOL -> "BOOL";
            default -> "type " + type;
        };
    }
}
