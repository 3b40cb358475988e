package io.posekit.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.api.PosekitClient;
import io.posekit.api.security.ApiKeys;
import io.posekit.asset.gltf.GltfBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * posekit secured: JWTs of a real issuer (Spring Authorization Server, {@link TestIssuer}) and API keys from a key
 * file, tenants kept apart, quotas, rate limits, and what a stolen, expired or foreign token gets.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "posekit.store.dir=target/test-stores/${random.uuid}",
        "posekit.security.tenant-claim=tenant",
        "posekit.security.api-keys-reload=100ms",
        "posekit.quota.tenants.tiny.max-assets=1",
        "posekit.quota.tenants.small.max-bytes=3KB",
        "posekit.quota.tenants.slow.requests-per-second=2",
        "posekit.quota.tenants.slow.burst=3"})
class SecurityApiTest {

    static final String ACME_ALL = ApiKeys.generate();
    static final String ACME_READ = ApiKeys.generate();
    static final String GLOBEX_ALL = ApiKeys.generate();
    static final String ADMIN = ApiKeys.generate();
    static final String TINY = ApiKeys.generate();
    static final String SMALL = ApiKeys.generate();
    static final String SLOW = ApiKeys.generate();

    static TestIssuer issuer;
    static TestIssuer otherIssuer;
    static Path keyFile;

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void security(DynamicPropertyRegistry registry) throws IOException {
        issuer = TestIssuer.start(List.of(
                TestIssuer.Client.of("acme-app", "acme", "posekit:read", "posekit:write", "posekit:delete"),
                TestIssuer.Client.of("globex-app", "globex", "posekit:read", "posekit:write", "posekit:delete"),
                TestIssuer.Client.of("acme-viewer", "acme", "posekit:read"),
                new TestIssuer.Client("acme-brief", "acme", List.of("posekit:read"), Duration.ofSeconds(1))));
        otherIssuer = TestIssuer.start(List.of(
                TestIssuer.Client.of("acme-app", "acme", "posekit:read", "posekit:write", "posekit:delete")));
        keyFile = Files.createTempFile("posekit-keys", ".txt");
        writeKeys(List.of(
                line(ACME_ALL, "acme", "posekit:read,posekit:write,posekit:delete", "acme deploy key"),
                line(ACME_READ, "acme", "posekit:read", "acme read-only"),
                line(GLOBEX_ALL, "globex", "posekit:read,posekit:write,posekit:delete", "globex"),
                line(ADMIN, "ops", "posekit:admin", "ops"),
                line(TINY, "tiny", "posekit:read,posekit:write,posekit:delete", null),
                line(SMALL, "small", "posekit:read,posekit:write", null),
                line(SLOW, "slow", "posekit:read,posekit:write", null)));
        registry.add("spring.security.oauth2.resourceserver.jwt.issuer-uri", issuer::issuerUri);
        registry.add("posekit.security.api-keys-file", keyFile::toString);
    }

    static String line(String key, String tenant, String scopes, String name) {
        return HexFormat.of().formatHex(ApiKeys.sha256(key)) + " " + tenant + " " + scopes + (name == null ? "" : " " + name);
    }

    static void writeKeys(List<String> lines) throws IOException {
        Path tmp = Files.createTempFile(keyFile.getParent(), "keys", ".tmp");
        Files.write(tmp, lines, StandardCharsets.UTF_8);
        Files.move(tmp, keyFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    @AfterAll
    static void stop() throws IOException {
        issuer.close();
        otherIssuer.close();
        Files.deleteIfExists(keyFile);
    }

    PosekitClient client(String token) {
        return new PosekitClient(port).as(token);
    }

    static byte[] asset(String unique) {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        b.setRoot("extras", unique);
        return b.toGlb();
    }

    static String challenge(PosekitClient.Response r) {
        return r.headers().firstValue("WWW-Authenticate").orElse("");
    }

    @Test
    void noCredentialsIs401WithTheBearerChallengeAndAProblem() {
        PosekitClient.Response r = client(null).get("/api/v1/assets");
        assertThat(r.status()).isEqualTo(401);
        assertThat(challenge(r)).isEqualTo("Bearer realm=\"posekit\"");
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.json().get("detail").asString()).contains("needs credentials");
        assertThat(r.headers().firstValue("Cache-Control")).contains("no-store");
    }

    @Test
    void jwtsOfTheIssuerWorkAndCarryTheirScopes() {
        String token = issuer.token("acme-app");
        PosekitClient acme = client(token);
        PosekitClient.Response up = acme.upload("jwt.glb", asset("jwtsOfTheIssuerWork"));
        assertThat(up.status()).as(up.toString()).isEqualTo(201);
        String path = "/api/v1/assets/" + up.json().get("id").asString();
        assertThat(acme.get(path).status()).isEqualTo(200);
        // a token with the read scope alone reads, and may not write or delete
        PosekitClient viewer = client(issuer.token("acme-viewer"));
        assertThat(viewer.get(path).status()).isEqualTo(200);
        PosekitClient.Response write = viewer.upload("x.glb", asset("viewerWrites"));
        assertThat(write.status()).isEqualTo(403);
        assertThat(challenge(write)).isEqualTo("Bearer realm=\"posekit\", error=\"insufficient_scope\", "
                + "error_description=\"this operation needs the scope posekit:write\", scope=\"posekit:write\"");
        assertThat(viewer.delete(path).status()).isEqualTo(403);
        // a token asked for with fewer scopes than the client may have
        PosekitClient narrowed = client(issuer.token("acme-app", "posekit:read"));
        assertThat(narrowed.get(path).status()).isEqualTo(200);
        assertThat(narrowed.delete(path).status()).isEqualTo(403);
        assertThat(acme.delete(path).status()).isEqualTo(204);
    }

    @Test
    void expiredForeignTamperedAndUnknownTokensAre401InvalidToken() {
        String brief = issuer.token("acme-brief");
        assertThat(client(brief).get("/api/v1/assets").status()).isEqualTo(200);
        // the cache of validated tokens keeps none past its expiry (Spring's validator allows 60 s of clock skew)
        String expired = expiredToken();
        PosekitClient.Response late = client(expired).get("/api/v1/assets");
        assertThat(late.status()).isEqualTo(401);
        assertThat(challenge(late)).startsWith("Bearer realm=\"posekit\", error=\"invalid_token\"");
        // the same client's token from another issuer (another key, another iss)
        PosekitClient.Response foreign = client(otherIssuer.token("acme-app")).get("/api/v1/assets");
        assertThat(foreign.status()).isEqualTo(401);
        assertThat(challenge(foreign)).contains("error=\"invalid_token\"");
        // a stolen token altered to claim another tenant: the signature no longer matches
        String token = issuer.token("acme-app");
        String[] parts = token.split("\\.");
        String claims = new String(java.util.Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                .replace("\"acme\"", "\"globex\"");
        String tampered = parts[0] + "." + java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
        assertThat(client(tampered).get("/api/v1/assets").status()).isEqualTo(401);
        // an API key that was never issued, and a malformed header
        PosekitClient.Response unknown = client(ApiKeys.generate()).get("/api/v1/assets");
        assertThat(unknown.status()).isEqualTo(401);
        assertThat(challenge(unknown)).contains("the API key is not known");
        PosekitClient.Response malformed = new PosekitClient(port).exchange("GET", "/api/v1/assets", null,
                "Authorization", "Bearer a b");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(challenge(malformed)).contains("error=\"invalid_request\"");
        PosekitClient.Response basic = new PosekitClient(port).exchange("GET", "/api/v1/assets", null,
                "Authorization", "Basic YWxhZGRpbjpvcGVuc2VzYW1l");
        assertThat(basic.status()).isEqualTo(401);
    }

    /** A token of the issuer, signed with its key, that expired two minutes ago (past the 60 s clock skew). */
    private static String expiredToken() {
        return issuer.expiredToken("acme-app", "acme", "posekit:read", Duration.ofMinutes(2));
    }

    @Test
    void tenantsSeeOnlyTheirOwnAssetsAndLearnNothingOfTheOthers() {
        PosekitClient acme = client(ACME_ALL);
        PosekitClient globex = client(GLOBEX_ALL);
        byte[] bytes = asset("tenantsApart");
        PosekitClient.Response up = acme.upload("acme-secret.glb", bytes);
        assertThat(up.status()).isEqualTo(201);
        String id = up.json().get("id").asString();
        String path = "/api/v1/assets/" + id;
        // another tenant: 404 on every read, exactly as for an id nobody has
        PosekitClient.Response theirs = globex.get(path);
        PosekitClient.Response nobodys = globex.get("/api/v1/assets/" + "0".repeat(64));
        assertThat(theirs.status()).isEqualTo(404);
        assertThat(theirs.json().get("detail").asString()).isEqualTo("no asset with id '" + id + "'");
        assertThat(nobodys.status()).isEqualTo(404);
        assertThat(globex.get(path + "/skins/0/matrices?clip=0&time=0.5").status()).isEqualTo(404);
        assertThat(globex.get(path + "/posed.glb").status()).isEqualTo(404);
        assertThat(globex.delete(path).status()).isEqualTo(404);
        // a conditional request with the right ETag tells nothing either
        PosekitClient.Response pose = acme.get(path + "/pose?clip=0&time=0.25");
        String etag = pose.headers().firstValue("ETag").orElseThrow();
        assertThat(pose.headers().firstValue("Cache-Control")).contains("private, max-age=31536000, immutable");
        assertThat(globex.exchange("GET", path + "/pose?clip=0&time=0.25", null, "If-None-Match", etag).status())
                .isEqualTo(404);
        assertThat(acme.exchange("GET", path + "/pose?clip=0&time=0.25", null, "If-None-Match", etag).status())
                .isEqualTo(304);
        // the same bytes uploaded by the other tenant: 201, as if new, under its own name
        PosekitClient.Response again = globex.upload("globex-name.glb", bytes);
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.json().get("id").asString()).isEqualTo(id);
        assertThat(again.json().get("name").asString()).isEqualTo("globex-name.glb");
        assertThat(globex.upload("globex-name.glb", bytes).status()).isEqualTo(200);
        assertThat(acme.get(path).json().get("name").asString()).isEqualTo("acme-secret.glb");
        // listings per tenant
        assertThat(ids(acme.get("/api/v1/assets"))).contains(id);
        assertThat(ids(globex.get("/api/v1/assets"))).contains(id);
        // one tenant's delete removes its own reference only
        assertThat(acme.delete(path).status()).isEqualTo(204);
        assertThat(acme.get(path).status()).isEqualTo(404);
        assertThat(ids(acme.get("/api/v1/assets"))).doesNotContain(id);
        assertThat(globex.get(path + "/skins/0/matrices?clip=0&time=0.5").status()).isEqualTo(200);
        assertThat(globex.delete(path).status()).isEqualTo(204);
        assertThat(globex.get(path).status()).isEqualTo(404);
        // the admin's listing no longer shows it: the last reference took the bytes with it
        assertThat(client(ADMIN).get("/api/v1/admin/assets?limit=1000").text()).doesNotContain(id);
    }

    @Test
    void listingsArePagedOldestFirstWithALinkToTheNext() {
        PosekitClient globex = client(GLOBEX_ALL);
        List<String> uploaded = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            uploaded.add(globex.upload("page" + i + ".glb", asset("paging" + i)).json().get("id").asString());
        }
        List<String> seen = new ArrayList<>();
        String next = "/api/v1/assets?limit=2";
        int pages = 0;
        while (next != null) {
            PosekitClient.Response page = globex.get(next);
            assertThat(page.status()).isEqualTo(200);
            JsonNode body = page.json();
            assertThat(body.get("assets").size()).isLessThanOrEqualTo(2);
            body.get("assets").forEach(a -> seen.add(a.get("id").asString()));
            next = body.get("next").isNull() ? null : body.get("next").asString();
            if (next != null) {
                assertThat(page.headers().firstValue("Link")).contains("<" + next + ">; rel=\"next\"");
            }
            pages++;
        }
        assertThat(pages).isGreaterThanOrEqualTo(3);
        assertThat(seen).containsSubsequence(uploaded);
        assertThat(seen).doesNotHaveDuplicates();
        assertThat(globex.get("/api/v1/assets?limit=0").status()).isEqualTo(400);
        assertThat(globex.get("/api/v1/assets?after=bogus").status()).isEqualTo(400);
        for (String id : uploaded) {
            assertThat(globex.delete("/api/v1/assets/" + id).status()).isEqualTo(204);
        }
    }

    @Test
    void theAdminSeesEveryTenantAndTheMetricsOthersDoNot() {
        String id = client(ACME_ALL).upload("admin-sees.glb", asset("adminSees")).json().get("id").asString();
        PosekitClient admin = client(ADMIN);
        PosekitClient.Response all = admin.get("/api/v1/admin/assets?limit=1000");
        assertThat(all.status()).isEqualTo(200);
        JsonNode item = null;
        for (JsonNode a : all.json().get("assets")) {
            if (a.get("id").asString().equals(id)) {
                item = a;
            }
        }
        assertThat(item).isNotNull();
        assertThat(item.get("tenants").get(0).get("tenant").asString()).isEqualTo("acme");
        assertThat(client(ACME_ALL).get("/api/v1/admin/assets").status()).isEqualTo(403);
        // the admin scope is not a tenant's read scope
        assertThat(admin.get("/api/v1/assets").status()).isEqualTo(403);
        assertThat(admin.get("/actuator/prometheus").status()).isEqualTo(200);
        assertThat(admin.get("/actuator/metrics").status()).isEqualTo(200);
        assertThat(client(ACME_ALL).get("/actuator/prometheus").status()).isEqualTo(403);
        assertThat(client(null).get("/actuator/prometheus").status()).isEqualTo(401);
        // health: open to probes without details; the admin sees the store's
        PosekitClient.Response probe = client(null).get("/actuator/health");
        assertThat(probe.status()).isEqualTo(200);
        assertThat(probe.text()).isEqualTo("{\"status\":\"UP\"}");
        assertThat(client(null).get("/actuator/health/readiness").text()).isEqualTo("{\"status\":\"UP\"}");
        assertThat(admin.get("/actuator/health").text()).contains("\"components\"").contains("\"store\"");
        assertThat(client(ACME_ALL).delete("/api/v1/assets/" + id).status()).isEqualTo(204);
    }

    @Test
    void quotasRefuseWhatWouldPassThem() {
        PosekitClient tiny = client(TINY);
        PosekitClient.Response first = tiny.upload("one.glb", asset("tinyOne"));
        assertThat(first.status()).isEqualTo(201);
        PosekitClient.Response second = tiny.upload("two.glb", asset("tinyTwo"));
        assertThat(second.status()).isEqualTo(403);
        assertThat(second.json().get("title").asString()).isEqualTo("Quota exceeded");
        assertThat(second.json().get("detail").asString()).isEqualTo("the tenant holds 1 assets, its quota is 1; "
                + "delete some first");
        // the one it holds can be uploaded again (nothing more is held)
        assertThat(tiny.upload("one.glb", asset("tinyOne")).status()).isEqualTo(200);
        assertThat(tiny.delete("/api/v1/assets/" + first.json().get("id").asString()).status()).isEqualTo(204);
        assertThat(tiny.upload("two.glb", asset("tinyTwo")).status()).isEqualTo(201);
        // bytes: 3 KB; a declared length past it is refused before the body is read
        PosekitClient small = client(SMALL);
        byte[] big = new byte[8 * 1024];
        PosekitClient.Response refused = small.exchange("POST", "/api/v1/assets?filename=big.glb", big,
                "Content-Type", "application/octet-stream");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().get("detail").asString()).endsWith("8192 bytes would pass its quota of 3072 bytes");
    }

    @Test
    void ratesPastTheTenantsBucketAre429WithRetryAfterAndRateLimitHeaders() {
        PosekitClient slow = client(SLOW);
        List<Integer> statuses = new ArrayList<>();
        PosekitClient.Response last = null;
        for (int i = 0; i < 6; i++) {
            last = slow.get("/api/v1/assets");
            statuses.add(last.status());
        }
        assertThat(statuses.subList(0, 3)).containsOnly(200);
        assertThat(statuses).contains(429);
        PosekitClient.Response limited = null;
        for (int i = 0; i < 6 && (limited == null || limited.status() != 429); i++) {
            limited = slow.get("/api/v1/assets");
        }
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.headers().firstValue("Retry-After")).contains("1");
        assertThat(limited.headers().firstValue("RateLimit-Policy")).contains("\"tenant\";q=3;w=2");
        assertThat(limited.headers().firstValue("RateLimit").orElseThrow()).startsWith("\"tenant\";r=0;t=");
        // other tenants are not slowed
        assertThat(client(ACME_READ).get("/api/v1/assets").status()).isEqualTo(200);
    }

    @Test
    void apiKeysRotateWithoutARestart() throws Exception {
        String fresh = ApiKeys.generate();
        assertThat(client(fresh).get("/api/v1/assets").status()).isEqualTo(401);
        List<String> lines = new ArrayList<>(Files.readAllLines(keyFile));
        lines.add(line(fresh, "acme", "posekit:read", "rotated in"));
        writeKeys(lines);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        int status = 401;
        while (status != 200 && System.nanoTime() < deadline) {
            Thread.sleep(50);
            status = client(fresh).get("/api/v1/assets").status();
        }
        assertThat(status).isEqualTo(200);
        lines.removeLast();
        writeKeys(lines);
        deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (status != 401 && System.nanoTime() < deadline) {
            Thread.sleep(50);
            status = client(fresh).get("/api/v1/assets").status();
        }
        assertThat(status).isEqualTo(401);
    }

    /**
     * Every route either server answers — the API server's (every operation, health, the API document) and Spring
     * WebFlux's (Actuator's endpoints, the viewer's files, three.js, Swagger UI), found in their route tables and
     * handler mappings, not listed by hand — answers 401 without credentials and 403 with valid credentials lacking
     * its scope, unless the configuration opens it; the open ones answer without credentials.
     */
    @Test
    void everyRouteTheServerAnswersIsGuarded() {
        List<GuardedRoutes.Probe> probes = GuardedRoutes.all(context, port);
        assertThat(probes).as("routes found").hasSizeGreaterThan(40);
        assertThat(probes).extracting(GuardedRoutes.Probe::path)
                .contains("/api/v1/assets", "/actuator/prometheus", "/actuator/metrics", "/actuator/info",
                        "/index.html", "/viewer.js", "/swagger-ui.html", "/v3/api-docs", "/actuator/health");
        List<String> wrong = new ArrayList<>();
        for (GuardedRoutes.Probe p : probes) {
            PosekitClient.Response none = client(null).exchange(p.method(), p.path(), p.body(), p.headers());
            if (p.open()) {
                if (none.status() == 401 || none.status() == 403) {
                    wrong.add(p + ": open, but " + none.status() + " without credentials");
                }
                continue;
            }
            if (none.status() != 401 || !challenge(none).startsWith("Bearer realm=\"posekit\"")) {
                wrong.add(p + ": " + none.status() + " without credentials, " + challenge(none));
            }
            String lacking = keyLacking(p.scope());
            PosekitClient.Response without = client(lacking).exchange(p.method(), p.path(), p.body(), p.headers());
            if (without.status() != 403 || !challenge(without).contains("error=\"insufficient_scope\"")) {
                wrong.add(p + ": " + without.status() + " with credentials lacking " + p.scope());
            }
        }
        assertThat(wrong).isEmpty();
    }

    /** Keys holding every scope but one, made once per scope and added to the key file. */
    private final java.util.Map<io.posekit.api.security.Scope, String> lacking = new java.util.EnumMap<>(
            io.posekit.api.security.Scope.class);

    private String keyLacking(io.posekit.api.security.Scope scope) {
        return lacking.computeIfAbsent(scope, s -> {
            String key = ApiKeys.generate();
            String scopes = java.util.Arrays.stream(io.posekit.api.security.Scope.values()).filter(x -> x != s)
                    .map(io.posekit.api.security.Scope::scopeName).collect(java.util.stream.Collectors.joining(","));
            try {
                List<String> lines = new ArrayList<>(Files.readAllLines(keyFile));
                lines.add(line(key, "lacking-" + s.name().toLowerCase(java.util.Locale.ROOT), scopes, null));
                writeKeys(lines);
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                // known once the key file is read again: a 403 or 404 instead of 401
                while (client(key).get("/api/v1/assets/" + "0".repeat(64)).status() == 401
                        && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return key;
        });
    }

    @org.springframework.beans.factory.annotation.Autowired
    org.springframework.context.ApplicationContext context;

    static List<String> ids(PosekitClient.Response listing) {
        List<String> out = new ArrayList<>();
        listing.json().get("assets").forEach(a -> out.add(a.get("id").asString()));
        return out;
    }
}
