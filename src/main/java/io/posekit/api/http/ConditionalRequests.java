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
    private static final String VERSION = String.valueOf(ConditionalRequests.class.getPackage().getImplementationVersion());

    private final AssetStore store;

    public ConditionalRequests(AssetStore store) {
        this.store = store;
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
        if (matches(ifNoneMatch, etag) && store.find(id).isPresent() && store.corruption(id).isEmpty()) {
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
        return exchange.route().immutable() && exchange.method().equals("GET");
    }

    private static Reply headers(Reply reply, String etag) {
        return reply.header(HttpHeaderNames.ETAG, etag)
                .header(HttpHeaderNames.CACHE_CONTROL, CACHE_CONTROL)
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

    /** Whether an {@code If-None-Match} value names {@code etag} (or is {@code *}); weak forms compare equal too. */
    public static boolean matches(String ifNoneMatch, String etag) {
        for (String candidate : ifNoneMatch.split(",")) {
            String c = candidate.strip();
            if (c.startsWith("W/")) {
                c = c.substring(2);
            }
            if (c.equals("*") || c.equals(etag)) {
                return true;
            }
        }
        return false;
    }
}
