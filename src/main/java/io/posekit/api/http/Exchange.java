package io.posekit.api.http;

import io.netty.handler.codec.http.HttpHeaders;
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
 * whole body (read before the handler runs, within the route's limit).
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
    private Map<String, List<String>> query;

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

    private Map<String, List<String>> query() {
        if (query == null) {
            query = parseQuery(rawQuery);
        }
        return query;
    }

    /**
     * Parses {@code a=1&b=2&a=3} into names with their values in order; {@code +} is a space, {@code %xx} a UTF-8
     * byte; a name without {@code =} has the value {@code ""}. Malformed escapes are kept literally.
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
                    name = decode(raw, from, end);
                    value = "";
                } else {
                    name = decode(raw, from, eq);
                    value = decode(raw, eq + 1, end);
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

    /** Percent-decodes {@code s[from, to)} as UTF-8, {@code +} as a space. */
    static String decode(String s, int from, int to) {
        boolean plain = true;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%' || c == '+') {
                plain = false;
                break;
            }
        }
        if (plain) {
            return s.substring(from, to);
        }
        byte[] bytes = new byte[to - from];
        int n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '+') {
                bytes[n++] = ' ';
            } else if (c == '%' && hex(s, i + 1, to) >= 0 && hex(s, i + 2, to) >= 0) {
                bytes[n++] = (byte) (hex(s, i + 1, to) << 4 | hex(s, i + 2, to));
                i += 2;
            } else if (c < 0x80) {
                bytes[n++] = (byte) c;
            } else {
                byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < to) {
                    utf8 = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                if (n + utf8.length > bytes.length) {
                    bytes = java.util.Arrays.copyOf(bytes, n + utf8.length + (to - i));
                }
                System.arraycopy(utf8, 0, bytes, n, utf8.length);
                n += utf8.length;
            }
        }
        return new String(bytes, 0, n, StandardCharsets.UTF_8);
    }

    private static int hex(String s, int i, int to) {
        if (i >= to) {
            return -1;
        }
        return Character.digit(s.charAt(i), 16);
    }
}
