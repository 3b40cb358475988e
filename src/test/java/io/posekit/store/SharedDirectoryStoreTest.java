package io.posekit.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store contract on a directory shared by several instances (a volume every replica mounts). An outage is the
 * directory taken away (an unmounted volume: a plain file where the directory was).
 */
class SharedDirectoryStoreTest extends AssetStoreContract {

    @TempDir
    Path tmp;

    private Path root() {
        return tmp.resolve("store");
    }

    @Override
    AssetStore open(Duration revalidate) {
        return new DirectoryAssetStore(root(), true, revalidate);
    }

    @Override
    void damage(String id, int file) throws Exception {
        DirectoryAssetStoreTest.flipAByte(root().resolve(id).resolve("files").resolve(Integer.toString(file)), 1);
    }

    @Override
    void removeFile(String id, int file) throws Exception {
        Files.delete(root().resolve(id).resolve("files").resolve(Integer.toString(file)));
    }

    @Override
    void outage() throws Exception {
        Files.move(root(), tmp.resolve("away"));
        Files.writeString(root(), "not a directory");
    }

    @Override
    void recover() throws Exception {
        Files.delete(root());
        Files.move(tmp.resolve("away"), root());
    }
}
