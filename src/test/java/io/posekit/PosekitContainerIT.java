package io.posekit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Volume;
import io.posekit.api.PosekitClient;
import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.sampling.LoopMode;
import io.posekit.sampling.Pose;
import io.posekit.skinning.MeshPoser;
import io.posekit.skinning.PosedPrimitive;
import io.posekit.skinning.VertexAttribute;
import io.posekit.security.TestIssuer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.ToStringConsumer;
import org.testcontainers.containers.startupcheck.OneShotStartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.junit.jupiter.Testcontainers;
import tools.jackson.databind.JsonNode;

/**
 * The real Docker image: builds the project's Dockerfile around the packaged jar (base image from the
 * {@code posekit.it.base-image} system property), runs it with a named volume for the store, and checks over
 * HTTP that uploads, summaries, skinning matrices and skinned vertices agree with the same computation done
 * in-process; then replaces the container by a new one on the same volume and finds the asset again. The image is
 * reachable from a network, so it needs credentials: it runs secured against a real token issuer (Spring
 * Authorization Server in the test JVM, reached by the container as {@code host.docker.internal}), and an image
 * started without any refuses to start.
 */
@Testcontainers(disabledWithoutDocker = true)
class PosekitContainerIT {

    private static final String VOLUME = "posekit-it-" + UUID.randomUUID();
    private static final ImageFromDockerfile IMAGE = new ImageFromDockerfile("posekit-it", true)
            .withDockerfile(Path.of("Dockerfile").toAbsolutePath())
            .withBuildArg("BASE_IMAGE", System.getProperty("posekit.it.base-image", "eclipse-temurin:25-jre"));

    private static TestIssuer issuer;

    /** A container of the image on the store volume, secured by the test issuer's tokens. */
    private static GenericContainer<?> container() {
        return new GenericContainer<>(IMAGE)
                .withExposedPorts(8080)
                .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withBinds(new Bind(VOLUME, new Volume("/data"))))
                .withExtraHost("host.docker.internal", "host-gateway")
                .withEnv("SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_ISSUER_URI", issuer.issuerUri())
                .withEnv("POSEKIT_SECURITY_TENANT_CLAIM", "tenant")
                .waitingFor(Wait.forHttp("/actuator/health/readiness").forStatusCode(200))
                .withStartupTimeout(Duration.ofMinutes(2));
    }

    @BeforeAll
    static void startIssuer() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        issuer = TestIssuer.start(List.of(
                TestIssuer.Client.of("studio", "studio", "posekit:read", "posekit:write", "posekit:delete"),
                TestIssuer.Client.of("viewer", "studio", "posekit:read"),
                TestIssuer.Client.of("ops", "ops", "posekit:admin")), "http://host.docker.internal:" + port, port);
    }

    @AfterAll
    static void removeVolume() {
        DockerClientFactory.instance().client().removeVolumeCmd(VOLUME).exec();
        if (issuer != null) {
            issuer.close();
        }
    }

    @Test
    void withoutCredentialsTheImageRefusesToStart() {
        // the output is collected as it comes: a container that failed to start is gone by the time start() throws
        ToStringConsumer output = new ToStringConsumer();
        try (GenericContainer<?> open = new GenericContainer<>(IMAGE).withExposedPorts(8080).withLogConsumer(output)
                .withStartupCheckStrategy(new OneShotStartupCheckStrategy().withTimeout(Duration.ofMinutes(2)))) {
            assertThatThrownBy(open::start).isInstanceOf(ContainerLaunchException.class);
            assertThat(output.toUtf8String()).contains("posekit is bound to 0.0.0.0 with no credentials configured");
        }
    }

    @Test
    void servesTheSameResultsAsTheCoreAndKeepsAssetsAcrossContainers() throws Exception {
        assertThat(Path.of(System.getProperty("posekit.it.jar", "target/posekit.jar"))).exists();
        GltfBuilder builder = GltfBuilder.skinnedTwoBoneStrip();
        builder.setRoot("extras", VOLUME);
        byte[] glb = builder.toGlb();
        Model model = AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile("it.glb", glb))).model();
        double time = 2.7;
        double localTime = LoopMode.REPEAT.localTime(time, model.clips().getFirst().duration());
        Pose pose = Pose.evaluate(model.rig(), model.clips().getFirst(), localTime);
        float[] matrices = MeshPoser.skinningMatrices(model.skins().getFirst(), pose.modelMatrices());
        PosedPrimitive skinned = MeshPoser.pose(model.meshes().getFirst(), matrices, pose.modelMatrices(),
                EnumSet.of(VertexAttribute.POSITION, VertexAttribute.NORMAL)).getFirst();
        String query = "?clip=Bend&time=" + time + "&loop=repeat";

        String id;
        try (GenericContainer<?> first = container()) {
            first.start();
            PosekitClient anonymous = new PosekitClient("http://" + first.getHost() + ":" + first.getMappedPort(8080));
            assertThat(anonymous.upload("it.glb", glb).status()).isEqualTo(401);
            assertThat(anonymous.as(issuer.token("viewer")).upload("it.glb", glb).status()).isEqualTo(403);
            PosekitClient client = anonymous.as(issuer.token("studio"));
            PosekitClient.Response upload = client.upload("it.glb", glb);
            assertThat(upload.status()).as(upload.toString()).isEqualTo(201);
            id = upload.json().get("id").asString();
            JsonNode summary = client.get("/api/v1/assets/" + id).json();
            assertThat(summary.get("clips").get(0).get("name").asString()).isEqualTo("Bend");
            assertThat(summary.get("skins").get(0).get("joints").toString()).isEqualTo("[1,2]");

            JsonNode json = client.get("/api/v1/assets/" + id + "/skins/0/matrices" + query).json();
            assertThat(json.get("localTime").asDouble()).isEqualTo(localTime);
            for (int i = 0; i < matrices.length; i++) {
                assertThat(json.get("matrices").get(i / 16).get(i % 16).floatValue()).isCloseTo(matrices[i], within(1e-6f));
            }
            float[] binary = client.get("/api/v1/assets/" + id + "/skins/0/matrices" + query, "application/octet-stream").floats();
            assertThat(binary).containsExactly(matrices, within(1e-6f));

            JsonNode prim = client.get("/api/v1/assets/" + id + "/meshes/0/skinned" + query).json().get("primitives").get(0);
            for (int i = 0; i < skinned.positions().length; i++) {
                assertThat(prim.get("positions").get(i).floatValue()).isCloseTo(skinned.positions()[i], within(1e-6f));
                assertThat(prim.get("normals").get(i).floatValue()).isCloseTo(skinned.normals()[i], within(1e-6f));
            }
        }

        try (GenericContainer<?> second = container()) {
            second.start();
            PosekitClient anonymous = new PosekitClient("http://" + second.getHost() + ":" + second.getMappedPort(8080));
            PosekitClient client = anonymous.as(issuer.token("studio"));
            assertThat(client.get("/api/v1/assets").text()).contains("\"id\":\"" + id + "\"");
            assertThat(anonymous.as(issuer.token("ops")).get("/api/v1/assets").status()).isEqualTo(403);
            float[] again = client.get("/api/v1/assets/" + id + "/meshes/0/skinned" + query + "&attributes=position",
                    "application/octet-stream").floats();
            assertThat(again).containsExactly(skinned.positions(), within(1e-6f));
            assertThat(anonymous.get("/actuator/health/readiness").text()).isEqualTo("{\"status\":\"UP\"}");
            assertThat(anonymous.as(issuer.token("ops")).get("/actuator/health/readiness").json().get("components")
                    .get("store").get("details").get("assets").asInt()).isEqualTo(1);
        }
        assertThat(Files.exists(Path.of("Dockerfile"))).isTrue();
    }
}
