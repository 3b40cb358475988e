package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.store.GeneratedAssets;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * What all uploads together may take: the disk their bodies are written to as they arrive
 * ({@code posekit.http.max-spool-bytes}: 503 with {@code Retry-After} beyond it), and the memory their parses hold
 * ({@code posekit.http.max-upload-bytes-in-flight}: 413 for an upload that could never fit in it; a GLB is read in place,
 * so only its JSON chunk counts).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"posekit.store.dir=target/test-stores/${random.uuid}", "posekit.upload.max-bytes=8MB",
                "posekit.http.max-spool-bytes=3MB", "posekit.http.max-upload-bytes-in-flight=2560KB"})
class UploadBudgetsTest {

    @LocalServerPort
    int port;

    @Test
    void uploadsPastTheSpoolAre503AndPastTheParsingMemory413() {
        PosekitClient client = new PosekitClient(port);
        // 3.4 MB to be written to disk where 3 MB may be
        PosekitClient.Response spooled = client.uploadRaw(new byte[3_400_000], "model/gltf-binary", null);
        assertProblem(spooled, 503, "the server's disk for uploads in progress is full (posekit.http.max-spool-bytes);"
                + " retry after Retry-After seconds");
        assertThat(spooled.headers().firstValue("Retry-After")).contains("5");
        // 2.8 MB fits the disk, but its parse would hold more than all parses together may: found once it is in
        assertProblem(client.uploadRaw(new byte[2_800_000], "model/gltf-binary", null), 413, "the upload needs"
                + " 2800000 bytes of memory to parse, more than the server holds for all uploads at once"
                + " (posekit.http.max-upload-bytes-in-flight: 2621440 bytes)");
        // a 5 MB FBX (read whole) could never fit, even with room for multipart headers: refused before its body is
        // read, so the disk it would take is never asked for
        assertProblem(client.uploadRaw(new byte[5_000_000], "application/octet-stream", "filename=big.fbx"), 413,
                "the upload needs 5000000 bytes of memory to parse, more than the server holds for all uploads at once"
                + " (posekit.http.max-upload-bytes-in-flight: 2621440 bytes)");
        // a 2.8 MB GLB is read in place (mapped), not whole: only its JSON chunk counts, so it is taken
        io.posekit.asset.gltf.GltfBuilder big = GeneratedAssets.skinnedMeshBuilder(30, 5);
        big.addBufferView(new byte[2_800_000]); // a payload nothing posekit reads points at (an extension's data)
        byte[] glb = big.toGlb();
        assertThat(glb.length).isGreaterThan(2_800_000);
        assertThat(client.uploadRaw(glb, "model/gltf-binary", null).status()).isEqualTo(201);
        // the 5 MB raw GLB of zeros is no GLB: its parse would read it whole, but the disk is full first
        // and a small one is parsed (and refused for what it is), the budgets given back each time
        assertProblem(client.uploadRaw(new byte[1000], "model/gltf-binary", null), 422, null);
        assertProblem(client.uploadRaw(new byte[5_000_000], "model/gltf-binary", null), 503, null);
        assertThat(client.get("/api/v1/assets").text()).contains("\"name\":\"asset.glb\"").contains("\"next\":null");
    }
}
