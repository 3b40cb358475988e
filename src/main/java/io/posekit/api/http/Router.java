package io.posekit.api.http;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import io.posekit.api.security.Scope;

/**
 * The API's routes, and which one a request's method and path select. Templates are matched segment by segment
 * (no regular expressions); a path that matches some template but not with the request's method is a {@code 405}
 * listing the allowed methods.
 */
public final class Router {

    /** What a lookup found: a route with its raw variable values, or the methods the path allows (possibly none). */
    public record Match(Route route, String[] variables, Set<String> allowed) {
    }

    private final List<Route> routes;
    /** routes by segment count, for a short scan */
    private final List<List<Route>> bySegments;

    public Router(List<Route> routes) {
        this.routes = List.copyOf(routes);
        List<List<Route>> by = new ArrayList<>();
        for (Route r : routes) {
            int n = r.template().segments().size();
            while (by.size() <= n) {
                by.add(new ArrayList<>());
            }
            by.get(n).add(r);
        }
        this.bySegments = by;
        for (int i = 0; i < routes.size(); i++) {
            for (int j = i + 1; j < routes.size(); j++) {
                if (routes.get(i).method().equals(routes.get(j).method())
                        && routes.get(i).template().text().equals(routes.get(j).template().text())) {
                    throw new IllegalArgumentException("two routes for " + routes.get(i));
                }
            }
        }
    }

    /** Every route, in registration order. */
    public List<Route> routes() {
        return routes;
    }

    /**
     * The route for {@code method} and {@code path} (percent-encoded, without the query); {@code HEAD} finds the
     * {@code GET} route (RFC 9110 §9.3.2: the same answer without its content). Literal segments win over variables
     * when both match. When no route has the method, {@link Match#allowed()} lists the methods the path has
     * ({@code HEAD} beside {@code GET}, and {@code OPTIONS}), empty when it has none.
     *
     * @throws ApiException 400 when a path variable's percent-escapes are malformed
     */
    public Match find(String method, String path) {
        if (method.equals("HEAD")) {
            method = "GET";
        }
        String[] parts = split(path);
        if (parts == null || parts.length >= bySegments.size()) {
            return new Match(null, null, Collections.emptySet());
        }
        Route best = null;
        String[] bestValues = null;
        Set<String> allowed = null;
        for (Route r : bySegments.get(parts.length)) {
            String[] values = r.template().match(parts);
            if (values == null) {
                continue;
            }
            if (!r.method().equals(method)) {
                if (allowed == null) {
                    allowed = new LinkedHashSet<>();
                }
                allowed.add(r.method());
                continue;
            }
            if (best == null || values.length < bestValues.length) {
                best = r;
                bestValues = values;
            }
        }
        if (best != null) {
            for (int i = 0; i < bestValues.length; i++) {
                try {
                    bestValues[i] = Exchange.decode(bestValues[i], 0, bestValues[i].length(), false);
                } catch (IllegalArgumentException e) {
                    throw ApiException.badRequest("Invalid path", "the path " + path + " is not percent-encoded right: "
                            + e.getMessage());
                }
            }
            return new Match(best, bestValues, Set.of());
        }
        if (allowed == null) {
            return new Match(null, null, Collections.emptySet());
        }
        if (allowed.contains("GET")) {
            allowed.add("HEAD");
        }
        allowed.add("OPTIONS");
        return new Match(null, null, allowed);
    }

    private static String[] split(String path) {
        if (path.isEmpty() || path.charAt(0) != '/') {
            return null;
        }
        int count = 1;
        for (int i = 1; i < path.length(); i++) {
            if (path.charAt(i) == '/') {
                count++;
            }
        }
        String[] parts = new String[count];
        int from = 1;
        for (int k = 0; k < count; k++) {
            int slash = path.indexOf('/', from);
            int end = slash < 0 ? path.length() : slash;
            parts[k] = path.substring(from, end);
            from = end + 1;
        }
        return parts;
    }

    /** Collects routes: {@code routes.get("/api/v1/assets/{id}").produces(JSON).handle(h)}. */
    public static final class Builder {

        private final List<Route> routes = new ArrayList<>();

        public Spec get(String template) {
            return new Spec("GET", template);
        }

        public Spec post(String template) {
            return new Spec("POST", template);
        }

        public Spec delete(String template) {
            return new Spec("DELETE", template);
        }

        public Router build() {
            return new Router(routes);
        }

        /** One route being described. */
        public final class Spec {

            private final String method;
            private final String template;
            private List<String> query = List.of();
            private Set<String> repeatable = Set.of();
            private Scope scope;
            private Route.Precheck precheck = Route.Precheck.NONE;
            private List<String> consumes = List.of();
            private List<String> produces = List.of();
            private Predicate<Exchange> inline = Route.WORKER;
            private long maxBody;
            private String maxBodyText;
            private boolean immutable;
            private UploadSink.Opener upload;

            private Spec(String method, String template) {
                this.method = method;
                this.template = template;
            }

            /** The query parameters it reads. */
            public Spec query(String... names) {
                this.query = List.of(names);
                return this;
            }

            /** Those of its query parameters that may be given more than once. */
            public Spec repeatable(String... names) {
                this.repeatable = Set.of(names);
                return this;
            }

            /** The scope a caller needs (every operation on assets names one). */
            public Spec scope(Scope needed) {
                this.scope = needed;
                return this;
            }

            /** A check run before the body is read (see {@link Route#precheck()}). */
            public Spec precheck(Route.Precheck check) {
                this.precheck = check;
                return this;
            }

            /** The body media types it accepts, and the largest body in bytes. */
            public Spec consumes(long maxBody, String... types) {
                this.consumes = List.of(types);
                this.maxBody = maxBody;
                return this;
            }

            /** Its body is an upload, streamed into the sink {@code opener} opens (see {@link Route#upload()}). */
            public Spec upload(UploadSink.Opener opener) {
                this.upload = opener;
                return this;
            }

            /** The limit of {@link #consumes} in words, for the 413's detail (default: the limit of N bytes). */
            public Spec limitText(String text) {
                this.maxBodyText = text;
                return this;
            }

            public Spec produces(String... types) {
                this.produces = List.of(types);
                return this;
            }

            /** When it may run on the event loop (default: never, see {@link Route#WORKER}). */
            public Spec inline(Predicate<Exchange> when) {
                this.inline = when;
                return this;
            }

            /** Its 200 answers never change: ETag, {@code Cache-Control: immutable}, 304 (see {@link ConditionalRequests}). */
            public Spec immutable() {
                this.immutable = true;
                return this;
            }

            /**
             * Adds the route.
             *
             * @throws IllegalStateException for an operation of the API ({@code /api/…}) that names no scope, or a
             *     repeatable parameter it does not read
             */
            public void handle(Route.Handler handler) {
                if (scope == null && template.startsWith("/api/")) {
                    throw new IllegalStateException(method + " " + template + " names no scope");
                }
                if (!query.containsAll(repeatable)) {
                    throw new IllegalStateException(method + " " + template + ": repeatable parameters it does not read");
                }
                routes.add(new Route(method, PathTemplate.of(template), query, repeatable, consumes, produces, inline,
                        maxBody, maxBodyText != null ? maxBodyText : "the limit of " + maxBody + " bytes", immutable,
                        scope, precheck, upload, handler));
            }
        }
    }
}
