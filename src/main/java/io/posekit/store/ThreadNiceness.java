package io.posekit.store;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Lowers the CPU priority of the calling thread, on Linux: its nice value raised with the C library's
 * {@code setpriority(PRIO_PROCESS, gettid(), nice)} (through the JDK's foreign function API; raising one's own nice
 * value needs no privilege). Java's {@link Thread#setPriority} does nothing on Linux without root and
 * {@code -XX:ThreadPriorityPolicy=1}.
 *
 * <p>Why: on one core, the threads that parse uploads (hundreds of milliseconds of CPU for a large model) share it with
 * the event loops and workers that answer reads; at equal priority a read waits for the parses' time slices (a summary
 * GET's p99 of 140–250 ms during 100 concurrent 20 MB uploads, against 57 ms with the parse thread at nice 10). Parses
 * then take the CPU the reads leave, which idle moments make all of it. Elsewhere (another OS, no {@code gettid}) it
 * does nothing.
 */
final class ThreadNiceness {

    private static final int PRIO_PROCESS = 0;
    private static final Optional<MethodHandle[]> CALLS = lookUp();

    private ThreadNiceness() {
    }

    /**
     * Sets the calling thread's nice value to {@code nice} (1 to 19: lower priority) unless it is at least that already
     * (a process started niced keeps its threads' lower priority: this never raises one).
     *
     * @return whether it was set
     */
    static boolean lowerCurrentThread(int nice) {
        if (nice < 1 || nice > 19 || CALLS.isEmpty()) {
            return false;
        }
        try {
            int tid = (int) CALLS.get()[0].invokeExact();
            // getpriority(2) answers the nice value itself through the C library (-1 is a value, not only an error)
            if ((int) CALLS.get()[2].invokeExact(PRIO_PROCESS, tid) >= nice) {
                return false;
            }
            return (int) CALLS.get()[1].invokeExact(PRIO_PROCESS, tid, nice) == 0;
        } catch (Throwable e) {
            return false; // a priority is a preference: the thread runs on without it
        }
    }

    private static Optional<MethodHandle[]> lookUp() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return Optional.empty();
        }
        try {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            Optional<java.lang.foreign.MemorySegment> gettid = libc.find("gettid");
            Optional<java.lang.foreign.MemorySegment> setpriority = libc.find("setpriority");
            Optional<java.lang.foreign.MemorySegment> getpriority = libc.find("getpriority");
            if (gettid.isEmpty() || setpriority.isEmpty() || getpriority.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new MethodHandle[] {
                linker.downcallHandle(gettid.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT)),
                linker.downcallHandle(setpriority.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT)),
                linker.downcallHandle(getpriority.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT))});
        } catch (RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }
}
