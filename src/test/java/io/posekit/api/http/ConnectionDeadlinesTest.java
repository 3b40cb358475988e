package io.posekit.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The deadlines of one connection, in the pipeline order the server uses (the raw side before the HTTP codec, the
 * decoded side after it, both for the connection's life): a request whose headers and body came in time is never cut
 * off however long its answer takes, on the first request of a connection as on a kept-alive one; headers that trickle
 * past their deadline, and a body past the request's, get a {@code 408} and the connection closes; the rest of a body
 * that was refused is read for the swallow time at most. (The lingering close needs a real socket: HostileClientsTest.)
 */
class ConnectionDeadlinesTest {

    static final Duration TIMEOUT = Duration.ofMillis(40);
    static final Duration REQUEST = Duration.ofMillis(160);

    static EmbeddedChannel connection() {
        ConnectionDeadlines deadline = new ConnectionDeadlines(TIMEOUT, REQUEST, TIMEOUT);
        return new EmbeddedChannel(deadline.rawSide(), new HttpServerCodec(), deadline.decodedSide());
    }

    static void drainInbound(EmbeddedChannel channel) {
        for (Object o; (o = channel.readInbound()) != null; ) {
            io.netty.util.ReferenceCountUtil.release(o);
        }
    }

    static ByteBuf ascii(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.US_ASCII);
    }

    /** Lets more than the deadline pass, then runs the connection's check. */
    static void passTheDeadline(EmbeddedChannel channel) throws InterruptedException {
        Thread.sleep(TIMEOUT.toMillis() * 3);
        channel.advanceTimeBy(TIMEOUT.toMillis() * 3, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
    }

    static String written(EmbeddedChannel channel) {
        StringBuilder out = new StringBuilder();
        for (Object o; (o = channel.readOutbound()) != null; ) {
            if (o instanceof ByteBuf b) {
                out.append(b.toString(StandardCharsets.US_ASCII));
                b.release();
            }
        }
        return out.toString();
    }

    @Test
    void aSlowAnswerToAKeptAliveRequestIsNotCutOff() throws Exception {
        EmbeddedChannel channel = connection();
        for (int request = 0; request < 3; request++) {
            channel.writeInbound(ascii("GET /a HTTP/1.1\r\nHost: x\r\n\r\n"));
            while (channel.readInbound() != null) {
                // the decoded request and its end: what the application would read
            }
            passTheDeadline(channel);
            assertThat(channel.isActive()).as("request %d", request).isTrue();
            assertThat(written(channel)).as("request %d", request).isEmpty();
            channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NO_CONTENT));
            assertThat(written(channel)).startsWith("HTTP/1.1 204 No Content");
            // idle between requests is the idle timeout's business, not the header deadline's
            passTheDeadline(channel);
            assertThat(channel.isActive()).isTrue();
        }
        channel.finishAndReleaseAll();
    }

    @Test
    void headersThatTricklePastTheDeadlineAre408AndClosed() throws Exception {
        EmbeddedChannel channel = connection();
        channel.writeInbound(ascii("GET /a HTTP/1.1\r\nHost: x\r\n\r\n"));
        while (channel.readInbound() != null) {
            // consumed
        }
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NO_CONTENT));
        written(channel);
        // the kept-alive connection's next request starts and stalls inside its headers
        channel.writeInbound(ascii("GET /b HTTP/1.1\r\nHo"));
        passTheDeadline(channel);
        channel.runPendingTasks();
        assertThat(written(channel)).isEqualTo("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
                + "Content-Length: 0\r\n\r\n");
        assertThat(channel.isActive()).isFalse();
        channel.finishAndReleaseAll();
    }

    @Test
    void theCheckRunsOftenEnoughToMeetEachDeadlineWithinAQuarterOfIt() {
        assertThat(new ConnectionDeadlines(Duration.ofSeconds(10), Duration.ofMinutes(10), Duration.ofSeconds(1))
                .period()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(250));
        assertThat(new ConnectionDeadlines(TIMEOUT, REQUEST, TIMEOUT).period())
                .isEqualTo(TimeUnit.MILLISECONDS.toNanos(10));
    }

    @Test
    void aBodyThatTricklesPastTheRequestDeadlineIs408AndClosed() throws Exception {
        EmbeddedChannel channel = connection();
        channel.writeInbound(ascii("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc"));
        drainInbound(channel);
        // past the header deadline, within the request's: the headers came in time, the body is still due
        passTheDeadline(channel);
        assertThat(channel.isActive()).isTrue();
        for (int i = 0; i < 4 && channel.isActive(); i++) {
            channel.writeInbound(ascii("d")); // a byte now and then resets every idle timer, not this deadline
            drainInbound(channel);
            passTheDeadline(channel);
            channel.runPendingTasks();
        }
        assertThat(written(channel)).isEqualTo("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
                + "Content-Length: 0\r\n\r\n");
        assertThat(channel.isActive()).isFalse();
        channel.finishAndReleaseAll();
    }

    @Test
    void theRestOfARefusedBodyIsReadForTheSwallowTimeAtMost() throws Exception {
        EmbeddedChannel channel = connection();
        channel.writeInbound(ascii("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nabc"));
        drainInbound(channel);
        // refused before its body was read: answered at once, the connection kept while the rest may drain
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.UNAUTHORIZED));
        assertThat(written(channel)).startsWith("HTTP/1.1 401 Unauthorized");
        channel.runPendingTasks();
        assertThat(channel.isActive()).isTrue();
        channel.writeInbound(ascii("more"));
        drainInbound(channel);
        passTheDeadline(channel);
        channel.runPendingTasks();
        assertThat(channel.isActive()).isFalse();
        assertThat(written(channel)).isEmpty();
        channel.finishAndReleaseAll();
    }

    @Test
    void aRefusedBodyThatDrainsInTimeKeepsTheConnection() throws Exception {
        EmbeddedChannel channel = connection();
        channel.writeInbound(ascii("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\n\r\nabc"));
        drainInbound(channel);
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.UNAUTHORIZED));
        written(channel);
        channel.writeInbound(ascii("def"));
        drainInbound(channel);
        passTheDeadline(channel);
        assertThat(channel.isActive()).isTrue();
        channel.finishAndReleaseAll();
    }
}
