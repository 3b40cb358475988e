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
 * The header deadline on one connection, in the pipeline order the server uses (the raw side before the HTTP codec,
 * the decoded side after it, both for the connection's life): a request whose headers came in time is never cut off
 * however long its answer takes, on the first request of a connection as on a kept-alive one; headers that trickle
 * past the deadline get a {@code 408} and the connection closes.
 */
class HeaderDeadlineTest {

    static final Duration TIMEOUT = Duration.ofMillis(40);

    static EmbeddedChannel connection() {
        HeaderDeadline deadline = new HeaderDeadline(TIMEOUT);
        return new EmbeddedChannel(deadline.rawSide(), new HttpServerCodec(), deadline.decodedSide());
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
}
