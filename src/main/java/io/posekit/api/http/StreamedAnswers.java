package io.posekit.api.http;

import io.micrometer.core.instrument.Counter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

/**
 * Answers written as a stream (a bake's frames): the handler's output stream runs on a worker and is sent in pieces of
 * {@link #STREAM_CHUNK} bytes as the client reads them, given up after the write timeout when it reads nothing.
 */
final class StreamedAnswers {

    private static final Logger log = LoggerFactory.getLogger(StreamedAnswers.class);
    /** A streamed body is written to the network in pieces of this many bytes. */
    private static final int STREAM_CHUNK = 64 * 1024;

    private final Executor workers;
    private final long writeTimeoutNanos;
    /** Streamed answers given up because their client stopped reading. */
    private final Counter writeTimeouts;

    StreamedAnswers(Executor workers, java.time.Duration writeTimeout, Counter writeTimeouts) {
        this.workers = workers;
        this.writeTimeoutNanos = writeTimeout.toNanos();
        this.writeTimeouts = writeTimeouts;
    }

    /**
     * The pieces an output stream writes on a worker thread, waiting while the client reads slower: while the
     * connection's outbound buffer is past Netty's high water mark (the channel is not writable), or nothing is asked
     * for, so a stalled client holds at most about a chunk and the water mark of memory, and the stream gives up after
     * the write timeout.
     */
    Flux<ByteBuf> of(Reply.StreamBody body, io.netty.channel.Channel channel) {
        return Flux.<ByteBuf>create(sink -> {
            try {
                workers.execute(() -> {
                    try (OutputStream out = new SinkOutputStream(sink, channel, writeTimeoutNanos,
                            writeTimeouts)) {
                        body.writeTo(out);
                    } catch (Throwable e) {
                        if (!sink.isCancelled()) {
                            log.warn("streamed answer failed after its start: {}", e.toString());
                            sink.error(e);
                        }
                        return;
                    }
                    sink.complete();
                });
            } catch (RejectedExecutionException full) {
                sink.error(full);
            }
        // Reactor Netty asks for many pieces at once and queues them itself: two at a time keep what a stalled
        // client holds in memory to a few pieces, and let the write timeout see the stall
        }).limitRate(2);
    }

    /** Sends what is written in pieces of {@link #STREAM_CHUNK} bytes, blocking while the client has asked for none. */
    private static final class SinkOutputStream extends OutputStream {
        private final FluxSink<ByteBuf> sink;
        private final io.netty.channel.Channel channel;
        private final long writeTimeoutNanos;
        private final io.micrometer.core.instrument.Counter timeouts;
        private final byte[] chunk = new byte[STREAM_CHUNK];
        private int size;

        /** @param channel the connection, or {@code null} when unknown (then only the demand is waited for) */
        SinkOutputStream(FluxSink<ByteBuf> sink, io.netty.channel.Channel channel, long writeTimeoutNanos,
                io.micrometer.core.instrument.Counter timeouts) {
            this.sink = sink;
            this.timeouts = timeouts;
            this.channel = channel;
            this.writeTimeoutNanos = writeTimeoutNanos;
        }

        @Override
        public void write(int b) throws IOException {
            if (size == chunk.length) {
                flush();
            }
            chunk[size++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                if (size == chunk.length) {
                    flush();
                }
                int n = Math.min(len, chunk.length - size);
                System.arraycopy(b, off, chunk, size, n);
                size += n;
                off += n;
                len -= n;
            }
        }

        @Override
        public void flush() throws IOException {
            if (size == 0) {
                return;
            }
            long since = System.nanoTime();
            while (sink.requestedFromDownstream() == 0 || channel != null && !channel.isWritable()) {
                if (sink.isCancelled()) {
                    throw new IOException("the client went away");
                }
                if (System.nanoTime() - since > writeTimeoutNanos) {
                    // a client that stopped reading must not hold a worker and the answer's state forever
                    timeouts.increment();
                    if (channel != null) {
                        channel.close();
                    }
                    throw new IOException("the client read nothing for " + writeTimeoutNanos / 1_000_000 + " ms");
                }
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
            }
            if (sink.isCancelled()) {
                throw new IOException("the client went away");
            }
            sink.next(Unpooled.copiedBuffer(chunk, 0, size));
            size = 0;
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
