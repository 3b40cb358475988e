package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

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
        return S3Client.builder().region(Region.US_EAST_1).forcePathStyle(true)
                .endpointOverride(server.endpoint())
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(
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
    void removeFile(String id, int file) {
        try (S3Client s3 = client()) {
            s3.deleteObject(b -> b.bucket("posekit").key(prefix + "files/" + id + "/" + file));
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
        StoredAsset meta = meta(files, Instant.parse("2026-11-22T10:00:00Z"));
        open(Duration.ZERO).save(meta, files, Refs.of(meta));
        try (S3Client s3 = client()) {
            List<String> keys = s3.listObjectsV2Paginator(b -> b.bucket("posekit").prefix(prefix)).contents().stream()
                    .map(o -> o.key().substring(prefix.length())).sorted().toList();
            String tenantKey = Reference.tenantKey(Reference.DEFAULT_TENANT);
            // the files, the tenant's reference (and its marker by asset), and last the manifest; the adoption marker
            // says the store's assets from before tenants were given to the default tenant
            assertThat(keys).containsExactly("files/" + meta.id() + "/0", "files/" + meta.id() + "/1",
                    "holders/" + meta.id() + "/" + tenantKey, "manifests/" + meta.id() + ".json",
                    "refs-adopted", "refs/" + tenantKey + "/" + meta.id() + ".json");
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
            assertThat(s3.listObjectsV2(b -> b.bucket("posekit").prefix(prefix)).contents())
                    .extracting(o -> o.key().substring(prefix.length())).containsExactly("refs-adopted");
        }
    }

    /**
     * A client on the test server whose calls pass through {@code intercept} first (which may throw, or answer
     * null to go on); the SDK's convenience overloads are expanded first, so only the request forms are seen.
     */
    private S3Client intercepted(BiFunction<String, Object[], Object> intercept) {
        S3Client real = client();
        return (S3Client) Proxy.newProxyInstance(S3Client.class.getClassLoader(),
                new Class<?>[] {S3Client.class}, (proxy, method, args) -> {
                    if (method.isDefault() && args != null && args.length > 0
                            && args[0] instanceof Consumer) {
                        return InvocationHandler.invokeDefault(proxy, method, args);
                    }
                    Object answer = intercept.apply(method.getName(), args);
                    if (answer != null) {
                        return answer;
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void aReplicaThatLosesTheRaceToWriteTheManifestAnswersWithTheWinner() {
        var files = List.of(file("a.glb", "glTF"));
        StoredAsset winner = meta(files, Instant.parse("2026-11-22T10:00:00Z"));
        open(Duration.ZERO).save(winner, files, Refs.of(winner));

        // the loser looked before the winner's manifest was there: its conditional write meets it
        var looked = new AtomicBoolean();
        AtomicInteger conditional = new AtomicInteger();
        S3Client racing = intercepted((name, args) -> {
            if (name.equals("getObject") && args[0] instanceof GetObjectRequest r
                    && r.key().endsWith(".json") && looked.compareAndSet(false, true)) {
                throw NoSuchKeyException.builder().message("not yet").build();
            }
            if (name.equals("putObject") && args[0] instanceof PutObjectRequest r
                    && "*".equals(r.ifNoneMatch())) {
                conditional.incrementAndGet();
            }
            return null;
        });
        S3AssetStore loser = new S3AssetStore(racing, "posekit", prefix, false, Duration.ofSeconds(5), Duration.ZERO);
        StoredAsset mine = new StoredAsset(winner.id(), "late.glb", "gltf", 4,
                Instant.parse("2026-11-22T11:00:00Z"), winner.files());
        assertThat(loser.save(mine, files, Refs.of(mine))).isEqualTo(winner);
        assertThat(conditional).hasValue(1);
        assertThat(open(Duration.ZERO).find(winner.id())).contains(winner);
        racing.close();
    }

    @Test
    void aStoreWithoutConditionalWritesGetsTheManifestAfterACheck() {
        AtomicInteger refused = new AtomicInteger();
        S3Client plain = intercepted((name, args) -> {
            if (name.equals("putObject") && args[0] instanceof PutObjectRequest r
                    && r.ifNoneMatch() != null) {
                refused.incrementAndGet();
                throw (S3Exception) S3Exception.builder().statusCode(501).message("NotImplemented").build();
            }
            return null;
        });
        S3AssetStore store = new S3AssetStore(plain, "posekit", prefix, false, Duration.ofSeconds(5), Duration.ZERO);
        var one = List.of(file("a.glb", "glTF"));
        var two = List.of(file("b.glb", "glTF2"));
        StoredAsset first = meta(one, Instant.parse("2026-11-22T10:00:00Z"));
        StoredAsset second = meta(two, Instant.parse("2026-11-22T10:00:00Z"));
        assertThat(store.save(first, one, Refs.of(first))).isSameAs(first);
        assertThat(store.save(second, two, Refs.of(second))).isSameAs(second);
        assertThat(refused).hasValue(1); // asked once, then not again
        assertThat(open(Duration.ZERO).list()).containsExactlyInAnyOrder(first, second);
        plain.close();
    }

    /** A server that accepts connections and never answers: a hung store. */
    @Test
    void aHungStoreHoldsTheHealthCheckOnlyForTheProbeTimeout() throws Exception {
        try (java.net.ServerSocket hung = new java.net.ServerSocket(0)) {
            List<java.net.Socket> held = java.util.Collections.synchronizedList(new ArrayList<>());
            Thread acceptor = Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        held.add(hung.accept());
                    }
                } catch (java.io.IOException closed) {
                    // the test is over
                }
            });
            S3AssetStore.Settings settings = server.settings("posekit", prefix, Duration.ZERO);
            S3AssetStore store = S3AssetStore.open(new S3AssetStore.Settings(settings.bucket(), settings.prefix(),
                    java.net.URI.create("http://127.0.0.1:" + hung.getLocalPort()), settings.region(), true,
                    S3Server.ACCESS_KEY, S3Server.SECRET_KEY, false, Duration.ofSeconds(30), Duration.ZERO));
            opened.add(store);

            long start = System.nanoTime();
            org.assertj.core.api.Assertions.assertThatThrownBy(store::check)
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageStartingWith("the object store at s3://posekit/" + prefix + " does not answer");
            // the probe gives up after PROBE_TIMEOUT (1 s), not after the 30 s operation timeout
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
            hung.close();
            acceptor.join();
            held.forEach(socket -> {
                try {
                    socket.close();
                } catch (java.io.IOException ignored) {
                    // closing a test socket
                }
            });
        }
    }

    @Test
    void theSecretKeyIsNeverPrinted() {
        assertThat(server.settings("posekit", prefix, Duration.ZERO).toString())
                .contains("accessKeyId=" + S3Server.ACCESS_KEY).contains("secretAccessKey=******")
                .doesNotContain(S3Server.SECRET_KEY);
    }
}
