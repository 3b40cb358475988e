package io.posekit.store;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Lowers the CPU priority of the calling thread, on Linux: its nice value set a number of levels above the process's
 * own (its main thread's) with the C library's {@code setpriority(PRIO_PROCESS, gettid(), nice)} (through the JDK's
 * foreign function API; raising one's own nice value needs no privilege). Java's {@link Thread#setPriority} does
 * nothing on Linux without root and {@code -XX:ThreadPriorityPolicy=1}.
 *
 * <p>Why: on one core, the threads that parse uploads (hundreds of milliseconds of CPU for a large model) share it with
 * the event loops and workers that answer reads; at equal priority a read waits for the parses' time slices (a summary
 * GET's p99 of 140–250 ms during 100 concurrent 20 MB uploads, against 57 ms with the parse thread 10 levels lower).
 * Parses then take the CPU the reads leave, which idle moments make all of it. Elsewhere (another OS, no
 * {@code gettid}) it does nothing.
 *
 * <p>Why relative to the process: the gap between the two kinds of thread is what ranks them, and a larger gap than
 * asked for inverts priorities. A parse thread that starts a garbage collection holds the JVM's heap lock until it
 * runs again after the collection, and every thread that allocates waits for it meanwhile; at nice 10 in a process
 * started at −15 (25 levels, a weight 265 times smaller) a GET's event loop waited 157 ms for it in a traced case.
 * The main thread's value is the base, not the calling thread's: a pool thread started by a lowered thread inherits
 * its value and must not be lowered twice.
 */
final class ThreadNiceness {

    private static final int PRIO_PROCESS = 0;
    private static final int LOWEST = 19;
    private static final Optional<MethodHandle[]> CALLS = lookUp();

    private ThreadNiceness() {
    }

    /**
     * Sets the calling thread's nice value {@code levels} above the process's (1 to 19; the result at most 19), unless
     * it is at least that already (this never raises a priority).
     *
     * @return whether it was set
     */
    static boolean lowerCurrentThread(int levels) {
        if (levels < 1 || levels > LOWEST || CALLS.isEmpty()) {
            return false;
        }
        try {
            int tid = (int) CALLS.get()[0].invokeExact();
            // getpriority(2) answers the nice value itself through the C library (-1 is a value, not only an error);
            // the process's main thread has the process's id as its own
            int process = (int) CALLS.get()[2].invokeExact(PRIO_PROCESS, (int) ProcessHandle.current().pid());
            int target = Math.min(LOWEST, process + levels);
            if ((int) CALLS.get()[2].invokeExact(PRIO_PROCESS, tid) >= target) {
                return false;
            }
            return (int) CALLS.get()[1].invokeExact(PRIO_PROCESS, tid, target) == 0;
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
