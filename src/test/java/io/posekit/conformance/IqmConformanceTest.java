package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.api.PosekitClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Every IQM expected file of {@code ../shared/conformance} through the real HTTP API: joints matched by name,
 * vertices by rest position, at the README's tolerances (see {@link NameMatchedCase}). The oracle is the
 * independent reader {@code lib/iqm-ref.mjs} (raw file space, Z-up; lerp/slerp between frames, as posekit's
 * LINEAR tracks do), so no deviation is needed. Also, over HTTP: a truncated IQM is a 422 with the importer's
 * detail.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class IqmConformanceTest {

    @LocalServerPort
    int port;

    @TestFactory
    Stream<DynamicNode> iqm() {
        assumeTrue(ConformanceData.available(), "../shared/conformance is absent");
        List<Path> files = ConformanceData.expectedFiles("iqm-");
        assertThat(files).as("IQM expected files").isNotEmpty();
        PosekitClient client = new PosekitClient(port);
        return files.stream().map(file -> DynamicContainer.dynamicContainer(file.getFileName().toString(),
                new NameMatchedCase(client, ConformanceData.read(file), List.of()).tests()));
    }

    @Test
    void aTruncatedIqmIsA422WithThePreciseDetail() throws IOException {
        assumeTrue(ConformanceData.available(), "../shared/conformance is absent");
        byte[] iqm = Files.readAllBytes(ConformanceData.root().resolve("assets/iqm/mrfixit/mrfixit.iqm"));
        PosekitClient.Response r = new PosekitClient(port).upload("mrfixit.iqm", Arrays.copyOf(iqm, iqm.length - 1000));
        assertThat(r.status()).as("%s", r).isEqualTo(422);
        assertThat(r.json().get("detail").asString()).isEqualTo("header: filesize " + iqm.length
                + " does not match the file's actual size of " + (iqm.length - 1000) + " bytes (truncated or padded)");
    }
}
