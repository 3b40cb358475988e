package io.posekit.api.security;

import io.posekit.config.PosekitProperties;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.security.web.server.savedrequest.NoOpServerRequestCache;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.reactive.UrlBasedCorsConfigurationSource;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The security of every route, from one configuration ({@code posekit.security.*}, and Boot's
 * {@code spring.security.oauth2.resourceserver.jwt.*} for a JWT issuer): the {@link Authenticator} (API keys and
 * JWTs), the {@link AccessPolicy} the API server asks, and the Spring Security filter chain that applies the same
 * policy to the routes Spring WebFlux serves (the other Actuator endpoints: the admin scope; the viewer and Swagger
 * UI: the open paths). Also the CORS configuration both servers apply, and the per-tenant rate limits.
 *
 * <p>The mode is decided once at start-up and logged: open only when asked for, or when no credentials are
 * configured and the server is bound to a loopback address; a server reachable from a network without credentials
 * does not start.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebFluxSecurity
public class SecurityConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);

    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService apiKeyReloads() {
        return Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("api-keys-reload").factory());
    }

    @Bean
    Authenticator authenticator(PosekitProperties properties, Environment env, ScheduledExecutorService apiKeyReloads) {
        PosekitProperties.Security s = properties.security();
        ApiKeys keys = null;
        if (s.apiKeysFile() != null) {
            keys = new ApiKeys(s.apiKeysFile());
            long every = Math.max(100, s.apiKeysReload().toMillis());
            apiKeyReloads.scheduleWithFixedDelay(keys::reloadIfChanged, every, every, TimeUnit.MILLISECONDS);
        }
        return new Authenticator(keys, JwtDecoders.fromEnvironment(env).orElse(null), s.tenantClaim(), s.tokenCacheSize(), Clock.systemUTC());
    }

    @Bean
    AccessPolicy accessPolicy(PosekitProperties properties, Authenticator authenticator, Environment env) {
        PosekitProperties.Security s = properties.security();
        String address = env.getProperty("server.address");
        boolean open = switch (s.mode()) {
            case OPEN -> true;
            case SECURED -> {
                if (!authenticator.configured()) {
                    throw new IllegalStateException("posekit.security.mode is secured but no credentials are "
                            + "configured: set posekit.security.api-keys-file or spring.security.oauth2.resourceserver."
                            + "jwt.issuer-uri (docs/security.md)");
                }
                yield false;
            }
            case AUTO -> {
                if (authenticator.configured()) {
                    yield false;
                }
                if (!loopback(address)) {
                    throw new IllegalStateException("posekit is bound to " + (address == null ? "every interface"
                            : address) + " with no credentials configured: anyone who reaches the port could read, "
                            + "change and delete every asset. Configure posekit.security.api-keys-file or "
                            + "spring.security.oauth2.resourceserver.jwt.issuer-uri, bind to a loopback address "
                            + "(server.address=127.0.0.1), or open it explicitly with posekit.security.mode=open "
                            + "(docs/security.md)");
                }
                yield true;
            }
        };
        if (open) {
            log.warn("posekit runs OPEN: no authentication, every caller is tenant '{}' with every scope ({}). "
                    + "Set posekit.security.api-keys-file or a JWT issuer to secure it (docs/security.md)",
                    Caller.DEFAULT_TENANT, s.mode() == PosekitProperties.Security.Mode.OPEN
                            ? "posekit.security.mode=open" : "bound to loopback " + address + " without credentials");
        } else {
            log.info("posekit is secured: bearer tokens ({}) on every route but {}",
                    String.join(" and ", authenticator.describe()), s.openPaths());
        }
        return new AccessPolicy(open, authenticator, s.openPaths());
    }

    /** Keys for the service's own calls (the start-up warm-up), in memory only; none when the service is open. */
    @Bean
    io.posekit.config.InternalTokens internalTokens(AccessPolicy policy, Authenticator authenticator) {
        return new io.posekit.config.InternalTokens() {
            @Override
            public String issue(java.time.Duration ttl) {
                return policy.isOpen() ? null : authenticator.issue(TENANT,
                        java.util.EnumSet.of(Scope.READ, Scope.WRITE, Scope.DELETE), "posekit warm-up", ttl);
            }

            @Override
            public void revoke(String token) {
                if (token != null) {
                    authenticator.revoke(token);
                }
            }
        };
    }

    /** Whether {@code address} (a host name or literal; null = every interface) is a loopback address. */
    static boolean loopback(String address) {
        if (address == null || address.isBlank()) {
            return false;
        }
        try {
            return InetAddress.getByName(address.strip()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** What {@code posekit.cors.*} allows, or {@code null} when no origin is allowed. */
    @Bean
    CorsSettings corsSettings(PosekitProperties properties) {
        PosekitProperties.Cors c = properties.cors();
        if (c.allowedOrigins() == null || c.allowedOrigins().isEmpty()) {
            return new CorsSettings(null);
        }
        CorsConfiguration config = new CorsConfiguration();
        config.setAllowedOriginPatterns(c.allowedOrigins());
        config.setAllowedMethods(c.allowedMethods());
        config.setAllowedHeaders(c.allowedHeaders());
        config.setExposedHeaders(c.exposedHeaders());
        config.setMaxAge(c.maxAge());
        // bearer tokens go in a header the page sets; no cookies, so no credentials mode
        config.setAllowCredentials(false);
        return new CorsSettings(config);
    }

    /** The CORS configuration of both servers; {@code config} is {@code null} when CORS is off. */
    public record CorsSettings(CorsConfiguration config) {
    }

    @Bean
    RateLimits rateLimits(PosekitProperties properties) {
        PosekitProperties.Quota q = properties.quota();
        RateLimits.Rate defaults = new RateLimits.Rate(q.requestsPerSecond(), Math.max(q.burst(), q.requestsPerSecond()));
        Map<String, PosekitProperties.Quota.Tenant> tenants = q.tenants() == null ? Map.of() : q.tenants();
        return new RateLimits(tenant -> {
            PosekitProperties.Quota.Tenant t = tenants.get(tenant);
            if (t == null || t.requestsPerSecond() == null && t.burst() == null) {
                return defaults;
            }
            long rate = t.requestsPerSecond() != null ? t.requestsPerSecond() : defaults.perSecond();
            long burst = t.burst() != null ? t.burst() : Math.max(rate, defaults.burst());
            return new RateLimits.Rate(rate, Math.max(burst, rate));
        });
    }

    /**
     * Spring Security on the routes Spring WebFlux serves, by the same policy as the API server's: the open paths
     * need nothing, the Actuator (health is the API server's) the admin scope, anything else the read scope; bearer
     * tokens through {@link Authenticator}. No sessions, no cookies, no CSRF (nothing here is authenticated by a
     * cookie), no login pages.
     */
    @Bean
    SecurityWebFilterChain webFluxSecurity(ServerHttpSecurity http, AccessPolicy policy, Authenticator authenticator,
            CorsSettings cors, JsonMapper json) {
        http.csrf(ServerHttpSecurity.CsrfSpec::disable)
                .httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
                .formLogin(ServerHttpSecurity.FormLoginSpec::disable)
                .logout(ServerHttpSecurity.LogoutSpec::disable)
                .requestCache(r -> r.requestCache(NoOpServerRequestCache.getInstance()))
                .securityContextRepository(NoOpServerSecurityContextRepository.getInstance());
        if (cors.config() != null) {
            UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
            source.registerCorsConfiguration("/**", cors.config());
            http.cors(c -> c.configurationSource(source));
        } else {
            http.cors(ServerHttpSecurity.CorsSpec::disable);
        }
        if (policy.isOpen()) {
            return http.authorizeExchange(ex -> ex.anyExchange().permitAll()).build();
        }
        return http
                .authorizeExchange(ex -> ex
                        .pathMatchers(policy.openPaths().toArray(String[]::new)).permitAll()
                        .pathMatchers("/actuator", "/actuator/**").hasAuthority(Scope.ADMIN.authority())
                        .anyExchange().hasAuthority(Scope.READ.authority()))
                .oauth2ResourceServer(o -> o
                        .authenticationManagerResolver(exchange -> Mono.just(authenticator))
                        .authenticationEntryPoint((exchange, e) -> problem(exchange, denial(exchange, e), json))
                        .accessDeniedHandler((exchange, e) -> problem(exchange, Denied.insufficientScope(
                                exchange.getRequest().getPath().value().startsWith("/actuator") ? Scope.ADMIN
                                        : Scope.READ), json)))
                .build();
    }

    /** What an authentication failure on a WebFlux route means: no credentials, or credentials that are not valid. */
    private static Denied denial(ServerWebExchange exchange, AuthenticationException e) {
        String authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Denied.missing();
        }
        return Denied.invalidToken(e.getMessage());
    }

    /** A refusal on a WebFlux route: the RFC 6750 challenge and an RFC 9457 problem, as the API server answers. */
    private static Mono<Void> problem(ServerWebExchange exchange, Denied denied, JsonMapper json) {
        var response = exchange.getResponse();
        response.setStatusCode(HttpStatus.valueOf(denied.status()));
        response.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, denied.challenge());
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        response.getHeaders().setCacheControl("no-store");
        Map<String, Object> problem = new java.util.LinkedHashMap<>();
        problem.put("type", "about:blank");
        problem.put("title", denied.title());
        problem.put("status", denied.status());
        problem.put("detail", denied.getMessage());
        problem.put("instance", exchange.getRequest().getPath().value());
        DataBuffer buffer = response.bufferFactory().wrap(json.writeValueAsBytes(problem));
        return response.writeWith(Mono.just(buffer));
    }
}
