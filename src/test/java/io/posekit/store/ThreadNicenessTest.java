package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A thread lowers its own priority relative to the process's, once; a parsing pool's threads run that many levels
 * below the process.
 */
class ThreadNicenessTest {

    /** The calling thread's nice value, field 19 of /proc/thread-self/stat (after the command name). */
    static int niceOfThisThread() throws IOException {
        return niceIn(Path.of("/proc/thread-self/stat"));
    }

    /** The process's nice value: its main thread's, in /proc/self/stat. */
    static int niceOfTheProcess() throws IOException {
        return niceIn(Path.of("/proc/self/stat"));
    }

    private static int niceIn(Path stat) throws IOException {
        String text = Files.readString(stat);
        String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[16]);
    }

    /** Runs {@code body} on a new thread and returns what it answers. */
    private static <T> T onNewThread(java.util.concurrent.Callable<T> body) throws Exception {
        java.util.concurrent.FutureTask<T> task = new java.util.concurrent.FutureTask<>(body);
        Thread t = new Thread(task);
        t.start();
        return task.get();
    }

    @Test
    void aThreadLowersItsOwnPriorityRelativeToTheProcessAndOnlyInRange() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only");
        // the JVM may run niced itself (a CI step started with nice, a benchmark at -15): the step is from its value
        int base = niceOfTheProcess();
        int callers = niceOfThisThread();
        assumeTrue(base <= 12 && callers == base, "the JVM runs at a nice value of 12 or below, this thread as it");
        Object[] seen = onNewThread(() -> new Object[] {
            ThreadNiceness.lowerCurrentThread(0), // not a lowering
            ThreadNiceness.lowerCurrentThread(20), // past the range
            ThreadNiceness.lowerCurrentThread(7),
            niceOfThisThread()});
        assertThat(seen).containsExactly(false, false, true, base + 7);
        // the caller's own thread is untouched
        assertThat(niceOfThisThread()).isEqualTo(callers);
    }

    @Test
    void aThreadAlreadyLowerIsNotRaisedAndNoValueGoesPast19() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only");
        int base = niceOfTheProcess();
        Object[] seen = onNewThread(() -> new Object[] {
            ThreadNiceness.lowerCurrentThread(19),
            ThreadNiceness.lowerCurrentThread(9), // would raise its priority: refused
            niceOfThisThread()});
        assertThat(seen).containsExactly(base < 19, false, Math.min(19, base + 19));
    }

    @Test
    void aThreadStartedByALoweredThreadIsNotLoweredTwice() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only");
        int base = niceOfTheProcess();
        assumeTrue(base <= 15 && niceOfThisThread() == base, "the JVM runs at a nice value of 15 or below");
        // a pool thread that replaces one that exits is started by the exiting thread, whose value it inherits
        Object[] seen = onNewThread(() -> {
            ThreadNiceness.lowerCurrentThread(4);
            return onNewThread(() -> new Object[] {
                niceOfThisThread(), ThreadNiceness.lowerCurrentThread(4), niceOfThisThread()});
        });
        assertThat(seen).containsExactly(base + 4, false, base + 4);
    }

    @Test
    void aParsingPoolsThreadsRunThatManyLevelsBelowTheProcess() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only");
        int base = niceOfTheProcess();
        assumeTrue(niceOfThisThread() == base, "this thread runs at the process's nice value");
        try (ParsingPool pool = new ParsingPool(1, 0, Duration.ofSeconds(10), 5, new SimpleMeterRegistry())) {
            assertThat(pool.await(pool.submit(ParsingPool.Kind.UPLOAD, ThreadNicenessTest::niceOfThisThread)))
                    .isEqualTo(Math.min(19, base + 5));
        }
        try (ParsingPool pool = new ParsingPool(1, 0, Duration.ofSeconds(10), new SimpleMeterRegistry())) {
            assertThat(pool.await(pool.submit(ParsingPool.Kind.UPLOAD, ThreadNicenessTest::niceOfThisThread)))
                    .isEqualTo(base);
        }
    }
}
