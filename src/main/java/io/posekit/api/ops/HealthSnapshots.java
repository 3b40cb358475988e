package io.posekit.api.ops;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Health answers kept ready: each path of {@code /actuator/health} asked for is computed once (which runs the health
 * indicators: file system and store I/O) and then answered from memory, recomputed in the background every
 * {@code refresh}, and at once when {@code epoch} has moved since (the store became reachable or unreachable, an asset
 * was found corrupt or stored, liveness or readiness changed). So a probe costs a lookup, and what it reports is never
 * older than {@code refresh} nor older than a change the service itself has seen. Thread-safe.
 */
final class HealthSnapshots implements AutoCloseable {

    /**
     * One answer: the HTTP status, the JSON body, the body without details (only the status, for callers who may not
     * see details), computed under {@code epoch}.
     */
    record Snapshot(int status, byte[] body, byte[] statusOnly, long epoch) {
    }

    /** At most this many paths are kept (only paths that exist are kept; unknown ones answer 404 each time). */
    static final int MAX_PATHS = 64;

    private static final Logger log = LoggerFactory.getLogger(HealthSnapshots.class);

    private final Function<List<String>, Snapshot> compute;
    private final LongSupplier epoch;
    private final Map<List<String>, Snapshot> snapshots = new ConcurrentHashMap<>();
    private final ScheduledExecutorService refresher;

    /**
     * @param compute the answer for a path (segments after {@code /actuator/health}; the epoch it returns is
     *     ignored); a status of 404 means no such path
     * @param epoch a number that changes whenever an answer may have changed
     * @param refresh how often every kept answer is computed again in the background
     */
    HealthSnapshots(Function<List<String>, Snapshot> compute, LongSupplier epoch, Duration refresh) {
        this.compute = compute;
        this.epoch = epoch;
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "health-refresh");
            t.setDaemon(true);
            return t;
        });
        long millis = Math.max(1, refresh.toMillis());
        refresher.scheduleWithFixedDelay(this::refreshAll, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** Whether {@link #get} would answer {@code path} from memory, without computing. */
    boolean isCurrent(List<String> path) {
        Snapshot s = snapshots.get(path);
        return s != null && s.epoch() == epoch.getAsLong();
    }

    /** The answer for {@code path}: the kept one if current, else computed now (blocking: health indicators run). */
    Snapshot get(List<String> path) {
        Snapshot s = snapshots.get(path);
        long now = epoch.getAsLong();
        return s != null && s.epoch() == now ? s : computeAndKeep(path);
    }

    /**
     * Computes the answer for {@code path} and keeps it if the path exists. It is kept under the epoch read before
     * computing, so a change during the computation leaves it stale; an answer of a later epoch computed meanwhile is
     * not replaced.
     */
    private Snapshot computeAndKeep(List<String> path) {
        long at = epoch.getAsLong();
        Snapshot s = compute.apply(path);
        Snapshot kept = new Snapshot(s.status(), s.body(), s.statusOnly(), at);
        if (s.status() != 404 && (snapshots.size() < MAX_PATHS || snapshots.containsKey(path))) {
            snapshots.merge(path, kept, (old, mine) -> old.epoch() > mine.epoch() ? old : mine);
        }
        return kept;
    }

    private void refreshAll() {
        for (List<String> path : snapshots.keySet()) {
            try {
                computeAndKeep(path);
            } catch (RuntimeException e) {
                log.warn("/actuator/health{} could not be computed: {}",
                        path.isEmpty() ? "" : "/" + String.join("/", path), e.toString());
            }
        }
    }

    @Override
    public void close() {
        refresher.shutdownNow();
    }
}
