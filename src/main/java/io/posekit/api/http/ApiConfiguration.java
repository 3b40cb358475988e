package io.posekit.api.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.posekit.api.json.FloatArrayJson;
import io.posekit.store.AssetStore;
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
            MeterRegistry meters) {
        Router.Builder routes = new Router.Builder();
        List<ApiRoutes> sets = new ArrayList<>(routeSets.orderedStream().toList());
        sets.forEach(s -> s.register(routes));
        return new ApiServer(routes.build(), PREFIXES, apiWorkers, new Problems(), new ConditionalRequests(store), meters);
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
