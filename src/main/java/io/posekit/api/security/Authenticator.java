package io.posekit.api.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import java.time.Clock;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.authentication.ReactiveAuthenticationManager;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;
import org.springframework.security.oauth2.server.resource.authentication.JwtGrantedAuthoritiesConverter;
import org.springframework.security.oauth2.server.resource.authentication.JwtReactiveAuthenticationManager;
import reactor.core.publisher.Mono;

/**
 * Turns a bearer token into a {@link Caller}, for the API server and for Spring Security's filter chain alike (one
 * authentication for every route): an API key ({@value ApiKeys#PREFIX}…) is looked up in {@link ApiKeys}; anything
 * else is a JWT, decoded and validated by Spring Security's {@link ReactiveJwtDecoder} (signature against the
 * issuer's JWK set, {@code exp}/{@code nbf}, issuer and audience as Boot configures them) through its
 * {@link JwtReactiveAuthenticationManager}, its scopes mapped by {@link JwtGrantedAuthoritiesConverter}
 * ({@code scope}/{@code scp} claims) and its tenant read from the configured claim.
 *
 * <p>A validated JWT is kept until it expires (at most {@code cacheSize} of them), so its signature is checked once and
 * the next requests carrying it cost a map lookup; an API key is looked up every time, so a revoked key stops working
 * at the next reload of the key file. Failures are {@link InvalidBearerTokenException}s (RFC 6750 {@code invalid_token}).
 */
public final class Authenticator implements ReactiveAuthenticationManager {

    /** The longest a validated token is kept (tokens without {@code exp}, or expiring later). */
    static final java.time.Duration MAX_KEPT = java.time.Duration.ofMinutes(5);

    private final ApiKeys apiKeys;
    private final ReactiveAuthenticationManager jwts;
    private final Cache<String, CallerAuthentication> validated;
    private final Clock clock;
    /**
     * Keys the service issued to itself ({@link #issue}), by their SHA-256: held in memory only, never in the key
     * file, each until revoked or expired.
     */
    private final java.util.concurrent.ConcurrentHashMap<java.nio.ByteBuffer, Caller> issued =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @param apiKeys the API keys, or {@code null} when none are configured
     * @param decoder the JWT decoder, or {@code null} when no issuer is configured
     * @param tenantClaim the claim naming the tenant
     * @param cacheSize how many validated JWTs are kept
     */
    public Authenticator(ApiKeys apiKeys, ReactiveJwtDecoder decoder, String tenantClaim, int cacheSize, Clock clock) {
        this.apiKeys = apiKeys;
        this.clock = clock;
        if (decoder != null) {
            JwtReactiveAuthenticationManager manager = new JwtReactiveAuthenticationManager(decoder);
            manager.setJwtAuthenticationConverter(new ToCaller(tenantClaim));
            this.jwts = manager;
        } else {
            this.jwts = null;
        }
        this.validated = Caffeine.newBuilder().maximumSize(cacheSize).executor(Runnable::run)
                .expireAfter(Expiry.<String, CallerAuthentication>creating((token, auth) -> keptFor(auth, clock)))
                .build();
    }

    /** How long a validated token is kept: until it expires, and never longer than {@link #MAX_KEPT}. */
    private static java.time.Duration keptFor(CallerAuthentication auth, Clock clock) {
        Instant now = clock.instant();
        Instant until = auth.caller().expiresAt();
        if (!until.isAfter(now)) {
            return java.time.Duration.ZERO;
        }
        return until.isAfter(now.plus(MAX_KEPT)) ? MAX_KEPT : java.time.Duration.between(now, until);
    }

    /** What credentials are taken, in words, for the start-up log. */
    public java.util.List<String> describe() {
        java.util.List<String> what = new java.util.ArrayList<>();
        if (apiKeys != null) {
            what.add(apiKeys.size() + " API keys");
        }
        if (jwts != null) {
            what.add("JWTs of the configured issuer");
        }
        return what;
    }

    /** Whether any credentials are configured (API keys, or a JWT issuer). */
    public boolean configured() {
        return apiKeys != null || jwts != null;
    }

    /**
     * The caller of a token already validated and not expired, or of an API key, without waiting; {@code null} when
     * the token must be validated first ({@link #authenticate(Authentication)}).
     *
     * @throws InvalidBearerTokenException for an API key that is not known
     */
    public Caller known(String token) {
        if (token.startsWith(ApiKeys.PREFIX)) {
            return apiKey(token).caller();
        }
        CallerAuthentication cached = validated.getIfPresent(token);
        if (cached != null && cached.caller().expiresAt().isAfter(clock.instant())) {
            return cached.caller();
        }
        return null;
    }

    /** Validates a {@link BearerTokenAuthenticationToken}: an API key, or a JWT. */
    @Override
    public Mono<Authentication> authenticate(Authentication authentication) {
        if (!(authentication instanceof BearerTokenAuthenticationToken bearer)) {
            return Mono.empty();
        }
        String token = bearer.getToken();
        try {
            if (token.startsWith(ApiKeys.PREFIX)) {
                return Mono.just(apiKey(token));
            }
            CallerAuthentication cached = validated.getIfPresent(token);
            if (cached != null && cached.caller().expiresAt().isAfter(clock.instant())) {
                return Mono.just(cached);
            }
        } catch (InvalidBearerTokenException e) {
            return Mono.error(e);
        }
        if (jwts == null) {
            return Mono.error(new InvalidBearerTokenException("this service takes API keys (pk_…) only; no JWT issuer "
                    + "is configured"));
        }
        return jwts.authenticate(bearer).map(a -> {
            CallerAuthentication c = (CallerAuthentication) a;
            validated.put(token, c);
            return c;
        });
    }

    /**
     * A key for the service's own calls to its API (the start-up warm-up drives the API over loopback as a client
     * would): 256 random bits like any API key, known only in memory, for {@code tenant} with {@code scopes}, valid
     * until {@link #revoke revoked} or until {@code ttl} has passed, whichever is first. Works whether or not a key
     * file is configured.
     */
    public String issue(String tenant, Set<Scope> scopes, String principal, java.time.Duration ttl) {
        String key = ApiKeys.generate();
        issued.put(java.nio.ByteBuffer.wrap(ApiKeys.sha256(key)),
                new Caller(tenant, EnumSet.copyOf(scopes), principal, clock.instant().plus(ttl)));
        return key;
    }

    /** How many issued keys are held (revoked and expired ones are not). */
    int issuedCount() {
        return issued.size();
    }

    /** Forgets a key given by {@link #issue}: from now on it is an unknown key. */
    public void revoke(String key) {
        issued.remove(java.nio.ByteBuffer.wrap(ApiKeys.sha256(key)));
    }

    private CallerAuthentication apiKey(String token) {
        if (!issued.isEmpty()) {
            // only while an issued key lives (start-up): every other time, no second hash per request; an expired
            // one is dropped here, so a key never revoked stops costing that hash once it expires
            Instant now = clock.instant();
            issued.values().removeIf(c -> !c.expiresAt().isAfter(now));
            Caller own = issued.get(java.nio.ByteBuffer.wrap(ApiKeys.sha256(token)));
            if (own != null) {
                return new CallerAuthentication(own);
            }
        }
        if (apiKeys == null) {
            throw new InvalidBearerTokenException("this service takes no API keys");
        }
        return apiKeys.find(token).map(CallerAuthentication::new)
                .orElseThrow(() -> new InvalidBearerTokenException("the API key is not known (revoked or mistyped)"));
    }

    /** A validated JWT to a caller: scopes by Spring Security's mapping, tenant from the configured claim. */
    private static final class ToCaller implements Converter<Jwt, Mono<AbstractAuthenticationToken>> {

        private final JwtGrantedAuthoritiesConverter authorities = new JwtGrantedAuthoritiesConverter();
        private final String tenantClaim;

        ToCaller(String tenantClaim) {
            this.tenantClaim = tenantClaim;
        }

        @Override
        public Mono<AbstractAuthenticationToken> convert(Jwt jwt) {
            Set<Scope> scopes = EnumSet.noneOf(Scope.class);
            for (GrantedAuthority a : authorities.convert(jwt)) {
                Scope.byAuthority(a.getAuthority()).ifPresent(scopes::add);
            }
            Object tenant = jwt.getClaims().get(tenantClaim);
            if (!(tenant instanceof String t) || t.isBlank() || t.length() > Caller.MAX_TENANT_LENGTH) {
                return Mono.error(new InvalidBearerTokenException("the token has no usable '" + tenantClaim
                        + "' claim naming its tenant"));
            }
            Instant expires = jwt.getExpiresAt() != null ? jwt.getExpiresAt() : Instant.MAX;
            String subject = jwt.getSubject() != null ? jwt.getSubject() : t;
            return Mono.just(new CallerAuthentication(new Caller(t, scopes, subject, expires)));
        }
    }
}
