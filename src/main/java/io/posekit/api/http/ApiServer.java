package io.posekit.api.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Serves the API's routes on Reactor Netty, ahead of Spring WebFlux (which keeps Actuator, the viewer's static files
 * and Swagger UI): route lookup, body reading within each route's limit, the choice of thread (the event loop for
 * cheap answers, the worker pool otherwise), conditional requests, problem answers, the access log and the
 * {@code http.server.requests} timers — the work every request pays, kept to what the answer needs.
 */
public final class ApiServer {

    private static final Logger access = LoggerFactory.getLogger("posekit.access");
    private static final Logger log = LoggerFactory.getLogger(ApiServer.class);
    /** A streamed body is written to the network in pieces of this many bytes. */
    private static final int STREAM_CHUNK = 64 * 1024;

    private final Router router;
    private final List<String> prefixes;
    private final Executor workers;
    private final Problems problems;
    private final ConditionalRequests conditional;
    private final MeterRegistry meters;
    private final ConcurrentHashMap<TimerKey, Timer> timers = new ConcurrentHashMap<>();

    private record TimerKey(String method, String uri, int status, String exception) {
    }

    /**
     * @param prefixes the paths (and path prefixes ending in '/') this server answers; everything else goes on to
     *     Spring WebFlux
     * @param workers runs handlers that may block or run long; rejects when saturated (a 503)
     */
    public ApiServer(Router router, List<String> prefixes, Executor workers, Problems problems,
            ConditionalRequests conditional, MeterRegistry meters) {
        this.router = router;
        this.prefixes = List.copyOf(prefixes);
        this.workers = workers;
        this.problems = problems;
        this.conditional = conditional;
        this.meters = meters;
    }

    public Router router() {
        return router;
    }

    /** Whether this server answers the request (by its path). */
    public boolean serves(HttpServerRequest request) {
        String uri = request.uri();
        for (String p : prefixes) {
            if (p.endsWith("/") ? uri.startsWith(p) : uri.startsWith(p) && (uri.length() == p.length()
                    || uri.charAt(p.length()) == '?' || uri.charAt(p.length()) == '.')) {
                return true;
            }
        }
        return false;
    }

    /** Answers one request. */
    public Publisher<Void> handle(HttpServerRequest request, HttpServerResponse response) {
        long start = System.nanoTime();
        String uri = request.uri();
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        String rawQuery = q < 0 ? null : uri.substring(q + 1);
        String method = request.method().name();
        HttpHeaders headers = request.requestHeaders();
        Router.Match match = router.find(method, path);
        if (match.route() == null) {
            ApiException e = match.allowed().isEmpty()
                    ? ApiException.notFound("Not found", "no API operation at " + path)
                    : new ApiException(org.springframework.http.HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed",
                            method + " is not supported here; allowed: " + String.join(", ", match.allowed()))
                            .withHeader("Allow", String.join(", ", match.allowed()));
            return send(response, method, path, null, problems.reply(e, path), start, null);
        }
        Route route = match.route();
        String accept = headers.get(HttpHeaderNames.ACCEPT);
        if (accept != null && !route.produces().contains(accept) && !Negotiation.acceptsAny(accept, route.produces())) {
            ApiException e = new ApiException(org.springframework.http.HttpStatus.NOT_ACCEPTABLE, "Not acceptable",
                    "Accept '" + accept + "' admits none of " + String.join(", ", route.produces()));
            return send(response, method, path, route, problems.reply(e, path), start, e);
        }
        Exchange exchange = new Exchange(method, path, rawQuery, headers, route, match.variables());
        if (route.maxBody() > 0) {
            ApiException refused = checkBodyHeaders(route, headers);
            if (refused != null) {
                return send(response, method, path, route, problems.reply(refused, path), start, refused);
            }
            return readBody(request, route)
                    .flatMap(body -> {
                        exchange.body(body);
                        return dispatch(exchange, response, start);
                    })
                    .onErrorResume(e -> Mono.from(send(response, method, path, route, problems.reply(e, path), start, e)));
        }
        if (inline(exchange)) {
            return run(exchange, response, start);
        }
        return dispatchToWorker(exchange, response, start);
    }

    /** Whether the request's route may answer it on the event loop; a predicate that fails says no (the worker
     * then runs the handler, whose failure is answered as a problem). */
    private static boolean inline(Exchange exchange) {
        try {
            return exchange.route().inline().test(exchange);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private Mono<Void> dispatch(Exchange exchange, HttpServerResponse response, long start) {
        if (inline(exchange)) {
            return Mono.from(run(exchange, response, start));
        }
        return Mono.from(dispatchToWorker(exchange, response, start));
    }

    private Publisher<Void> dispatchToWorker(Exchange exchange, HttpServerResponse response, long start) {
        // the answer is made on a worker, then sent from the connection's own event loop, as inline answers are
        Executor[] loop = new Executor[1];
        response.withConnection(c -> loop[0] = c.channel().eventLoop());
        return Mono.<Outcome>create(sink -> {
            try {
                workers.execute(() -> {
                    Outcome o = answer(exchange);
                    if (loop[0] != null) {
                        loop[0].execute(() -> sink.success(o));
                    } else {
                        sink.success(o);
                    }
                });
            } catch (RejectedExecutionException full) {
                ApiException busy = new ApiException(org.springframework.http.HttpStatus.SERVICE_UNAVAILABLE,
                        "Server busy", "every worker is busy and the queue is full; retry after Retry-After seconds")
                        .withHeader("Retry-After", "1");
                sink.success(new Outcome(problems.reply(busy, exchange.path()), busy));
            }
        }).flatMap(o -> Mono.from(send(response, exchange.method(), exchange.path(), exchange.route(), o.reply(), start,
                o.failure())));
    }

    private Publisher<Void> run(Exchange exchange, HttpServerResponse response, long start) {
        Outcome o = answer(exchange);
        return send(response, exchange.method(), exchange.path(), exchange.route(), o.reply(), start, o.failure());
    }

    /** A reply, and the failure it answers (for the metrics), or {@code null}. */
    private record Outcome(Reply reply, Throwable failure) {
    }

    /** Runs the handler (with the conditional-request check around it); never throws. */
    private Outcome answer(Exchange exchange) {
        try {
            Reply notModified = conditional.notModified(exchange);
            if (notModified != null) {
                return new Outcome(notModified, null);
            }
            Reply reply = exchange.route().handler().handle(exchange);
            conditional.tag(exchange, reply);
            return new Outcome(reply, null);
        } catch (Throwable e) {
            return new Outcome(problems.reply(e, exchange.path()), e);
        }
    }

    /** 415 for a body of a type the route does not read; 413 for a declared length over its limit. */
    private static ApiException checkBodyHeaders(Route route, HttpHeaders headers) {
        String length = headers.get(HttpHeaderNames.CONTENT_LENGTH);
        if (length != null) {
            try {
                long declared = Long.parseLong(length.strip());
                if (declared > route.maxBody()) {
                    return ApiException.tooLarge("the body of " + declared + " bytes exceeds " + route.maxBodyText());
                }
            } catch (NumberFormatException e) {
                return ApiException.badRequest("Invalid Content-Length", "Content-Length '" + length + "' is not a number");
            }
        }
        if (route.consumes().contains("*/*")) {
            return null;
        }
        String type = headers.get(HttpHeaderNames.CONTENT_TYPE);
        String bare = type == null ? "" : type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (!route.consumes().contains(bare)) {
            return ApiException.unsupportedMediaType("Content-Type '" + (type == null ? "" : type) + "' is not supported"
                    + " here; send " + String.join(" or ", route.consumes()));
        }
        return null;
    }

    /** The whole body, failing with a 413 as soon as it passes {@code max} bytes. */
    private static Mono<byte[]> readBody(HttpServerRequest request, Route route) {
        // a declared length (checked against the limit already) is where the buffer grows to once a quarter of it has
        // come, so a 3 MB upload is not grown by doubling all the way and trimmed; never allocated up front, so a
        // client declaring a large length and sending little costs at most four times what it sent
        long declared = declaredLength(request.requestHeaders().get(HttpHeaderNames.CONTENT_LENGTH), route.maxBody());
        return request.receive()
                .reduceWith(() -> new BodyBytes(route.maxBody(), route.maxBodyText(), declared), BodyBytes::add)
                .map(BodyBytes::bytes)
                .defaultIfEmpty(new byte[0]);
    }

    /** The Content-Length when it is a number within {@code max}, else 0 (the body then grows as it comes). */
    private static long declaredLength(String header, long max) {
        if (header == null) {
            return 0;
        }
        try {
            long n = Long.parseLong(header.strip());
            return n >= 0 && n <= max && n <= Integer.MAX_VALUE - 16 ? n : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static final class BodyBytes {
        private final long max;
        private final String maxText;
        private final long expected;
        private byte[] bytes = new byte[0];
        private int size;

        BodyBytes(long max, String maxText, long expected) {
            this.max = max;
            this.maxText = maxText;
            this.expected = expected;
        }

        BodyBytes add(ByteBuf piece) {
            int n = piece.readableBytes();
            if ((long) size + n > max) {
                throw ApiException.tooLarge("the body exceeds " + maxText);
            }
            if (size + n > bytes.length) {
                long grown = Math.max(size + n, 2L * bytes.length + 8192);
                if (expected >= size + n && 4L * (size + n) >= expected) {
                    grown = expected;
                }
                bytes = java.util.Arrays.copyOf(bytes, (int) Math.min(max, grown));
            }
            piece.readBytes(bytes, size, n);
            size += n;
            return this;
        }

        byte[] bytes() {
            return size == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, size);
        }
    }

    private Publisher<Void> send(HttpServerResponse response, String method, String path, Route route, Reply reply,
            long start, Throwable failure) {
        response.status(reply.status());
        response.headers(reply.headers());
        record(method, path, route, reply.status(), failure, start);
        if (reply.stream() != null) {
            return response.send(stream(reply.stream()));
        }
        ByteBuf body = reply.body();
        response.header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.readableBytes()));
        if ("HEAD".equals(method) || reply.status() == 304 || reply.status() == 204) {
            body.release();
            return response.send();
        }
        return response.sendObject(body);
    }

    /** The pieces an output stream writes on a worker thread, waiting while the client reads slower. */
    private Flux<ByteBuf> stream(Reply.StreamBody body) {
        return Flux.create(sink -> {
            try {
                workers.execute(() -> {
                    try (OutputStream out = new SinkOutputStream(sink)) {
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
        });
    }

    /** Sends what is written in pieces of {@link #STREAM_CHUNK} bytes, blocking while the client has asked for none. */
    private static final class SinkOutputStream extends OutputStream {
        private final FluxSink<ByteBuf> sink;
        private final byte[] chunk = new byte[STREAM_CHUNK];
        private int size;

        SinkOutputStream(FluxSink<ByteBuf> sink) {
            this.sink = sink;
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
            while (sink.requestedFromDownstream() == 0) {
                if (sink.isCancelled()) {
                    throw new IOException("the client went away");
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

    private void record(String method, String path, Route route, int status, Throwable failure, long start) {
        long nanos = System.nanoTime() - start;
        String uri = route != null ? route.template().text() : status == 404 ? "NOT_FOUND" : "UNKNOWN";
        String exception = failure == null ? "none" : failure.getClass().getSimpleName();
        TimerKey key = new TimerKey(method, uri, status, exception);
        Timer timer = timers.get(key);
        if (timer == null) {
            timer = timers.computeIfAbsent(key, k -> Timer.builder("http.server.requests")
                    .description("HTTP server request processing time")
                    .tags("method", k.method(), "uri", k.uri(), "status", Integer.toString(k.status()),
                            "outcome", outcome(k.status()), "exception", k.exception(), "error", k.exception())
                    .register(meters));
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
        if (access.isInfoEnabled()) {
            access.info(accessLine(method, path, status, nanos));
        }
    }

    /** {@code method=GET path=/api/… status=200 ms=1.84} (logfmt; the query is left out: unbounded, and not needed). */
    static String accessLine(String method, String path, int status, long nanos) {
        StringBuilder b = new StringBuilder(64 + path.length());
        b.append("method=").append(method).append(" path=");
        quoted(path, b);
        b.append(" status=").append(status).append(" ms=");
        long hundredths = (nanos + 5_000) / 10_000;
        b.append(hundredths / 100).append('.');
        long frac = hundredths % 100;
        if (frac < 10) {
            b.append('0');
        }
        return b.append(frac).toString();
    }

    /** The path as a logfmt value: quoted when it holds spaces, quotes, '=' or control characters. */
    private static void quoted(String path, StringBuilder b) {
        boolean plain = true;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == ' ' || c == '"' || c == '=' || c < 0x20) {
                plain = false;
                break;
            }
        }
        if (plain) {
            b.append(path);
            return;
        }
        b.append('"');
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else {
                b.append(c < 0x20 ? '?' : c);
            }
        }
        b.append('"');
    }

    private static String outcome(int status) {
        if (status < 200) {
            return "INFORMATIONAL";
        } else if (status < 300) {
            return "SUCCESS";
        } else if (status < 400) {
            return "REDIRECTION";
        } else if (status < 500) {
            return "CLIENT_ERROR";
        }
        return "SERVER_ERROR";
    }
}
