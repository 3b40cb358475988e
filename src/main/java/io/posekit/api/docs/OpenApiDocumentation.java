package io.posekit.api.docs;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;

/**
 * What springdoc cannot infer from the controllers: the document's info, and the true shape of Spring's
 * {@code ProblemDetail} (its extension {@code properties} map is written inline by Jackson, never as a
 * {@code properties} member). The contract is {@code api-spec/openapi.yaml}.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiDocumentation {

    @Bean
    OpenAPI posekitOpenApi() {
        return new OpenAPI().info(new Info()
                .title("posekit")
                .version("1")
                .summary("Headless animation sampling over HTTP.")
                .description("Local poses, model matrices, skinning matrices and skinned meshes of uploaded rigs at any"
                        + " clip and time. Matrices are column-major arrays of 16, quaternions [x, y, z, w], times in"
                        + " seconds. The contract: api-spec/openapi.yaml.")
                .license(new License().name("Proprietary")));
    }

    @Bean
    OpenApiCustomizer problemDetailShape() {
        return openApi -> {
            if (openApi.getComponents() == null || openApi.getComponents().getSchemas() == null) {
                return;
            }
            Schema<?> problem = openApi.getComponents().getSchemas().get("ProblemDetail");
            if (problem != null && problem.getProperties() != null) {
                problem.getProperties().remove("properties");
            }
        };
    }

    /**
     * The problems of every endpoint marked {@link ReadsStoredAsset}, each added only where the endpoint declares no
     * response of that code itself: 404 (unknown asset), 410 (corrupt in the store), 503 with {@code Retry-After}
     * (a re-parse found no parsing thread in time).
     */
    @Bean
    OperationCustomizer storedAssetProblems() {
        return (operation, handler) -> {
            if (!handler.hasMethodAnnotation(ReadsStoredAsset.class)) {
                return operation;
            }
            ApiResponses responses = operation.getResponses();
            responses.computeIfAbsent("404", code -> problem(ApiDocs.NOT_FOUND));
            responses.computeIfAbsent("410", code -> problem(ApiDocs.GONE));
            responses.computeIfAbsent("503", code -> problem(ApiDocs.BUSY_REPARSE).addHeaderObject(HttpHeaders.RETRY_AFTER,
                    new Header().description(ApiDocs.RETRY_AFTER).schema(new IntegerSchema())));
            return operation;
        };
    }

    private static ApiResponse problem(String description) {
        return new ApiResponse().description(description).content(new Content().addMediaType(ApiDocs.PROBLEM_JSON,
                new MediaType().schema(new Schema<>().$ref("#/components/schemas/ProblemDetail"))));
    }
}
