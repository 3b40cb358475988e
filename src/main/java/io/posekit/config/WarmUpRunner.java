package io.posekit.config;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.SourceFile;
import io.posekit.sampling.KernelWarmUp;
import io.posekit.store.ContentId;
import io.posekit.warmup.HttpExercises;
import io.posekit.warmup.WarmUp;
import io.posekit.warmup.WarmUpAsset;
import java.net.InetAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The start-up warm-up ({@code posekit.warm-up.*}): runs {@link WarmUp} on the main thread after the server has
 * started and before the application is ready, so readiness stays {@code REFUSING_TRAFFIC} (the readiness probe
 * answers 503 OUT_OF_SERVICE) until it is done. Spring Boot runs the application runners before it publishes
 * {@code ACCEPTING_TRAFFIC}; this one says {@code REFUSING_TRAFFIC} again explicitly when it starts, in case another
 * part published a readiness state before.
 *
 * <p>The exercises: the API over HTTP on the server's own port ({@link HttpExercises}; on a secured service with
 * {@code posekit.warm-up.token}, else with a key of the service's own from {@link InternalTokens}, revoked when the
 * warm-up ends) and, in process, what an upload of the warm-up asset does (its content id and its parse), and any
 * {@link WarmUp.Exercise} beans of the context; then, once, the kernel check of {@link KernelWarmUp} (vector against
 * scalar). They run until {@link WarmUp} finds them steady (the rate levelled off, the compilers idle) or
 * {@code posekit.warm-up.duration}, the safety limit, passes. The warm-up never stops the service from starting:
 * what fails is logged and reported in {@code /actuator/info} ({@link WarmUpInfoContributor}), and the service becomes
 * ready anyway.
 */
@Component
class WarmUpRunner implements ApplicationRunner, Ordered {

    private static final Logger log = LoggerFactory.getLogger(WarmUpRunner.class);
    /** A parse, a render or a kernel check costs tens of sampling requests: once in this many rounds. */
    static final int EXPENSIVE = 16;
    /**
     * Poses of the kernel check after the warm-up: one, as the check's dual-quaternion and scalar passes are not
     * compiled by then (more would cost seconds of a core before readiness).
     */
    static final int KERNEL_CHECK_POSES = 1;

    /** What the warm-up did, for {@code /actuator/info}. */
    record State(String status, long millis, WarmUp.Report report, String http, double kernelDifference) {
    }

    private final PosekitProperties.WarmUp settings;
    private final AssetImporters importers;
    private final ApplicationContext context;
    private final Environment environment;
    private final AtomicReference<State> state;
    /** Issues the warm-up's key on a secured service when no {@code posekit.warm-up.token} is set; may be null. */
    private final InternalTokens tokens;
    /** Exercises other parts of the application contribute as beans, run after the built-in ones. */
    private final List<WarmUp.Exercise> contributed;

    WarmUpRunner(PosekitProperties properties, AssetImporters importers, ApplicationContext context,
            Environment environment, ObjectProvider<InternalTokens> tokens,
            ObjectProvider<WarmUp.Exercise> contributed) {
        this.tokens = tokens.getIfAvailable();
        this.contributed = contributed.orderedStream().toList();
        this.settings = properties.warmUp();
        this.importers = importers;
        this.context = context;
        this.environment = environment;
        this.state = new AtomicReference<>(new State(enabled() ? "pending" : "off", 0, null, null, Double.NaN));
    }

    /** Whether the warm-up runs at start-up ({@code posekit.warm-up.duration} above 0). */
    boolean enabled() {
        return !settings.duration().isZero();
    }

    State state() {
        return state.get();
    }

    @Override
    public int getOrder() {
        // after every other runner: the warm-up should see the service as it will serve
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (!enabled()) {
            if (settings.exit()) {
                log.info("posekit.warm-up.exit with the warm-up off: exiting at once");
                System.exit(SpringApplication.exit(context, () -> 0));
            }
            return;
        }
        long started = System.nanoTime();
        AvailabilityChangeEvent.publish(context, ReadinessState.REFUSING_TRAFFIC);
        state.set(new State("running", 0, null, null, Double.NaN));
        try {
            warmUp(started);
        } catch (RuntimeException | LinkageError e) {
            // never a reason not to serve: the service is only slower at first
            log.error("warm-up: failed, the service starts without it", e);
            state.set(new State("failed: " + e, (System.nanoTime() - started) / 1_000_000, null, null, Double.NaN));
        }
        if (settings.exit()) {
            log.info("posekit.warm-up.exit: exiting after the warm-up (a training run)");
            System.exit(SpringApplication.exit(context, () -> 0));
        }
    }

    private void warmUp(long started) {
        List<WarmUp.Exercise> exercises = new ArrayList<>();
        byte[] glb = WarmUpAsset.get().glb();
        List<SourceFile> upload = List.of(new SourceFile("warm-up.glb", glb));
        // an upload's work in process: its content id, then its parse. Why the id too: its SHA-256 is compiled to the
        // CPU's SHA instructions only once its loop is hot, and a first upload of a few megabytes hashed before that
        // (with the AOT cache, whose training hashed one small upload, for the first hundred BrainStem uploads) took
        // five times as long as one hashed after it
        exercises.add(new WarmUp.Exercise("parse", EXPENSIVE, round -> {
            ContentId.of(upload);
            importers.importUpload(upload);
        }));
        HttpExercises http = null;
        String httpStatus;
        URI base = baseUri();
        // the configured token, else a key of the service's own, revoked when the warm-up ends (a secured service
        // needs no set-up for its warm-up to drive the API)
        String issued = settings.token() == null && tokens != null
                ? tokens.issue(settings.duration().plusMinutes(1)) : null;
        String token = settings.token() != null ? settings.token() : issued;
        WarmUp.Report report;
        try {
            try {
                http = HttpExercises.open(base, token);
                exercises.addAll(http.exercises(EXPENSIVE));
                httpStatus = "driven at " + base;
            } catch (Exception e) {
                httpStatus = "not driven: " + e.getMessage();
                log.warn("warm-up: the API's HTTP paths are not warmed up ({})", e.getMessage());
            }
            exercises.addAll(contributed);
            // the upload above counts in the limit
            java.time.Duration left = settings.duration().minusNanos(System.nanoTime() - started);
            report = new WarmUp(left.isNegative() ? java.time.Duration.ZERO : left, settings.quiet()).run(exercises);
            if (http != null) {
                try {
                    http.close();
                } catch (Exception e) {
                    log.warn("warm-up: the warm-up asset {} was not deleted: {}", http.assetId(), e.getMessage());
                }
            }
        } finally {
            if (issued != null) {
                tokens.revoke(issued);
            }
        }
        // the kernel check last, when the linear-blend kernels have been compiled by the exercises above
        double kernels = Double.NaN;
        long kernelMillis = 0;
        if (settings.rounds() > 0) {
            long start = System.nanoTime();
            kernels = KernelWarmUp.run(KERNEL_CHECK_POSES);
            kernelMillis = (System.nanoTime() - start) / 1_000_000;
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        state.set(new State("done", millis, report, httpStatus, kernels));
        if (log.isDebugEnabled()) {
            for (WarmUp.Window w : report.curve()) {
                log.debug("warm-up window ending at {} ms: {} steps/s, {} % compiling, {} methods queued",
                        w.endMillis(), Math.round(w.rate()), w.compilePercent(), w.queued());
            }
        }
        if (report.stop() == WarmUp.Stop.LIMIT) {
            log.warn("warm-up cut short at posekit.warm-up.duration ({} ms): {}, the JIT compiled {} ms, {} methods"
                    + " queued; the service is ready but slower at first: {}", millis, report.windows() == 0
                            ? "no window of posekit.warm-up.quiet ended"
                            : "the paths ran at " + Math.round(report.rate()) + " steps/s (best "
                                    + Math.round(report.bestRate()) + ")",
                    report.compileMillis(), report.queued(), outcomes(report));
        } else {
            log.info("warm-up done in {} ms, exercises {} ms ({}), {} rounds at {} steps/s (best {}), JIT compiling {}"
                    + " ms: {}", millis, report.millis(), report.stop() == WarmUp.Stop.STEADY
                            ? "steady: the rate levelled off, the compilers idle" : "nothing left to run",
                    report.rounds(), Math.round(report.rate()), Math.round(report.bestRate()), report.compileMillis(),
                    outcomes(report));
        }
        for (WarmUp.Outcome failed : report.failures()) {
            log.warn("warm-up: {} failed: {}", failed.name(), failed.failure());
        }
        if (!Double.isNaN(kernels)) {
            KernelWarmUpRunner.report(kernels, -1, kernelMillis);
        }
    }

    private static List<String> outcomes(WarmUp.Report report) {
        return report.exercises().stream().map(o -> o.name() + " " + o.rounds() + "× " + o.millis() + " ms").toList();
    }

    /** The server's own port, on loopback when it listens on every address. */
    private URI baseUri() {
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        String host = "127.0.0.1";
        String address = environment.getProperty("server.address");
        if (address != null && !address.isBlank()) {
            try {
                InetAddress a = InetAddress.getByName(address);
                if (!a.isAnyLocalAddress()) {
                    host = a instanceof java.net.Inet6Address ? "[" + a.getHostAddress() + "]" : a.getHostAddress();
                }
            } catch (java.net.UnknownHostException e) {
                log.debug("server.address {} not resolved; warming up on 127.0.0.1", address);
            }
        }
        return URI.create("http://" + host + ":" + port);
    }
}
