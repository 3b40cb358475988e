package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.api.PosekitClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Every MD5 expected file of {@code ../shared/conformance} through the real HTTP API: joints matched by name,
 * vertices by rest position, at the README's tolerances (see {@link NameMatchedCase}). The oracle is assimp
 * (bind pose only: the conformance set has no {@code .md5anim}), whose scene space posekit's MD5 model space is
 * ({@code Rx(−90°)} on the root). Also, over HTTP: {@code .md5anim} parts riding along with their mesh become clips,
 * and a lying file is a 422 with the importer's detail.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class Md5ConformanceTest {

    @LocalServerPort
    int port;

    @TestFactory
    Stream<DynamicNode> md5() {
        assumeTrue(ConformanceData.available(), "../shared/conformance is absent");
        List<Path> files = ConformanceData.expectedFiles("md5-");
        assertThat(files).as("MD5 expected files").isNotEmpty();
        PosekitClient client = new PosekitClient(port);
        return files.stream().map(file -> DynamicContainer.dynamicContainer(file.getFileName().toString(),
                new NameMatchedCase(client, ConformanceData.read(file), List.of()).tests()));
    }

    private static final String MESH = """
            MD5Version 10
            numJoints 2
            numMeshes 1
            joints {
                "root" -1 ( 0 0 0 ) ( 0 0 0 )
                "arm" 0 ( 1 0 0 ) ( 0 0 -0.7071067812 )
            }
            mesh {
                shader "skin"
                numverts 3
                vert 0 ( 0 0 ) 0 1
                vert 1 ( 1 0 ) 1 1
                vert 2 ( 0 1 ) 2 1
                numtris 1
                tri 0 0 1 2
                numweights 3
                weight 0 0 1 ( 0 0 0 )
                weight 1 1 1 ( 1 0 0 )
                weight 2 1 1 ( 0 0 1 )
            }
            """;

    private static final String ANIM = """
            MD5Version 10
            numFrames 3
            numJoints 2
            frameRate 24
            numAnimatedComponents 1
            hierarchy {
                "root" -1 0 0
                "arm" 0 1 0
            }
            baseframe {
                ( 0 0 0 ) ( 0 0 0 )
                ( 1 0 0 ) ( 0 0 -0.7071067812 )
            }
            frame 0 { 1 }
            frame 1 { 2 }
            frame 2 { 4 }
            """;

    @Test
    void md5animPartsRideAlongWithTheirMeshAsClips() {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("wave.md5anim", ANIM.getBytes(StandardCharsets.UTF_8));
        files.put("guy.md5mesh", MESH.getBytes(StandardCharsets.UTF_8));
        files.put("walk.md5anim", ANIM.getBytes(StandardCharsets.UTF_8));
        PosekitClient client = new PosekitClient(port);
        PosekitClient.Response r = client.upload(files);
        assertThat(r.status()).as("%s", r).isIn(200, 201);
        JsonNode summary = r.json();
        assertThat(summary.get("format").asString()).isEqualTo("md5");
        assertThat(summary.get("nodes").valueStream().map(n -> n.get("name").asString()).toList())
                .containsExactly("guy", "root", "arm");
        assertThat(summary.get("clips").valueStream().map(c -> c.get("name").asString()).toList())
                .containsExactly("wave", "walk");
        assertThat(summary.get("clips").get(0).get("duration").asDouble()).isEqualTo(2 / 24.0);
        String id = summary.get("id").asString();
        // halfway between frames 1 and 2: arm x = 3; the root turns MD5's Z-up into Y-up
        JsonNode local = client.get("/api/v1/assets/" + id + "/pose?space=local&clip=wave&time=0.0625&loop=clamp").json();
        JsonNode arm = local.get("nodes").get(2);
        assertThat(arm.get("translation").get(0).asDouble()).isCloseTo(3, org.assertj.core.api.Assertions.within(1e-5));
        JsonNode model = client.get("/api/v1/assets/" + id + "/pose?space=model&clip=wave&time=0.0625&loop=clamp").json();
        // model space: Rx(−90°) · (3, 0, 0) keeps x; an MD5 +Z offset would come out as +Y
        assertThat(model.get("nodes").get(2).get("matrix").get(12).asDouble()).isCloseTo(3,
                org.assertj.core.api.Assertions.within(1e-5));
    }

    @Test
    void aLyingMd5IsA422WithThePreciseDetail() {
        PosekitClient client = new PosekitClient(port);
        PosekitClient.Response r = client.upload("guy.md5mesh",
                MESH.replace("numverts 3", "numverts 1000000000").getBytes(StandardCharsets.UTF_8));
        assertThat(r.status()).as("%s", r).isEqualTo(422);
        assertThat(r.json().get("detail").asString())
                .startsWith("guy.md5mesh line 10: mesh 0 numverts 1000000000 is more than the rest of the file can hold");
        PosekitClient.Response v = client.upload("guy.md5mesh",
                MESH.replace("MD5Version 10", "MD5Version 4").getBytes(StandardCharsets.UTF_8));
        assertThat(v.status()).as("%s", v).isEqualTo(415);
        assertThat(v.json().get("detail").asString())
                .isEqualTo("guy.md5mesh line 1: MD5Version 4 is not supported; only version 10 (Doom 3) is");
    }
}
