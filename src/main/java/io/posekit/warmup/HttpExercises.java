package io.posekit.warmup;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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
 * answers them. They go round {@value #CONNECTIONS} keep-alive connections ({@link LoopbackHttp}), as a load balancer
 * opens several, so that each of the server's event loops serves some (its buffers and caches are per thread); an
 * upload of the same bytes again ({@code upload}) takes the streamed upload path to its answer 200. Not thread-safe.
 */
public final class HttpExercises implements AutoCloseable {

    /** Connections the requests go round: the server's event loops take new connections in turn. */
    static final int CONNECTIONS = 4;

    private final LoopbackHttp[] connections;
    private final String[] auth;
    private final String id;
    private final boolean created;
    /** Exercises made so far: each starts on the next connection. */
    private int made;

    private HttpExercises(LoopbackHttp[] connections, String[] auth, String id, boolean created) {
        this.connections = connections;
        this.auth = auth;
        this.id = id;
        this.created = created;
    }

    /**
     * Uploads the warm-up asset.
     *
     * @param base the service, e.g. {@code http://127.0.0.1:8080}
     * @param token a bearer token with the read, write and delete scopes, or {@code null} (an open service)
     * @throws IOException when the upload is not answered 201 or 200
     */
    public static HttpExercises open(URI base, String token) throws IOException {
        LoopbackHttp[] connections = new LoopbackHttp[CONNECTIONS];
        for (int i = 0; i < CONNECTIONS; i++) {
            connections[i] = new LoopbackHttp(base.getHost(), base.getPort());
        }
        LoopbackHttp http = connections[0];
        String[] auth = token == null || token.isBlank() ? new String[0]
                : new String[] {"Authorization", "Bearer " + token};
        byte[] glb = WarmUpAsset.get().glb();
        try {
            LoopbackHttp.Answer answer = http.send("POST", "/api/v1/assets", glb,
                    with(auth, "Content-Type", "model/gltf-binary"));
            if (answer.status() != 201 && answer.status() != 200) {
                throw new IOException("the warm-up asset's upload was answered " + answer.status() + ": "
                        + abbreviate(answer.body()));
            }
            return new HttpExercises(connections, auth, sha256(glb), answer.status() == 201);
        } catch (IOException | RuntimeException e) {
            http.close();
            throw e;
        }
    }

    /** The asset's id (the SHA-256 of its bytes). */
    public String assetId() {
        return id;
    }

    /**
     * The sampling paths, each at a time that changes from round to round; the render and the upload in one round of
     * {@code expensiveEvery}.
     */
    public List<WarmUp.Exercise> exercises(int expensiveEvery) {
        String asset = "/api/v1/assets/" + id;
        return List.of(
                get("matrices json", 1, asset + "/skins/0/matrices", "", "application/json"),
                get("matrices binary", 1, asset + "/skins/0/matrices", "", "application/octet-stream"),
                get("pose json", 1, asset + "/pose", "", "application/json"),
                get("skinned json", 1, asset + "/meshes/0/skinned", "", "application/json"),
                get("skinned binary", 1, asset + "/meshes/0/skinned", "", "application/octet-stream"),
                get("render png", expensiveEvery, asset + "/render.png", "&width=96&height=96", "image/png"),
                upload(expensiveEvery));
    }

    /** The warm-up asset uploaded again: streamed, hashed, found stored, answered 200. */
    private WarmUp.Exercise upload(int every) {
        byte[] glb = WarmUpAsset.get().glb();
        String[] headers = with(auth, "Content-Type", "model/gltf-binary");
        return new WarmUp.Exercise("upload", every, round -> {
            LoopbackHttp.Answer answer = connection(round).send("POST", "/api/v1/assets", glb, headers);
            if (answer.status() != 200) {
                throw new IOException("the warm-up asset's upload again was answered " + answer.status() + ": "
                        + abbreviate(answer.body()));
            }
        });
    }

    private LoopbackHttp connection(long round) {
        return connections[(int) (round % CONNECTIONS)];
    }

    private WarmUp.Exercise get(String name, int every, String path, String extraQuery, String type) {
        String[] headers = with(auth, "Accept", type);
        // each exercise starts on another connection, so that a round's requests go round them all
        int offset = made++;
        return new WarmUp.Exercise(name, every, round -> {
            // a different time every round, past the clip's end too (loop=repeat wraps it)
            double time = (round * 0.137) % (1.37 * WarmUpAsset.DURATION);
            String target = path + "?clip=" + WarmUpAsset.CLIP + "&time=" + String.format(Locale.ROOT, "%.4f", time)
                    + "&loop=repeat" + extraQuery;
            LoopbackHttp.Answer answer = connection(round + offset).send("GET", target, null, headers);
            if (answer.status() != 200 || !answer.header("content-type").startsWith(type)
                    || answer.body().length == 0) {
                throw new IOException("GET " + path + " was answered " + answer.status() + " "
                        + answer.header("content-type") + ": " + abbreviate(answer.body()));
            }
        });
    }

    /**
     * Deletes the caller's reference to the warm-up asset when {@link #open} created it, and closes the connection.
     *
     * @throws IOException when the deletion is not answered 204
     */
    @Override
    public void close() throws IOException {
        try {
            if (created) {
                LoopbackHttp.Answer answer = connections[0].send("DELETE", "/api/v1/assets/" + id, null, auth);
                if (answer.status() != 204) {
                    throw new IOException("the warm-up asset's deletion was answered " + answer.status() + ": "
                            + abbreviate(answer.body()));
                }
            }
        } finally {
            for (LoopbackHttp c : connections) {
                c.close();
            }
        }
    }

    private static String[] with(String[] auth, String name, String value) {
        String[] headers = java.util.Arrays.copyOf(auth, auth.length + 2);
        headers[auth.length] = name;
        headers[auth.length + 1] = value;
        return headers;
    }

    private static String abbreviate(byte[] body) {
        String text = new String(body, 0, Math.min(body.length, 200), StandardCharsets.UTF_8);
        return body.length <= 200 ? text : text + "…";
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
