package io.posekit.replicas;

import io.posekit.store.S3Server;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Replicas on an S3-compatible store (s3proxy in this JVM, the real AWS SDK client); an outage stops the server. */
class S3ReplicasTest extends ReplicasContract {

    private static S3Server server;
    private final String prefix = "replicas-" + UUID.randomUUID() + "/";

    @BeforeAll
    static void startServer() throws Exception {
        server = S3Server.start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @Override
    Map<String, Object> storeProperties() {
        return Map.of("posekit.store.type", "s3",
                "posekit.store.s3.bucket", "posekit",
                "posekit.store.s3.prefix", prefix,
                "posekit.store.s3.endpoint", server.endpoint().toString(),
                "posekit.store.s3.path-style", "true",
                "posekit.store.s3.create-bucket", "true",
                "posekit.store.s3.access-key-id", S3Server.ACCESS_KEY,
                "posekit.store.s3.secret-access-key", S3Server.SECRET_KEY,
                "posekit.store.s3.timeout", "3s");
    }

    @Override
    void outage() throws Exception {
        server.pause();
    }

    @Override
    void recover() throws Exception {
        server.resume();
    }

    /** An outage of a shared store affects every replica alike: they stay ready and serve what they have parsed. */
    @Override
    int readinessDuringOutage() {
        return 200;
    }

    @Override
    String storeStatusDuringOutage() {
        return "DEGRADED";
    }
}
