package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GroupSyncTest {

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    /** A sync that blocks until released, counting the syncs begun. */
    private static final class HeldSync implements GroupSync.Sync {
        final AtomicInteger begun = new AtomicInteger();
        final List<CountDownLatch> releases = new ArrayList<>(List.of(new CountDownLatch(1), new CountDownLatch(1),
                new CountDownLatch(1)));
        final List<CountDownLatch> entered = new ArrayList<>(List.of(new CountDownLatch(1), new CountDownLatch(1),
                new CountDownLatch(1)));
        volatile IOException failWith;

        @Override
        public void run() throws IOException {
            int n = begun.getAndIncrement();
            entered.get(n).countDown();
            try {
                releases.get(n).await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            IOException f = failWith;
            if (f != null) {
                throw f;
            }
        }
    }

    /** {@code n} callers of {@code group.sync()}, each on a thread of its own. */
    private List<Future<?>> callers(GroupSync group, int n) {
        List<Future<?>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(threads.submit(() -> {
                group.sync();
                return null;
            }));
        }
        return out;
    }

    /** A caller whose sync is in flight, held until {@code held} releases it. */
    private Future<?> firstSyncInFlight(GroupSync group, HeldSync held) throws InterruptedException {
        Future<?> first = callers(group, 1).getFirst();
        assertThat(held.entered.get(0).await(10, TimeUnit.SECONDS)).isTrue();
        return first;
    }

    @Test
    void aLoneCallerSyncsOnce() throws IOException {
        AtomicInteger runs = new AtomicInteger();
        GroupSync group = new GroupSync(runs::incrementAndGet);
        group.sync();
        group.sync();
        assertThat(runs).hasValue(2);
        assertThat(group.syncs()).isEqualTo(2);
    }

    @Test
    void callersArrivingDuringASyncShareTheNextOne() throws Exception {
        HeldSync held = new HeldSync();
        GroupSync group = new GroupSync(held);
        Future<?> first = firstSyncInFlight(group, held);
        List<Future<?>> later = callers(group, 5);
        // the five must not be served by the sync that began before they asked
        Thread.sleep(100);
        assertThat(later).noneMatch(Future::isDone);
        held.releases.get(0).countDown();
        first.get(10, TimeUnit.SECONDS);
        assertThat(held.entered.get(1).await(10, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(50);
        assertThat(later).noneMatch(Future::isDone); // their sync is still in flight
        held.releases.get(1).countDown();
        for (Future<?> f : later) {
            f.get(10, TimeUnit.SECONDS);
        }
        assertThat(held.begun).hasValue(2); // six callers, two syncs
        assertThat(group.syncs()).isEqualTo(2);
    }

    @Test
    void aFailedSyncFailsEveryCallerItServedAndALaterCallerSyncsAgain() throws Exception {
        HeldSync held = new HeldSync();
        GroupSync group = new GroupSync(held);
        Future<?> first = firstSyncInFlight(group, held);
        List<Future<?>> joined = callers(group, 3);
        Thread.sleep(100);
        held.releases.get(0).countDown(); // the first succeeds
        first.get(10, TimeUnit.SECONDS);
        assertThat(held.entered.get(1).await(10, TimeUnit.SECONDS)).isTrue();
        held.failWith = new IOException("EIO");
        held.releases.get(1).countDown(); // the round of the three fails: each of them is told, none retries
        for (Future<?> f : joined) {
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).hasRootCauseMessage("EIO")
                    .cause().isInstanceOf(IOException.class);
        }
        assertThat(held.begun).hasValue(2);
        held.failWith = null;
        held.releases.get(2).countDown();
        group.sync(); // a caller after the failure gets a sync of its own
        assertThat(held.begun).hasValue(3);
    }
}
