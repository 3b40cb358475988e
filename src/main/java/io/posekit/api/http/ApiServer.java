package io.posekit.api.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import io.posekit.api.security.AccessPolicy;
import io.posekit.api.security.Caller;
import io.posekit.api.security.Denied;
import io.posekit.api.security.RateLimits;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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

    private static final Logger log = LoggerFactory.getLogger(ApiServer.class);
    /**
     * Where upload handlers run: a virtual thread each. They spend their time waiting for the parse and the disk, so
     * on the worker pool a few uploads would hold every worker and queue the other requests behind them; their number
     * is bounded by the parsing pool, the upload budgets and the spool.
     */
    private static final Executor UPLOAD_HANDLERS = java.util.concurrent.Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("api-upload-", 0).factory());
    /** An upload's disk is reserved in steps of this many bytes. */
    private static final long SPOOL_STEP = 1 << 20;

    private final Router router;
    private final List<String> prefixes;
    private final Executor workers;
    private final Problems problems;
    private final ConditionalRequests conditional;
    private final MeterRegistry meters;
    /** Streamed answers given up because their client stopped reading. */
    private final io.micrometer.core.instrument.Counter writeTimeouts;
    private final Edge edge;
    private final RequestLog requestLog;
    private final StreamedAnswers streams;

    /**
     * What guards the server's edge besides routing: who may call ({@link AccessPolicy}), from which origins
     * ({@link CorsPolicy}), how often ({@link RateLimits}), how many upload bytes may be arriving at once, and how long
     * a streamed answer waits for a client that stopped reading.
     *
     * @param writeTimeout the longest a stream waits for demand before it gives up and the connection is closed
     * @param requestTimeout the longest a whole request body may take to arrive
     * @param swallowBytes the most of a body left unread by its answer (a refusal) that the connection drains to
     *     stay open; beyond it the answer says {@code Connection: close}
     * @param spool the upload bytes all requests together may have written to disk and not yet handed to the store
     */
    public record Edge(AccessPolicy access, CorsPolicy cors, RateLimits rates, UploadBudget uploads,
            java.time.Duration writeTimeout, java.time.Duration requestTimeout, long swallowBytes, UploadBudget spool) {

        /** No authentication, no CORS, no rate limits (tests of the server alone). */
        public static Edge open(long uploadBytesInFlight) {
            return new Edge(new AccessPolicy(true, null, List.of()), new CorsPolicy(null),
                    new RateLimits(t -> RateLimits.Rate.UNLIMITED), new UploadBudget(uploadBytesInFlight),
                    java.time.Duration.ofSeconds(60), java.time.Duration.ofMinutes(10), 64 * 1024,
                    new UploadBudget(Long.MAX_VALUE));
        }
    }

    /**
     * @param prefixes the paths (and path prefixes ending in '/') this server answers; everything else goes on to
     *     Spring WebFlux
     * @param workers runs handlers that may block or run long; rejects when saturated (a 503)
     */
    public ApiServer(Router router, List<String> prefixes, Executor workers, Problems problems,
            ConditionalRequests conditional, MeterRegistry meters, Edge edge) {
        this.router = router;
        this.prefixes = List.copyOf(prefixes);
        this.workers = workers;
        this.problems = problems;
        this.conditional = conditional;
        this.meters = meters;
        this.writeTimeouts = io.micrometer.core.instrument.Counter.builder("posekit.http.write.timeouts")
                .description("Streamed answers cut off because the client read nothing for the write timeout")
                .register(meters);
        this.edge = edge;
        this.requestLog = new RequestLog(meters);
        this.streams = new StreamedAnswers(workers, edge.writeTimeout(), writeTimeouts);
    }

    public Router router() {
        return router;
    }

    /** What guards the server's edge. */
    public Edge edge() {
        return edge;
    }

    /** How many streamed answers were cut off since start because their client read nothing for the write timeout. */
    public long writeTimeouts() {
        return (long) writeTimeouts.count();
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

    /** One request's state on its way through the edge: what the access log and the answer's headers need. */
    private static final class Call {
        final HttpServerRequest request;
        final long start;
        final String method;
        final String path;
        final String rawQuery;
        final HttpHeaders headers;
        final String id;
        String tenant = "-";
        RateLimits.Decision rate;
        long reservedBytes;
        /** Disk reserved for the upload's spool, in steps of {@link #SPOOL_STEP}. */
        long spooledBytes;
        /** The body's declared length: 0 when none, -1 when chunked (unknown until its end). */
        final long declared;
        /** Body bytes received so far. */
        long received;
        /** Whether the body was read to its end (or there is none). */
        boolean bodyRead;

        Call(HttpServerRequest request, long start) {
            this.request = request;
            this.start = start;
            String uri = request.uri();
            int q = uri.indexOf('?');
            this.path = q < 0 ? uri : uri.substring(0, q);
            this.rawQuery = q < 0 ? null : uri.substring(q + 1);
            this.method = request.method().name();
            this.headers = request.requestHeaders();
            this.id = requestId(headers.get(REQUEST_ID));
            String encoding = headers.get(HttpHeaderNames.TRANSFER_ENCODING);
            this.declared = encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked") ? -1
                    : contentLength(headers.get(HttpHeaderNames.CONTENT_LENGTH));
            this.bodyRead = declared == 0;
        }

        /** Whether the answer leaves more of the body unread than the connection may drain to stay open. */
        boolean leavesTooMuchUnread(long swallowBytes) {
            return !bodyRead && (declared < 0 || declared - received > swallowBytes);
        }

        String client() {
            java.net.InetSocketAddress a = request.remoteAddress();
            return a == null ? "-" : a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        }
    }

    /** The header a request id comes in and goes out with. */
    public static final String REQUEST_ID = "X-Request-Id";

    /** The client's request id when it is 1–64 characters of {@code [A-Za-z0-9._:-]}, else a new random one. */
    static String requestId(String given) {
        if (given != null && !given.isEmpty() && given.length() <= 64) {
            boolean ok = true;
            for (int i = 0; i < given.length() && ok; i++) {
                char c = given.charAt(i);
                ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_'
                        || c == ':' || c == '-';
            }
            if (ok) {
                return given;
            }
        }
        return Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE);
    }

    /** Answers one request. */
    public Publisher<Void> handle(HttpServerRequest request, HttpServerResponse response) {
        Call call = new Call(request, System.nanoTime());
        try {
            return route(call, response);
        } catch (Throwable e) {
            return send(call, response, null, problems.reply(e, call.path), e);
        }
    }

    private Publisher<Void> route(Call call, HttpServerResponse response) {
        Router.Match match = router.find(call.method, call.path);
        if (match.route() == null) {
            if (call.method.equals("OPTIONS") && !match.allowed().isEmpty()) {
                return options(call, response, match.allowed());
            }
            ApiException e = match.allowed().isEmpty()
                    ? ApiException.notFound("Not found", "no API operation at " + call.path)
                    : new ApiException(org.springframework.http.HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed",
                            call.method + " is not supported here; allowed: " + String.join(", ", match.allowed()))
                            .withHeader("Allow", String.join(", ", match.allowed()));
            return send(call, response, null, problems.reply(e, call.path), null);
        }
        Route route = match.route();
        Reply refused = edge.cors().refuse(call.headers, call.path);
        if (refused != null) {
            return send(call, response, route, refused, null);
        }
        String accept = call.headers.get(HttpHeaderNames.ACCEPT);
        if (!Negotiation.acceptsAny(accept, route.produces())) {
            throw new ApiException(org.springframework.http.HttpStatus.NOT_ACCEPTABLE, "Not acceptable",
                    "Accept '" + accept + "' admits none of " + String.join(", ", route.produces()));
        }
        Exchange exchange = new Exchange(call.method, call.path, call.rawQuery, call.headers, route, match.variables());
        exchange.checkQuery();
        String authorization = call.headers.get(HttpHeaderNames.AUTHORIZATION);
        Caller caller = edge.access().callerNow(route.scope(), call.path, authorization);
        if (caller == null) {
            // a token not seen before: validated (its issuer's keys perhaps fetched) before anything else happens
            return edge.access().callerLater(route.scope(), call.path, authorization)
                    .flatMap(c -> Mono.from(admitted(call, response, exchange, c)))
                    .onErrorResume(e -> Mono.from(send(call, response, route, problems.reply(e, call.path), e)));
        }
        return admitted(call, response, exchange, caller);
    }

    /** {@code OPTIONS}: a CORS preflight, or the methods the path allows (RFC 9110 §9.3.7). */
    private Publisher<Void> options(Call call, HttpServerResponse response, java.util.Set<String> allowed) {
        if (call.headers.contains(HttpHeaderNames.ORIGIN)
                && call.headers.contains(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD)) {
            return send(call, response, null, edge.cors().preflight(call.headers, allowed, call.path), null);
        }
        return send(call, response, null, Reply.empty(204).header(HttpHeaderNames.ALLOW, String.join(", ", allowed)),
                null);
    }

    /** The caller may make this request: rate, quota and body, then the handler. */
    private Publisher<Void> admitted(Call call, HttpServerResponse response, Exchange exchange, Caller caller) {
        exchange.caller(caller);
        call.tenant = caller.tenant();
        Route route = exchange.route();
        try {
            if (caller != AccessPolicy.ANONYMOUS) {
                call.rate = edge.rates().take(caller.tenant());
                if (call.rate != null && !call.rate.allowed()) {
                    throw new ApiException(org.springframework.http.HttpStatus.TOO_MANY_REQUESTS, "Too many requests",
                            "the tenant's rate of " + call.rate.perSecond() + " requests per second (burst "
                                    + call.rate.limit() + ") is used up; retry after Retry-After seconds")
                            .withHeader("Retry-After", Long.toString(call.rate.resetSeconds()));
                }
            }
            if (route.maxBody() > 0) {
                ApiException badBody = checkBodyHeaders(route, call.headers);
                if (badBody != null) {
                    throw badBody;
                }
                route.precheck().check(exchange);
                long declared = declaredLength(call.headers.get(HttpHeaderNames.CONTENT_LENGTH), route.maxBody());
                if (route.upload() == null && declared <= edge.uploads().max() && !edge.uploads().fits(declared)) {
                    throw uploadsBusy(); // refused now, not once the body has come
                }
            }
        } catch (RuntimeException e) {
            return send(call, response, route, problems.reply(e, call.path), e);
        }
        if (route.upload() != null) {
            UploadSink sink;
            try {
                sink = route.upload().open(exchange);
                refuseEarly(sink.heldAtLeast(declaredLength(call.headers.get(HttpHeaderNames.CONTENT_LENGTH),
                        route.maxBody())), sink);
            } catch (RuntimeException e) {
                return send(call, response, route, problems.reply(e, call.path), e);
            }
            exchange.onEnd(() -> {
                releaseSpool(call, sink);
                edge.uploads().release(call.reservedBytes);
            });
            return Mono.defer(() -> {
                        reserve(call, sink.bufferBytes());
                        return receive(call, route, sink);
                    })
                    .flatMap(files -> {
                        // what the parse reads whole (a GLB is mapped, not read): the memory an upload holds while
                        // it runs, reserved in place of the receive buffer
                        reserve(call, sink.heldBytes(files) - sink.bufferBytes());
                        exchange.upload(files);
                        return dispatch(call, exchange, response);
                    })
                    .onErrorResume(e -> Mono.from(send(call, response, route, problems.reply(e, call.path), e)))
                    .doFinally(signal -> exchange.leave());
        }
        if (route.maxBody() > 0) {
            exchange.onEnd(() -> edge.uploads().release(call.reservedBytes));
            return readBody(call, route)
                    .flatMap(body -> {
                        exchange.body(body);
                        return dispatch(call, exchange, response);
                    })
                    .onErrorResume(e -> Mono.from(send(call, response, route, problems.reply(e, call.path), e)))
                    .doFinally(signal -> exchange.leave());
        }
        if (inline(exchange)) {
            return run(call, exchange, response);
        }
        return dispatchToWorker(call, exchange, response);
    }

    /**
     * Refuses an upload before its body is read when what its parse would hold, as far as its headers tell
     * ({@code held}), could never fit the upload budget (413) or does not fit it now (503); closes the sink then.
     */
    private void refuseEarly(long held, UploadSink sink) {
        // multipart boundaries and part headers count in a declared length, never in what the parse holds
        boolean never = held > edge.uploads().max() + UploadReader.MULTIPART_OVERHEAD;
        if (never || (held <= edge.uploads().max() && !edge.uploads().fits(held))) {
            sink.close();
            throw never ? parsingMemory(held) : uploadsBusy();
        }
    }

    /** Reserves {@code bytes} of the upload budget for the call (released when its exchange ends), or a 503. */
    private void reserve(Call call, long bytes) {
        if (bytes > 0) {
            if (call.reservedBytes + bytes > edge.uploads().max()) {
                throw parsingMemory(call.reservedBytes + bytes);
            }
            if (!edge.uploads().reserve(bytes)) {
                throw uploadsBusy();
            }
            call.reservedBytes += bytes;
        } else if (bytes < 0) {
            edge.uploads().release(-bytes);
            call.reservedBytes += bytes;
        }
    }

    /**
     * Streams an upload's body into its sink as the pieces arrive, on the event loop (each piece written out before
     * the next is read); a 413 as soon as it passes the route's limit, a 408 past the request timeout.
     */
    private Mono<List<io.posekit.asset.SourceFile>> receive(Call call, Route route, UploadSink sink) {
        long deadline = System.nanoTime() + edge.requestTimeout().toNanos();
        return call.request.receive()
                .doOnNext(piece -> {
                    checkDeadline(deadline);
                    call.received += piece.readableBytes();
                    if (call.received > route.maxBody()) {
                        throw ApiException.tooLarge("the body exceeds " + route.maxBodyText());
                    }
                    if (call.received > call.spooledBytes) {
                        long step = Math.max(SPOOL_STEP, call.received - call.spooledBytes);
                        if (!edge.spool().reserve(step)) {
                            throw new ApiException(org.springframework.http.HttpStatus.SERVICE_UNAVAILABLE,
                                    "Server busy", "the server's disk for uploads in progress is full"
                                    + " (posekit.http.max-spool-bytes); retry after Retry-After seconds")
                                    .withHeader("Retry-After", "5");
                        }
                        call.spooledBytes += step;
                    }
                    sink.write(piece);
                })
                .then(Mono.fromCallable(() -> {
                    call.bodyRead = true;
                    return sink.finish();
                }))
                // a refused body's files and disk go at once, not when its connection has finished lingering: the
                // next upload must find the disk it left
                .doOnError(e -> releaseSpool(call, sink));
    }

    /** Removes an upload's spooled files and gives back the disk they took; once, whoever comes first. */
    private void releaseSpool(Call call, UploadSink sink) {
        synchronized (call) {
            sink.close();
            edge.spool().release(call.spooledBytes);
            call.spooledBytes = 0;
        }
    }

    /** A 408 once {@code deadline} has passed: a body that keeps trickling escapes the read timeout, not this. */
    private static void checkDeadline(long deadline) {
        if (System.nanoTime() - deadline > 0) {
            throw new ApiException(org.springframework.http.HttpStatus.REQUEST_TIMEOUT, "Request timeout",
                    "the request body took longer than posekit.http.request-timeout to arrive")
                    .withHeader("Connection", "close");
        }
    }

    private ApiException parsingMemory(long bytes) {
        return ApiException.tooLarge("the upload needs " + bytes + " bytes of memory to parse, more than the server"
                + " holds for all uploads at once (posekit.http.max-upload-bytes-in-flight: " + edge.uploads().max()
                + " bytes)");
    }

    private static ApiException uploadsBusy() {
        return new ApiException(org.springframework.http.HttpStatus.SERVICE_UNAVAILABLE, "Server busy",
                "the server is receiving as many upload bytes as it takes at once; retry after Retry-After seconds")
                .withHeader("Retry-After", "1");
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

    private Mono<Void> dispatch(Call call, Exchange exchange, HttpServerResponse response) {
        if (inline(exchange)) {
            return Mono.from(run(call, exchange, response));
        }
        return Mono.from(dispatchToWorker(call, exchange, response));
    }

    private Publisher<Void> dispatchToWorker(Call call, Exchange exchange, HttpServerResponse response) {
        // the answer is made on a worker, then sent from the connection's own event loop, as inline answers are
        Executor[] loop = new Executor[1];
        response.withConnection(c -> loop[0] = c.channel().eventLoop());
        Executor runner = exchange.route().upload() != null ? UPLOAD_HANDLERS : workers;
        return Mono.<Outcome>create(sink -> {
            try {
                runner.execute(() -> {
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
        }).flatMap(o -> Mono.from(send(call, response, exchange.route(), o.reply(), o.failure())));
    }

    private Publisher<Void> run(Call call, Exchange exchange, HttpServerResponse response) {
        Outcome o = answer(exchange);
        return send(call, response, exchange.route(), o.reply(), o.failure());
    }

    /** A reply, and the failure it answers (for the metrics), or {@code null}. */
    private record Outcome(Reply reply, Throwable failure) {
    }

    /** Runs the handler (with the conditional-request check around it); never throws. */
    private Outcome answer(Exchange exchange) {
        if (!exchange.enter()) {
            // the client went away before its handler could start: nothing to answer, nobody to answer it to
            ApiException gone = new ApiException(org.springframework.http.HttpStatus.SERVICE_UNAVAILABLE,
                    "Request ended", "the request ended before it was handled");
            return new Outcome(problems.reply(gone, exchange.path()), gone);
        }
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
        } finally {
            exchange.leave();
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

    /**
     * The whole body, failing with a 413 as soon as it passes the route's limit, and with a 503 when the memory it
     * takes would pass what all uploads together may hold ({@link UploadBudget}: what is reserved is released when
     * the exchange ends).
     */
    private Mono<byte[]> readBody(Call call, Route route) {
        // a declared length (checked against the limit already) is where the buffer grows to once a quarter of it has
        // come, so a 3 MB upload is not grown by doubling all the way and trimmed; never allocated up front, so a
        // client declaring a large length and sending little costs at most four times what it sent
        long declared = declaredLength(call.headers.get(HttpHeaderNames.CONTENT_LENGTH), route.maxBody());
        long deadline = System.nanoTime() + edge.requestTimeout().toNanos();
        return call.request.receive()
                .reduceWith(() -> new BodyBytes(route.maxBody(), route.maxBodyText(), declared,
                        bytes -> reserve(call, bytes)), (bytes, piece) -> {
                    checkDeadline(deadline);
                    call.received += piece.readableBytes();
                    return bytes.add(piece);
                })
                .map(BodyBytes::bytes)
                .defaultIfEmpty(new byte[0])
                .doOnNext(body -> call.bodyRead = true);
    }

    /** The Content-Length, 0 when absent or not a number (the codec refuses those). */
    private static long contentLength(String header) {
        try {
            return header == null ? 0 : Math.max(0, Long.parseLong(header.strip()));
        } catch (NumberFormatException e) {
            return 0;
        }
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
        private final java.util.function.LongConsumer reserve;
        private byte[] bytes = new byte[0];
        private int size;

        /**
         * @param reserve called with the bytes a new buffer takes before it is allocated (may throw), and with minus
         *     the old one's once it is dropped: while the body is copied both are alive, and both are counted
         */
        BodyBytes(long max, String maxText, long expected, java.util.function.LongConsumer reserve) {
            this.max = max;
            this.maxText = maxText;
            this.expected = expected;
            this.reserve = reserve;
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
                int length = (int) Math.min(max, grown);
                reserve.accept(length);
                int old = bytes.length;
                bytes = java.util.Arrays.copyOf(bytes, length);
                reserve.accept(-old);
            }
            piece.readBytes(bytes, size, n);
            size += n;
            return this;
        }

        byte[] bytes() {
            return size == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, size);
        }
    }

    private Publisher<Void> send(Call call, HttpServerResponse response, Route route, Reply reply, Throwable failure) {
        edge.cors().decorate(reply, call.headers);
        if (call.rate != null) {
            // draft-ietf-httpapi-ratelimit-headers: the policy, and what is left of it
            long window = (call.rate.limit() + call.rate.perSecond() - 1) / call.rate.perSecond();
            reply.header("RateLimit-Policy", "\"tenant\";q=" + call.rate.limit() + ";w=" + window)
                    .header("RateLimit", "\"tenant\";r=" + call.rate.remaining() + ";t=" + call.rate.resetSeconds());
        }
        if (failure instanceof Denied || reply.status() == 401) {
            reply.header(HttpHeaderNames.CACHE_CONTROL, "no-store");
        }
        reply.header(REQUEST_ID, call.id);
        if (call.leavesTooMuchUnread(edge.swallowBytes())) {
            // a refusal (or a failure) before the body's end: draining the rest would read, perhaps for ever, what is
            // thrown away; the connection closes after the answer (ConnectionDeadlines lingers so it is read whole)
            reply.header(HttpHeaderNames.CONNECTION, "close");
        }
        boolean head = "HEAD".equals(call.method);
        int status = reply.status();
        String type = reply.headers().get(HttpHeaderNames.CONTENT_TYPE);
        boolean compressible = Compression.compressible(type);
        if (compressible) {
            String vary = reply.headers().get(HttpHeaderNames.VARY);
            reply.header(HttpHeaderNames.VARY, vary == null ? "Accept-Encoding" : vary + ", Accept-Encoding");
        }
        boolean gzip = compressible && status != 204 && status != 304
                && Compression.acceptsGzip(call.headers.get(HttpHeaderNames.ACCEPT_ENCODING));
        response.status(status);
        record(call, route, status, failure);
        if (reply.stream() != null) {
            if (gzip) {
                Compression.mark(reply);
            }
            response.headers(reply.headers());
            if (head) {
                return response.send();
            }
            io.netty.channel.Channel[] channel = new io.netty.channel.Channel[1];
            response.withConnection(c -> channel[0] = c.channel());
            return response.send(streams.of(gzip ? Compression.gzip(reply.stream()) : reply.stream(), channel[0]));
        }
        ByteBuf body = reply.body();
        if (gzip && body.readableBytes() >= Compression.MIN_BYTES) {
            body = Compression.gzip(body);
            Compression.mark(reply);
        }
        if (status == 204 || status == 304) {
            // RFC 9110 §8.6: no Content-Length in a 204; in a 304 only the length the 200 would have had: none here
            body.release();
            reply.headers().remove(HttpHeaderNames.CONTENT_LENGTH);
            response.headers(reply.headers());
            return response.send();
        }
        response.headers(reply.headers());
        response.header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.readableBytes()));
        if (head) {
            body.release();
            return response.send();
        }
        return response.sendObject(body);
    }

    private void record(Call call, Route route, int status, Throwable failure) {
        requestLog.record(call.method, call.path, route, status, failure, System.nanoTime() - call.start,
                call.client(), call.id, call.tenant);
    }
}
