package io.posekit.api.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.posekit.store.AssetStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Caching of sampling answers. An asset's content never changes (its id is its SHA-256), so a GET of one of its
 * derived resources — pose, skinning matrices, geometry, skinned mesh, posed GLB, skeleton, bounds: the routes marked
 * {@linkplain Route#immutable() immutable} — is a pure function of the path, the query and the {@code Accept} header.
 * Its 200 answer carries a strong {@code ETag} made from those (and posekit's version, so a new release computes
 * afresh), {@code Cache-Control: public, max-age=31536000, immutable} and {@code Vary: Accept}; a request whose
 * {@code If-None-Match} names that ETag is answered {@code 304 Not Modified} without any sampling, once the asset is
 * known to exist and be sound. Error answers carry neither header. The asset summary (which includes when it was
 * stored) and POSTs are not covered.
 */
public final class ConditionalRequests {

    public static final String CACHE_CONTROL = "public, max-age=31536000, immutable";
    /** For answers to authenticated callers: a shared cache must not give them to another caller. */
    public static final String CACHE_CONTROL_PRIVATE = "private, max-age=31536000, immutable";
    private static final String VERSION = String.valueOf(ConditionalRequests.class.getPackage().getImplementationVersion());

    /** Whether the caller of an exchange may see the asset it names, and the asset is sound. */
    @FunctionalInterface
    public interface Visibility {
        boolean visibleAndSound(Exchange exchange, String id);
    }

    private final Visibility visible;
    private final String cacheControl;

    /**
     * @param visible whether a 304 may be answered for an asset: the caller sees it and it is sound (a 304 must not
     *     tell a caller that an asset it cannot see exists)
     * @param shared whether answers may be kept by shared caches ({@code public}); {@code private} when callers are
     *     authenticated
     */
    public ConditionalRequests(Visibility visible, boolean shared) {
        this.visible = visible;
        this.cacheControl = shared ? CACHE_CONTROL : CACHE_CONTROL_PRIVATE;
    }

    /** The 304 answer when the request names the current ETag of an existing, sound asset; else {@code null}. */
    Reply notModified(Exchange exchange) {
        if (!covered(exchange)) {
            return null;
        }
        String ifNoneMatch = exchange.header(HttpHeaderNames.IF_NONE_MATCH);
        if (ifNoneMatch == null) {
            return null;
        }
        String etag = etag(exchange.path(), exchange.rawQuery(), exchange.header(HttpHeaderNames.ACCEPT));
        String id = exchange.variable("id");
        if (matches(ifNoneMatch, etag) && visible.visibleAndSound(exchange, id)) {
            return headers(Reply.empty(304), etag);
        }
        return null;
    }

    /** Adds the caching headers to a 200 answer of a covered route. */
    void tag(Exchange exchange, Reply reply) {
        if (reply.status() == 200 && covered(exchange)) {
            headers(reply, etag(exchange.path(), exchange.rawQuery(), exchange.header(HttpHeaderNames.ACCEPT)));
        }
    }

    private static boolean covered(Exchange exchange) {
        return exchange.route().immutable() && (exchange.method().equals("GET") || exchange.method().equals("HEAD"));
    }

    private Reply headers(Reply reply, String etag) {
        return reply.header(HttpHeaderNames.ETAG, etag)
                .header(HttpHeaderNames.CACHE_CONTROL, cacheControl)
                .header(HttpHeaderNames.VARY, "Accept");
    }

    /** The strong ETag of a derived resource: SHA-256 over the version, path, query and Accept header. */
    public static String etag(String path, String query, String accept) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String part : new String[] {VERSION, path, String.valueOf(query), String.valueOf(accept)}) {
                sha.update(part.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
            }
            return '"' + HexFormat.of().formatHex(sha.digest(), 0, 16) + '"';
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /**
     * Whether an {@code If-None-Match} value names {@code etag} or is {@code *} (RFC 9110 §13.1.2: the weak
     * comparison, so {@code W/"x"} names {@code "x"}), parsed by Spring's {@link org.springframework.http.ETag}.
     */
    public static boolean matches(String ifNoneMatch, String etag) {
        org.springframework.http.ETag mine = org.springframework.http.ETag.create(etag);
        for (org.springframework.http.ETag candidate : org.springframework.http.ETag.parse(ifNoneMatch)) {
            if (candidate.isWildcard() || candidate.compare(mine, false)) {
                return true;
            }
        }
        return false;
    }
}
