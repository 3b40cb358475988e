package io.posekit.api.http;

import io.netty.handler.codec.http.HttpHeaders;
import io.posekit.api.security.Caller;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One API request as a route handler sees it: the method, the path and its variables (named by the route's template),
 * the query parameters (percent-decoded, in order, repeatable), the request headers and, for routes that take one, the
 * whole body (read before the handler runs, within the route's limit), and the authenticated caller.
 *
 * <p>Not thread-safe: an exchange belongs to the one thread that runs its handler.
 */
public final class Exchange {

    private final String method;
    private final String path;
    private final String rawQuery;
    private final HttpHeaders headers;
    private final Route route;
    private final String[] variables;
    private byte[] body;
    private java.util.List<io.posekit.asset.SourceFile> upload;
    /** The exchange itself, and its handler while it runs (see {@link #onEnd}). */
    private final java.util.concurrent.atomic.AtomicInteger users = new java.util.concurrent.atomic.AtomicInteger(1);
    private Runnable cleanup;
    private Map<String, List<String>> query;
    private Caller caller = Caller.OPEN;

    Exchange(String method, String path, String rawQuery, HttpHeaders headers, Route route, String[] variables) {
        this.method = method;
        this.path = path;
        this.rawQuery = rawQuery;
        this.headers = headers;
        this.route = route;
        this.variables = variables;
    }

    /** The request method, upper case. */
    public String method() {
        return method;
    }

    /** The request path as sent (percent-encoded, without the query). */
    public String path() {
        return path;
    }

    /** The query string as sent (without '?'), or {@code null} when the request has none. */
    public String rawQuery() {
        return rawQuery;
    }

    /** The route that matched. */
    public Route route() {
        return route;
    }

    /**
     * The percent-decoded value of the path variable {@code name} of the route's template.
     *
     * @throws IllegalArgumentException when the template has no such variable (a programming error)
     */
    public String variable(String name) {
        return variables[route.template().variableIndex(name)];
    }

    /** The value of a request header, or {@code null}. */
    public String header(CharSequence name) {
        return headers.get(name);
    }

    /** Every request header. */
    public HttpHeaders headers() {
        return headers;
    }

    /** The first value of the query parameter {@code name}, or {@code null} when absent. */
    public String query(String name) {
        List<String> values = query().get(name);
        return values == null ? null : values.getFirst();
    }

    /** Every value of the query parameter {@code name}, in order; empty when absent. */
    public List<String> queryAll(String name) {
        return query().getOrDefault(name, List.of());
    }

    /** The names of the query parameters, in order of first appearance. */
    public Set<String> queryNames() {
        return query().keySet();
    }

    /** Who is asking (the tenant whose assets the request sees, and its scopes). */
    public Caller caller() {
        return caller;
    }

    void caller(Caller who) {
        this.caller = who;
    }

    /**
     * Reads the query and checks it against the route: a parameter the route does not read, one given twice that is
     * not repeatable, or a malformed percent-escape is a 400 naming it.
     *
     * @throws ApiException 400
     */
    void checkQuery() {
        Map<String, List<String>> q;
        try {
            q = query();
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("Invalid query", "the query is not percent-encoded right: " + e.getMessage());
        }
        for (Map.Entry<String, List<String>> p : q.entrySet()) {
            String name = p.getKey();
            if (!route.queryParameters().contains(name)) {
                throw ApiException.badRequest("Unknown parameter", "'" + name + "' is not a parameter of " + route
                        + (route.queryParameters().isEmpty() ? ", which takes none"
                                : "; it takes " + String.join(", ", route.queryParameters())));
            }
            if (p.getValue().size() > 1 && !route.repeatable().contains(name)) {
                throw ApiException.badRequest("Repeated parameter", "'" + name + "' is given " + p.getValue().size()
                        + " times; it takes one value");
            }
        }
    }

    /** The request body (empty when none was sent); only for routes that read one. */
    public byte[] body() {
        if (body == null) {
            throw new IllegalStateException(route + " does not read a body");
        }
        return body;
    }

    void body(byte[] bytes) {
        this.body = bytes;
    }

    /**
     * The files of an upload, streamed to disk as they arrived (readable until the exchange ends); only for routes
     * that take uploads ({@link Route#upload()}).
     */
    public java.util.List<io.posekit.asset.SourceFile> upload() {
        if (upload == null) {
            throw new IllegalStateException(route + " takes no upload");
        }
        return upload;
    }

    void upload(java.util.List<io.posekit.asset.SourceFile> files) {
        this.upload = files;
    }

    /**
     * Runs {@code cleanup} (closing an upload's files, releasing the memory its body holds) once both the exchange has
     * ended ({@link #leave()} by the server) and its handler has returned ({@link #enter()}…{@link #leave()}): a
     * client that goes away while its upload is parsed must not pull the files from under the parse.
     */
    void onEnd(Runnable cleanup) {
        this.cleanup = cleanup;
    }

    /** The handler starts; false (and it must not run) when the exchange already ended. */
    boolean enter() {
        while (true) {
            int n = users.get();
            if (n == 0) {
                return false;
            }
            if (users.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    /** The handler returned, or the exchange ended: the last of them runs the cleanup. */
    void leave() {
        if (users.decrementAndGet() == 0 && cleanup != null) {
            cleanup.run();
        }
    }

    private Map<String, List<String>> query() {
        if (query == null) {
            query = parseQuery(rawQuery);
        }
        return query;
    }

    /**
     * Parses {@code a=1&b=2&a=3} into names with their values in order; {@code +} is a space, {@code %xx} a UTF-8
     * byte; a name without {@code =} has the value {@code ""}.
     *
     * @throws IllegalArgumentException for a malformed escape or bytes that are not UTF-8
     */
    static Map<String, List<String>> parseQuery(String raw) {
        if (raw == null || raw.isEmpty()) {
            return Collections.emptyMap();
        }
        Map<String, List<String>> out = new LinkedHashMap<>();
        int from = 0;
        int n = raw.length();
        while (from <= n) {
            int amp = raw.indexOf('&', from);
            int end = amp < 0 ? n : amp;
            if (end > from) {
                int eq = raw.indexOf('=', from);
                String name;
                String value;
                if (eq < 0 || eq > end) {
                    name = decode(raw, from, end, true);
                    value = "";
                } else {
                    name = decode(raw, from, eq, true);
                    value = decode(raw, eq + 1, end, true);
                }
                List<String> values = out.get(name);
                if (values == null) {
                    values = new ArrayList<>(1);
                    out.put(name, values);
                }
                values.add(value);
            }
            from = end + 1;
        }
        return out;
    }

    /**
     * Percent-decodes {@code s[from, to)} as UTF-8 (RFC 3986 §2.1), {@code +} as a space when {@code plusIsSpace}
     * (form-encoded queries). Strict: a {@code %} not followed by two hex digits, or bytes that are not UTF-8, are
     * refused rather than kept literally (a lenient decoder lets two spellings name one thing).
     *
     * @throws IllegalArgumentException naming what is malformed
     */
    static String decode(String s, int from, int to, boolean plusIsSpace) {
        boolean plain = true;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%' || c == '+' && plusIsSpace || c >= 0x80) {
                plain = false;
                break;
            }
        }
        if (plain) {
            return s.substring(from, to);
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(to - from);
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '+' && plusIsSpace) {
                bytes.write(' ');
            } else if (c == '%') {
                int hi = hex(s, i + 1, to);
                int lo = hex(s, i + 2, to);
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("'" + s.substring(i, Math.min(to, i + 3))
                            + "' is not a percent-escape (% and two hex digits)");
                }
                bytes.write(hi << 4 | lo);
                i += 2;
            } else {
                // a raw non-ASCII character (clients should escape it): its UTF-8 bytes
                int end = Character.isHighSurrogate(c) && i + 1 < to ? i + 2 : i + 1;
                bytes.writeBytes(s.substring(i, end).getBytes(StandardCharsets.UTF_8));
                i = end - 1;
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException("the escaped bytes are not UTF-8");
        }
    }

    private static int hex(String s, int i, int to) {
        if (i >= to) {
            return -1;
        }
        return Character.digit(s.charAt(i), 16);
    }
}
