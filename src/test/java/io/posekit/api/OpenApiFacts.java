package io.posekit.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reduces an OpenAPI document (parsed into maps) to a set of comparable facts, one line each, e.g.
 * {@code GET /api/v1/assets/{id}/pose param query clip required=false string} or
 * {@code schema LocalPose property nodes array<ref:LocalNode>}. References to {@code components/parameters}
 * and {@code components/responses} are inlined; schemas are named; types ignore numeric formats and
 * {@code null} in type unions.
 */
@SuppressWarnings("unchecked")
final class OpenApiFacts {

    static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");

    private OpenApiFacts() {
    }

    static Set<String> of(Map<String, Object> doc) {
        Set<String> facts = new TreeSet<>();
        Set<String> schemas = new TreeSet<>();
        Map<String, Object> paths = (Map<String, Object>) doc.getOrDefault("paths", Map.of());
        paths.forEach((path, rawItem) -> {
            Map<String, Object> item = (Map<String, Object>) rawItem;
            item.forEach((method, rawOp) -> {
                if (!METHODS.contains(method)) {
                    return;
                }
                Map<String, Object> op = (Map<String, Object>) rawOp;
                String where = method.toUpperCase() + " " + path;
                facts.add(where);
                for (Map<String, Object> p : parameters(doc, item, op)) {
                    facts.add(where + " param " + p.get("in") + " " + p.get("name") + " required="
                            + Boolean.TRUE.equals(p.get("required")) + " " + type(p.get("schema"), schemas));
                }
                Map<String, Object> body = (Map<String, Object>) op.get("requestBody");
                if (body != null) {
                    facts.add(where + " body required=" + Boolean.TRUE.equals(body.get("required")));
                    content(body).forEach((media, m) -> facts.add(where + " body " + media + " "
                            + type(((Map<String, Object>) m).get("schema"), schemas)));
                }
                responses(doc, op).forEach((code, response) -> {
                    facts.add(where + " response " + code);
                    content(response).forEach((media, m) -> facts.add(where + " response " + code + " " + media + " "
                            + type(((Map<String, Object>) m).get("schema"), schemas)));
                    Map<String, Object> headers = (Map<String, Object>) response.getOrDefault("headers", Map.of());
                    headers.keySet().forEach(h -> facts.add(where + " response " + code + " header " + h));
                });
            });
        });
        // every schema reachable from the operations, transitively
        Map<String, Object> components = (Map<String, Object>) doc.getOrDefault("components", Map.of());
        Map<String, Object> all = (Map<String, Object>) components.getOrDefault("schemas", Map.of());
        List<String> queue = new ArrayList<>(schemas);
        Set<String> seen = new TreeSet<>();
        while (!queue.isEmpty()) {
            String name = queue.removeLast();
            if (!seen.add(name)) {
                continue;
            }
            Map<String, Object> schema = (Map<String, Object>) all.get(name);
            if (schema == null) {
                facts.add("schema " + name + " is missing");
                continue;
            }
            Set<String> found = new TreeSet<>();
            facts.add("schema " + name + " " + kind(schema));
            Map<String, Object> props = (Map<String, Object>) schema.getOrDefault("properties", Map.of());
            props.forEach((prop, s) -> facts.add("schema " + name + " property " + prop + " " + type(s, found)));
            queue.addAll(found);
        }
        return facts;
    }

    /** The operation's parameters, path-level ones included, {@code $ref}s inlined. */
    static List<Map<String, Object>> parameters(Map<String, Object> doc, Map<String, Object> item, Map<String, Object> op) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object raw : concat((List<Object>) item.get("parameters"), (List<Object>) op.get("parameters"))) {
            out.add(resolve(doc, (Map<String, Object>) raw));
        }
        return out;
    }

    /** The operation's responses by code, {@code $ref}s inlined. */
    static Map<String, Map<String, Object>> responses(Map<String, Object> doc, Map<String, Object> op) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        ((Map<String, Object>) op.getOrDefault("responses", Map.of()))
                .forEach((code, r) -> out.put(code, resolve(doc, (Map<String, Object>) r)));
        return out;
    }

    private static Map<String, Object> content(Map<String, Object> holder) {
        return (Map<String, Object>) holder.getOrDefault("content", Map.of());
    }

    private static Map<String, Object> resolve(Map<String, Object> doc, Map<String, Object> node) {
        Object ref = node.get("$ref");
        if (!(ref instanceof String r)) {
            return node;
        }
        Object target = doc;
        for (String part : r.substring(2).split("/")) {
            target = ((Map<String, Object>) target).get(part);
        }
        return resolve(doc, (Map<String, Object>) target);
    }

    private static String kind(Map<String, Object> schema) {
        return "kind " + baseType(schema.get("type"));
    }

    /** A schema's type in words; names of referenced schemas are added to {@code refs}. */
    private static String type(Object raw, Set<String> refs) {
        if (!(raw instanceof Map<?, ?>)) {
            return "none";
        }
        Map<String, Object> schema = (Map<String, Object>) raw;
        if (schema.get("$ref") instanceof String ref) {
            String name = ref.substring(ref.lastIndexOf('/') + 1);
            refs.add(name);
            return "ref:" + name;
        }
        if (schema.get("oneOf") instanceof List<?> options) {
            Set<String> names = new TreeSet<>();
            for (Object o : options) {
                names.add(type(o, refs));
            }
            return "oneOf" + names;
        }
        String base = baseType(schema.get("type"));
        if (base.equals("array")) {
            return "array<" + type(schema.get("items"), refs) + ">";
        }
        return base;
    }

    private static String baseType(Object type) {
        if (type instanceof List<?> types) {
            List<Object> rest = new ArrayList<>(types);
            rest.remove("null");
            return rest.size() == 1 ? String.valueOf(rest.getFirst()) : rest.toString();
        }
        return type == null ? "any" : type.toString();
    }

    private static List<Object> concat(List<Object> a, List<Object> b) {
        List<Object> out = new ArrayList<>();
        if (a != null) {
            out.addAll(a);
        }
        if (b != null) {
            out.addAll(b);
        }
        return out;
    }
}
