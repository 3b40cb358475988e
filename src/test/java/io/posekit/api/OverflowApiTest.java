package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.gltf.GltfBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A file of finite values whose pose overflows the float range (Root scaled by 1e30, its child Far 1e30 away): JSON
 * answers are 422 problems naming the node, never bodies with "Infinity"; NDJSON bakes write null for it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class OverflowApiTest {

    @LocalServerPort
    int port;

    @Test
    void overflowingPosesAre422NotInfinity() throws Exception {
        GltfBuilder b = new GltfBuilder();
        int root = b.node("Root").scale(1e30f, 1e30f, 1e30f).children(1).index();
        b.node("Far").translation(1e30f, 0, 0);
        b.addScene("Scene", root);
        b.defaultScene(0);
        PosekitClient client = new PosekitClient(port);
        PosekitClient.Response up = client.upload("far.glb", b.toGlb());
        assertThat(up.status()).as(up.toString()).isIn(200, 201);
        String a = "/api/v1/assets/" + up.json().get("id").asString();
        String detail = "at this time the model matrix of node 1 ('Far') is not finite: the file's transforms multiply"
                + " beyond the float range";
        assertProblem(client.get(a + "/pose"), 422, detail);
        assertProblem(client.get(a + "/pose?space=model"), 422, detail);
        assertProblem(client.get(a + "/skeleton"), 422, detail);
        assertProblem(client.get(a + "/bounds"), 422, detail);
        HttpResponse<String> baked = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://localhost:" + port + a + "/bake")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"times\":[0],\"outputs\":[\"modelPose\"]}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(baked.statusCode()).isEqualTo(200);
        assertThat(baked.body()).contains("null").doesNotContain("Infinity").doesNotContain("NaN");
    }
}
