package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A thread lowers its own priority; a parsing pool's threads run at the nice value it was given. */
class ThreadNicenessTest {

    /** The calling thread's nice value, field 19 of /proc/thread-self/stat (after the command name). */
    static int niceOfThisThread() throws IOException {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[16]);
    }

    @Test
    void aThreadLowersItsOwnPriorityAndOnlyInRange() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only");
        // the JVM may run niced itself (a CI step started with nice): a thread starts at the process's value
        int base = niceOfThisThread();
        assumeTrue(base < 7, "the JVM runs at a nice value below 7");
        AtomicInteger seen = new AtomicInteger(-1);
        boolean[] answers = new boolean[3];
        Thread t = new Thread(() -> {
            answers[0] = ThreadNiceness.lowerCurrentThread(0); // not a lowering
            answers[1] = ThreadNiceness.lowerCurrentThread(20); // past the range
            answers[2] = ThreadNiceness.lowerCurrentThread(7);
            try {
                seen.set(niceOfThisThread());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        t.start();
        t.join();
        assertThat(answers).containsExactly(false, false, true);
        assertThat(seen.get()).isEqualTo(7);
        // the caller's own thread is untouched
        assertThat(niceOfThisThread()).isEqualTo(base);
    }

    @Test
    void aThreadAlreadyLowerIsNotRaised() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only");
        int[] seen = new int[2];
        boolean[] answers = new boolean[2];
        Thread t = new Thread(() -> {
            answers[0] = ThreadNiceness.lowerCurrentThread(12);
            answers[1] = ThreadNiceness.lowerCurrentThread(9); // would raise its priority: refused
            try {
                seen[0] = niceOfThisThread();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        t.start();
        t.join();
        assertThat(answers[1]).isFalse();
        assertThat(seen[0]).isEqualTo(Math.max(12, niceOfThisThread()));
    }

    @Test
    void aParsingPoolsThreadsRunAtItsNiceValue() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only");
        int base = niceOfThisThread();
        try (ParsingPool pool = new ParsingPool(1, 0, Duration.ofSeconds(10), 5, new SimpleMeterRegistry())) {
            assertThat(pool.await(pool.submit(ParsingPool.Kind.UPLOAD, ThreadNicenessTest::niceOfThisThread)))
                    .isEqualTo(Math.max(5, base));
        }
        try (ParsingPool pool = new ParsingPool(1, 0, Duration.ofSeconds(10), new SimpleMeterRegistry())) {
            assertThat(pool.await(pool.submit(ParsingPool.Kind.UPLOAD, ThreadNicenessTest::niceOfThisThread)))
                    .isEqualTo(base);
        }
    }
}
