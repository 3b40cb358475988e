package io.posekit.asset.x;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.api.PosekitClient;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * DirectX {@code .x} through the real HTTP API: the two-joint fixture ({@link XTestSupport#twoJoints}) as text and
 * as compressed binary, and files that cannot be imported.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class XApiTest {

    @LocalServerPort
    int port;

    @Test
    void aDirectXFileWorksThroughEveryEndpoint() {
        PosekitClient client = new PosekitClient(port);
        PosekitClient.Response r = client.upload("walk.x", XTestSupport.twoJointsText());
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        JsonNode s = r.json();
        assertThat(s.get("format").asString()).isEqualTo("x");
        assertThat(s.get("nodes").toString()).isEqualTo("[{\"index\":0,\"name\":\"Root\",\"parent\":-1,\"sourceIndex\":0},"
                + "{\"index\":1,\"name\":\"Child\",\"parent\":0,\"sourceIndex\":1}]");
        assertThat(s.get("clips").toString()).isEqualTo("[{\"index\":0,\"name\":\"Walk\",\"duration\":2.0,\"channels\":6,\"sceneStart\":0.0,\"sceneEnd\":2.0}]");
        String base = "/api/v1/assets/" + s.get("id").asString();

        // vertex 0 (file position (0,0,0)) is bound to Root alone; at 1 s Root is T(2.5,3.5,−4.5)·Rz(−90°)·S(2) and its
        // inverse bind takes the vertex to (4,5,−6): 2·(4,5,−6) = (8,10,−12), turned −90° about z (10,−8,−12),
        // translated (12.5,−4.5,−16.5) — as assimp's import of the same file gives
        JsonNode p = client.get(base + "/meshes/0/skinned?clip=Walk&time=1").json().get("primitives").get(0).get("positions");
        assertThat(p.get(0).asDouble()).isCloseTo(12.5, within(1e-5));
        assertThat(p.get(1).asDouble()).isCloseTo(-4.5, within(1e-5));
        assertThat(p.get(2).asDouble()).isCloseTo(-16.5, within(1e-5));
        // vertex 1 (position (1,0,0)): half Root, half Child; assimp: (11.3787, −5.5, −12.8787)
        assertThat(p.get(3).asDouble()).isCloseTo(11.3787, within(1e-4));
        assertThat(p.get(4).asDouble()).isCloseTo(-5.5, within(1e-4));
        assertThat(p.get(5).asDouble()).isCloseTo(-12.8787, within(1e-4));

        JsonNode m = client.get(base + "/skins/0/matrices?clip=Walk&time=2").json();
        assertThat(m.get("joints").toString()).isEqualTo("[\"Root\",\"Child\"]");
        JsonNode local = client.get(base + "/pose?clip=Walk&time=2").json().get("nodes");
        assertThat(local.get(1).get("translation").toString()).isEqualTo("[7.0,8.0,-9.0]");

        // the same document as MSZIP-compressed binary with 64-bit floats: the same model
        XWriter w = XWriter.binary(64);
        XTestSupport.twoJoints(w, true);
        PosekitClient.Response zipped = client.upload("walk_bzip.x", w.compressed(128));
        assertThat(zipped.status()).as(zipped.toString()).isEqualTo(201);
        assertThat(zipped.json().get("nodes")).isEqualTo(s.get("nodes"));
        assertThat(zipped.json().get("clips")).isEqualTo(s.get("clips"));
    }

    @Test
    void filesThatCannotBeImportedAreProblems() {
        PosekitClient client = new PosekitClient(port);
        PosekitClient.Response invalid = client.upload("bad.x", XTestSupport.textFile("Mesh body { 3; 0.0;0.0;0.0;,"
                + " 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,7;; }"));
        assertProblem(invalid, 422, "Mesh 'body': face 0 refers to vertex 7 of 3 (line 2)");
        PosekitClient.Response version = client.upload("old.x", "xof 0201txt 0032\nFrame F { }".getBytes(StandardCharsets.US_ASCII));
        assertProblem(version, 415, "old.x: DirectX .x version 0201 is not supported (0302 and 0303 are)");
        byte[] body = new byte[1 << 20];
        java.util.Arrays.fill(body, (byte) ' ');
        PosekitClient.Response bomb = client.upload("bomb.x", XWriter.mszip("xof 0303tzip0032".getBytes(StandardCharsets.US_ASCII),
                body, 32768));
        assertProblem(bomb, 413, null);
    }

    private static void assertProblem(PosekitClient.Response r, int status, String detail) {
        assertThat(r.status()).as(r.toString()).isEqualTo(status);
        assertThat(r.contentType()).as(r.toString()).startsWith("application/problem+json");
        if (detail != null) {
            assertThat(r.json().get("detail").asString()).isEqualTo(detail);
        }
    }
}
