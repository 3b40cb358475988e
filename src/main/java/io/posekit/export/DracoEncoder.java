package io.posekit.export;

import static io.posekit.asset.gltf.EmscriptenHost.call;

import com.dylibso.chicory.runtime.ByteArrayMemory;
import com.dylibso.chicory.runtime.ImportValues;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Memory;
import com.dylibso.chicory.wasm.types.MemoryLimits;
import io.posekit.asset.gltf.EmscriptenHost;
import io.posekit.export.draco.DracoEncoderWasm;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * posekit's adapter of the Draco encoder it uses: Google's own encoder ({@code draco_encoder.wasm} of npm
 * {@code draco3dgltf} 1.5.7, vendored in {@code src/main/wasm/draco} with its Apache-2.0 licence), compiled from
 * WebAssembly to JVM classes at build time ({@link DracoEncoderWasm}, by Chicory's compiler) and run by Chicory's
 * runtime, called as glTF Transform's {@code draco()} calls it. The only class that sees the module or the runtime. It
 * encodes one triangle mesh (indices and per-vertex attributes) into one Draco mesh bitstream.
 *
 * <p>What the encoder does to the mesh (Google's {@code Encoder::EncodeMeshToDracoBuffer}): it merges equal attribute
 * values and points, so the decoded mesh has {@link Encoded#points} points (at most the input's vertices) in the
 * order the method chose, and the same triangles over them; float attributes are quantized with the bits asked for
 * (per attribute type, as glTF Transform's defaults), integer attributes are kept exactly.
 *
 * <p>Bounds: each encode gets an instance of its own whose linear memory is capped at {@link #memoryCap} bytes (an
 * allocation past it fails inside the encoder); the encode runs on a thread of its own, interrupted at its deadline or
 * when the calling thread is interrupted (the compiled module checks the interrupt on every loop and call). Every
 * failure is an {@link IllegalArgumentException} naming the mesh.
 *
 * <p>What the module imports (Emscripten's names; the module's are minified, {@code a.a} to {@code a.d}, mapped by its
 * npm glue {@code draco_encoder_gltf_nodejs.js}): {@code abort} and {@code __cxa_throw} end the encode;
 * {@code emscripten_resize_heap} grows the memory up to the cap; {@code emscripten_memcpy_big} copies within it. The
 * exports are called by their minified names (the table {@code E_*} below, from the same glue): they are only valid
 * for the vendored file. Stateless and thread-safe (an instance per encode).
 */
final class DracoEncoder {

    private static final int PAGE = EmscriptenHost.PAGE;

    /** The module's initial memory (256 pages, 16 MiB: its data, stack and the start of its heap). */
    static final long BASE_MEMORY = 256L * PAGE;

    /**
     * Bytes of encoder memory allowed per input byte (the attribute values and indices handed to it) beyond
     * {@link #BASE_MEMORY}: the copy of the input, the mesh and its corner table, the deduplication maps, the
     * traversal's and the quantizers' buffers and the output. Measured (DracoExportTest's grid): 300 × 300 vertices
     * (3.2 MB of positions and indices) peak at 20.7 MB, 550 × 550 (10.9 MB) at 70 MB: up to 5 bytes per input byte
     * beyond the base; the cap allows about five times that.
     */
    static final int MEMORY_PER_INPUT_BYTE = 24;

    /** The largest memory a 32-bit WebAssembly instance addresses: 65,536 pages, 4 GiB. */
    private static final long MAX_MEMORY = 65_536L * PAGE;

    /** The memory cap of an encode of {@code inputBytes} bytes of attributes and indices, in whole pages. */
    static long memoryCap(long inputBytes) {
        long bytes = BASE_MEMORY + MEMORY_PER_INPUT_BYTE * inputBytes;
        return Math.min(MAX_MEMORY, (bytes + PAGE - 1) / PAGE * PAGE);
    }

    // Draco's GeometryAttribute::Type (draco/attributes/geometry_attribute.h)
    static final int POSITION = 0;
    static final int NORMAL = 1;
    static final int COLOR = 2;
    static final int TEX_COORD = 3;
    static final int GENERIC = 4;

    // draco::MeshEncoderMethod
    static final int MESH_SEQUENTIAL_ENCODING = 0;
    static final int MESH_EDGEBREAKER_ENCODING = 1;

    // the exports, by their minified names (see the class comment)
    private static final String E_CTORS = "f";
    private static final String E_MALLOC = "Wa";
    private static final String E_MESH = "y";
    private static final String E_MESH_BUILDER = "aa";
    private static final String E_ADD_FACES = "ba";
    private static final String E_ADD_FLOAT = "fa";
    private static final String E_ADD_INT8 = "ga";
    private static final String E_ADD_UINT8 = "ha";
    private static final String E_ADD_INT16 = "ia";
    private static final String E_ADD_UINT16 = "ja";
    private static final String E_ADD_UINT32 = "la";
    private static final String E_SET_NORMALIZED = "oa";
    private static final String E_ENCODER = "qa";
    private static final String E_SET_METHOD = "ra";
    private static final String E_SET_QUANTIZATION = "sa";
    private static final String E_SET_SPEED = "ua";
    private static final String E_TRACK_PROPERTIES = "va";
    private static final String E_ENCODE_MESH = "wa";
    private static final String E_ENCODED_POINTS = "ya";
    private static final String E_ENCODED_FACES = "za";
    private static final String E_INT8_ARRAY = "G";
    private static final String E_INT8_ARRAY_GET = "H";

    /** The glTF component types an attribute's values may have (their bytes little-endian, tightly packed). */
    enum ValueType {
        FLOAT(4, E_ADD_FLOAT),
        BYTE(1, E_ADD_INT8),
        UNSIGNED_BYTE(1, E_ADD_UINT8),
        SHORT(2, E_ADD_INT16),
        UNSIGNED_SHORT(2, E_ADD_UINT16),
        UNSIGNED_INT(4, E_ADD_UINT32);

        final int size;
        private final String add;

        ValueType(int size, String add) {
            this.size = size;
            this.add = add;
        }
    }

    /**
     * One attribute to encode.
     *
     * @param dracoType its Draco type ({@link #POSITION}, {@link #NORMAL}, {@link #COLOR}, {@link #TEX_COORD},
     *     {@link #GENERIC})
     * @param type its component type
     * @param components components per vertex (1 to 4)
     * @param normalized whether its integers are normalized (glTF's {@code normalized}; kept in the stream)
     * @param values every vertex's components, little-endian, tightly packed
     */
    record Attribute(int dracoType, ValueType type, int components, boolean normalized, byte[] values) {
    }

    /**
     * How to encode: glTF Transform's {@code draco()} options.
     *
     * @param method {@link #MESH_EDGEBREAKER_ENCODING} or {@link #MESH_SEQUENTIAL_ENCODING}
     * @param encodeSpeed, decodeSpeed 0 (smallest) to 10 (fastest)
     * @param bits quantization bits by Draco attribute type (index {@link #POSITION} … {@link #GENERIC})
     */
    record Settings(int method, int encodeSpeed, int decodeSpeed, int[] bits) {

        /**
         * glTF Transform's defaults: edgebreaker, speeds 5 and 5, positions 14 bits, normals 10, colours 8, texture
         * coordinates 12, generic attributes (tangents, joints, weights) 12.
         */
        static final Settings DEFAULT = new Settings(MESH_EDGEBREAKER_ENCODING, 5, 5, new int[] {14, 10, 8, 12, 12});
    }

    /**
     * A Draco stream and what it decodes to.
     *
     * @param stream the bitstream
     * @param points the points (vertices) it decodes to
     * @param faces the triangles it decodes to
     * @param ids the unique id of each attribute in the stream, in the order they were given
     * @param memoryBytes the encoder's memory when it ended, in bytes: its peak (WebAssembly memory never shrinks)
     */
    record Encoded(byte[] stream, int points, int faces, int[] ids, long memoryBytes) {
    }

    /** The module ended the encode: {@code abort}, a C++ exception, or memory past the cap. */
    private static final class Failure extends RuntimeException {
        Failure(String message) {
            super(message, null, false, false);
        }
    }

    private DracoEncoder() {
    }

    private static final ImportValues IMPORTS = EmscriptenHost.imports(() -> new Failure("the encoder aborted"),
            () -> new Failure("the encoder threw a C++ exception (out of memory)"),
            cap -> new Failure("the encoder needs more than its memory cap of " + cap + " bytes"));

    /**
     * Encodes the triangles {@code indices} (three vertex indices per triangle, each below the attributes' vertex
     * count) over {@code attributes} (the first of type {@link #POSITION}; Draco needs one).
     *
     * @param vertices the vertex count every attribute has values for
     * @param deadline when the encode must have ended, in {@link System#nanoTime()}'s time
     * @param limit the time limit that deadline comes from, for the message
     * @param where names the mesh in messages
     * @throws IllegalArgumentException when the encoder refuses the mesh, needs more than its memory cap, or outlives
     *     the deadline (the message names {@code where})
     */
    static Encoded encode(int[] indices, int vertices, List<Attribute> attributes, Settings settings, long deadline,
            Duration limit, String where) {
        return encode(indices, vertices, attributes, settings, deadline, limit, where, -1);
    }

    /**
     * {@link #encode(int[], int, List, Settings, long, Duration, String)} with a memory cap of {@code cap} bytes
     * (whole pages; -1: {@link #memoryCap}).
     */
    static Encoded encode(int[] indices, int vertices, List<Attribute> attributes, Settings settings, long deadline,
            Duration limit, String where, long cap) {
        long input = 4L * indices.length;
        for (Attribute a : attributes) {
            if ((long) a.values().length != (long) vertices * a.components() * a.type().size) {
                throw new IllegalArgumentException(where + ": an attribute has " + a.values().length
                        + " bytes, not " + vertices + " vertices' worth");
            }
            input += a.values().length;
        }
        if (indices.length % 3 != 0) {
            throw new IllegalArgumentException(where + ": " + indices.length + " indices are not whole triangles");
        }
        long memory = cap < 0 ? memoryCap(input) : cap;
        return watched(() -> run(indices, vertices, attributes, settings, memory), deadline, limit, where);
    }

    private static Encoded run(int[] indices, int vertices, List<Attribute> attributes, Settings settings, long cap) {
        Instance instance = Instance.builder(DracoEncoderWasm.load())
                .withMachineFactory(DracoEncoderWasm::create)
                .withImportValues(IMPORTS)
                .withMemoryFactory(limits -> new ByteArrayMemory(new MemoryLimits(limits.initialPages(),
                        (int) (cap / PAGE))))
                .build();
        Memory memory = instance.memory();
        call(instance, E_CTORS);
        int builder = call(instance, E_MESH_BUILDER);
        int mesh = call(instance, E_MESH);
        int encoder = call(instance, E_ENCODER);
        int[] ids = new int[attributes.size()];
        for (int i = 0; i < ids.length; i++) {
            Attribute a = attributes.get(i);
            int at = malloc(instance, a.values().length);
            memory.write(at, a.values());
            int id = call(instance, a.type().add, builder, mesh, a.dracoType(), vertices, a.components(), at);
            if (id < 0) {
                throw new Failure("attribute " + i + " was refused");
            }
            if (a.normalized()) {
                call(instance, E_SET_NORMALIZED, builder, mesh, id, 1);
            }
            ids[i] = id;
        }
        int faces = indices.length / 3;
        int at = malloc(instance, 4 * indices.length);
        byte[] bytes = new byte[4 * indices.length];
        java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(indices);
        memory.write(at, bytes);
        call(instance, E_ADD_FACES, builder, mesh, faces, at);
        for (int type = POSITION; type <= GENERIC; type++) {
            call(instance, E_SET_QUANTIZATION, encoder, type, settings.bits()[type]);
        }
        call(instance, E_SET_SPEED, encoder, settings.encodeSpeed(), settings.decodeSpeed());
        call(instance, E_TRACK_PROPERTIES, encoder, 1);
        call(instance, E_SET_METHOD, encoder, settings.method());
        int out = call(instance, E_INT8_ARRAY);
        int length = call(instance, E_ENCODE_MESH, encoder, mesh, out);
        if (length <= 0) {
            throw new Failure("the encoder refused the mesh");
        }
        // DracoInt8Array holds one std::vector<int8_t>: its first word is the data's address
        int data = memory.readInt(out);
        byte[] stream = memory.readBytes(data, length);
        if (call(instance, E_INT8_ARRAY_GET, out, 0) != stream[0]
                || call(instance, E_INT8_ARRAY_GET, out, length - 1) != stream[length - 1]) {
            throw new IllegalStateException("the encoder's output is not where DracoInt8Array keeps it");
        }
        return new Encoded(stream, call(instance, E_ENCODED_POINTS, encoder), call(instance, E_ENCODED_FACES, encoder),
                ids, (long) memory.pages() * PAGE);
    }

    private static int malloc(Instance instance, int bytes) {
        return EmscriptenHost.malloc(instance, E_MALLOC, bytes,
                () -> new Failure("the encoder's memory cap was reached"));
    }

    /**
     * {@code task} on a platform thread of its own (the compiled module recurses on the JVM's stack: 4 MiB),
     * interrupted at {@code deadline} or when the calling thread is; every failure an IllegalArgumentException.
     */
    private static Encoded watched(Callable<Encoded> task, long deadline, Duration limit, String where) {
        Object[] outcome = new Object[1];
        Thread worker = Thread.ofPlatform().daemon().name("draco-encode").stackSize(4L << 20).unstarted(() -> {
            try {
                outcome[0] = task.call();
            } catch (Throwable e) {
                outcome[0] = e;
            }
        });
        worker.start();
        boolean interrupted = false;
        try {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                worker.join(Duration.ofNanos(left));
            }
        } catch (InterruptedException e) {
            interrupted = true;
        }
        if (worker.isAlive()) {
            worker.interrupt();
            try {
                worker.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                interrupted = true;
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalArgumentException(where + ": Draco compression did not end within its time limit of "
                    + limit.toMillis() + " ms" + (interrupted ? " (cancelled)" : ""));
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Object result = outcome[0];
        if (result instanceof Encoded e) {
            return e;
        }
        if (result instanceof Failure f) {
            throw new IllegalArgumentException(where + ": Draco compression failed: " + f.getMessage());
        }
        if (result instanceof StackOverflowError || result instanceof ArithmeticException) {
            throw new IllegalArgumentException(where + ": the mesh is too large to Draco-compress");
        }
        if (result instanceof IllegalStateException e) {
            throw e;
        }
        if (result instanceof RuntimeException e) {
            // a trap inside the module (out-of-bounds access, unreachable): the encoder failed on this mesh
            throw new IllegalArgumentException(where + ": Draco compression failed (the encoder trapped: "
                    + e.getClass().getSimpleName() + ")");
        }
        if (result instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("the encode gave " + result);
    }
}
