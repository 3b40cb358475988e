package io.posekit.warmup;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The API's hot paths driven over HTTP, the way clients reach them (the network edge, routing, authentication,
 * the sampling, the encoders): {@link #open} uploads {@link WarmUpAsset} ({@code POST /api/v1/assets}, a parse and
 * a store write), {@link #exercises} samples it (skinning matrices as JSON and binary, the pose, the skinned mesh as
 * JSON and binary, a small {@code render.png}) at a different time each round, and {@link #close} deletes the
 * caller's reference again when the upload created it (a caller who held the same bytes before keeps them).
 *
 * <p>Every answer must be a 200 of the expected media type with a body, else the exercise fails. The requests carry
 * {@code Authorization: Bearer <token>} when a token is given (a secured service); without one, only an open service
 * answers them. Uses one HTTP/1.1 client; not thread-safe.
 */
public final class HttpExercises implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient client;
    private final URI base;
    private final String token;
    private final String id;
    private final boolean created;

    private HttpExercises(HttpClient client, URI base, String token, String id, boolean created) {
        this.client = client;
        this.base = base;
        this.token = token;
        this.id = id;
        this.created = created;
    }

    /**
     * Uploads the warm-up asset.
     *
     * @param base the service, e.g. {@code http://127.0.0.1:8080}
     * @param token a bearer token with the read, write and delete scopes, or {@code null} (an open service)
     * @throws IOException when the upload is not answered 201 or 200
     * @throws InterruptedException when interrupted while waiting for the answer
     */
    public static HttpExercises open(URI base, String token) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        byte[] glb = WarmUpAsset.get().glb();
        HttpRequest.Builder post = HttpRequest.newBuilder(base.resolve("/api/v1/assets")).timeout(TIMEOUT)
                .header("Content-Type", "model/gltf-binary").POST(HttpRequest.BodyPublishers.ofByteArray(glb));
        HttpResponse<String> answer = client.send(authorized(post, token).build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 201 && answer.statusCode() != 200) {
            throw new IOException("the warm-up asset's upload was answered " + answer.statusCode() + ": "
                    + abbreviate(answer.body()));
        }
        return new HttpExercises(client, base, token, sha256(glb), answer.statusCode() == 201);
    }

    /** The asset's id (the SHA-256 of its bytes). */
    public String assetId() {
        return id;
    }

    /**
     * The sampling paths, each at a time that changes from round to round; the render in one round of
     * {@code renderEvery}.
     */
    public List<WarmUp.Exercise> exercises(int renderEvery) {
        String asset = "/api/v1/assets/" + id;
        return List.of(
                get("matrices json", asset + "/skins/0/matrices", "application/json", "application/json"),
                get("matrices binary", asset + "/skins/0/matrices", "application/octet-stream",
                        "application/octet-stream"),
                get("pose json", asset + "/pose", "application/json", "application/json"),
                get("skinned json", asset + "/meshes/0/skinned", "application/json", "application/json"),
                get("skinned binary", asset + "/meshes/0/skinned", "application/octet-stream",
                        "application/octet-stream"),
                get("render png", renderEvery, asset + "/render.png", "&width=96&height=96", "image/png", "image/png"));
    }

    private WarmUp.Exercise get(String name, String path, String accept, String expected) {
        return get(name, 1, path, "", accept, expected);
    }

    private WarmUp.Exercise get(String name, int every, String path, String extraQuery, String accept,
            String expected) {
        return new WarmUp.Exercise(name, every, round -> {
            // a different time every round, past the clip's end too (loop=repeat wraps it)
            double time = (round * 0.137) % (1.37 * WarmUpAsset.DURATION);
            URI uri = base.resolve(path + "?clip=" + WarmUpAsset.CLIP + "&time="
                    + String.format(Locale.ROOT, "%.4f", time) + "&loop=repeat" + extraQuery);
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Accept", accept).GET();
            HttpResponse<byte[]> answer = client.send(authorized(request, token).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            String type = answer.headers().firstValue("Content-Type").orElse("");
            if (answer.statusCode() != 200 || !type.startsWith(expected) || answer.body().length == 0) {
                throw new IOException("GET " + uri.getRawPath() + " was answered " + answer.statusCode() + " " + type
                        + ": " + abbreviate(new String(answer.body(), java.nio.charset.StandardCharsets.UTF_8)));
            }
        });
    }

    /**
     * Deletes the caller's reference to the warm-up asset when {@link #open} created it.
     *
     * @throws IOException when the deletion is not answered 204
     */
    @Override
    public void close() throws IOException {
        if (!created) {
            return;
        }
        HttpRequest.Builder delete = HttpRequest.newBuilder(base.resolve("/api/v1/assets/" + id)).timeout(TIMEOUT)
                .DELETE();
        try {
            HttpResponse<String> answer = client.send(authorized(delete, token).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 204) {
                throw new IOException("the warm-up asset's deletion was answered " + answer.statusCode() + ": "
                        + abbreviate(answer.body()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while deleting the warm-up asset", e);
        }
    }

    private static HttpRequest.Builder authorized(HttpRequest.Builder request, String token) {
        return token == null || token.isBlank() ? request : request.header("Authorization", "Bearer " + token);
    }

    private static String abbreviate(String body) {
        return body.length() <= 200 ? body : body.substring(0, 200) + "…";
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
