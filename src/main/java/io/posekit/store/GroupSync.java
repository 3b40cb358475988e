package io.posekit.store;

import java.io.IOException;

/**
 * Group commit of one directory's fsync: the callers that each need the directory's entries durable (a staged upload's
 * name in the store directory, a rename, a removal) share the syncs. A caller waits for a sync that began after it
 * asked: when none is in flight it runs one itself; when one is, it joins the next, which one of those waiting runs
 * for all of them as soon as the one in flight ends. So with concurrent uploads the store directory is synced once per
 * round rather than once per upload, and never more than twice at a time.
 *
 * <p>Failure: every caller whose sync failed gets the failure (an {@link IOException} of its own, the sync's as its
 * cause), and none retries it: after a failed fsync the kernel may have dropped what it could not write, and a later
 * fsync's success would not make it durable. A caller that asks after the failed sync began is served by a new one.
 * Interruption does not end the wait (what the caller asked for is durable or failed when it returns); the interrupt
 * is kept. Thread-safe.
 */
final class GroupSync {

    /** The fsync, run by one caller for all of a round's. */
    @FunctionalInterface
    interface Sync {
        void run() throws IOException;
    }

    /** One sync and the callers it serves. */
    private static final class Round {
        private boolean led;
        private boolean ended;
        private IOException failure;
    }

    private final Sync sync;
    /** The round whose sync is in flight (or about to begin), or null. */
    private Round running;
    /** The round callers join while one is running: it begins when that one ends. */
    private Round waiting;
    private long syncs;

    GroupSync(Sync sync) {
        this.sync = sync;
    }

    /**
     * Returns once a sync that began after this call has succeeded.
     *
     * @throws IOException when that sync failed
     */
    void sync() throws IOException {
        Round mine;
        boolean lead = false;
        boolean interrupted = false;
        synchronized (this) {
            if (running == null) {
                running = mine = new Round();
            } else {
                if (waiting == null) {
                    waiting = new Round();
                }
                mine = waiting;
            }
            while (!mine.ended) {
                if (running == mine && !mine.led) {
                    mine.led = true;
                    lead = true;
                    break;
                }
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (lead) {
            IOException failure = null;
            try {
                sync.run();
            } catch (IOException e) {
                failure = e;
            } catch (RuntimeException e) {
                failure = new IOException("sync failed: " + e, e);
            }
            synchronized (this) {
                syncs++;
                mine.failure = failure;
                mine.ended = true;
                running = waiting; // its callers asked while this sync was in flight; the first to wake runs it
                waiting = null;
                notifyAll();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (mine.failure != null) {
            throw new IOException(mine.failure.getMessage(), mine.failure);
        }
    }

    /** Syncs run so far. */
    synchronized long syncs() {
        return syncs;
    }
}
