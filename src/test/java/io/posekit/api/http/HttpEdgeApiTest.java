package io.posekit.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.api.PosekitClient;
import io.posekit.asset.gltf.GltfBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The HTTP edge as RFC 9110 and browsers want it, on the running service: {@code HEAD} on every {@code GET} route,
 * {@code OPTIONS}, no length on {@code 204}/{@code 304}, {@code Accept} by quality and specificity, strict query
 * parameters, gzip with weak entity tags, request ids, and CORS.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "posekit.store.dir=target/test-stores/${random.uuid}",
        "posekit.cors.allowed-origins=https://app.example.com,https://*.studio.example"})
class HttpEdgeApiTest {

    @LocalServerPort
    int port;

    @Autowired
    ApiServer server;

    PosekitClient client;
    String asset;

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        b.setRoot("extras", "HttpEdgeApiTest");
        asset = client.uploadedAssetPath("edge.glb", b.toGlb());
    }

    @Test
    void everyGetRouteAnswersHeadWithTheGetsHeadersAndNoBody() {
        for (Route r : server.router().routes()) {
            if (!r.method().equals("GET") || r.template().text().contains("{a}")) {
                continue;
            }
            String path = r.template().text().replace("/api/v1/assets/{id}", asset).replace("{skin}", "0")
                    .replace("{mesh}", "0");
            PosekitClient.Response get = client.get(path);
            PosekitClient.Response head = client.exchange("HEAD", path, null);
            assertThat(head.status()).as("HEAD " + path).isEqualTo(get.status());
            assertThat(head.body()).as("HEAD " + path).isEmpty();
            assertThat(head.headers().firstValue("Content-Type")).as("HEAD " + path)
                    .isEqualTo(get.headers().firstValue("Content-Type"));
            if (get.headers().firstValue("Content-Length").isPresent()) {
                assertThat(head.headers().firstValue("Content-Length")).as("HEAD " + path)
                        .contains(Integer.toString(get.body().length));
            }
            assertThat(head.headers().firstValue("ETag")).as("HEAD " + path).isEqualTo(get.headers().firstValue("ETag"));
        }
    }

    @Test
    void optionsListsThePathsMethodsAndNoContentHasNoLength() {
        PosekitClient.Response options = client.exchange("OPTIONS", asset, null);
        assertThat(options.status()).isEqualTo(204);
        assertThat(options.headers().firstValue("Allow")).contains("GET, DELETE, HEAD, OPTIONS");
        assertThat(options.headers().firstValue("Content-Length")).isEmpty();
        assertThat(client.exchange("OPTIONS", "/api/v1/nowhere", null).status()).isEqualTo(404);
        PosekitClient.Response notAllowed = client.exchange("PUT", asset, new byte[0]);
        assertThat(notAllowed.status()).isEqualTo(405);
        assertThat(notAllowed.headers().firstValue("Allow")).contains("GET, DELETE, HEAD, OPTIONS");
    }

    @Test
    void notModifiedCarriesNoLengthAndAWeakTagMatchesToo() {
        String path = asset + "/skins/0/matrices?clip=0&time=0.5";
        String etag = client.get(path).headers().firstValue("ETag").orElseThrow();
        for (String candidate : new String[] {etag, "W/" + etag, "\"other\", " + etag, "*"}) {
            PosekitClient.Response r = client.exchange("GET", path, null, "If-None-Match", candidate);
            assertThat(r.status()).as(candidate).isEqualTo(304);
            assertThat(r.headers().firstValue("Content-Length")).as(candidate).isEmpty();
            assertThat(r.body()).isEmpty();
        }
        assertThat(client.exchange("GET", path, null, "If-None-Match", "\"other\"").status()).isEqualTo(200);
    }

    @Test
    void acceptIsReadByQualityAndSpecificity() {
        String path = asset + "/skins/0/matrices?clip=0&time=0.5";
        assertThat(client.get(path, "application/*;q=0.5, application/octet-stream").contentType())
                .isEqualTo("application/octet-stream");
        assertThat(client.get(path, "application/octet-stream;q=0.4, */*;q=0.5").contentType())
                .startsWith("application/json");
        assertThat(client.get(path, "application/octet-stream, application/json;q=0.9").contentType())
                .isEqualTo("application/octet-stream");
        assertThat(client.get(path, "*/*").contentType()).startsWith("application/json");
        // a more specific range overrides a wildcard's quality: json at 0 refuses JSON though */* admits it
        assertThat(client.get(path, "application/json;q=0, */*").contentType()).isEqualTo("application/octet-stream");
        PosekitClient.Response none = client.get(path, "image/png");
        assertThat(none.status()).isEqualTo(406);
    }

    @Test
    void unknownRepeatedAndMalformedQueryParametersAre400s() throws IOException {
        PosekitClient.Response unknown = client.get(asset + "/pose?clip=0&tme=0.5");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.json().get("detail").asString()).startsWith("'tme' is not a parameter of GET "
                + "/api/v1/assets/{id}/pose; it takes clip, time, frame");
        PosekitClient.Response twice = client.get(asset + "/pose?clip=0&time=0.5&time=1");
        assertThat(twice.status()).isEqualTo(400);
        assertThat(twice.json().get("detail").asString()).isEqualTo("'time' is given 2 times; it takes one value");
        // java.net.http will not send a malformed escape: a raw socket does
        String escape = raw("GET " + asset + "/pose?clip=%zz&time=0.5");
        assertThat(escape).startsWith("HTTP/1.1 400").contains("\"detail\":\"the query is not percent-encoded right: "
                + "'%zz' is not a percent-escape (% and two hex digits)\"");
        assertThat(raw("GET " + asset + "/pose?clip=%FF&time=0.5")).startsWith("HTTP/1.1 400")
                .contains("the query is not percent-encoded right: the escaped bytes are not UTF-8");
        assertThat(raw("GET /api/v1/assets/%zz")).startsWith("HTTP/1.1 400").contains("is not percent-encoded right");
        // layer is repeatable: two layers are a blend
        assertThat(client.get(asset + "/pose?layer=clip:0;weight:0.5&layer=clip:0;weight:0.5&time=0.25").status())
                .isEqualTo(200);
        // an escaped name is the name
        assertThat(client.get(asset + "/pose?cl%69p=0&time=0.5").status()).isEqualTo(200);
    }

    /** One request line sent as it is on a socket (HTTP/1.1, Connection: close); the whole answer. */
    private String raw(String requestLine) throws IOException {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write((requestLine + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void jsonIsGzippedWhenAskedWithAWeakTagAndVary() throws IOException {
        // a mesh of 400 vertices: several KB of JSON
        String mesh = client.uploadedAssetPath("mesh.glb", io.posekit.store.GeneratedAssets.skinnedMesh(400, 29));
        String path = mesh + "/meshes/0/skinned?time=0";
        PosekitClient.Response plain = client.get(path);
        PosekitClient.Response zipped = client.exchange("GET", path, null, "Accept-Encoding", "br;q=1, gzip;q=0.8");
        assertThat(zipped.status()).isEqualTo(200);
        assertThat(zipped.headers().firstValue("Content-Encoding")).contains("gzip");
        assertThat(zipped.headers().firstValue("Vary").orElseThrow()).contains("Accept").contains("Accept-Encoding");
        assertThat(plain.headers().firstValue("Vary").orElseThrow()).contains("Accept").contains("Accept-Encoding");
        String strong = plain.headers().firstValue("ETag").orElseThrow();
        assertThat(zipped.headers().firstValue("ETag")).contains("W/" + strong);
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(zipped.body()))) {
            assertThat(in.readAllBytes()).isEqualTo(plain.body());
        }
        assertThat(zipped.body().length).isLessThan(plain.body().length / 2);
        // gzip;q=0 refuses it; binary answers are never compressed
        assertThat(client.exchange("GET", path, null, "Accept-Encoding", "gzip;q=0, *").headers()
                .firstValue("Content-Encoding")).isEmpty();
        assertThat(client.exchange("GET", path, null, "Accept-Encoding", "gzip", "Accept", "application/octet-stream")
                .headers().firstValue("Content-Encoding")).isEmpty();
        // the weak tag names the same answer for If-None-Match
        assertThat(client.exchange("GET", path, null, "Accept-Encoding", "gzip", "If-None-Match",
                zipped.headers().firstValue("ETag").orElseThrow()).status()).isEqualTo(304);
    }

    @Test
    void everyAnswerCarriesARequestIdTheClientsOwnWhenValid() {
        PosekitClient.Response mine = client.exchange("GET", asset, null, "X-Request-Id", "trace-42.a_b:c");
        assertThat(mine.headers().firstValue("X-Request-Id")).contains("trace-42.a_b:c");
        PosekitClient.Response hostile = client.exchange("GET", asset, null, "X-Request-Id", "a b\"<script>");
        assertThat(hostile.headers().firstValue("X-Request-Id").orElseThrow()).matches("[0-9a-f]{16}");
        PosekitClient.Response problem = client.get("/api/v1/assets/" + "0".repeat(64));
        assertThat(problem.headers().firstValue("X-Request-Id").orElseThrow()).matches("[0-9a-f]{16}");
        assertThat(RequestLog.accessLine("GET", "/a b", 200, 1_234_567, "10.0.0.7", "id1", "acme corp"))
                .isEqualTo("method=GET path=\"/a b\" status=200 ms=1.23 client=10.0.0.7 id=id1 tenant=\"acme corp\"");
    }

    @Test
    void corsPreflightsAreAnsweredAndAllowedOriginsMayReadTheHeadersTheyNeed() {
        PosekitClient.Response preflight = client.exchange("OPTIONS", asset + "/skins/0/matrices", null,
                "Origin", "https://app.example.com", "Access-Control-Request-Method", "GET",
                "Access-Control-Request-Headers", "authorization, x-request-id");
        assertThat(preflight.status()).isEqualTo(204);
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin")).contains("https://app.example.com");
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Methods").orElseThrow()).contains("GET");
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Headers").orElseThrow().toLowerCase())
                .contains("authorization").contains("x-request-id");
        assertThat(preflight.headers().firstValue("Access-Control-Max-Age")).contains("1800");
        // a pattern allows an origin of its form
        assertThat(client.exchange("OPTIONS", asset, null, "Origin", "https://eu.studio.example",
                "Access-Control-Request-Method", "DELETE").status()).isEqualTo(204);
        // a method the path does not have, an origin not allowed, a header not allowed: 403
        assertThat(client.exchange("OPTIONS", asset, null, "Origin", "https://app.example.com",
                "Access-Control-Request-Method", "POST").status()).isEqualTo(403);
        assertThat(client.exchange("OPTIONS", asset, null, "Origin", "https://evil.example",
                "Access-Control-Request-Method", "GET").status()).isEqualTo(403);
        assertThat(client.exchange("OPTIONS", asset, null, "Origin", "https://app.example.com",
                "Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "x-secret").status())
                .isEqualTo(403);
        // an allowed header beside one that is not: not half granted, refused
        assertThat(client.exchange("OPTIONS", asset, null, "Origin", "https://app.example.com",
                "Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "authorization, x-secret")
                .status()).isEqualTo(403);
        PosekitClient.Response actual = client.exchange("GET", asset + "/skins/0/matrices?clip=0&time=0.5", null,
                "Origin", "https://app.example.com");
        assertThat(actual.status()).isEqualTo(200);
        assertThat(actual.headers().firstValue("Access-Control-Allow-Origin")).contains("https://app.example.com");
        assertThat(actual.headers().firstValue("Access-Control-Expose-Headers").orElseThrow())
                .contains("ETag").contains("Location").contains("Posekit-Layout").contains("X-Request-Id");
        assertThat(actual.headers().allValues("Vary").toString()).contains("Origin");
        PosekitClient.Response refused = client.exchange("GET", asset, null, "Origin", "https://evil.example");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().get("title").asString()).isEqualTo("Invalid CORS request");
        // the server's own origin is not a cross-origin request
        assertThat(client.exchange("GET", asset, null, "Origin", "http://localhost:" + port).status()).isEqualTo(200);
        // the WebFlux routes take the same configuration
        PosekitClient.Response viewer = client.exchange("GET", "/index.html", null, "Origin", "https://app.example.com");
        assertThat(viewer.headers().firstValue("Access-Control-Allow-Origin")).contains("https://app.example.com");
    }

    @Test
    void problemsNeverShowInternalPaths() {
        PosekitClient.Response bad = client.uploadRaw(new byte[] {1, 2, 3}, "application/octet-stream",
                "filename=x.glb");
        assertThat(bad.status()).isEqualTo(422);
        assertThat(bad.text()).doesNotContain("target/test-stores").doesNotContain("/work/").doesNotContain("Exception");
    }
}
