package io.posekit.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * The fuzzer's HTTP client (java.net.http, HTTP/1.1): uploads as multipart parts named {@code file} or as a raw
 * body, GETs and DELETEs, each with a time limit so that a hung request is reported instead of hanging the test.
 * A request that gets no response (refused, reset, timed out) comes back as a {@link Response} with status −1 and
 * the error, never as an exception. Thread-safe.
 */
final class FuzzClient {

    /**
     * What came back.
     *
     * @param status the HTTP status, −1 when there was no response
     * @param contentType the Content-Type header ("" when absent)
     * @param body the body
     * @param nanos how long the request took
     * @param error why there was no response, or null
     */
    record Response(int status, String contentType, byte[] body, long nanos, String error) {

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            if (error != null) {
                return "no response: " + error;
            }
            String t = text();
            return status + " " + contentType + " " + (t.length() > 400 ? t.substring(0, 400) + "…" : t);
        }
    }

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private final String base;
    private final Duration timeout;
    private long boundaries;

    /** A client of the server at {@code port} on localhost, giving up on any request after {@code timeout}. */
    FuzzClient(int port, Duration timeout) {
        this.base = "http://localhost:" + port;
        this.timeout = timeout;
    }

    /** Uploads {@code files} as multipart parts named {@code file}, or the single file as a raw body. */
    Response upload(Map<String, byte[]> files, boolean raw) {
        if (raw && files.size() == 1) {
            Map.Entry<String, byte[]> f = files.entrySet().iterator().next();
            return send(HttpRequest.newBuilder(URI.create(base + "/api/v1/assets?filename="
                            + URLEncoder.encode(f.getKey(), StandardCharsets.UTF_8)))
                    .header("Content-Type", "application/octet-stream")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(f.getValue())));
        }
        String boundary = "posekit-fuzz-" + Long.toHexString(nextBoundary());
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
                    + f.getKey() + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            body.writeBytes(f.getValue());
            body.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        body.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return send(HttpRequest.newBuilder(URI.create(base + "/api/v1/assets"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())));
    }

    Response get(String pathAndQuery) {
        return send(HttpRequest.newBuilder(URI.create(base + pathAndQuery)).GET());
    }

    Response delete(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).DELETE());
    }

    /** A query parameter value, percent-encoded. */
    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private synchronized long nextBoundary() {
        // mutants are made of seed bytes and short random insertions, so no part ever holds this delimiter
        return 0x5eed0000L + boundaries++;
    }

    private Response send(HttpRequest.Builder request) {
        long start = System.nanoTime();
        try {
            HttpResponse<byte[]> r = http.send(request.timeout(timeout).build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Response(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body(),
                    System.nanoTime() - start, null);
        } catch (IOException e) {
            return new Response(-1, "", new byte[0], System.nanoTime() - start, e.getClass().getSimpleName() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Response(-1, "", new byte[0], System.nanoTime() - start, "interrupted");
        }
    }
}
