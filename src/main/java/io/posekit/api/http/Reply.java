package io.posekit.api.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.io.OutputStream;

/**
 * An answer: a status, headers and a body — whole bytes, or a stream written by a {@link StreamBody} on the worker
 * pool. {@code Content-Length} is set for whole bodies by the server.
 */
public final class Reply {

    /** A body written piece by piece to an output stream (on a worker thread: it may block on a slow client). */
    @FunctionalInterface
    public interface StreamBody {
        void writeTo(OutputStream out) throws IOException;
    }

    private final int status;
    private final HttpHeaders headers = new DefaultHttpHeaders(false);
    private final ByteBuf body;
    private final StreamBody stream;

    private Reply(int status, ByteBuf body, StreamBody stream) {
        this.status = status;
        this.body = body;
        this.stream = stream;
    }

    /** A whole body of {@code contentType}; the reply owns {@code body} (a pooled buffer is released when sent). */
    public static Reply of(int status, String contentType, ByteBuf body) {
        Reply r = new Reply(status, body, null);
        r.headers.set(HttpHeaderNames.CONTENT_TYPE, contentType);
        return r;
    }

    public static Reply of(int status, String contentType, byte[] body) {
        return of(status, contentType, Unpooled.wrappedBuffer(body));
    }

    /** A body written by {@code stream} as the client reads it, without {@code Content-Length} unless set. */
    public static Reply stream(int status, String contentType, StreamBody stream) {
        Reply r = new Reply(status, null, stream);
        r.headers.set(HttpHeaderNames.CONTENT_TYPE, contentType);
        return r;
    }

    /** No body, e.g. 204 or 304. */
    public static Reply empty(int status) {
        return new Reply(status, Unpooled.EMPTY_BUFFER, null);
    }

    public Reply header(CharSequence name, Object value) {
        headers.set(name, value);
        return this;
    }

    public int status() {
        return status;
    }

    public HttpHeaders headers() {
        return headers;
    }

    /** The whole body, or {@code null} for a stream. */
    public ByteBuf body() {
        return body;
    }

    /** The stream, or {@code null} for a whole body. */
    public StreamBody stream() {
        return stream;
    }

    /** Releases the body of a reply that will not be sent. */
    void discard() {
        if (body != null && body.refCnt() > 0) {
            body.release();
        }
    }
}
