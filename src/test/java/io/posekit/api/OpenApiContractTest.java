package io.posekit.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code api-spec/openapi.yaml} is the contract; the document springdoc serves at {@code /v3/api-docs} is what
 * the code does. Both are reduced to the same set of facts — every path and operation, each parameter (name,
 * location, required, type), request body media types and schemas, each response code with its media types,
 * schemas and headers, and every property and type of every schema reachable from the operations — and the two
 * sets must be equal. Ordering, descriptions, examples, numeric formats and {@code null} in type unions do not
 * count; anything else that differs is listed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class OpenApiContractTest {

    @LocalServerPort
    int port;

    private Map<String, Object> contract;
    private Map<String, Object> served;

    @BeforeEach
    @SuppressWarnings("unchecked")
    void load() throws IOException {
        contract = new Yaml(new LoaderOptions()).load(Files.readString(Path.of("api-spec/openapi.yaml")));
        PosekitClient.Response r = new PosekitClient(port).get("/v3/api-docs");
        assertThat(r.status()).isEqualTo(200);
        served = JsonMapper.builder().build().readValue(r.body(), Map.class);
    }

    @Test
    void theServedDocumentMatchesTheContract() {
        Set<String> expected = OpenApiFacts.of(contract);
        Set<String> actual = OpenApiFacts.of(served);
        Set<String> onlyInContract = new TreeSet<>(expected);
        onlyInContract.removeAll(actual);
        Set<String> onlyServed = new TreeSet<>(actual);
        onlyServed.removeAll(expected);
        assertThat(expected).as("facts read from the contract").hasSizeGreaterThan(150);
        assertThat(onlyInContract).as("in api-spec/openapi.yaml but not served by the code").isEmpty();
        assertThat(onlyServed).as("served by the code but not in api-spec/openapi.yaml").isEmpty();
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyOperationOfTheContractIsDocumented() {
        List<String> missing = new ArrayList<>();
        Map<String, Object> paths = (Map<String, Object>) contract.get("paths");
        paths.forEach((path, item) -> ((Map<String, Object>) item).forEach((method, op) -> {
            if (!OpenApiFacts.METHODS.contains(method)) {
                return;
            }
            Map<String, Object> operation = (Map<String, Object>) op;
            String where = method.toUpperCase() + " " + path;
            for (String key : List.of("summary", "description", "operationId")) {
                if (!(operation.get(key) instanceof String text) || text.isBlank()) {
                    missing.add(where + ": no " + key);
                }
            }
            for (Map<String, Object> p : OpenApiFacts.parameters(contract, (Map<String, Object>) item, operation)) {
                if (!(p.get("description") instanceof String d) || d.isBlank()) {
                    missing.add(where + ": parameter " + p.get("name") + " has no description");
                }
                boolean example = p.containsKey("example") || p.containsKey("examples")
                        || (p.get("schema") instanceof Map<?, ?> schema && schema.containsKey("example"));
                if (!example) {
                    missing.add(where + ": parameter " + p.get("name") + " has no example");
                }
            }
            OpenApiFacts.responses(contract, operation).forEach((code, response) -> {
                if (code.startsWith("4") || code.startsWith("5")) {
                    Map<String, Object> content = (Map<String, Object>) response.get("content");
                    if (content == null || !content.containsKey("application/problem+json")) {
                        missing.add(where + ": response " + code + " is not application/problem+json");
                    } else if (!(((Map<String, Object>) content.get("application/problem+json")).containsKey("example"))) {
                        missing.add(where + ": response " + code + " has no example");
                    }
                }
            });
        }));
        assertThat(missing).isEmpty();
    }

    @Test
    void theFactsCatchAChangedContract() {
        Set<String> facts = OpenApiFacts.of(contract);
        @SuppressWarnings("unchecked")
        Map<String, Object> paths = (Map<String, Object>) contract.get("paths");
        Map<String, Object> broken = new java.util.LinkedHashMap<>(contract);
        Map<String, Object> brokenPaths = new java.util.LinkedHashMap<>(paths);
        brokenPaths.remove("/api/v1/assets/{id}/pose");
        broken.put("paths", brokenPaths);
        Set<String> fewer = OpenApiFacts.of(broken);
        Set<String> lost = new HashSet<>(facts);
        lost.removeAll(fewer);
        assertThat(lost).contains("GET /api/v1/assets/{id}/pose", "GET /api/v1/assets/{id}/pose param query space required=false string");
    }
}
