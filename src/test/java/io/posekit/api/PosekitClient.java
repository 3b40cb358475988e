package io.posekit.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small HTTP client for tests that talk to a running posekit over real HTTP (java.net.http): multipart
 * and raw uploads, GET/DELETE, responses with JSON and float32 helpers.
 */
public final class PosekitClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final HttpClient http = HTTP;
    private final String base;
    private final String token;

    public PosekitClient(int port) {
        this("http://localhost:" + port);
    }

    public PosekitClient(String baseUrl) {
        this(baseUrl, null);
    }

    private PosekitClient(String baseUrl, String token) {
        this.base = baseUrl;
        this.token = token;
    }

    /** The same client sending {@code Authorization: Bearer <token>} with every request ({@code null}: none). */
    public PosekitClient as(String bearerToken) {
        return new PosekitClient(base, bearerToken);
    }

    /** Any request: method, path (with query), headers (name, value, name, value…) and a body or {@code null}. */
    public Response exchange(String method, String path, byte[] body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return send(b);
    }

    /** A response: status, headers and body bytes. */
    public record Response(int status, HttpHeaders headers, byte[] body) {

        public JsonNode json() {
            return JSON.readTree(body);
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public String contentType() {
            return headers.firstValue("Content-Type").orElse("");
        }

        public float[] floats() {
            ByteBuffer buf = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
            float[] out = new float[body.length / 4];
            buf.asFloatBuffer().get(out);
            return out;
        }

        @Override
        public String toString() {
            String t = text();
            return status + " " + contentType() + " " + (t.length() > 500 ? t.substring(0, 500) + "…" : t);
        }
    }

    /** Uploads files as multipart/form-data parts named {@code file}. */
    public Response upload(Map<String, byte[]> files) {
        return uploadParts("file", files);
    }

    /** Uploads one file as a multipart part named {@code file}. */
    public Response upload(String name, byte[] bytes) {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(name, bytes);
        return upload(files);
    }

    /**
     * Uploads one file as {@link #upload(String, byte[])} does, checks that it was stored ({@code 200} or {@code 201})
     * and returns the asset's path, {@code /api/v1/assets/{id}}.
     */
    public String uploadedAssetPath(String name, byte[] bytes) {
        Response r = upload(name, bytes);
        org.assertj.core.api.Assertions.assertThat(r.status()).as(r.toString()).isIn(200, 201);
        return "/api/v1/assets/" + r.json().get("id").asString();
    }

    /** Uploads files as multipart/form-data parts with the given part name. */
    public Response uploadParts(String partName, Map<String, byte[]> files) {
        return uploadParts(partName, files, "/api/v1/assets");
    }

    /** Posts files as multipart/form-data parts with the given part name to {@code path}. */
    public Response uploadParts(String partName, Map<String, byte[]> files, String path) {
        String boundary = "posekit-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + partName
                    + "\"; filename=\"" + f.getKey() + "\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                    .getBytes(StandardCharsets.UTF_8));
            body.writeBytes(f.getValue());
            body.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        body.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return send(HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())));
    }

    /** Uploads a raw body with the given content type, optionally with a query string (without '?'). */
    public Response uploadRaw(byte[] bytes, String contentType, String query) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri("/api/v1/assets" + (query == null ? "" : "?" + query)))
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return send(b);
    }

    public Response get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    public Response get(String path, String accept) {
        return send(HttpRequest.newBuilder(uri(path)).header("Accept", accept).GET());
    }

    public Response delete(String path) {
        return send(HttpRequest.newBuilder(uri(path)).DELETE());
    }

    /** URL-encodes a query parameter value. */
    public static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private URI uri(String path) {
        return URI.create(base + path);
    }

    private Response send(HttpRequest.Builder request) {
        // an answer that never comes fails the test that waits for it, with the request named
        request.timeout(java.time.Duration.ofSeconds(60));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<byte[]> r = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Response(r.statusCode(), r.headers(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
