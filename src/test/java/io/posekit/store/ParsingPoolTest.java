package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.posekit.asset.ImportException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The parsing pool: own threads, bounded waiting, re-parses first, the parse-time budget. */
class ParsingPoolTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final CountDownLatch release = new CountDownLatch(1);
    private ParsingPool pool;

    @AfterEach
    void stop() {
        release.countDown();
        if (pool != null) {
            pool.close();
        }
    }

    private String blockUntilReleased() throws InterruptedException {
        assertThat(release.await(60, TimeUnit.SECONDS)).isTrue();
        return "released";
    }

    static void eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition not met within 30 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @Test
    void runsWorkOnItsOwnThreads() {
        pool = new ParsingPool(1, 0, Duration.ofSeconds(30), meters);
        String thread = pool.await(pool.submit(ParsingPool.Kind.UPLOAD, () -> Thread.currentThread().getName()));
        assertThat(thread).startsWith("posekit-parse-").isNotEqualTo(Thread.currentThread().getName());
        assertThatThrownBy(() -> pool.await(pool.submit(ParsingPool.Kind.UPLOAD, () -> {
            throw ImportException.invalid("bad file");
        }))).isInstanceOf(ImportException.class).hasMessage("bad file");
    }

    @Test
    void aReparsesBudgetStartsAgainOnceItsFilesAreRead() {
        pool = new ParsingPool(1, 0, Duration.ofMillis(400), meters);
        // 300 ms of reading, then 300 ms of parsing: each within the 400 ms budget, together past it
        assertThat(pool.await(pool.submit(ParsingPool.Kind.RELOAD, () -> {
            Thread.sleep(300);
            ParsingPool.parseStartsNow();
            Thread.sleep(300);
            return "parsed";
        }))).isEqualTo("parsed");
        // without the restart the same work is too slow
        assertThatThrownBy(() -> pool.await(pool.submit(ParsingPool.Kind.RELOAD, () -> {
            Thread.sleep(300);
            Thread.sleep(300);
            return "parsed";
        }))).isInstanceOf(ParsingBusyException.class).hasMessageContaining("took longer than 400 ms");
        ParsingPool.parseStartsNow(); // off a parsing thread: nothing to restart, nothing happens
    }

    @Test
    void refusesWhenEveryThreadAndWaitingSlotIsTaken() throws Exception {
        pool = new ParsingPool(1, 1, Duration.ofSeconds(30), meters);
        ParsingPool.Job<String> running = pool.submit(ParsingPool.Kind.UPLOAD, this::blockUntilReleased);
        ParsingPool.Job<String> waiting = pool.submit(ParsingPool.Kind.UPLOAD, this::blockUntilReleased);
        eventually(running::isStarted);
        assertThat(pool.active()).isEqualTo(1);
        assertThat(pool.queued(ParsingPool.Kind.UPLOAD)).isEqualTo(1);
        assertThat(meters.get("posekit.parsing.queued").tag("kind", "upload").gauge().value()).isEqualTo(1);
        assertThat(meters.get("posekit.parsing.active").gauge().value()).isEqualTo(1);
        assertThat(meters.get("posekit.parsing.threads").gauge().value()).isEqualTo(1);
        assertThat(meters.get("posekit.parsing.queue.capacity").tag("kind", "upload").gauge().value()).isEqualTo(1);

        assertThatThrownBy(() -> pool.submit(ParsingPool.Kind.UPLOAD, () -> "x"))
                .isInstanceOfSatisfying(ParsingBusyException.class, e -> assertThat(e.retryAfter()).hasSeconds(30))
                .hasMessage("every parsing thread is busy and the 1 waiting slots for uploads are taken; try again later");
        assertThatThrownBy(() -> pool.checkCapacity(ParsingPool.Kind.UPLOAD)).isInstanceOf(ParsingBusyException.class);
        assertThat(meters.get("posekit.parsing.rejected").tag("kind", "upload").counter().count()).isEqualTo(2);

        // re-parses of stored assets have waiting slots of their own
        ParsingPool.Job<String> reload = pool.submit(ParsingPool.Kind.RELOAD, () -> "reloaded");
        assertThat(pool.queued(ParsingPool.Kind.RELOAD)).isEqualTo(1);

        release.countDown();
        assertThat(pool.await(running)).isEqualTo("released");
        assertThat(pool.await(waiting)).isEqualTo("released");
        assertThat(pool.await(reload)).isEqualTo("reloaded");
        eventually(() -> pool.active() == 0);
        assertThat(pool.queued(ParsingPool.Kind.UPLOAD)).isZero();
        assertThat(pool.queued(ParsingPool.Kind.RELOAD)).isZero();
    }

    @Test
    void reparsesGoBeforeWaitingUploads() throws Exception {
        pool = new ParsingPool(1, 4, Duration.ofSeconds(30), meters);
        List<String> order = new CopyOnWriteArrayList<>();
        ParsingPool.Job<String> blocker = pool.submit(ParsingPool.Kind.UPLOAD, this::blockUntilReleased);
        eventually(blocker::isStarted);
        List<ParsingPool.Job<Boolean>> jobs = List.of(
                pool.submit(ParsingPool.Kind.UPLOAD, () -> order.add("upload 1")),
                pool.submit(ParsingPool.Kind.UPLOAD, () -> order.add("upload 2")),
                pool.submit(ParsingPool.Kind.RELOAD, () -> order.add("reload 1")),
                pool.submit(ParsingPool.Kind.RELOAD, () -> order.add("reload 2")));
        release.countDown();
        jobs.forEach(pool::await);
        assertThat(order).containsExactly("reload 1", "reload 2", "upload 1", "upload 2");
    }

    @Test
    void anUploadThatRunsPastTheBudgetIsInterruptedAndReportedAsTooSlow() throws Exception {
        pool = new ParsingPool(1, 0, Duration.ofMillis(200), meters);
        CountDownLatch interrupted = new CountDownLatch(1);
        ParsingPool.Job<String> slow = pool.submit(ParsingPool.Kind.UPLOAD, () -> {
            try {
                return blockUntilReleased();
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
        });
        assertThatThrownBy(() -> pool.await(slow)).isInstanceOf(ImportException.class)
                .hasMessage("parsing took longer than 200 ms (posekit.limits.parse-time)")
                .satisfies(e -> assertThat(((ImportException) e).kind()).isEqualTo(ImportException.Kind.INVALID));
        assertThat(interrupted.await(30, TimeUnit.SECONDS)).as("the parsing thread was interrupted").isTrue();
        assertThat(slow.isCancelled()).isTrue();
        assertThat(meters.get("posekit.parsing.timeouts").tags("kind", "upload", "phase", "running").counter().count())
                .isEqualTo(1);
        eventually(() -> pool.active() == 0);
        // the thread is free again
        assertThat(pool.await(pool.submit(ParsingPool.Kind.UPLOAD, () -> "next"))).isEqualTo("next");
    }

    @Test
    void aReparseThatRunsPastTheBudgetIsABusyServerNotABadFile() {
        pool = new ParsingPool(1, 0, Duration.ofMillis(200), meters);
        ParsingPool.Job<String> slow = pool.submit(ParsingPool.Kind.RELOAD, this::blockUntilReleased);
        assertThatThrownBy(() -> pool.await(slow)).isInstanceOf(ParsingBusyException.class)
                .hasMessage("parsing the stored asset again took longer than 200 ms (posekit.limits.parse-time);"
                        + " try again later");
    }

    @Test
    void anImportThatWaitsPastTheBudgetForAThreadIsWithdrawnUnrun() throws Exception {
        pool = new ParsingPool(1, 1, Duration.ofMillis(300), meters);
        CountDownLatch ran = new CountDownLatch(1);
        // the blocker is never awaited, so nothing cancels it: it holds the only thread
        ParsingPool.Job<String> blocker = pool.submit(ParsingPool.Kind.UPLOAD, this::blockUntilReleased);
        eventually(blocker::isStarted);
        ParsingPool.Job<String> queued = pool.submit(ParsingPool.Kind.UPLOAD, () -> {
            ran.countDown();
            return "ran";
        });
        assertThatThrownBy(() -> pool.await(queued)).isInstanceOf(ParsingBusyException.class)
                .hasMessage("the upload waited 300 ms for a parsing thread without getting one; the server is busy");
        assertThat(pool.queued(ParsingPool.Kind.UPLOAD)).isZero();
        assertThat(meters.get("posekit.parsing.timeouts").tags("kind", "upload", "phase", "queued").counter().count())
                .isEqualTo(1);
        release.countDown();
        assertThat(blocker.get(30, TimeUnit.SECONDS)).isEqualTo("released");
        assertThat(ran.await(200, TimeUnit.MILLISECONDS)).as("a withdrawn import never runs").isFalse();
    }

    @Test
    void waitersOnOneSharedImportAllGetItsResult() throws Exception {
        pool = new ParsingPool(1, 0, Duration.ofSeconds(30), meters);
        ParsingPool.Job<String> shared = pool.submit(ParsingPool.Kind.RELOAD, this::blockUntilReleased);
        List<CompletableFuture<String>> waiters = List.of(
                CompletableFuture.supplyAsync(() -> pool.await(shared)),
                CompletableFuture.supplyAsync(() -> pool.await(shared)),
                CompletableFuture.supplyAsync(() -> pool.await(shared)));
        release.countDown();
        for (CompletableFuture<String> w : waiters) {
            assertThat(w.get(30, TimeUnit.SECONDS)).isEqualTo("released");
        }
        // a value already at hand is simply returned
        assertThat(pool.await(CompletableFuture.completedFuture("cached"))).isEqualTo("cached");
    }

    @Test
    void describesDurationsAsPeopleWriteThem() {
        assertThat(ParsingPool.human(Duration.ofSeconds(10))).isEqualTo("10 s");
        assertThat(ParsingPool.human(Duration.ofMillis(250))).isEqualTo("250 ms");
        assertThat(ParsingPool.human(Duration.ofMillis(1500))).isEqualTo("1.5 s");
    }
}
