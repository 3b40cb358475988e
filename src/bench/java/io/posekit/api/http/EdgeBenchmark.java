package io.posekit.api.http;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.multipart.DefaultHttpDataFactory;
import io.netty.handler.codec.http.multipart.FileUpload;
import io.netty.handler.codec.http.multipart.HttpPostMultipartRequestDecoder;
import io.netty.handler.codec.http.multipart.InterfaceHttpData;
import io.posekit.api.security.ApiKeys;
import io.posekit.api.security.Authenticator;
import io.posekit.api.security.Scope;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * What posekit's API server does by hand at its edge, against the library that would do it instead, for
 * docs/performance.md: multipart reading as the body streams in ({@link MultipartBody} against Netty's
 * {@link HttpPostMultipartRequestDecoder}, both fed 64 KB pieces, on an upload of {@code size} bytes in two parts), route lookup ({@link Router} against Spring's
 * {@link PathPattern}s, first match in specificity order, as WebFlux's handler mapping does, over posekit's route
 * templates), and authentication from a bearer token ({@link Authenticator}: an API key among 100, hashed, looked up
 * by its hash and compared in constant time; a JWT validated before, from the cache; a JWT's full validation).
 */
@State(org.openjdk.jmh.annotations.Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EdgeBenchmark {

    @Param({"4096", "3200000"})
    int size;

    static final String BOUNDARY = "posekit-bench-boundary";
    static final List<String> TEMPLATES = List.of("/api/v1/assets", "/api/v1/admin/assets", "/api/v1/assets/{id}",
            "/api/v1/assets/{id}/pose", "/api/v1/assets/{id}/skins/{skin}/matrices", "/api/v1/assets/{id}/meshes/{mesh}",
            "/api/v1/assets/{id}/meshes/{mesh}/skinned", "/api/v1/assets/{id}/posed.glb", "/api/v1/assets/{id}/render.png",
            "/api/v1/assets/{id}/preview.gif", "/api/v1/assets/{id}/frames.png", "/api/v1/assets/{id}/animated.glb",
            "/api/v1/assets/{id}/animated.gltf", "/api/v1/assets/{id}/skeleton", "/api/v1/assets/{id}/bounds",
            "/api/v1/assets/{id}/bake", "/api/v1/assets/{id}/clips", "/api/v1/assets/{id}/retarget", "/v3/api-docs",
            "/actuator/health", "/actuator/health/{a}", "/actuator/health/{a}/{b}");
    static final String PATH = "/api/v1/assets/3f9c0e7b1b0a2c4e5d6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5"
            + "/skins/0/matrices";

    private byte[] body;
    private Router router;
    private List<PathPattern> patterns;
    private Authenticator authenticator;
    private String key;
    private org.springframework.security.oauth2.jwt.ReactiveJwtDecoder decoder;
    private String jwt;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(7);
        byte[] model = new byte[size];
        random.nextBytes(model);
        byte[] bin = new byte[size / 4];
        random.nextBytes(bin);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (Object[] part : new Object[][] {{"model.gltf", model}, {"model.bin", bin}}) {
            b.writeBytes(("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + part[0]
                    + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            b.writeBytes((byte[]) part[1]);
            b.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        b.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        body = b.toByteArray();

        Router.Builder routes = new Router.Builder();
        for (String t : TEMPLATES) {
            routes.get(t).scope(Scope.READ).handle(e -> Reply.empty(204));
        }
        router = routes.build();
        PathPatternParser parser = new PathPatternParser();
        patterns = new ArrayList<>(TEMPLATES.stream().map(parser::parse).toList());
        patterns.sort(PathPattern.SPECIFICITY_COMPARATOR);

        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String k = ApiKeys.generate();
            if (i == 57) {
                key = k;
            }
            lines.add(java.util.HexFormat.of().formatHex(ApiKeys.sha256(k)) + " tenant" + i + " posekit:read");
        }
        try {
            java.nio.file.Path file = java.nio.file.Files.createTempFile("bench-keys", ".txt");
            java.nio.file.Files.write(file, lines);
            // a JWT signed with an RSA key of the benchmark's own, checked by Spring Security's Nimbus decoder
            java.security.KeyPairGenerator rsa = java.security.KeyPairGenerator.getInstance("RSA");
            rsa.initialize(2048);
            java.security.KeyPair pair = rsa.generateKeyPair();
            com.nimbusds.jose.jwk.RSAKey jwk = new com.nimbusds.jose.jwk.RSAKey.Builder(
                    (java.security.interfaces.RSAPublicKey) pair.getPublic()).privateKey(pair.getPrivate()).keyID("k1")
                    .build();
            org.springframework.security.oauth2.jwt.NimbusJwtEncoder encoder =
                    new org.springframework.security.oauth2.jwt.NimbusJwtEncoder(
                            new com.nimbusds.jose.jwk.source.ImmutableJWKSet<>(new com.nimbusds.jose.jwk.JWKSet(jwk)));
            java.time.Instant now = java.time.Instant.now();
            jwt = encoder.encode(org.springframework.security.oauth2.jwt.JwtEncoderParameters.from(
                    org.springframework.security.oauth2.jwt.JwsHeader.with(
                            org.springframework.security.oauth2.jose.jws.SignatureAlgorithm.RS256).keyId("k1").build(),
                    org.springframework.security.oauth2.jwt.JwtClaimsSet.builder().issuer("https://issuer.example")
                            .subject("studio").issuedAt(now).expiresAt(now.plusSeconds(3600))
                            .claim("scope", "posekit:read posekit:write").build())).getTokenValue();
            decoder = org.springframework.security.oauth2.jwt.NimbusReactiveJwtDecoder
                    .withPublicKey((java.security.interfaces.RSAPublicKey) pair.getPublic()).build();
            authenticator = new Authenticator(new ApiKeys(file), decoder, "sub", 100, Clock.systemUTC());
            authenticator.authenticate(new org.springframework.security.oauth2.server.resource.authentication
                    .BearerTokenAuthenticationToken(jwt)).block();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The body in the pieces a socket read hands on (64 KB, Netty's decoder as posekit configures it). */
    private static final int PIECE = 64 * 1024;

    /**
     * posekit's streaming reader fed the body piece by piece, as {@code UploadReader} does; each part's content is
     * counted (the service writes it to the upload's spool, the same for both readers: not measured here).
     */
    @Benchmark
    public long multipartPosekit() {
        long[] bytes = {0};
        MultipartBody reader = new MultipartBody(BOUNDARY, 1000, new MultipartBody.Parts() {
            @Override
            public void begin(String name, String filename) {
            }

            @Override
            public void content(byte[] b, int offset, int length) {
                bytes[0] += length;
            }

            @Override
            public void end() {
            }
        });
        for (int at = 0; at < body.length; at += PIECE) {
            reader.feed(body, at, Math.min(PIECE, body.length - at));
        }
        reader.finish();
        return bytes[0];
    }

    /**
     * Netty's {@link HttpPostMultipartRequestDecoder} fed the same pieces ({@code offer}), each file's content kept in
     * memory (a disk-backed factory writes it to temporary files instead: the bytes the service spools either way), read
     * off as it completes.
     */
    @Benchmark
    public long multipartNetty() {
        io.netty.handler.codec.http.HttpRequest request = new io.netty.handler.codec.http.DefaultHttpRequest(
                HttpVersion.HTTP_1_1, HttpMethod.POST, "/api/v1/assets");
        request.headers().set("Content-Type", "multipart/form-data; boundary=" + BOUNDARY);
        HttpPostMultipartRequestDecoder decoder = new HttpPostMultipartRequestDecoder(
                new DefaultHttpDataFactory(false), request);
        try {
            long bytes = 0;
            for (int at = 0; at < body.length; at += PIECE) {
                int n = Math.min(PIECE, body.length - at);
                io.netty.buffer.ByteBuf piece = Unpooled.wrappedBuffer(body, at, n);
                decoder.offer(at + n == body.length ? new io.netty.handler.codec.http.DefaultLastHttpContent(piece)
                        : new io.netty.handler.codec.http.DefaultHttpContent(piece));
                while (decoder.hasNext()) {
                    InterfaceHttpData d = decoder.next();
                    if (d instanceof FileUpload f) {
                        bytes += f.length();
                    }
                    decoder.removeHttpDataFromClean(d);
                    d.release();
                }
            }
            return bytes;
        } finally {
            decoder.destroy();
        }
    }

    @Benchmark
    public Object routePosekit() {
        return router.find("GET", PATH).route();
    }

    @Benchmark
    public Object routeSpringPathPattern() {
        PathContainer path = PathContainer.parsePath(PATH);
        for (PathPattern p : patterns) {
            PathPattern.PathMatchInfo info = p.matchAndExtract(path);
            if (info != null) {
                return info;
            }
        }
        return null;
    }

    @Benchmark
    public Object apiKeyAmongAHundred() {
        return authenticator.known(key);
    }

    /** A JWT seen before: the kept validation (what every request after a token's first costs). */
    @Benchmark
    public Object jwtValidatedBefore() {
        return authenticator.known(jwt);
    }

    /** A JWT's full validation: RS256 signature, claims, the authority mapping (what its first request costs). */
    @Benchmark
    public Object jwtFirstSeen() {
        return decoder.decode(jwt).block();
    }
}
