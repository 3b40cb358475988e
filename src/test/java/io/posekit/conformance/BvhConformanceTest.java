package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.api.PosekitClient;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Every BVH expected file of {@code ../shared/conformance} through the real HTTP API (see {@link NameMatchedCase}):
 * the local TRS and model matrix of every joint and end site at every sample, at the README's tolerances. BVH rigs
 * have no skins, so skinning matrices are not compared ({@code skinned = false}); the oracle's "skin" is only its
 * list of bones.
 *
 * <p>Names: three.js calls every end site {@code ENDSITE}, posekit {@code <parent name>_end}; both are mapped to
 * {@code ENDSITE} and paired up in depth-first order, the order both list them in. No deviations.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class BvhConformanceTest {

    /** posekit's end-site names ({@code LeftToeBase_end}) and three's ({@code ENDSITE}) both become {@code ENDSITE}. */
    static final UnaryOperator<String> END_SITES = name -> name.endsWith("_end") ? "ENDSITE" : name;

    @LocalServerPort
    int port;

    @TestFactory
    Stream<DynamicNode> bvh() {
        assumeTrue(ConformanceData.available(), "../shared/conformance is absent");
        List<Path> files = ConformanceData.expectedFiles("bvh-");
        assertThat(files).as("BVH expected files").isNotEmpty();
        PosekitClient client = new PosekitClient(port);
        NameMatchedCase.Options options = new NameMatchedCase.Options(END_SITES, false);
        return files.stream().map(file -> DynamicContainer.dynamicContainer(file.getFileName().toString(),
                new NameMatchedCase(client, ConformanceData.read(file), List.of(), options).tests()));
    }
}
