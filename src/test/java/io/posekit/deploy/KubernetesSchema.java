package io.posekit.deploy;

import com.networknt.schema.Error;
import com.networknt.schema.ExecutionContext;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaContext;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.format.Format;
import com.networknt.schema.keyword.NonValidationKeyword;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Kubernetes API's object schemas (the OpenAPI definitions as JSON Schema, from
 * {@code src/test/resources/k8s-schema/kubernetes-definitions.json}), applied strictly, as {@code kubectl}'s
 * field validation does: a field the API does not define is an error (the definitions say nothing about extra
 * fields; every object definition here gets {@code additionalProperties: false}), and so are a missing required
 * field, a wrong type, a value outside an enum, and a malformed int32, quantity or base64 value.
 */
final class KubernetesSchema {

    private static final String DEFINITIONS = "/k8s-schema/kubernetes-definitions.json";

    /** resource.Quantity's syntax (k8s.io/apimachinery/pkg/api/resource): a signed number and a suffix. */
    private static final Pattern QUANTITY = Pattern.compile(
            "[+-]?(?:\\d+|\\d+\\.\\d+|\\d+\\.|\\.\\d+)(?:[KMGTPE]i|[numkMGTPE]|[eE][+-]?(?:\\d+|\\d+\\.\\d+|\\d+\\.|\\.\\d+))?");
    private static final Pattern BASE64 = Pattern.compile("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");

    private final ObjectNode definitions;
    /** definition id by "apiVersion/kind", from each top-level definition's apiVersion and kind enums */
    private final Map<String, String> byKind = new HashMap<>();
    private final Map<String, Schema> schemas = new HashMap<>();
    private final SchemaRegistry registry;

    KubernetesSchema() throws IOException {
        JsonMapper json = JsonMapper.builder().build();
        try (InputStream in = KubernetesSchema.class.getResourceAsStream(DEFINITIONS)) {
            if (in == null) {
                throw new IOException(DEFINITIONS + " not on the test classpath");
            }
            definitions = (ObjectNode) json.readTree(in).get("definitions");
        }
        for (var entry : definitions.properties()) {
            JsonNode properties = entry.getValue().path("properties");
            JsonNode apiVersion = properties.path("apiVersion").path("enum");
            JsonNode kind = properties.path("kind").path("enum");
            if (apiVersion.size() == 1 && kind.size() == 1) {
                byKind.put(apiVersion.get(0).asString() + "/" + kind.get(0).asString(), entry.getKey());
            }
            strict(entry.getValue());
        }

        Dialect dialect = Dialect.builder("https://posekit.io/schemas/kubernetes-openapi", Dialects.getDraft7())
                // OpenAPI's marker for "null allowed"; these manifests never write null, so it stays unused
                .keyword(new NonValidationKeyword("nullable"))
                .format(new NamedFormat("int32", null) {
                    @Override
                    public boolean matches(ExecutionContext c, SchemaContext s, JsonNode value) {
                        return !value.isIntegralNumber() || value.canConvertToInt();
                    }
                })
                .format(new NamedFormat("int64", null) {
                    @Override
                    public boolean matches(ExecutionContext c, SchemaContext s, JsonNode value) {
                        return !value.isIntegralNumber() || value.canConvertToLong();
                    }
                })
                .format(new NamedFormat("quantity", QUANTITY))
                .format(new NamedFormat("byte", BASE64) {
                    @Override
                    public boolean matches(ExecutionContext c, String value) {
                        try {
                            Base64.getDecoder().decode(value);
                            return super.matches(c, value);
                        } catch (IllegalArgumentException e) {
                            return false;
                        }
                    }
                })
                .build();
        // strict formats: a format this class does not know is an error, not a pass
        registry = SchemaRegistry.withDefaultDialect(dialect,
                b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder().strict("format", true).build()));
    }

    /** The definitions' ids for the kinds they hold, e.g. "apps/v1/Deployment" → io.k8s.api.apps.v1.Deployment. */
    Map<String, String> kinds() {
        return Map.copyOf(byKind);
    }

    /** The errors of one object, each as "location: message"; empty when the object is valid. */
    List<String> validate(JsonNode object) {
        String kind = object.path("apiVersion").asString() + "/" + object.path("kind").asString();
        String id = byKind.get(kind);
        if (id == null) {
            return List.of("no schema for " + kind + " (add it to k8s-schema/extract.cjs)");
        }
        Schema schema = schemas.computeIfAbsent(id, this::schemaFor);
        List<String> errors = new ArrayList<>();
        for (Error e : schema.validate(object)) {
            errors.add(e.getInstanceLocation() + ": " + e.getMessage());
        }
        return errors;
    }

    private Schema schemaFor(String id) {
        ObjectNode root = definitions.objectNode();
        root.putArray("allOf").addObject().put("$ref", "#/definitions/" + id);
        root.set("definitions", definitions);
        return registry.getSchema(root);
    }

    /**
     * additionalProperties: false on every object schema with properties and no rule for other fields, down
     * through properties, items, additionalProperties and oneOf (the keywords the definitions nest schemas in).
     */
    private static void strict(JsonNode schema) {
        if (!schema.isObject()) {
            return;
        }
        ObjectNode o = (ObjectNode) schema;
        // OpenAPI's optional reference, oneOf [X, null]: just X (a null would fail X's type, as it should)
        JsonNode oneOf = o.path("oneOf");
        if (o.size() == 1 && oneOf.size() == 2 && oneOf.get(1).equals(o.objectNode().put("type", "null"))) {
            JsonNode only = oneOf.get(0);
            o.removeAll();
            o.setAll((ObjectNode) only);
        }
        if (o.has("properties") && !o.has("additionalProperties")) {
            o.put("additionalProperties", false);
        }
        for (JsonNode property : o.path("properties")) {
            strict(property);
        }
        strict(o.path("items"));
        strict(o.path("additionalProperties"));
        for (JsonNode alternative : o.path("oneOf")) {
            strict(alternative);
        }
    }

    private static class NamedFormat implements Format {
        private final String name;
        private final Pattern pattern;

        NamedFormat(String name, Pattern pattern) {
            this.name = name;
            this.pattern = pattern;
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public boolean matches(ExecutionContext c, String value) {
            return pattern == null || pattern.matcher(value).matches();
        }
    }
}
