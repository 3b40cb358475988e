package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The store contract on an S3-compatible server (s3proxy in this JVM) through the real AWS SDK client, several
 * instances sharing one bucket as replicas would. Each test has its own key prefix. An outage is the server stopped
 * (connections refused).
 */
class S3AssetStoreTest extends AssetStoreContract {

    private static S3Server server;
    private final List<S3AssetStore> opened = new ArrayList<>();
    private String prefix;

    @BeforeAll
    static void startServer() throws Exception {
        server = S3Server.start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @BeforeEach
    void freshPrefix() {
        prefix = "t-" + UUID.randomUUID() + "/";
    }

    @AfterEach
    void closeStores() throws Exception {
        server.resume();
        opened.forEach(S3AssetStore::close);
    }

    @Override
    AssetStore open(Duration revalidate) {
        S3AssetStore store = S3AssetStore.open(server.settings("posekit", prefix, revalidate));
        opened.add(store);
        return store;
    }

    private S3Client client() {
        return S3Client.builder().region(software.amazon.awssdk.regions.Region.US_EAST_1).forcePathStyle(true)
                .endpointOverride(server.endpoint())
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(
                                S3Server.ACCESS_KEY, S3Server.SECRET_KEY)))
                .build();
    }

    @Override
    void damage(String id, int file) {
        try (S3Client s3 = client()) {
            String key = prefix + "files/" + id + "/" + file;
            byte[] bytes = s3.getObjectAsBytes(b -> b.bucket("posekit").key(key)).asByteArray();
            bytes[1] ^= 0x10;
            s3.putObject(b -> b.bucket("posekit").key(key), RequestBody.fromBytes(bytes));
        }
    }

    @Override
    void outage() throws Exception {
        server.pause();
    }

    @Override
    void recover() throws Exception {
        server.resume();
    }

    @Test
    void keysAreNamedByTheContentIdAndTheManifestIsWrittenLast() {
        var files = List.of(file("b.bin", "xyz"), file("a.gltf", "{}"));
        StoredAsset meta = meta(files, java.time.Instant.parse("2026-11-22T10:00:00Z"));
        open(Duration.ZERO).save(meta, files);
        try (S3Client s3 = client()) {
            List<String> keys = s3.listObjectsV2Paginator(b -> b.bucket("posekit").prefix(prefix)).contents().stream()
                    .map(o -> o.key().substring(prefix.length())).sorted().toList();
            assertThat(keys).containsExactly("files/" + meta.id() + "/0", "files/" + meta.id() + "/1",
                    "manifests/" + meta.id() + ".json");
            assertThat(s3.getObjectAsBytes(b -> b.bucket("posekit").key(prefix + "files/" + meta.id() + "/1"))
                    .asUtf8String()).isEqualTo("xyz");
        }
    }

    @Test
    void anUploadThatIsNeverCommittedWritesNothing() {
        var files = List.of(file("a.glb", "glTF"));
        AssetStore store = open(Duration.ZERO);
        store.discard(store.stage(ContentId.of(files), files));
        try (S3Client s3 = client()) {
            assertThat(s3.listObjectsV2(b -> b.bucket("posekit").prefix(prefix)).contents()).isEmpty();
        }
    }
}
