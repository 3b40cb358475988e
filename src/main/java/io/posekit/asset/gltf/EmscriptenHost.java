package io.posekit.asset.gltf;

import com.dylibso.chicory.runtime.ExportFunction;
import com.dylibso.chicory.runtime.HostFunction;
import com.dylibso.chicory.runtime.ImportValues;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Memory;
import com.dylibso.chicory.wasm.types.ValType;
import java.util.List;
import java.util.function.Supplier;

/**
 * What an Emscripten-built WebAssembly module of Google's Draco (the decoder {@link DracoDecoder}, the encoder
 * {@code io.posekit.export.DracoEncoder}) imports from its host, and how the host calls its exports, on Chicory's
 * runtime. The modules import exactly four functions, module {@code "a"}:
 * <ul>
 *   <li>{@code a}, {@code abort()}: the module's own assertion or {@code std::terminate} — throws {@code abort};</li>
 *   <li>{@code b}, {@code __cxa_throw(exception, type, destructor)}: the modules do not catch their C++ exceptions
 *       ({@code std::bad_alloc}, {@code std::length_error}), so one thrown ends the call — throws {@code thrown};</li>
 *   <li>{@code c}, {@code emscripten_resize_heap(bytes)}: grows the memory to at least that many bytes within its
 *       maximum (the caller's cap); past the cap throws what {@code overCap} makes of the cap in bytes (a refusal
 *       would make {@code malloc} answer null, which the modules do not all check);</li>
 *   <li>{@code d}, {@code emscripten_memcpy_big(destination, source, bytes)}: within the memory.</li>
 * </ul>
 */
public final class EmscriptenHost {

    /** A WebAssembly page, bytes. */
    public static final int PAGE = 65_536;

    private EmscriptenHost() {
    }

    /** The four imports, each failure thrown as the given supplier makes it. */
    public static ImportValues imports(Supplier<RuntimeException> abort, Supplier<RuntimeException> thrown,
            java.util.function.LongFunction<RuntimeException> overCap) {
        return ImportValues.builder().addFunction(
                new HostFunction("a", "a", List.of(), List.of(), (instance, args) -> {
                    throw abort.get();
                }),
                new HostFunction("a", "b", List.of(ValType.I32, ValType.I32, ValType.I32), List.of(),
                        (instance, args) -> {
                            throw thrown.get();
                        }),
                new HostFunction("a", "c", List.of(ValType.I32), List.of(ValType.I32), (instance, args) -> {
                    Memory memory = instance.memory();
                    long pages = ((args[0] & 0xFFFF_FFFFL) + PAGE - 1) / PAGE;
                    if (pages > memory.maximumPages()) {
                        throw overCap.apply((long) memory.maximumPages() * PAGE);
                    }
                    int grow = (int) Math.max(0, pages - memory.pages());
                    return new long[] {grow == 0 || memory.grow(grow) >= 0 ? 1 : 0};
                }),
                new HostFunction("a", "d", List.of(ValType.I32, ValType.I32, ValType.I32), List.of(),
                        (instance, args) -> {
                            Memory memory = instance.memory();
                            int n = (int) args[2];
                            memory.write((int) args[0], memory.readBytes((int) args[1], n), 0, n);
                            return null;
                        })).build();
    }

    /** Calls the module's export {@code export} with 32-bit arguments; its 32-bit result, or 0 when it has none. */
    public static int call(Instance instance, String export, int... args) {
        ExportFunction f = instance.export(export);
        long[] a = new long[args.length];
        for (int i = 0; i < args.length; i++) {
            a[i] = args[i];
        }
        long[] r = f.apply(a);
        return r == null || r.length == 0 ? 0 : (int) r[0];
    }

    /**
     * Allocates {@code bytes} (at least one) with the module's {@code malloc} export {@code mallocExport}; a null answer
     * (the memory cap reached) is thrown as {@code overCap} makes it.
     */
    public static int malloc(Instance instance, String mallocExport, int bytes, Supplier<RuntimeException> overCap) {
        int p = call(instance, mallocExport, Math.max(bytes, 1));
        if (p == 0) {
            throw overCap.get();
        }
        return p;
    }
}
