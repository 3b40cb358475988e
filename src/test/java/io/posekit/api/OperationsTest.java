package io.posekit.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.math.Kernels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** What an operator relies on: health groups, Prometheus metrics, the access log. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
@ExtendWith(OutputCaptureExtension.class)
class OperationsTest {

    @LocalServerPort
    int port;

    @Test
    void healthHasLivenessAndReadinessWithTheStore() {
        PosekitClient client = new PosekitClient(port);
        JsonNode readiness = client.get("/actuator/health/readiness").json();
        assertThat(readiness.get("status").asString()).isEqualTo("UP");
        assertThat(readiness.get("components").get("store").get("status").asString()).isEqualTo("UP");
        assertThat(readiness.get("components").get("store").get("details").get("dir").asString()).contains("test-stores");
        assertThat(client.get("/actuator/health/liveness").json().get("status").asString()).isEqualTo("UP");
        assertThat(client.get("/actuator/health").json().get("status").asString()).isEqualTo("UP");
    }

    @Test
    void infoNamesTheKernelPath() {
        // the tests run with --add-modules jdk.incubator.vector (surefire's argLine), so auto picks the vector kernels
        // unless the scalar-kernels execution forces them
        Kernels.Path path = Kernels.selected();
        PosekitClient.Response info = new PosekitClient(port).get("/actuator/info");
        assertThat(info.status()).isEqualTo(200);
        JsonNode kernels = info.json().get("kernels");
        assertThat(kernels.get("path").asString()).isEqualTo(path.label());
        assertThat(kernels.get("reason").asString()).isEqualTo(Kernels.reason());
        if (path == Kernels.Path.VECTOR) {
            assertThat(kernels.get("species").asString())
                    .matches("FloatVector \\d+ bits, DoubleVector \\d+ bits \\(preferred \\d+ bits\\)");
        } else {
            assertThat(kernels.has("species")).isFalse();
        }
    }

    @Test
    void prometheusHasRequestTimersUploadSizesParseTimesAndCacheMetrics(CapturedOutput output) {
        PosekitClient client = new PosekitClient(port);
        GltfBuilder asset = GltfBuilder.skinnedTwoBoneStrip();
        asset.setRoot("extras", "operations");
        String id = client.upload("ops.glb", asset.toGlb()).json().get("id").asString();
        assertThat(client.get("/api/v1/assets/" + id + "/pose?clip=Bend&time=1").status()).isEqualTo(200);

        String metrics = client.get("/actuator/prometheus").text();
        assertThat(metrics).contains("http_server_requests_seconds_count{")
                .containsPattern("http_server_requests_seconds_count\\{[^}]*uri=\"/api/v1/assets/\\{id\\}/pose\"")
                .containsPattern("posekit_upload_size_bytes_count\\{[^}]*outcome=\"created\"")
                .containsPattern("posekit_import_duration_seconds_count\\{[^}]*format=\"gltf\"[^}]*source=\"upload\"")
                .containsPattern("posekit_import_duration_seconds_bucket\\{")
                .containsPattern("cache_gets_total\\{[^}]*cache=\"assets\"")
                .containsPattern("cache_evictions_total\\{[^}]*cache=\"assets\"");

        assertThat(output.getOut()).containsPattern("posekit\\.access +: method=POST path=/api/v1/assets status=201 ms=\\d+\\.\\d\\d")
                .contains("method=GET path=/api/v1/assets/" + id + "/pose status=200 ms=");
    }
}
