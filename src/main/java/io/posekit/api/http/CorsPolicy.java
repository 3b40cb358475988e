package io.posekit.api.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.springframework.http.HttpMethod;
import org.springframework.web.cors.CorsConfiguration;

/**
 * Cross-origin requests on the API server, decided by Spring's {@link CorsConfiguration} (the same configuration
 * Spring Security's {@code CorsWebFilter} applies to the WebFlux routes): a preflight ({@code OPTIONS} with
 * {@code Origin} and {@code Access-Control-Request-Method}) is answered {@code 204} with what is allowed, or
 * {@code 403} when the origin, method or headers are not; an actual cross-origin request from an origin that is not
 * allowed is refused ({@code 403}, as Spring's {@code DefaultCorsProcessor} does), and an allowed one's answer names
 * the origin and exposes the headers a script needs. A request whose {@code Origin} is the server's own (its
 * {@code Host}) is not cross-origin. Every answer varies by {@code Origin} when CORS is configured.
 */
public final class CorsPolicy {

    private static final String PREFLIGHT_VARY = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers";

    private final CorsConfiguration config;
    private final String exposed;
    private final String maxAge;

    /** @param config what is allowed, or {@code null} when no origin is (CORS off) */
    public CorsPolicy(CorsConfiguration config) {
        this.config = config;
        this.exposed = config == null || config.getExposedHeaders() == null ? null
                : String.join(", ", config.getExposedHeaders());
        this.maxAge = config == null || config.getMaxAge() == null ? null : Long.toString(config.getMaxAge());
    }

    /** Whether a request from {@code origin} to a server reached as {@code host} crosses origins. */
    static boolean crossOrigin(String origin, String host) {
        if (origin == null) {
            return false;
        }
        if (host == null) {
            return true;
        }
        int scheme = origin.indexOf("://");
        String authority = scheme < 0 ? origin : origin.substring(scheme + 3);
        String bareHost = host.strip();
        if (authority.equalsIgnoreCase(bareHost)) {
            return false;
        }
        // default ports are left out of one and may be written in the other
        boolean https = origin.regionMatches(true, 0, "https://", 0, 8);
        String defaultPort = https ? ":443" : ":80";
        return !(authority + defaultPort).equalsIgnoreCase(bareHost) && !authority.equalsIgnoreCase(bareHost + defaultPort);
    }

    /**
     * The answer to a preflight for a path whose routes allow {@code allowed} methods.
     *
     * @return 204 with the {@code Access-Control-Allow-*} headers, or a 403 problem
     */
    Reply preflight(HttpHeaders headers, Set<String> allowed, String path) {
        String origin = headers.get(HttpHeaderNames.ORIGIN);
        String method = headers.get(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD);
        String allowOrigin = config == null ? null : config.checkOrigin(origin);
        List<HttpMethod> allowMethods = allowOrigin == null || !allowed.contains(method.strip()) ? null
                : config.checkHttpMethod(HttpMethod.valueOf(method.strip()));
        List<String> requested = requestedHeaders(headers.get(HttpHeaderNames.ACCESS_CONTROL_REQUEST_HEADERS));
        List<String> allowHeaders = allowMethods == null ? null : config.checkHeaders(requested);
        // Spring grants the allowed subset of the requested headers; a request that needs one that is not allowed
        // would fail in the browser anyway, and docs/security.md promises a 403 for it
        if (allowHeaders == null || allowHeaders.size() < requested.size()) {
            return Problems.problem(403, "Invalid CORS request", config == null
                    ? "this server allows no cross-origin requests (posekit.cors.allowed-origins)"
                    : "the origin, method or headers of this cross-origin request are not allowed here", path)
                    .header(HttpHeaderNames.VARY, PREFLIGHT_VARY);
        }
        Reply r = Reply.empty(204)
                .header(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, allowOrigin)
                .header(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS, String.join(", ",
                        allowMethods.stream().map(HttpMethod::name).toList()));
        if (!allowHeaders.isEmpty()) {
            r.header(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, String.join(", ", allowHeaders));
        }
        if (maxAge != null) {
            r.header(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE, maxAge);
        }
        return r.header(HttpHeaderNames.VARY, PREFLIGHT_VARY);
    }

    /**
     * For an actual request: {@code null} when it may proceed, else the 403 answer (a cross-origin request from an
     * origin that is not allowed).
     */
    Reply refuse(HttpHeaders headers, String path) {
        String origin = headers.get(HttpHeaderNames.ORIGIN);
        if (!crossOrigin(origin, headers.get(HttpHeaderNames.HOST))) {
            return null;
        }
        if (config != null && config.checkOrigin(origin) != null) {
            return null;
        }
        return decorate(Problems.problem(403, "Invalid CORS request", "requests from the origin " + origin
                + " are not allowed here (posekit.cors.allowed-origins)", path), headers);
    }

    /** Adds the CORS headers of an allowed cross-origin request's answer, and {@code Vary: Origin}. */
    Reply decorate(Reply reply, HttpHeaders request) {
        if (config == null) {
            return reply;
        }
        String origin = request.get(HttpHeaderNames.ORIGIN);
        String allowOrigin = origin == null ? null : config.checkOrigin(origin);
        if (allowOrigin != null && crossOrigin(origin, request.get(HttpHeaderNames.HOST))) {
            reply.header(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, allowOrigin);
            if (exposed != null) {
                reply.header(HttpHeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS, exposed);
            }
            if (Boolean.TRUE.equals(config.getAllowCredentials())) {
                reply.header(HttpHeaderNames.ACCESS_CONTROL_ALLOW_CREDENTIALS, "true");
            }
        }
        return vary(reply);
    }

    private Reply vary(Reply reply) {
        if (config != null) {
            String vary = reply.headers().get(HttpHeaderNames.VARY);
            reply.header(HttpHeaderNames.VARY, vary == null ? "Origin" : vary + ", Origin");
        }
        return reply;
    }

    private static List<String> requestedHeaders(String value) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        Arrays.stream(value.split(",")).map(String::strip).filter(h -> !h.isEmpty()).forEach(out::add);
        return out;
    }
}
