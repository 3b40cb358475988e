package io.posekit.api.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A deadline for a request's line and headers (what Tomcat's {@code connectionTimeout} and nginx's
 * {@code client_header_timeout} do): from the first byte of a request until its headers are decoded, at most
 * {@code timeout}; a client that trickles them (slowloris) is answered {@code 408} and the connection closed.
 * Reactor Netty's idle timeout does not catch it (every byte resets it), nor does its read timeout (it starts after
 * the headers). Two handlers share the state of a connection: {@link #rawSide()} before the HTTP codec notes when a
 * request's first bytes arrive; {@link #decodedSide()} after it notes the decoded request and the end of the exchange
 * (the next bytes start a new request). The time a kept-alive connection waits idle for its next request is the idle
 * timeout's, not this one's.
 *
 * <p>One check per connection, repeated every half timeout while the connection lives, looks at that state: nothing
 * is scheduled or allocated per request (a task scheduled per request and cancelled is kept by Netty's scheduler
 * until its time would have come: at 20 000 requests a second that is hundreds of thousands of tasks and everything
 * they hold, which is why Reactor Netty's own per-request timer is not used either).
 */
final class HeaderDeadline {

    private static final AttributeKey<State> STATE = AttributeKey.valueOf("posekit.headerDeadline");
    private static final byte[] TIMEOUT = ("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
            + "Content-Length: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

    private final long timeoutNanos;

    HeaderDeadline(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
    }

    /**
     * The connection's state: waiting for a request ({@code idle}), or busy with one since {@code startedAt}: its
     * headers (not yet {@code decoded}), its body, or its answer. It is idle again once the request is read to its end
     * and its answer written (an answer sent before the body is read, such as a 401 or 413, leaves the rest of the body
     * to come: those bytes are not a new request). Touched only on the connection's event loop.
     */
    private static final class State {
        boolean idle = true;
        boolean decoded;
        boolean bodyRead;
        boolean answered;
        long startedAt;
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

    /** The handler nearest the socket: notes a request's first bytes, and runs the connection's check. */
    ChannelDuplexHandler rawSide() {
        long period = Math.max(1, timeoutNanos / 2);
        return new ChannelDuplexHandler() {
            @Override
            public void handlerAdded(ChannelHandlerContext ctx) {
                State s = state(ctx.channel());
                s.check = ctx.executor().scheduleAtFixedRate(() -> {
                    if (!s.idle && !s.decoded && System.nanoTime() - s.startedAt > timeoutNanos
                            && ctx.channel().isActive()) {
                        s.check.cancel(false);
                        // written from here, below the codec: the request was never decoded, so nothing else answers
                        ctx.writeAndFlush(Unpooled.wrappedBuffer(TIMEOUT)).addListener(f -> ctx.channel().close());
                    }
                }, period, period, TimeUnit.NANOSECONDS);
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
                State s = state(ctx.channel());
                if (s.idle && msg instanceof ByteBuf b && b.isReadable()) {
                    s.idle = false;
                    s.decoded = false;
                    s.startedAt = System.nanoTime();
                }
                super.channelRead(ctx, msg);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) throws Exception {
                State s = state(ctx.channel());
                if (s.check != null) {
                    s.check.cancel(false);
                }
                super.channelInactive(ctx);
            }
        };
    }

    /** The handler after the HTTP codec: notes the decoded request, and the exchange's end. */
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
                    s.maybeIdle();
                }
                super.write(ctx, msg, promise);
            }
        };
    }
}
