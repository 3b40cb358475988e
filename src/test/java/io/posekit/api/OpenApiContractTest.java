package io.posekit.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.api.http.ApiServer;
import io.posekit.api.http.Route;
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
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code api-spec/openapi.yaml} is the contract, and the document served at {@code /v3/api-docs} (what Swagger UI
 * shows). The code's side is the API server's route table: every route must be an operation of the contract and
 * every operation a route, with the same path variables, the same query parameters, the same request body media
 * types and the same success media types — so a route added, removed or changed without the contract (or the other
 * way round) fails here. The answers themselves are checked against the contract's schemas by
 * the API tests, which assert every field they read.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class OpenApiContractTest {

    @LocalServerPort
    int port;

    @Autowired
    ApiServer server;

    private Map<String, Object> contract;

    @BeforeEach
    void load() throws IOException {
        contract = new Yaml(new LoaderOptions()).load(Files.readString(Path.of("api-spec/openapi.yaml")));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theServedDocumentIsTheContract() throws IOException {
        PosekitClient client = new PosekitClient(port);
        PosekitClient.Response json = client.get("/v3/api-docs");
        assertThat(json.status()).isEqualTo(200);
        assertThat(json.contentType()).startsWith("application/json");
        Map<String, Object> served = JsonMapper.builder().build().readValue(json.body(), Map.class);
        // YAML and JSON read into the same maps (the contract has no YAML-only types)
        JsonMapper mapper = JsonMapper.builder().build();
        JsonNode servedTree = mapper.valueToTree(served);
        JsonNode contractTree = mapper.valueToTree(contract);
        assertThat(servedTree).isEqualTo(contractTree);
        PosekitClient.Response yaml = client.get("/v3/api-docs.yaml");
        assertThat(yaml.status()).isEqualTo(200);
        assertThat(yaml.text()).isEqualTo(Files.readString(Path.of("api-spec/openapi.yaml")));
    }

    @Test
    void everyRouteIsAnOperationOfTheContractAndEveryOperationARoute() {
        Set<String> routed = new TreeSet<>();
        for (Route r : apiRoutes()) {
            routed.add(r.method() + " " + r.template().text());
        }
        Set<String> operations = new TreeSet<>(operations().keySet());
        assertThat(operations).as("operations of the contract").hasSizeGreaterThan(15);
        assertThat(routed).isEqualTo(operations);
    }

    @Test
    @SuppressWarnings("unchecked")
    void eachRouteReadsWhatItsOperationDeclares() {
        List<String> differences = new ArrayList<>();
        Map<String, Operation> operations = operations();
        for (Route r : apiRoutes()) {
            String where = r.method() + " " + r.template().text();
            Operation op = operations.get(where);
            if (op == null) {
                continue; // reported by the test above
            }
            Set<String> query = new TreeSet<>();
            Set<String> path = new TreeSet<>();
            for (Map<String, Object> p : OpenApiFacts.parameters(contract, op.item(), op.operation())) {
                if ("query".equals(p.get("in"))) {
                    query.add((String) p.get("name"));
                } else if ("path".equals(p.get("in"))) {
                    path.add((String) p.get("name"));
                }
            }
            compare(differences, where + ": query parameters", new TreeSet<>(r.queryParameters()), query);
            compare(differences, where + ": path variables", new TreeSet<>(r.template().variables()), path);
            Map<String, Object> body = (Map<String, Object>) op.operation().get("requestBody");
            Set<String> consumes = body == null ? Set.of()
                    : new TreeSet<>(((Map<String, Object>) body.get("content")).keySet());
            if (r.consumes().contains("*/*")) {
                // an upload reads any body and tells the format from it; the contract lists the documented types
                if (consumes.isEmpty()) {
                    differences.add(where + ": reads a body the contract does not declare");
                }
            } else {
                compare(differences, where + ": request media types", new TreeSet<>(r.consumes()), consumes);
            }
            Set<String> produces = new TreeSet<>();
            OpenApiFacts.responses(contract, op.operation()).forEach((code, response) -> {
                if (code.startsWith("2") && response.get("content") instanceof Map<?, ?> content) {
                    content.keySet().forEach(k -> produces.add((String) k));
                }
            });
            compare(differences, where + ": success media types", new TreeSet<>(r.produces()), produces);
        }
        assertThat(differences).isEmpty();
    }

    @Test
    @SuppressWarnings("unchecked")
    void eachOperationDeclaresTheScopeItsRouteNeeds() {
        Map<String, Object> schemes = (Map<String, Object>) ((Map<String, Object>) contract.get("components"))
                .get("securitySchemes");
        Map<String, Object> bearer = (Map<String, Object>) schemes.get("bearer");
        assertThat(bearer).containsEntry("type", "http").containsEntry("scheme", "bearer");
        List<String> differences = new ArrayList<>();
        Map<String, Operation> operations = operations();
        for (Route r : apiRoutes()) {
            String where = r.method() + " " + r.template().text();
            Operation op = operations.get(where);
            if (op == null) {
                continue;
            }
            List<Map<String, List<String>>> security = (List<Map<String, List<String>>>) op.operation().get("security");
            List<String> declared = security == null || security.size() != 1 ? List.of()
                    : security.getFirst().getOrDefault("bearer", List.of());
            List<String> needed = List.of(r.scope().scopeName());
            if (!declared.equals(needed)) {
                differences.add(where + ": the route needs " + needed + ", the contract declares " + security);
            }
            Map<String, Map<String, Object>> responses = OpenApiFacts.responses(contract, op.operation());
            for (String code : List.of("401", "403", "429")) {
                if (!responses.containsKey(code)) {
                    differences.add(where + ": no " + code + " answer declared");
                }
            }
        }
        assertThat(differences).isEmpty();
    }

    private static void compare(List<String> differences, String what, Set<String> routed, Set<String> declared) {
        if (!routed.equals(declared)) {
            differences.add(what + ": the route has " + routed + ", the contract " + declared);
        }
    }

    private List<Route> apiRoutes() {
        return server.router().routes().stream().filter(r -> r.template().text().startsWith("/api/")).toList();
    }

    /** One operation of the contract with its path item (for path-level parameters). */
    private record Operation(Map<String, Object> item, Map<String, Object> operation) {
    }

    @SuppressWarnings("unchecked")
    private Map<String, Operation> operations() {
        Map<String, Operation> out = new java.util.LinkedHashMap<>();
        ((Map<String, Object>) contract.get("paths")).forEach((path, item) -> ((Map<String, Object>) item)
                .forEach((method, op) -> {
                    if (OpenApiFacts.METHODS.contains(method)) {
                        out.put(method.toUpperCase() + " " + path, new Operation((Map<String, Object>) item,
                                (Map<String, Object>) op));
                    }
                }));
        return out;
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
