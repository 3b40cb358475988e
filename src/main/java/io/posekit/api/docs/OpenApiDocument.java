package io.posekit.api.docs;

import io.posekit.api.http.ApiRoutes;
import io.posekit.api.http.Reply;
import io.posekit.api.http.Router;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import org.springframework.stereotype.Component;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.json.JsonMapper;

/**
 * The API's contract, {@code api-spec/openapi.yaml} (packaged as {@value #RESOURCE}), served as it is written: JSON at
 * {@code /v3/api-docs} (what Swagger UI reads) and the YAML at {@code /v3/api-docs.yaml}. The contract test checks
 * every route of the server against it and the answers against its schemas.
 */
@Component
class OpenApiDocument implements ApiRoutes {

    static final String RESOURCE = "openapi/openapi.yaml";

    private final byte[] yaml;
    private final byte[] json;

    OpenApiDocument(JsonMapper mapper) {
        try (InputStream in = OpenApiDocument.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the class path (the build copies api-spec/)");
            }
            this.yaml = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Object> document = new Yaml(new LoaderOptions()).load(new String(yaml, java.nio.charset.StandardCharsets.UTF_8));
        this.json = mapper.writeValueAsBytes(document);
    }

    @Override
    public void register(Router.Builder routes) {
        routes.get("/v3/api-docs").produces("application/json").inline(e -> true)
                .handle(e -> Reply.of(200, "application/json", json));
        routes.get("/v3/api-docs.yaml").produces("application/yaml").inline(e -> true)
                .handle(e -> Reply.of(200, "application/yaml", yaml));
    }
}
