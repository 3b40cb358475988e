package io.posekit.api.http;

import io.posekit.store.AssetStore;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Caching of sampling answers. An asset's content never changes (its id is its SHA-256), so a GET of one of its
 * derived resources — pose, skinning matrices, geometry, skinned mesh, posed GLB, skeleton, bounds — is a pure
 * function of the path, the query and the {@code Accept} header. Its 200 answer carries a strong {@code ETag} made from
 * those (and posekit's version, so a new release computes afresh), {@code Cache-Control: public, max-age=31536000,
 * immutable} and {@code Vary: Accept}; a request whose {@code If-None-Match} names that ETag is answered
 * {@code 304 Not Modified} without any sampling, once the asset is known to exist and be sound. Error answers carry
 * neither header. The asset summary (which includes when it was stored) and POSTs are not covered.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class ConditionalRequests extends OncePerRequestFilter {

    static final String CACHE_CONTROL = "public, max-age=31536000, immutable";
    private static final Pattern DERIVED = Pattern.compile(
            "/api/v1/assets/([0-9a-f]{64})/(pose|skins/[^/]+/matrices|meshes/[^/]+|meshes/[^/]+/skinned|posed\\.glb|skeleton|bounds)");
    private static final String VERSION = String.valueOf(ConditionalRequests.class.getPackage().getImplementationVersion());

    private final AssetStore store;

    ConditionalRequests(AssetStore store) {
        this.store = store;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Matcher m = DERIVED.matcher(request.getRequestURI());
        if (!"GET".equals(request.getMethod()) || !m.matches()) {
            chain.doFilter(request, response);
            return;
        }
        String etag = etag(request);
        String id = m.group(1);
        String ifNoneMatch = request.getHeader(HttpHeaders.IF_NONE_MATCH);
        if (ifNoneMatch != null && matches(ifNoneMatch, etag) && store.find(id).isPresent()
                && store.corruption(id).isEmpty()) {
            response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
            response.setHeader(HttpHeaders.ETAG, etag);
            response.setHeader(HttpHeaders.CACHE_CONTROL, CACHE_CONTROL);
            response.setHeader(HttpHeaders.VARY, HttpHeaders.ACCEPT);
            return;
        }
        chain.doFilter(request, new Tagging(response, etag));
    }

    /** The strong ETag of a derived resource: SHA-256 over the version, path, query and Accept header. */
    static String etag(HttpServletRequest request) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String part : new String[] {VERSION, request.getRequestURI(), String.valueOf(request.getQueryString()),
                    String.valueOf(request.getHeader(HttpHeaders.ACCEPT))}) {
                sha.update(part.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
            }
            return '"' + HexFormat.of().formatHex(sha.digest(), 0, 16) + '"';
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Whether an {@code If-None-Match} value names {@code etag} (or is {@code *}); weak forms compare equal too. */
    static boolean matches(String ifNoneMatch, String etag) {
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

    /** Adds the caching headers to a 200 answer just before its body is written; other statuses stay untouched. */
    private static final class Tagging extends HttpServletResponseWrapper {

        private final String etag;
        private boolean decided;

        Tagging(HttpServletResponse response, String etag) {
            super(response);
            this.etag = etag;
        }

        private void decide() {
            if (decided) {
                return;
            }
            decided = true;
            if (getStatus() == SC_OK && !isCommitted()) {
                setHeader(HttpHeaders.ETAG, etag);
                setHeader(HttpHeaders.CACHE_CONTROL, CACHE_CONTROL);
                setHeader(HttpHeaders.VARY, HttpHeaders.ACCEPT);
            }
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            decide();
            return super.getOutputStream();
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            decide();
            return super.getWriter();
        }

        @Override
        public void flushBuffer() throws IOException {
            decide();
            super.flushBuffer();
        }
    }
}
