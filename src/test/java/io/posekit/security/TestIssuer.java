package io.posekit.security;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real OAuth2 token issuer for the tests: Spring Authorization Server (a servlet application of its own, in the
 * test JVM beside posekit), with clients registered by configuration, each issuing client-credentials access tokens
 * (signed JWTs) with its scopes and a {@code tenant} claim. posekit validates them as it would any issuer's: by the
 * issuer's metadata and JWK set.
 */
public final class TestIssuer implements AutoCloseable {

    /**
     * A registered client.
     *
     * @param id the client id (and its tokens' subject)
     * @param tenant the tenant its tokens name
     * @param scopes the scopes it may have
     * @param ttl how long its tokens live
     */
    public record Client(String id, String tenant, List<String> scopes, Duration ttl) {

        public static Client of(String id, String tenant, String... scopes) {
            return new Client(id, tenant, List.of(scopes), Duration.ofMinutes(5));
        }
    }

    /** The start of every client's secret (then its id: the issuer wants them unique). */
    static final String SECRET = "s3cret";

    private final ConfigurableApplicationContext context;
    private final Map<String, List<String>> scopes;
    private final int port;
    private final String issuer;
    private final HttpClient http = HttpClient.newHttpClient();

    private TestIssuer(ConfigurableApplicationContext context, Map<String, List<String>> scopes, int port,
            String issuer) {
        this.context = context;
        this.scopes = scopes;
        this.port = port;
        this.issuer = issuer;
    }

    /** An issuer on a free port of every interface, named {@code http://localhost:<port>}. */
    public static TestIssuer start(List<Client> clients) {
        return start(clients, null, 0);
    }

    /**
     * @param issuer the issuer's name in its tokens and metadata ({@code null}: {@code http://localhost:<port>}), e.g.
     *     how a container reaches it
     * @param port the port (0: any free one)
     */
    public static TestIssuer start(List<Client> clients, String issuer, int port) {
        List<String> args = new ArrayList<>(List.of(
                "--spring.main.web-application-type=servlet",
                "--server.port=" + port,
                "--server.address=0.0.0.0",
                "--spring.application.name=test-issuer",
                "--logging.level.root=WARN",
                "--management.endpoints.web.exposure.include=none",
                "--spring.jmx.enabled=false",
                // not posekit's application.yml, which is on the class path too
                "--spring.config.name=test-issuer"));
        if (issuer != null) {
            args.add("--spring.security.oauth2.authorizationserver.issuer=" + issuer);
        }
        StringBuilder tenants = new StringBuilder();
        for (Client c : clients) {
            String base = "--spring.security.oauth2.authorizationserver.client." + c.id() + ".";
            args.add(base + "registration.client-id=" + c.id());
            args.add(base + "registration.client-secret={noop}" + SECRET + c.id());
            args.add(base + "registration.client-authentication-methods=client_secret_basic");
            args.add(base + "registration.authorization-grant-types=client_credentials");
            args.add(base + "registration.scopes=" + String.join(",", c.scopes()));
            args.add(base + "token.access-token-time-to-live=" + c.ttl().toMillis() + "ms");
            tenants.append(c.id()).append('=').append(c.tenant()).append(';');
        }
        args.add("--test-issuer.tenants=" + tenants);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.SERVLET)
                .run(args.toArray(String[]::new));
        int bound = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
        Map<String, List<String>> scopes = new java.util.HashMap<>();
        clients.forEach(c -> scopes.put(c.id(), c.scopes()));
        return new TestIssuer(context, scopes, bound, issuer != null ? issuer : "http://localhost:" + bound);
    }

    /** The issuer URI (what posekit's {@code issuer-uri} is set to). */
    public String issuerUri() {
        return issuer;
    }

    public int port() {
        return port;
    }

    /** A client-credentials access token of {@code clientId} with every scope it is registered with. */
    public String token(String clientId) {
        return token(clientId, String.join(" ", scopes.get(clientId)));
    }

    /** A client-credentials access token of {@code clientId} with {@code scopes} (space-separated). */
    public String token(String clientId, String scopes) {
        String basic = Base64.getEncoder().encodeToString((clientId + ":" + SECRET + clientId).getBytes(StandardCharsets.UTF_8));
        String form = "grant_type=client_credentials" + (scopes == null ? "" : "&scope=" + scopes.replace(" ", "%20"));
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/oauth2/token"))
                .header("Authorization", "Basic " + basic)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build();
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("token request for " + clientId + " failed: " + r.statusCode() + " "
                        + r.body());
            }
            JsonNode body = JsonMapper.builder().build().readTree(r.body());
            return body.get("access_token").asString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A token as the issuer would have made it for {@code clientId} {@code ago + 5 min} ago, living 5 minutes: signed
     * with the issuer's own key, expired {@code ago} ago.
     */
    public String expiredToken(String clientId, String tenant, String scope, Duration ago) {
        @SuppressWarnings("unchecked")
        com.nimbusds.jose.jwk.source.JWKSource<com.nimbusds.jose.proc.SecurityContext> keys =
                context.getBean(com.nimbusds.jose.jwk.source.JWKSource.class);
        java.time.Instant expired = java.time.Instant.now().minus(ago);
        org.springframework.security.oauth2.jwt.JwtClaimsSet claims = org.springframework.security.oauth2.jwt.JwtClaimsSet
                .builder().issuer(issuer).subject(clientId).audience(List.of(clientId))
                .issuedAt(expired.minus(Duration.ofMinutes(5))).notBefore(expired.minus(Duration.ofMinutes(5)))
                .expiresAt(expired).claim("scope", List.of(scope)).claim("tenant", tenant).build();
        org.springframework.security.oauth2.jwt.JwsHeader header = org.springframework.security.oauth2.jwt.JwsHeader
                .with(org.springframework.security.oauth2.jose.jws.SignatureAlgorithm.RS256).build();
        return new org.springframework.security.oauth2.jwt.NimbusJwtEncoder(keys)
                .encode(org.springframework.security.oauth2.jwt.JwtEncoderParameters.from(header, claims)).getTokenValue();
    }

    @Override
    public void close() {
        context.close();
    }

    /** The issuer application (not a {@code @SpringBootConfiguration}: the tests of this package would boot it): Boot's authorization server auto-configuration, and the tenant claim. */
    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {

        @Bean
        OAuth2TokenCustomizer<JwtEncodingContext> tenantClaim(org.springframework.core.env.Environment env) {
            Map<String, String> tenants = new java.util.HashMap<>();
            for (String pair : env.getProperty("test-issuer.tenants", "").split(";")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    tenants.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
            return context -> {
                String client = context.getRegisteredClient().getClientId();
                if (tenants.containsKey(client)) {
                    context.getClaims().claim("tenant", tenants.get(client));
                }
            };
        }
    }
}
