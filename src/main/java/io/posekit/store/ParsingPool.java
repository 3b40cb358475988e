package io.posekit.store;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.posekit.asset.ImportException;
import java.time.Duration;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where imports run: a fixed number of parsing threads of their own ({@code posekit.parsing.threads}), so a
 * request thread never parses and sampling a cached asset never waits behind an upload. Each kind of import has
 * {@code posekit.parsing.queue} waiting slots; re-parses of stored assets (after a cache eviction) are taken
 * before waiting uploads. When every thread is busy and the kind's slots are full, {@link #submit} refuses at
 * once with a {@link ParsingBusyException} (503, {@code Retry-After}).
 *
 * <p>{@link #await} bounds the request's wait by the parse-time budget ({@code posekit.limits.parse-time}) twice
 * over, separately: an import still waiting for a thread after one budget is withdrawn (503: the server is
 * busy, nothing is wrong with the file); an import that has run for one budget is cancelled, its thread
 * interrupted (importers stop on interruption), and reported as too slow — 422 for an upload, 503 for a
 * re-parse of an asset that was accepted before. Thread-safe.
 *
 * <p>Metrics: gauges {@code posekit.parsing.queued} (tagged {@code kind} upload or reload),
 * {@code posekit.parsing.active}, {@code posekit.parsing.threads} and {@code posekit.parsing.queue.capacity};
 * counters {@code posekit.parsing.rejected} ({@code kind}) and {@code posekit.parsing.timeouts} ({@code kind},
 * {@code phase} queued or running).
 */
public final class ParsingPool implements AutoCloseable {

    /** What an import is for; declared in priority order. */
    public enum Kind {
        /** Parsing a stored asset again after its model was evicted from the cache. */
        RELOAD,
        /** Parsing an upload before it is stored. */
        UPLOAD;

        String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final Comparator<Runnable> ORDER = Comparator
            .comparing((Runnable r) -> ((Task<?>) r).kind)
            .thenComparingLong(r -> ((Task<?>) r).sequence);

    private final int threads;
    private final int queueCapacity;
    private final Duration parseTime;
    private final Duration retryAfter;
    private final ThreadPoolExecutor executor;
    /** Where uploads are hashed behind their writing ({@link #hashing()}). */
    private final ThreadPoolExecutor hashing;
    private final AtomicLong sequence = new AtomicLong();
    private final int[] waiting = new int[Kind.values().length];
    private int running;
    private final Map<Kind, Counter> rejected = new EnumMap<>(Kind.class);
    private final Map<Kind, Counter> queueTimeouts = new EnumMap<>(Kind.class);
    private final Map<Kind, Counter> runTimeouts = new EnumMap<>(Kind.class);

    /**
     * @param threads parsing threads, at least one ({@link #threadsFor} turns the setting's 0 into the cores)
     * @param queueCapacity waiting slots per kind of import
     * @param parseTime the parse-time budget
     * @param meters where metrics go
     */
    public ParsingPool(int threads, int queueCapacity, Duration parseTime, MeterRegistry meters) {
        this(threads, queueCapacity, parseTime, 0, meters);
    }

    /**
     * A pool whose threads run {@code nice} nice levels below the process (0: as the process; 1–19: lower, the value
     * at most 19, so that reads are answered first on a busy core — see {@link ThreadNiceness}).
     */
    public ParsingPool(int threads, int queueCapacity, Duration parseTime, int nice, MeterRegistry meters) {
        if (threads < 1 || queueCapacity < 0 || parseTime.isNegative() || parseTime.isZero() || nice < 0
                || nice > 19) {
            throw new IllegalArgumentException("a parsing pool needs a thread, no negative queue, a positive parse time"
                    + " and a nice value of 0 to 19");
        }
        this.threads = threads;
        this.queueCapacity = queueCapacity;
        this.parseTime = parseTime;
        this.retryAfter = Duration.ofSeconds(Math.max(1, (parseTime.toMillis() + 999) / 1000));
        this.executor = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new PriorityBlockingQueue<>(16, ORDER), threads("posekit-parse-", nice));
        executor.allowCoreThreadTimeOut(true);
        // a task per upload in flight at most (UploadSpool hashes a file one task at a time): never refused
        this.hashing = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new java.util.concurrent.LinkedBlockingQueue<>(), threads("posekit-hash-", nice));
        hashing.allowCoreThreadTimeOut(true);
        for (Kind k : Kind.values()) {
            Gauge.builder("posekit.parsing.queued", this, p -> p.queued(k))
                    .description("imports waiting for a parsing thread").tag("kind", k.tag()).register(meters);
            Gauge.builder("posekit.parsing.queue.capacity", this, p -> p.queueCapacity)
                    .description("waiting slots for imports of this kind").tag("kind", k.tag()).register(meters);
            rejected.put(k, Counter.builder("posekit.parsing.rejected")
                    .description("imports refused (503) because every parsing thread and waiting slot was taken")
                    .tag("kind", k.tag()).register(meters));
            queueTimeouts.put(k, Counter.builder("posekit.parsing.timeouts")
                    .description("imports withdrawn or cancelled after the parse-time budget")
                    .tags("kind", k.tag(), "phase", "queued").register(meters));
            runTimeouts.put(k, Counter.builder("posekit.parsing.timeouts")
                    .description("imports withdrawn or cancelled after the parse-time budget")
                    .tags("kind", k.tag(), "phase", "running").register(meters));
        }
        Gauge.builder("posekit.parsing.active", this, ParsingPool::active)
                .description("imports running on a parsing thread").register(meters);
        Gauge.builder("posekit.parsing.threads", this, p -> p.threads)
                .description("parsing threads").register(meters);
    }

    /**
     * Where uploads are hashed as their bytes are written ({@link UploadSpool}), so that the event loops that receive
     * them only write: as many threads as parse, as many nice levels below the process, so that reads are answered
     * first.
     */
    public java.util.concurrent.Executor hashing() {
        return hashing;
    }

    /** Daemon threads named {@code prefix}1, 2, … that run {@code nice} nice levels below the process (0: as it). */
    private static ThreadFactory threads(String prefix, int nice) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Runnable work = nice == 0 ? r : () -> {
                ThreadNiceness.lowerCurrentThread(nice);
                r.run();
            };
            Thread t = new Thread(work, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** The number of parsing threads for the {@code posekit.parsing.threads} setting: 0 means one per core. */
    public static int threadsFor(int configured) {
        return configured == 0 ? Runtime.getRuntime().availableProcessors() : configured;
    }

    /** The parse-time budget. */
    public Duration parseTime() {
        return parseTime;
    }

    /** Imports of {@code kind} waiting for a thread. */
    public synchronized int queued(Kind kind) {
        return waiting[kind.ordinal()];
    }

    /** Imports running now. */
    public synchronized int active() {
        return running;
    }

    /**
     * Refuses early, before the request body is read, when an import of {@code kind} would be refused now.
     *
     * @throws ParsingBusyException when every thread is busy and the kind's waiting slots are full
     */
    public synchronized void checkCapacity(Kind kind) {
        if (full(kind)) {
            rejected.get(kind).increment();
            throw busy(kind);
        }
    }

    /**
     * Queues {@code work} on a parsing thread.
     *
     * @return the running import; {@link Job#cancel} withdraws it, interrupting it if it runs
     * @throws ParsingBusyException when every thread is busy and the kind's waiting slots are full
     */
    public <T> Job<T> submit(Kind kind, Callable<T> work) {
        synchronized (this) {
            if (full(kind)) {
                rejected.get(kind).increment();
                throw busy(kind);
            }
            waiting[kind.ordinal()]++;
        }
        Job<T> job = new Job<>(this, kind);
        Task<T> task = new Task<>(this, work, kind, sequence.getAndIncrement(), job);
        job.task = task;
        try {
            executor.execute(task);
        } catch (RejectedExecutionException shutDown) {
            withdraw(task);
            throw new ParsingBusyException("the server is shutting down", retryAfter);
        }
        return job;
    }

    /** The job the calling parsing thread runs, if any. */
    private static final ThreadLocal<Job<?>> CURRENT = new ThreadLocal<>();

    /**
     * Starts the parse-time budget of the job the calling thread runs again, from now: called by a re-parse once its
     * stored files are read and checked against their id, so that reading a large asset (a gigabyte hashed on a busy
     * disk) does not count as parsing it. Reading is bounded by the file sizes and the store's own timeouts. Nothing
     * happens off a parsing thread.
     */
    public static void parseStartsNow() {
        Job<?> job = CURRENT.get();
        if (job != null) {
            job.startedNanos = System.nanoTime();
        }
    }

    /**
     * Waits for an import's result within the parse-time budget (see the class comment). A future that is not
     * a {@link Job} (a value already at hand) is simply read.
     *
     * @throws ImportException what the import threw, or (an upload) that it ran longer than the budget
     * @throws ParsingBusyException when it waited for a thread longer than the budget, or (a re-parse) ran longer
     */
    public <T> T await(CompletableFuture<T> future) {
        try {
            if (future instanceof Job<T> job) {
                return awaitJob(job);
            }
            return future.get();
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ParsingBusyException("interrupted while waiting for parsing", retryAfter);
        }
    }

    private <T> T awaitJob(Job<T> job) throws ExecutionException, InterruptedException {
        long budget = parseTime.toNanos();
        try {
            if (!job.started.isDone() && !job.isDone()) {
                try {
                    CompletableFuture.anyOf(job.started, job).get(budget, TimeUnit.NANOSECONDS);
                } catch (TimeoutException stillWaiting) {
                    if (withdraw(job.task)) {
                        job.task.cancel(false);
                        queueTimeouts.get(job.kind).increment();
                        throw new ParsingBusyException("the " + (job.kind == Kind.UPLOAD ? "upload" : "asset") + " waited "
                                + human(parseTime) + " for a parsing thread without getting one; the server is busy",
                                retryAfter);
                    }
                    job.started.join(); // it has just been taken by a thread
                } catch (ExecutionException | CancellationException finished) {
                    // reported by get() below
                }
            }
            while (true) {
                long started = job.startedNanos;
                long remaining = job.isDone() ? 0 : started + budget - System.nanoTime();
                try {
                    T value = job.get(Math.max(0, remaining), TimeUnit.NANOSECONDS);
                    if (job.failure != null) {
                        throw rethrow(job.failure);
                    }
                    return value;
                } catch (TimeoutException tooSlow) {
                    if (job.startedNanos != started) {
                        continue; // its files were read meanwhile (parseStartsNow): the parse has a budget of its own
                    }
                    job.timedOut = true;
                    job.cancel(true);
                    runTimeouts.get(job.kind).increment();
                    throw tooSlow(job.kind);
                }
            }
        } catch (CancellationException e) {
            if (job.timedOut) {
                throw tooSlow(job.kind);
            }
            throw new ParsingBusyException("the import was withdrawn before it finished", retryAfter);
        }
    }

    private RuntimeException tooSlow(Kind kind) {
        if (kind == Kind.UPLOAD) {
            // the importers' own deadline says the same (DecodeBudget); whichever notices first answers
            return ImportException.invalid("parsing took longer than " + human(parseTime) + " (posekit.limits.parse-time)");
        }
        return new ParsingBusyException("parsing the stored asset again took longer than " + human(parseTime)
                + " (posekit.limits.parse-time); try again later", retryAfter);
    }

    private ParsingBusyException busy(Kind kind) {
        return new ParsingBusyException("every parsing thread is busy and the " + queueCapacity
                + " waiting slots for " + (kind == Kind.UPLOAD ? "uploads" : "re-parses of stored assets")
                + " are taken; try again later", retryAfter);
    }

    /**
     * Whether an import of {@code kind} would be refused now. Imports not yet taken by a thread count against the
     * free threads first (higher-priority kinds before this one), and only the rest against the waiting slots, so
     * a burst submitted faster than threads pick work up is not refused while threads are idle. Holds the lock.
     */
    private boolean full(Kind kind) {
        int free = threads - running;
        for (Kind k : Kind.values()) {
            if (k.ordinal() < kind.ordinal()) {
                free -= waiting[k.ordinal()];
            }
        }
        return waiting[kind.ordinal()] >= queueCapacity + Math.max(0, free);
    }

    /** Takes a task that has not started out of the queue; false when it already started (or was withdrawn). */
    private boolean withdraw(Task<?> task) {
        if (!task.leftQueue.compareAndSet(false, true)) {
            return false;
        }
        synchronized (this) {
            waiting[task.kind.ordinal()]--;
        }
        executor.remove(task);
        return true;
    }

    private synchronized void started(Kind kind) {
        waiting[kind.ordinal()]--;
        running++;
    }

    private synchronized void finished() {
        running--;
    }

    /**
     * Rethrows the failure of a task run elsewhere as it was: unchecked exceptions and errors unchanged, anything else
     * wrapped. Declared to return an exception so callers can write {@code throw rethrow(…)}.
     */
    static RuntimeException rethrow(Throwable cause) {
        if (cause instanceof RuntimeException r) {
            throw r;
        }
        if (cause instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(cause);
    }

    /** A duration as people write it: {@code 10 s}, {@code 250 ms}, {@code 1.5 s}. */
    static String human(Duration d) {
        long ms = d.toMillis();
        if (ms % 1000 == 0) {
            return ms / 1000 + " s";
        }
        if (ms < 1000) {
            return ms + " ms";
        }
        return java.math.BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString() + " s";
    }

    /** Stops the parsing threads, interrupting running imports. */
    @Override
    public void close() {
        executor.shutdownNow();
        // an upload's hash still queued is finished here (or fails on its closed file), so that nobody waits for it
        hashing.shutdownNow().forEach(Runnable::run);
    }

    /**
     * An import submitted to the pool: completes with the import's result. An import that fails completes it
     * with {@code null} and keeps the failure for {@link ParsingPool#await} to throw (so a cache holding the future
     * drops the entry quietly, without reporting an expected failure as an error). {@link #cancel} withdraws it
     * from the queue or interrupts the thread running it (which {@link CompletableFuture#cancel} alone would not).
     */
    public static final class Job<T> extends CompletableFuture<T> {

        private final ParsingPool pool;
        private final Kind kind;
        private final CompletableFuture<Void> started = new CompletableFuture<>();
        private volatile Task<T> task;
        private volatile long startedNanos;
        private volatile boolean timedOut;
        private volatile Throwable failure;

        private Job(ParsingPool pool, Kind kind) {
            this.pool = pool;
            this.kind = kind;
        }

        /** Whether a parsing thread has taken it. */
        public boolean isStarted() {
            return started.isDone();
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            Task<T> t = task;
            if (t != null) {
                pool.withdraw(t);
                t.cancel(true);
            }
            super.cancel(mayInterruptIfRunning);
            return isCancelled();
        }

        private void markStarted() {
            startedNanos = System.nanoTime();
            started.complete(null);
        }

        private void completeCancelled() {
            super.cancel(false);
        }

        private void fail(Throwable cause) {
            failure = cause;
            complete(null);
        }
    }

    private static final class Task<T> extends FutureTask<T> {

        private final ParsingPool pool;
        private final Kind kind;
        private final long sequence;
        private final Job<T> job;
        private final AtomicBoolean leftQueue = new AtomicBoolean();
        private final AtomicBoolean released = new AtomicBoolean();

        Task(ParsingPool pool, Callable<T> work, Kind kind, long sequence, Job<T> job) {
            super(work);
            this.pool = pool;
            this.kind = kind;
            this.sequence = sequence;
            this.job = job;
        }

        @Override
        public void run() {
            if (!leftQueue.compareAndSet(false, true)) {
                return; // withdrawn while waiting
            }
            job.markStarted();
            pool.started(kind);
            CURRENT.set(job);
            try {
                super.run();
            } finally {
                CURRENT.remove();
                release();
            }
        }

        // the thread is free as soon as the work returns, before anyone waiting sees the result (a cancelled
        // import keeps its thread counted until the work really returns)
        @Override
        protected void set(T value) {
            release();
            super.set(value);
        }

        @Override
        protected void setException(Throwable t) {
            release();
            super.setException(t);
        }

        private void release() {
            if (released.compareAndSet(false, true)) {
                pool.finished();
            }
        }

        @Override
        protected void done() {
            if (isCancelled()) {
                job.completeCancelled();
                return;
            }
            try {
                job.complete(get());
            } catch (ExecutionException e) {
                job.fail(e.getCause());
            } catch (InterruptedException | CancellationException e) {
                job.completeCancelled();
            }
        }
    }
}
