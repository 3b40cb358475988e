package io.posekit.api.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.posekit.api.json.FloatArrayJson;
import io.posekit.api.security.AccessPolicy;
import io.posekit.api.security.RateLimits;
import io.posekit.api.security.SecurityConfiguration;
import io.posekit.config.PosekitProperties;
import io.posekit.store.AssetRepository;
import io.posekit.store.AssetStore;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.reactor.netty.NettyRouteProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.json.JsonMapper;

/**
 * The API's server: every {@link ApiRoutes} bean's routes, served by {@link ApiServer} as a Reactor Netty route
 * ahead of Spring WebFlux (Boot applies {@link NettyRouteProvider}s before its own handler); the worker pool for
 * handlers that may block or run long; and {@code float[]} written by {@link FloatArrayJson} in Jackson answers.
 */
@Configuration(proxyBeanMethods = false)
class ApiConfiguration {

    /**
     * Paths the API server answers: the API, its document and the health probes (kept ready, see
     * {@code io.posekit.api.ops}); the rest (the other Actuator endpoints, the viewer, Swagger UI) is Spring WebFlux's.
     */
    static final List<String> PREFIXES = List.of("/api/", "/v3/api-docs", "/actuator/health", "/actuator/health/");
    /** Requests waiting for a worker beyond this are answered 503 with Retry-After. */
    static final int WORKER_QUEUE = 1024;
    /** The most bytes of a body the decoder passes on at once: a read of the socket's worth. */
    static final int BODY_PIECE_BYTES = 1 << 16;

    /**
     * A read timeout reaches both the request's body (answered 408) and the connection, whose copy Reactor drops: logged
     * at debug rather than as an error per slow client (a flood of them must not flood the log). Other dropped errors
     * are logged as Reactor logs them.
     */
    @Bean
    org.springframework.beans.factory.InitializingBean quietReadTimeouts() {
        return () -> reactor.core.publisher.Hooks.onErrorDropped(e -> {
            if (e instanceof io.netty.handler.timeout.ReadTimeoutException) {
                org.slf4j.LoggerFactory.getLogger(ApiServer.class).debug("read timeout after the answer: {}", e.toString());
            } else {
                org.slf4j.LoggerFactory.getLogger("reactor.core.publisher.Operators").error("Operator called default "
                        + "onErrorDropped", e);
            }
        });
    }

    @Bean
    JacksonModule floatArrays() {
        return FloatArrayJson.module();
    }

    @Bean
    JsonBodies jsonBodies(JsonMapper mapper) {
        return new JsonBodies(mapper);
    }

    /**
     * Handlers that may block (store I/O, waiting for a parse) or run long (skinned meshes of large assets, GLB,
     * bakes): twice the cores (so a thread blocked on the store does not idle a core), bounded queue.
     */
    @Bean(destroyMethod = "shutdown")
    ThreadPoolExecutor apiWorkers() {
        int threads = Math.max(2, 2 * Runtime.getRuntime().availableProcessors());
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(WORKER_QUEUE), r -> {
                    Thread t = new Thread(r, "api-worker-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    @Bean
    ApiServer apiServer(ObjectProvider<ApiRoutes> routeSets, ThreadPoolExecutor apiWorkers, AssetStore store,
            AssetRepository repository, MeterRegistry meters, AccessPolicy access, SecurityConfiguration.CorsSettings cors, RateLimits rates,
            PosekitProperties properties) {
        Router.Builder routes = new Router.Builder();
        List<ApiRoutes> sets = new ArrayList<>(routeSets.orderedStream().toList());
        sets.forEach(s -> s.register(routes));
        PosekitProperties.Http http = properties.http();
        ApiServer.Edge edge = new ApiServer.Edge(access, new CorsPolicy(cors.config()), rates,
                new UploadBudget(http.uploadBytesInFlight(Runtime.getRuntime().maxMemory())), http.writeTimeout(),
                http.requestTimeout(), http.swallowSize().toBytes(), new UploadBudget(http.maxSpoolBytes().toBytes()));
        // a 304 only for an asset the caller's tenant holds: it must not tell that another tenant's exists
        ConditionalRequests conditional = new ConditionalRequests((e, id) -> repository.reference(e.caller().tenant(), id)
                .isPresent() && store.find(id).isPresent() && store.corruption(id).isEmpty(), access.isOpen());
        return new ApiServer(routes.build(), PREFIXES, apiWorkers, new Problems(), conditional, meters, edge);
    }

    /**
     * The server's timeouts against slow and stalled clients: deadlines for a request's line and headers, for its
     * whole body and for the rest of a refused body ({@link ConnectionDeadlines}), and Reactor Netty's read timeout
     * (the longest pause in a body). Reactor Netty's own request timeout is not used: it schedules a task per request,
     * which its scheduler keeps for the whole timeout even once cancelled.
     */
    @Bean
    NettyServerCustomizer edgeTimeouts(PosekitProperties properties) {
        PosekitProperties.Http http = properties.http();
        ConnectionDeadlines headers = new ConnectionDeadlines(http.headerTimeout(), http.requestTimeout(),
                http.swallowTime());
        return server -> server
                .readTimeout(http.readTimeout())
                // one read (at most 64 KB) per connection per turn of its event loop, not Netty's 16: a loop serving
                // 25 connections that stream uploads otherwise hashes and writes up to 25 MB before it reads the next
                // request of any other (a GET waited 25–30 ms for that at the median during 100 concurrent uploads)
                .childOption(io.netty.channel.ChannelOption.RCVBUF_ALLOCATOR,
                        new io.netty.channel.AdaptiveRecvByteBufAllocator().maxMessagesPerRead(1))
                .doOnChannelInit((observer, channel, remote) -> {
                    // both for the connection's life: a handler added per request (Connection.addHandlerFirst) is
                    // removed when that request ends and comes back only after the next one is decoded
                    channel.pipeline().addFirst("posekit.deadlines", headers.rawSide());
                    if (channel.pipeline().get(reactor.netty.NettyPipeline.HttpCodec) != null) {
                        channel.pipeline().addAfter(reactor.netty.NettyPipeline.HttpCodec, "posekit.requestSeen",
                                headers.decodedSide());
                    }
                });
    }

    /**
     * A body's pieces as large as a read of the socket ({@value #BODY_PIECE_BYTES} bytes), not Netty's 8 KB: an upload's
     * body goes to its file a piece at a time, each piece a write to the file system (at 8 KB, a 3 MB upload took 400).
     * Applied after Boot's own decoder settings ({@code server.max-http-request-header-size} and the like), which are
     * kept: Boot's customizer sets a new decoder spec, so a {@link NettyServerCustomizer} bean (applied before it)
     * could not change the decoder.
     */
    @Bean
    BodyPieces bodyPieces() {
        return new BodyPieces();
    }

    /** Adds the decoder setting of {@link #bodyPieces()} once Boot's own customizer (order 0) has added its own. */
    static final class BodyPieces implements WebServerFactoryCustomizer<NettyReactiveWebServerFactory>, Ordered {
        @Override
        public void customize(NettyReactiveWebServerFactory factory) {
            factory.addServerCustomizers(server -> server.httpRequestDecoder(
                    spec -> bodyPieces(server.configuration().decoder(), spec)));
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }

    /** {@code current}'s decoder settings in {@code spec}, but for its pieces of a body ({@value #BODY_PIECE_BYTES}). */
    static reactor.netty.http.server.HttpRequestDecoderSpec bodyPieces(
            reactor.netty.http.server.HttpRequestDecoderSpec current, reactor.netty.http.server.HttpRequestDecoderSpec spec) {
        return spec.maxInitialLineLength(current.maxInitialLineLength())
                .maxHeaderSize(current.maxHeaderSize())
                .initialBufferSize(current.initialBufferSize())
                .h2cMaxContentLength(current.h2cMaxContentLength())
                .validateHeaders(current.validateHeaders())
                .allowDuplicateContentLengths(current.allowDuplicateContentLengths())
                .allowPartialChunks(current.allowPartialChunks())
                .maxChunkSize(BODY_PIECE_BYTES);
    }

    /**
     * The server's own event loops, not Reactor Netty's global ones: an application context that closes (a replica
     * in a test, a refreshed context) must not stop the loops of another in the same JVM.
     */
    @Bean
    ReactorResourceFactory reactorResourceFactory() {
        ReactorResourceFactory factory = new ReactorResourceFactory();
        factory.setUseGlobalResources(false);
        return factory;
    }

    @Bean
    NettyRouteProvider apiRoutes(ApiServer server) {
        return routes -> routes.route(server::serves, server::handle);
    }
}
