package io.posekit.replicas;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replicas on one directory (a volume every replica mounts); an outage takes the directory away (an unmounted volume:
 * a plain file where it was).
 */
class SharedDirectoryReplicasTest extends ReplicasContract {

    @TempDir
    Path tmp;

    private Path root() {
        return tmp.resolve("store");
    }

    @Override
    Map<String, Object> storeProperties() {
        return Map.of("posekit.store.type", "directory", "posekit.store.dir", root().toString(),
                "posekit.store.shared", "true");
    }

    @Override
    void outage() throws Exception {
        Files.move(root(), tmp.resolve("away"));
        Files.writeString(root(), "not a directory");
    }

    @Override
    void recover() throws Exception {
        if (Files.isRegularFile(root())) {
            Files.delete(root());
            Files.move(tmp.resolve("away"), root());
        }
    }

    /** The directory is this replica's own volume: without it the replica takes no traffic. */
    @Override
    int readinessDuringOutage() {
        return 503;
    }

    @Override
    String storeStatusDuringOutage() {
        return "DOWN";
    }
}
