package io.posekit.api.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What is recorded of every answer: its {@code http.server.requests} timer (by method, route, status and exception, as
 * Spring's own) and its access log line on the {@code posekit.access} logger. Thread-safe.
 */
final class RequestLog {

    private static final Logger access = LoggerFactory.getLogger("posekit.access");

    private final MeterRegistry meters;
    private final ConcurrentHashMap<TimerKey, Timer> timers = new ConcurrentHashMap<>();

    private record TimerKey(String method, String uri, int status, String exception) {
    }

    RequestLog(MeterRegistry meters) {
        this.meters = meters;
    }

    /** Times one answer ({@code http.server.requests}) and writes its access log line. */
    void record(String method, String path, Route route, int status, Throwable failure, long nanos, String client,
            String id, String tenant) {
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
            access.info(accessLine(method, path, status, nanos, client, id, tenant));
        }
    }

    /**
     * {@code method=GET path=/api/… status=200 ms=1.84 client=10.0.0.7 id=4f… tenant=acme} (logfmt; the query is
     * left out: unbounded, and not needed).
     */
    static String accessLine(String method, String path, int status, long nanos, String client, String id,
            String tenant) {
        StringBuilder b = new StringBuilder(96 + path.length());
        b.append("method=").append(method).append(" path=");
        quoted(path, b);
        b.append(" status=").append(status).append(" ms=");
        long hundredths = (nanos + 5_000) / 10_000;
        b.append(hundredths / 100).append('.');
        long frac = hundredths % 100;
        if (frac < 10) {
            b.append('0');
        }
        b.append(frac).append(" client=").append(client).append(" id=").append(id).append(" tenant=");
        quoted(tenant, b);
        return b.toString();
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
