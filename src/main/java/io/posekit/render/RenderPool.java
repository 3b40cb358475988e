package io.posekit.render;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Where pictures are drawn: a fixed number of render threads of their own with a bounded queue, so rendering (tens
 * of milliseconds to seconds of CPU per request) can take only those threads and never the ones that serve sampling.
 * When every thread is busy and the queue is full, {@link #run} refuses at once with a {@link RenderBusyException}.
 * Each render thread keeps one {@link Rasteriser} and reuses its buffers. Thread-safe.
 */
public final class RenderPool implements AutoCloseable {

    /** How long a refused client is told to wait. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final int threads;
    private final int queue;
    private final ThreadPoolExecutor executor;
    private final ThreadLocal<Rasteriser> rasterisers = ThreadLocal.withInitial(Rasteriser::new);

    /**
     * @param threads render threads, at least one
     * @param queue renders that may wait for a thread, ≥ 0
     */
    public RenderPool(int threads, int queue) {
        if (threads < 1 || queue < 0) {
            throw new IllegalArgumentException("a render pool needs a thread and no negative queue");
        }
        this.threads = threads;
        this.queue = queue;
        AtomicInteger n = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                queue == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(queue), r -> {
                    Thread t = new Thread(r, "posekit-render-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        executor.allowCoreThreadTimeOut(true);
    }

    /** The number of render threads for the {@code posekit.render.threads} setting: 0 means half the cores, at least 1. */
    public static int threadsFor(int configured) {
        return configured == 0 ? Math.max(1, Runtime.getRuntime().availableProcessors() / 2) : configured;
    }

    public int threads() {
        return threads;
    }

    public int queue() {
        return queue;
    }

    /**
     * Runs {@code work} on a render thread with that thread's rasteriser and waits for its result.
     *
     * @throws RenderBusyException when every thread is busy and the queue is full, or the caller is interrupted
     * @throws RuntimeException what {@code work} threw (unchecked exceptions and errors as they were)
     */
    public <T> T run(Function<Rasteriser, T> work) {
        Callable<T> task = () -> work.apply(rasterisers.get());
        Future<T> future;
        try {
            future = executor.submit(task);
        } catch (RejectedExecutionException e) {
            throw new RenderBusyException("every one of the " + threads + " render threads is busy and the " + queue
                    + " waiting slots are taken; try again later", RETRY_AFTER);
        }
        try {
            return future.get();
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new RenderBusyException("interrupted while waiting for a render", RETRY_AFTER);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Stops the render threads. */
    @Override
    public void close() {
        executor.shutdownNow();
    }
}
