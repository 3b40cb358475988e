package io.posekit.api.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The deadlines of a connection's request, whatever the route (nginx's {@code client_header_timeout},
 * {@code client_body_timeout} and {@code lingering_time}; Tomcat's {@code connectionTimeout} and
 * {@code maxSwallowSize}):
 * <ul>
 * <li><b>headers</b>: from a request's first byte until its headers are decoded, at most {@code headerTimeout}; a
 * client that trickles them (slowloris) is answered {@code 408} and the connection closed (lingering, as below);
 * <li><b>body</b>: from the first byte until the body's last, at most {@code requestTimeout}, however the bytes trickle
 * (each one resets the idle and read timeouts); past it, {@code 408} when nothing was answered yet, and the connection
 * closed (lingering, as below);
 * <li><b>the rest of a refused body</b>: a request answered before its body was read (a {@code 401}, {@code 413},
 * {@code 503} …) may go on sending it for at most {@code swallowTime} after its answer, then the connection is closed.
 * When the server closes such a connection itself (its answer said {@code Connection: close}), it first shuts its
 * output (the client reads the whole answer and an end) and discards what still comes for at most
 * {@code swallowTime} (a lingering close: closing with unread bytes would reset the connection, and the client could
 * lose the answer).
 * </ul>
 * Two handlers share the state of a connection: {@link #rawSide()} before the HTTP codec notes when a request's first
 * bytes arrive, and holds the lingering close; {@link #decodedSide()} after it notes the decoded request, the body's
 * end and the answer's. The time a kept-alive connection waits idle for its next request is the idle timeout's.
 *
 * <p>One check per connection, repeated every {@link #period()} (a quarter of the shortest deadline, at most 250 ms,
 * so a deadline is met within that), looks at that state: nothing is scheduled or allocated per request (a task
 * scheduled per request and cancelled is kept by Netty's scheduler until its time would have come: at 20 000 requests
 * a second that is hundreds of thousands of tasks and everything they hold, which is why Reactor Netty's own
 * per-request timer is not used either).
 */
final class ConnectionDeadlines {

    private static final AttributeKey<State> STATE = AttributeKey.valueOf("posekit.deadlines");
    private static final byte[] TIMEOUT = ("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
            + "Content-Length: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    private static final long MOST_PERIOD = TimeUnit.MILLISECONDS.toNanos(250);

    private final long headerNanos;
    private final long requestNanos;
    private final long swallowNanos;

    /**
     * @param headerTimeout the longest a request's line and headers may take
     * @param requestTimeout the longest a request, its body included, may take to arrive
     * @param swallowTime the longest the rest of a body is read after the request was answered
     */
    ConnectionDeadlines(Duration headerTimeout, Duration requestTimeout, Duration swallowTime) {
        this.headerNanos = headerTimeout.toNanos();
        this.requestNanos = requestTimeout.toNanos();
        this.swallowNanos = swallowTime.toNanos();
    }

    /** How often a connection's deadlines are checked: how late a deadline may be met. */
    long period() {
        return Math.max(1, Math.min(MOST_PERIOD, Math.min(headerNanos, Math.min(requestNanos, swallowNanos)) / 4));
    }

    /**
     * The connection's state: waiting for a request ({@code idle}), or busy with one since {@code startedAt}: its
     * headers (not yet {@code decoded}), its body (not yet {@code bodyRead}), or its answer (not yet {@code answered}).
     * It is idle again once the request is read to its end and its answer written (an answer sent before the body is
     * read, such as a 401 or 413, leaves the rest of the body to come: those bytes are not a new request). Touched only
     * on the connection's event loop.
     */
    private static final class State {
        boolean idle = true;
        boolean decoded;
        boolean bodyRead;
        boolean answered;
        long startedAt;
        long answeredAt;
        /** Set while the connection lingers before its close: its output shut, what arrives discarded. */
        ChannelPromise closing;
        long closingSince;
        ScheduledFuture<?> check;

        void maybeIdle() {
            if (bodyRead && answered) {
                idle = true;
                bodyRead = false;
                answered = false;
            }
        }
    }

    private static State state(Channel channel) {
        State s = channel.attr(STATE).get();
        if (s == null) {
            s = new State();
            channel.attr(STATE).set(s);
        }
        return s;
    }

    /** The handler nearest the socket: notes a request's first bytes, runs the connection's check, lingers. */
    ChannelDuplexHandler rawSide() {
        long period = period();
        return new ChannelDuplexHandler() {
            @Override
            public void handlerAdded(ChannelHandlerContext ctx) {
                State s = state(ctx.channel());
                s.check = ctx.executor().scheduleAtFixedRate(() -> check(ctx, s), period, period,
                        TimeUnit.NANOSECONDS);
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
                State s = state(ctx.channel());
                if (s.closing != null) {
                    ReferenceCountUtil.release(msg); // the rest of a refused body, read only to be discarded
                    return;
                }
                if (s.idle && msg instanceof ByteBuf b && b.isReadable()) {
                    s.idle = false;
                    s.decoded = false;
                    s.startedAt = System.nanoTime();
                }
                super.channelRead(ctx, msg);
            }

            @Override
            public void close(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
                State s = state(ctx.channel());
                if (s.closing == null && s.answered && !s.bodyRead && ctx.channel() instanceof DuplexChannel duplex
                        && ctx.channel().isActive()) {
                    // answered with the body still coming: end the output, discard the input a while, then close
                    s.closing = promise;
                    s.closingSince = System.nanoTime();
                    ctx.flush();
                    duplex.shutdownOutput();
                    return;
                }
                super.close(ctx, promise);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) throws Exception {
                State s = state(ctx.channel());
                if (s.check != null) {
                    s.check.cancel(false);
                }
                if (s.closing != null) {
                    s.closing.trySuccess();
                }
                super.channelInactive(ctx);
            }
        };
    }

    /** Enforces the deadlines once (on the connection's event loop). */
    private void check(ChannelHandlerContext ctx, State s) {
        if (!ctx.channel().isActive()) {
            return;
        }
        long now = System.nanoTime();
        if (s.closing != null) {
            if (now - s.closingSince > swallowNanos) {
                ctx.close(s.closing); // from this handler on towards the socket: no second linger
            }
            return;
        }
        if (s.idle || s.bodyRead && !s.answered) {
            return; // waiting for a request, or answering one (however long that takes)
        }
        long elapsed = now - s.startedAt;
        if (!s.decoded && elapsed > headerNanos || s.decoded && !s.answered && elapsed > requestNanos) {
            // written from here, below the codec: the request was not answered (its headers or body never came).
            // Then a lingering close as for a refused body (the check goes on to end it): the client may still be
            // sending, and closing with its bytes unread would reset the connection, the 408 lost with it
            s.answered = true;
            s.answeredAt = now;
            ctx.writeAndFlush(Unpooled.wrappedBuffer(TIMEOUT)).addListener(f -> {
                if (f.isSuccess() && ctx.channel() instanceof DuplexChannel duplex && ctx.channel().isActive()) {
                    s.closing = ctx.newPromise();
                    s.closingSince = System.nanoTime();
                    duplex.shutdownOutput();
                } else {
                    ctx.close();
                }
            });
        } else if (s.answered && now - s.answeredAt > swallowNanos) {
            s.check.cancel(false);
            ctx.close(); // a refused body still arriving after its time to drain
        }
    }

    /** The handler after the HTTP codec: notes the decoded request, the body's end and the answer's. */
    ChannelDuplexHandler decodedSide() {
        return new ChannelDuplexHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
                State s = state(ctx.channel());
                if (msg instanceof HttpRequest) {
                    s.decoded = true;
                }
                if (msg instanceof LastHttpContent) {
                    s.bodyRead = true;
                    s.maybeIdle();
                }
                super.channelRead(ctx, msg);
            }

            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
                if (msg instanceof LastHttpContent) {
                    State s = state(ctx.channel());
                    s.answered = true;
                    s.answeredAt = System.nanoTime();
                    s.maybeIdle();
                }
                super.write(ctx, msg, promise);
            }
        };
    }
}
