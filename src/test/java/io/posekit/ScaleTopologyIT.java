package io.posekit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.github.dockerjava.api.model.ContainerNetwork;
import io.posekit.api.PosekitClient;
import io.posekit.api.security.ApiKeys;
import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.sampling.LoopMode;
import io.posekit.sampling.Pose;
import io.posekit.skinning.MeshPoser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.MountableFile;
import tools.jackson.databind.JsonNode;

/**
 * The scale topology of {@code docker-compose.scale.yml}, for real: an S3-compatible server (s3proxy 4.1.0, its jar
 * from Maven Central copied under target/ by the build, image from {@code deploy/local/s3proxy/Dockerfile} on the
 * {@code posekit.it.base-image}), three posekit replicas built from the project's Dockerfile on that S3 store, and
 * nginx (Debian's, {@code deploy/local/nginx/Dockerfile} on {@code posekit.it.debian-image}; or any image named by
 * {@code posekit.it.nginx-image}, e.g. {@code nginx:1.28.0}) with the real {@code deploy/nginx/nginx.conf}, the
 * replicas reachable under the names it lists.
 *
 * <p>Through nginx: an upload is stored once for every replica; every GET of one asset reaches the same replica
 * ({@code X-Posekit-Upstream}) and answers the same bytes as a replica that never saw the upload (it reads the
 * asset from the store), which agree with the same computation done in-process; distinct assets spread over the
 * replicas; when the replica that owns an asset stops, nginx retries on another one, which parses the asset from the
 * store and answers the same bytes, and keeps sending that asset there.
 */
@Testcontainers(disabledWithoutDocker = true)
class ScaleTopologyIT {

    private static final String BUCKET = "posekit-it";
    private static final String ACCESS_KEY = "posekit";
    private static final String SECRET_KEY = "posekit-secret-" + UUID.randomUUID();
    private static final String BASE_IMAGE = System.getProperty("posekit.it.base-image", "eclipse-temurin:25-jre");
    private static final List<String> REPLICAS = List.of("posekit-1", "posekit-2", "posekit-3");
    private static final String QUERY = "?clip=Bend&time=2.7&loop=repeat";
    /** The API key every replica takes (each reads the same key file, as docker-compose.scale.yml mounts it). */
    private static final String KEY = ApiKeys.generate();

    private static Network network;
    private static GenericContainer<?> s3;
    private static final Map<String, GenericContainer<?>> replicas = new LinkedHashMap<>();
    private static GenericContainer<?> nginx;

    @BeforeAll
    static void startTopology() {
        long start = System.nanoTime();
        network = Network.newNetwork();
        Path s3proxyJar = Path.of(System.getProperty("posekit.it.s3proxy-jar", "target/s3proxy/s3proxy.jar")).toAbsolutePath();
        assertThat(s3proxyJar).as("s3proxy's jar (the build copies it before the integration tests)").exists();
        Path s3proxyDir = Path.of("deploy/local/s3proxy").toAbsolutePath();
        ImageFromDockerfile s3Image = new ImageFromDockerfile("posekit-it-s3proxy", false)
                .withFileFromPath("Dockerfile", s3proxyDir.resolve("Dockerfile"))
                .withFileFromPath("entrypoint.sh", s3proxyDir.resolve("entrypoint.sh"))
                .withFileFromPath("s3proxy.jar", s3proxyJar)
                .withBuildArg("BASE_IMAGE", BASE_IMAGE);
        s3 = new GenericContainer<>(s3Image)
                .withNetwork(network)
                .withNetworkAliases("s3")
                .withEnv("S3PROXY_IDENTITY", ACCESS_KEY)
                .withEnv("S3PROXY_CREDENTIAL", SECRET_KEY)
                .withExposedPorts(9000)
                // an unsigned request gets an S3 error: the server is up
                .waitingFor(Wait.forHttp("/").forStatusCode(403))
                .withStartupTimeout(Duration.ofMinutes(1));

        ImageFromDockerfile posekitImage = new ImageFromDockerfile("posekit-it-scale", true)
                .withDockerfile(Path.of("Dockerfile").toAbsolutePath())
                .withBuildArg("BASE_IMAGE", BASE_IMAGE);
        for (String name : REPLICAS) {
            replicas.put(name, new GenericContainer<>(posekitImage)
                    .withNetwork(network)
                    .withNetworkAliases(name)
                    .withEnv("POSEKIT_STORE_TYPE", "s3")
                    .withEnv("POSEKIT_STORE_S3_BUCKET", BUCKET)
                    .withEnv("POSEKIT_STORE_S3_PREFIX", "assets/")
                    .withEnv("POSEKIT_STORE_S3_ENDPOINT", "http://s3:9000")
                    .withEnv("POSEKIT_STORE_S3_REGION", "us-east-1")
                    .withEnv("POSEKIT_STORE_S3_PATH_STYLE", "true")
                    .withEnv("POSEKIT_STORE_S3_CREATE_BUCKET", "true")
                    .withEnv("AWS_ACCESS_KEY_ID", ACCESS_KEY)
                    .withEnv("AWS_SECRET_ACCESS_KEY", SECRET_KEY)
                    .withEnv("POSEKIT_CACHE_MAX_BYTES", "64MB")
                    // three replicas starting at once on a small CI machine: no start-up warm-up (PosekitContainerIT
                    // runs the image's default)
                    .withEnv("POSEKIT_WARM_UP_DURATION", "0")
                    .withEnv("POSEKIT_SECURITY_API_KEYS_FILE", "/etc/posekit/api-keys.txt")
                    .withCopyToContainer(Transferable.of(HexFormat.of().formatHex(ApiKeys.sha256(KEY))
                            + " scale posekit:read,posekit:write,posekit:delete,posekit:admin scale-it\n"),
                            "/etc/posekit/api-keys.txt")
                    .withEnv("JAVA_TOOL_OPTIONS", "-Xmx256m -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError")
                    .withExposedPorts(8080)
                    .dependsOn(s3)
                    .waitingFor(Wait.forHttp("/actuator/health/readiness").forStatusCode(200))
                    .withStartupTimeout(Duration.ofMinutes(3)));
        }

        String nginxImage = System.getProperty("posekit.it.nginx-image", "");
        GenericContainer<?> proxy = nginxImage.isBlank()
                ? new GenericContainer<>(new ImageFromDockerfile("posekit-it-nginx", false)
                        .withDockerfile(Path.of("deploy/local/nginx/Dockerfile").toAbsolutePath())
                        .withBuildArg("DEBIAN_IMAGE", System.getProperty("posekit.it.debian-image", "debian:bookworm")))
                : new GenericContainer<>(nginxImage);
        nginx = proxy
                .withNetwork(network)
                .withCopyFileToContainer(MountableFile.forHostPath(Path.of("deploy/nginx/nginx.conf").toAbsolutePath()),
                        "/etc/nginx/nginx.conf")
                .withExposedPorts(8080)
                .dependsOn(replicas.values())
                .waitingFor(Wait.forHttp("/nginx-health").forStatusCode(200))
                .withStartupTimeout(Duration.ofMinutes(1));
        Startables.deepStart(Stream.of(nginx)).join();
        System.out.printf(Locale.ROOT, "scale topology (s3proxy, %d replicas, nginx) up in %.1f s%n", replicas.size(),
                (System.nanoTime() - start) / 1e9);
    }

    @AfterAll
    static void stopTopology() {
        for (GenericContainer<?> c : Stream.concat(Stream.of(nginx), Stream.concat(replicas.values().stream(), Stream.of(s3))).toList()) {
            if (c != null) {
                c.stop();
            }
        }
        if (network != null) {
            network.close();
        }
    }

    @Test
    void routesByAssetReadsAcrossReplicasAndFailsOver() {
        PosekitClient balancer = client(nginx);
        Map<String, String> byAddress = new LinkedHashMap<>(); // "ip:8080" -> replica name
        replicas.forEach((name, c) -> byAddress.put(address(c), name));

        // the asset of this test, and what posekit must answer for it, computed in-process
        GltfBuilder builder = GltfBuilder.skinnedTwoBoneStrip();
        builder.setRoot("extras", "scale-it-" + SECRET_KEY);
        byte[] glb = builder.toGlb();
        Model model = AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile("scale.glb", glb))).model();
        double localTime = LoopMode.REPEAT.localTime(2.7, model.clips().getFirst().duration());
        float[] expected = MeshPoser.skinningMatrices(model.skins().getFirst(),
                Pose.evaluate(model.rig(), model.clips().getFirst(), localTime).modelMatrices());

        PosekitClient.Response upload = balancer.upload("scale.glb", glb);
        assertThat(upload.status()).as(upload.toString()).isEqualTo(201);
        String id = upload.json().get("id").asString();
        String uploader = replicaOf(byAddress, upstream(upload));
        String path = "/api/v1/assets/" + id + "/skins/0/matrices" + QUERY;

        // every GET of the asset reaches one replica, its owner
        PosekitClient.Response first = balancer.get(path, "application/octet-stream");
        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        String owner = replicaOf(byAddress, upstream(first));
        for (int i = 0; i < 10; i++) {
            PosekitClient.Response again = balancer.get(path, "application/octet-stream");
            assertThat(again.status()).isEqualTo(200);
            assertThat(replicaOf(byAddress, upstream(again))).isEqualTo(owner);
            assertThat(again.body()).isEqualTo(first.body());
        }
        assertThat(first.floats()).containsExactly(expected, within(1e-6f));
        PosekitClient.Response json = balancer.get(path);
        assertThat(json.status()).isEqualTo(200);
        assertThat(replicaOf(byAddress, upstream(json))).isEqualTo(owner);
        assertThat(json.json().get("localTime").asDouble()).isEqualTo(localTime);

        // a replica that neither received the upload nor owns the asset reads it from the store: the same bytes
        String reader = REPLICAS.stream().filter(r -> !r.equals(owner) && !r.equals(uploader)).findFirst().orElseThrow();
        long readerParsesBefore = reloads(reader);
        PosekitClient direct = client(replicas.get(reader));
        PosekitClient.Response cross = direct.get(path, "application/octet-stream");
        assertThat(cross.status()).as(cross.toString()).isEqualTo(200);
        assertThat(cross.body()).isEqualTo(first.body());
        PosekitClient.Response crossJson = direct.get(path);
        assertThat(crossJson.body()).isEqualTo(json.body());
        assertThat(reloads(reader)).as("parses from the store on %s", reader).isEqualTo(readerParsesBefore + 1);
        assertThat(direct.get("/api/v1/assets/" + id).json().get("clips").get(0).get("name").asString()).isEqualTo("Bend");

        // distinct assets spread over more than one replica, each always on the same one
        Map<String, String> ownerOf = new LinkedHashMap<>();
        for (int i = 0; i < 12; i++) {
            GltfBuilder variant = GltfBuilder.skinnedTwoBoneStrip();
            variant.setRoot("extras", "scale-it-variant-" + i);
            PosekitClient.Response up = balancer.upload("variant-" + i + ".glb", variant.toGlb());
            assertThat(up.status()).as(up.toString()).isIn(200, 201);
            String vid = up.json().get("id").asString();
            Set<String> seen = new LinkedHashSet<>();
            for (int k = 0; k < 3; k++) {
                PosekitClient.Response r = balancer.get("/api/v1/assets/" + vid + "/skins/0/matrices?clip=Bend&time=" + (0.1 * k),
                        "application/octet-stream");
                assertThat(r.status()).as(r.toString()).isEqualTo(200);
                seen.add(replicaOf(byAddress, upstream(r)));
            }
            assertThat(seen).as("replicas answering asset %s", vid).hasSize(1);
            ownerOf.put(vid, seen.iterator().next());
        }
        assertThat(new LinkedHashSet<>(ownerOf.values())).as("owners of 12 distinct assets: %s", ownerOf).hasSizeGreaterThan(1);

        // the owner stops: nginx retries elsewhere, and the asset is served from the store by another replica
        Map<String, Long> reloadsBefore = new LinkedHashMap<>();
        REPLICAS.stream().filter(r -> !r.equals(owner)).forEach(r -> reloadsBefore.put(r, reloads(r)));
        GenericContainer<?> stopped = replicas.get(owner);
        stopped.getDockerClient().stopContainerCmd(stopped.getContainerId()).withTimeout(10).exec();
        PosekitClient.Response failover = balancer.get(path, "application/octet-stream");
        assertThat(failover.status()).as(failover.toString()).isEqualTo(200);
        assertThat(failover.body()).isEqualTo(first.body());
        List<String> tried = new ArrayList<>();
        for (String a : upstream(failover).split(",\\s*")) {
            tried.add(replicaOf(byAddress, a));
        }
        String successor = tried.getLast();
        assertThat(successor).as("upstreams tried: %s", tried).isNotEqualTo(owner);
        for (int i = 0; i < 5; i++) {
            PosekitClient.Response again = balancer.get(path, "application/octet-stream");
            assertThat(again.status()).isEqualTo(200);
            assertThat(again.body()).isEqualTo(first.body());
            // until nginx has counted max_fails failures, a request may try the stopped owner first: the last one answered
            List<String> addresses = List.of(upstream(again).split(",\\s*"));
            assertThat(replicaOf(byAddress, addresses.getLast())).isEqualTo(successor);
        }
        System.out.printf(Locale.ROOT, "asset %s: uploaded on %s, owned by %s, read directly on %s; %s stopped, "
                + "nginx tried %s; owners of the 12 others: %s%n", id, uploader, owner, reader, owner, tried, ownerOf.values());
        // the successor parsed the asset from the store unless it had it already (as the uploader or the reader)
        long expectedParses = successor.equals(uploader) || successor.equals(reader) ? 0 : 1;
        assertThat(reloads(successor) - reloadsBefore.get(successor)).as("parses from the store on %s", successor)
                .isEqualTo(expectedParses);
    }

    private static PosekitClient client(GenericContainer<?> c) {
        return new PosekitClient("http://" + c.getHost() + ":" + c.getMappedPort(8080)).as(KEY);
    }

    /** A replica's address on the test network, as nginx names it in {@code $upstream_addr}. */
    private static String address(GenericContainer<?> c) {
        ContainerNetwork n = c.getContainerInfo().getNetworkSettings().getNetworks().values().stream()
                .filter(x -> network.getId().equals(x.getNetworkID())).findFirst().orElseThrow();
        return n.getIpAddress() + ":8080";
    }

    private static String upstream(PosekitClient.Response r) {
        return r.headers().firstValue("X-Posekit-Upstream").orElseThrow(() -> new AssertionError("no X-Posekit-Upstream: " + r));
    }

    private static String replicaOf(Map<String, String> byAddress, String upstream) {
        String name = byAddress.get(upstream.trim());
        assertThat(name).as("replica at %s (replicas: %s)", upstream, byAddress).isNotNull();
        return name;
    }

    /** How many times a replica parsed an asset it read from the store (posekit.import.duration, source reload). */
    private static long reloads(String replica) {
        PosekitClient.Response r = client(replicas.get(replica)).get("/actuator/metrics/posekit.import.duration?tag=source:reload");
        if (r.status() == 404) {
            return 0; // no such parse yet: the meter does not exist
        }
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        for (JsonNode m : r.json().get("measurements")) {
            if (m.get("statistic").asString().equals("COUNT")) {
                return m.get("value").asLong();
            }
        }
        throw new AssertionError("no COUNT in " + r);
    }
}
