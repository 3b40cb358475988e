package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The upload limit ({@code posekit.upload.max-bytes}) answers 413 for raw and multipart bodies. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"posekit.store.dir=target/test-stores/${random.uuid}", "posekit.upload.max-bytes=64KB"})
class UploadLimitTest {

    @LocalServerPort
    int port;

    @Test
    void rawBodiesOverTheLimitAre413() {
        PosekitClient client = new PosekitClient(port);
        assertProblem(client.uploadRaw(new byte[100_000], "model/gltf-binary", null), 413,
                "the body of 100000 bytes exceeds the upload limit of 65536 bytes");
        assertThat(client.get("/api/v1/assets").text()).isEqualTo("{\"assets\":[]}");
    }

    @Test
    void multipartBodiesOverTheLimitAre413() {
        PosekitClient.Response r = new PosekitClient(port).upload("big.glb", new byte[100_000]);
        assertProblem(r, 413, null);
        assertThat(r.json().get("detail").asString()).startsWith("the upload exceeds a limit: ").contains("65536");
    }
}
