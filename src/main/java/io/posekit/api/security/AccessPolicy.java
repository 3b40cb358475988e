package io.posekit.api.security;

import java.util.List;
import org.springframework.http.server.PathContainer;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import reactor.core.publisher.Mono;

/**
 * Who may call what, for every route of both servers (posekit's API server and Spring WebFlux's): in the open mode
 * everyone is {@link Caller#OPEN}; when secured, an operation that names a {@link Scope} needs a caller holding it,
 * a path among the open paths needs no credentials (the viewer's page, the documentation, the health probes), and
 * any other path needs {@link Scope#READ} (the Actuator's other endpoints need {@link Scope#ADMIN}: see
 * {@code SecurityConfiguration}). Credentials are bearer tokens ({@link Authenticator}). Thread-safe.
 */
public final class AccessPolicy {

    /** The caller of an open path when no credentials came (it holds no scope and sees no tenant's assets). */
    public static final Caller ANONYMOUS = new Caller("-", java.util.Set.of(), "anonymous", java.time.Instant.MAX);

    private final boolean open;
    private final Authenticator authenticator;
    private final List<PathPattern> openPaths;

    /**
     * @param open whether posekit runs open (no authentication)
     * @param openPaths Spring path patterns answered without credentials when secured
     */
    public AccessPolicy(boolean open, Authenticator authenticator, List<String> openPaths) {
        this.open = open;
        this.authenticator = authenticator;
        PathPatternParser parser = new PathPatternParser();
        this.openPaths = openPaths.stream().map(parser::parse).toList();
    }

    /** Whether posekit runs open. */
    public boolean isOpen() {
        return open;
    }

    /** The path patterns answered without credentials. */
    public List<String> openPaths() {
        return openPaths.stream().map(PathPattern::getPatternString).toList();
    }

    /** Whether {@code path} (without the query) is answered without credentials. */
    public boolean isOpenPath(String path) {
        PathContainer p = PathContainer.parsePath(path);
        for (PathPattern pattern : openPaths) {
            if (pattern.matches(p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The caller of a request, when it is known at once: no credentials needed, an API key, or a token validated
     * before; {@code null} when its token must be validated first ({@link #callerLater}).
     *
     * @param required the scope the operation needs, or {@code null} for a route that names none (then the open
     *     paths decide, and {@link Scope#READ} is needed elsewhere)
     * @param path the request path, without the query
     * @param authorization the {@code Authorization} header, or {@code null}
     * @throws Denied when the request may not proceed
     */
    public Caller callerNow(Scope required, String path, String authorization) {
        if (open) {
            return Caller.OPEN;
        }
        Scope needed = required != null ? required : isOpenPath(path) ? null : Scope.READ;
        if (authorization == null) {
            if (needed == null) {
                return ANONYMOUS;
            }
            throw Denied.missing();
        }
        String token = bearerToken(authorization, needed != null);
        if (token == null) {
            return ANONYMOUS; // another scheme on an open path: not ours to judge
        }
        Caller known;
        try {
            known = authenticator.known(token);
        } catch (AuthenticationException e) {
            throw Denied.invalidToken(e.getMessage());
        }
        return known == null ? null : authorized(known, needed);
    }

    /** {@link #callerNow} for a token that must be validated first (a JWT seen for the first time). */
    public Mono<Caller> callerLater(Scope required, String path, String authorization) {
        Scope needed = required != null ? required : isOpenPath(path) ? null : Scope.READ;
        String token = bearerToken(authorization, true);
        return authenticator.authenticate(new BearerTokenAuthenticationToken(token))
                .onErrorMap(AuthenticationException.class, e -> Denied.invalidToken(e.getMessage()))
                .map(a -> authorized(((CallerAuthentication) a).caller(), needed));
    }

    private static Caller authorized(Caller caller, Scope needed) {
        if (needed != null && !caller.has(needed)) {
            throw Denied.insufficientScope(needed);
        }
        return caller;
    }

    /**
     * The token of {@code Authorization: Bearer <token>} (RFC 6750 §2.1: the scheme case-insensitive, the token a
     * b64token), as Spring Security's {@code ServerBearerTokenAuthenticationConverter} reads it.
     *
     * @param required whether credentials are needed: another scheme is then a 401, else {@code null}
     * @throws Denied for a malformed bearer header, or another scheme where credentials are needed
     */
    static String bearerToken(String authorization, boolean required) {
        if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            if (required) {
                throw Denied.missing();
            }
            return null;
        }
        String token = authorization.substring(7).strip();
        if (token.isEmpty()) {
            throw Denied.invalidRequest("the bearer token is empty");
        }
        int end = token.length();
        while (end > 0 && token.charAt(end - 1) == '=') {
            end--;
        }
        for (int i = 0; i < end; i++) {
            char c = token.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.'
                    || c == '_' || c == '~' || c == '+' || c == '/';
            if (!ok) {
                throw Denied.invalidRequest("the bearer token is malformed (RFC 6750 b64token)");
            }
        }
        if (end == 0) {
            throw Denied.invalidRequest("the bearer token is malformed (RFC 6750 b64token)");
        }
        return token;
    }
}
