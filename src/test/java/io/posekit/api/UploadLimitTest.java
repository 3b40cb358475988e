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
        assertThat(client.get("/api/v1/assets").text()).isEqualTo("{\"assets\":[],\"next\":null}");
    }

    @Test
    void multipartBodiesOverTheLimitAre413() {
        PosekitClient.Response r = new PosekitClient(port).upload("big.glb", new byte[100_000]);
        assertProblem(r, 413, "the uploaded files exceed the upload limit of 65536 bytes");
        // a body beyond the limit plus the room for part headers is refused before it is read
        PosekitClient.Response huge = new PosekitClient(port).upload("huge.glb", new byte[1_200_000]);
        assertProblem(huge, 413, null);
        assertThat(huge.json().get("detail").asString()).matches("the body of \\d+ bytes exceeds the upload limit of 65536"
                + " bytes plus 1048576 bytes for multipart boundaries and headers");
    }
}
