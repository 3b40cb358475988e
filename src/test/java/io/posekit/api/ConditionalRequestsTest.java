package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.gltf.GltfBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Sampling answers are pure functions of (asset, path, query, Accept): strong ETags, immutable caching, and 304 for a
 * matching If-None-Match — but never for an asset that is gone, and never on an error.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class ConditionalRequestsTest {

    @LocalServerPort
    int port;

    private PosekitClient client;
    private String base;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void upload() {
        client = new PosekitClient(port);
        GltfBuilder asset = GltfBuilder.skinnedTwoBoneStrip();
        asset.setRoot("extras", "etag");
        base = "/api/v1/assets/" + client.upload("etag.glb", asset.toGlb()).json().get("id").asString();
    }

    private HttpResponse<byte[]> get(String path, String accept, String ifNoneMatch) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).header("Accept", accept);
        if (ifNoneMatch != null) {
            b.header("If-None-Match", ifNoneMatch);
        }
        return http.send(b.GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void repeatsAre304WithTheSameStrongEtag() throws Exception {
        String path = base + "/skins/0/matrices?clip=Bend&time=1.5";
        HttpResponse<byte[]> first = get(path, "application/json", null);
        assertThat(first.statusCode()).isEqualTo(200);
        String etag = first.headers().firstValue("ETag").orElseThrow();
        assertThat(etag).matches("\"[0-9a-f]{32}\"");
        assertThat(first.headers().firstValue("Cache-Control")).contains("public, max-age=31536000, immutable");
        assertThat(first.headers().firstValue("Vary")).hasValueSatisfying(v -> assertThat(v).contains("Accept"));

        HttpResponse<byte[]> again = get(path, "application/json", etag);
        assertThat(again.statusCode()).isEqualTo(304);
        assertThat(again.body()).isEmpty();
        assertThat(again.headers().firstValue("ETag")).contains(etag);
        assertThat(get(path, "application/json", "\"other\", " + etag).statusCode()).isEqualTo(304);
        assertThat(get(path, "application/json", "W/" + etag).statusCode()).isEqualTo(304);

        // another instant, or another representation, is another resource
        HttpResponse<byte[]> later = get(base + "/skins/0/matrices?clip=Bend&time=1.6", "application/json", etag);
        assertThat(later.statusCode()).isEqualTo(200);
        assertThat(later.headers().firstValue("ETag")).isPresent().get().isNotEqualTo(etag);
        HttpResponse<byte[]> binary = get(path, "application/octet-stream", etag);
        assertThat(binary.statusCode()).isEqualTo(200);
        assertThat(binary.headers().firstValue("ETag")).isPresent().get().isNotEqualTo(etag);
        for (String p : new String[] {"/pose", "/meshes/0", "/meshes/0/skinned", "/skeleton", "/bounds", "/posed.glb"}) {
            HttpResponse<byte[]> r = get(base + p, "*/*", null);
            assertThat(r.statusCode()).as(p).isEqualTo(200);
            assertThat(get(base + p, "*/*", r.headers().firstValue("ETag").orElseThrow()).statusCode()).as(p).isEqualTo(304);
        }
    }

    @Test
    void errorsAndGoneAssetsAreNeverCachedOr304() throws Exception {
        String path = base + "/pose?clip=Bend&time=1";
        String etag = get(path, "application/json", null).headers().firstValue("ETag").orElseThrow();
        HttpResponse<byte[]> bad = get(base + "/pose?clip=Bend&time=NaN", "application/json", null);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.headers().firstValue("ETag")).isEmpty();
        assertThat(bad.headers().firstValue("Cache-Control").orElse("")).doesNotContain("immutable");
        // the summary is not covered (it says when the asset was stored)
        assertThat(get(base, "application/json", null).headers().firstValue("ETag")).isEmpty();

        assertThat(client.delete(base).status()).isEqualTo(204);
        HttpResponse<byte[]> gone = get(path, "application/json", etag);
        assertThat(gone.statusCode()).isEqualTo(404);
        assertProblem(new PosekitClient.Response(gone.statusCode(), gone.headers(), gone.body()), 404, null);
    }
}
