package io.posekit.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * A renderer for the part of kustomize (v5) that deploy/k8s uses, so the test sees the objects
 * {@code kubectl apply -k} would send without kustomize on the machine: resource files, {@code namespace},
 * {@code labels} (without selectors), {@code configMapGenerator} and {@code secretGenerator} (env files, files,
 * literals; content-hash name suffix and the references to the generated names), and {@code images}.
 * Any other kustomization field fails the render: extend this class with it, and regenerate the committed
 * kustomize output the test compares against.
 */
final class Kustomize {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    static final YAMLMapper YAML = YAMLMapper.builder().build();

    private static final Set<String> FIELDS = Set.of("apiVersion", "kind", "namespace", "labels", "resources",
            "configMapGenerator", "secretGenerator", "images");
    private static final Set<String> GENERATOR_FIELDS = Set.of("name", "envs", "files", "literals");
    /** The cluster-scoped kinds kustomize leaves without a namespace (the ones a base like this might hold). */
    private static final Set<String> CLUSTER_SCOPED = Set.of("Namespace", "ClusterRole", "ClusterRoleBinding",
            "PersistentVolume", "StorageClass", "PriorityClass", "CustomResourceDefinition", "IngressClass");
    /** Kinds whose pod template kustomize's labels {@code includeTemplates} reaches. */
    private static final Set<String> WORKLOADS = Set.of("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet",
            "Job");
    /** kustomize's env-file key check (validation.IsEnvVarName). */
    private static final Pattern ENV_NAME = Pattern.compile("[-._a-zA-Z][-._a-zA-Z0-9]*");

    private Kustomize() {
    }

    /** The objects {@code kustomize build dir} prints, in the order of the resources, then the generated ones. */
    static List<ObjectNode> build(Path dir) throws IOException {
        JsonNode k = YAML.readTree(dir.resolve("kustomization.yaml").toFile());
        for (String field : k.propertyNames()) {
            if (!FIELDS.contains(field)) {
                throw new IllegalArgumentException("kustomization field not rendered by this test: " + field);
            }
        }
        require(k.path("apiVersion").asString().equals("kustomize.config.k8s.io/v1beta1"), "apiVersion");
        require(k.path("kind").asString().equals("Kustomization"), "kind");

        List<ObjectNode> objects = new ArrayList<>();
        for (JsonNode resource : k.path("resources")) {
            objects.addAll(readObjects(dir.resolve(resource.asString())));
        }

        // generated name by kind and original name, for the references
        Map<String, String> renamed = new LinkedHashMap<>();
        for (JsonNode generator : k.path("configMapGenerator")) {
            ObjectNode cm = generate("ConfigMap", dir, generator);
            renamed.put("ConfigMap/" + generator.path("name").asString(), cm.path("metadata").path("name").asString());
            objects.add(cm);
        }
        for (JsonNode generator : k.path("secretGenerator")) {
            ObjectNode secret = generate("Secret", dir, generator);
            renamed.put("Secret/" + generator.path("name").asString(),
                    secret.path("metadata").path("name").asString());
            objects.add(secret);
        }

        String namespace = k.path("namespace").asString(null);
        for (ObjectNode o : objects) {
            ObjectNode metadata = (ObjectNode) o.get("metadata");
            if (namespace != null && !CLUSTER_SCOPED.contains(o.path("kind").asString())) {
                metadata.put("namespace", namespace);
            }
            for (JsonNode entry : k.path("labels")) {
                applyLabels(o, entry);
            }
            forEachPodSpec(o, spec -> {
                rewriteReferences(spec, renamed);
                for (JsonNode image : k.path("images")) {
                    setImage(spec, image);
                }
            });
        }
        return objects;
    }

    /** Every YAML document of a file, as objects. */
    static List<ObjectNode> readObjects(Path file) throws IOException {
        List<ObjectNode> objects = new ArrayList<>();
        try (var docs = YAML.readerFor(JsonNode.class).<JsonNode>readValues(file.toFile())) {
            while (docs.hasNextValue()) {
                JsonNode doc = docs.nextValue();
                if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
                    require(doc.isObject(), "a YAML document in " + file + " that is not an object");
                    objects.add((ObjectNode) doc);
                }
            }
        }
        return objects;
    }

    private static ObjectNode generate(String kind, Path dir, JsonNode generator) throws IOException {
        for (String field : generator.propertyNames()) {
            require(GENERATOR_FIELDS.contains(field), kind + " generator field not rendered by this test: " + field);
        }
        String name = generator.path("name").asString();
        Map<String, String> data = new LinkedHashMap<>();
        for (JsonNode env : generator.path("envs")) {
            for (Map.Entry<String, String> pair : envFile(dir.resolve(env.asString())).entrySet()) {
                put(data, pair.getKey(), pair.getValue());
            }
        }
        for (JsonNode file : generator.path("files")) {
            String spec = file.asString();
            int eq = spec.indexOf('=');
            String key = eq >= 0 ? spec.substring(0, eq) : Path.of(spec).getFileName().toString();
            Path path = dir.resolve(eq >= 0 ? spec.substring(eq + 1) : spec);
            put(data, key, Files.readString(path, StandardCharsets.UTF_8));
        }
        for (JsonNode literal : generator.path("literals")) {
            String[] kv = literal.asString().split("=", 2);
            require(kv.length == 2, "literal without '=': " + literal);
            put(data, kv[0], unquote(kv[1]));
        }

        Map<String, String> sorted = new TreeMap<>(data);
        ObjectNode o = NODES.objectNode();
        o.put("apiVersion", "v1");
        o.put("kind", kind);
        ObjectNode metadata = o.putObject("metadata");
        ObjectNode dataNode = o.putObject("data");
        Map<String, String> encoded = new TreeMap<>();
        for (Map.Entry<String, String> e : sorted.entrySet()) {
            String value = kind.equals("Secret")
                    ? Base64.getEncoder().encodeToString(e.getValue().getBytes(StandardCharsets.UTF_8))
                    : e.getValue();
            encoded.put(e.getKey(), value);
            dataNode.put(e.getKey(), value);
        }
        if (kind.equals("Secret")) {
            o.put("type", "Opaque");
        }
        metadata.put("name", name + "-" + hashSuffix(kind, encoded));
        return o;
    }

    /**
     * kustomize's name suffix (api/hasher): the SHA-256 of Go's JSON encoding of kind, name, data (and a Secret's
     * type), keys sorted; its first ten hex digits with 0, 1, 3, a and e swapped for letters. The name enters as
     * "": kustomize v5 looks it up as one field called "metadata/name", which no object has.
     */
    static String hashSuffix(String kind, Map<String, String> data) {
        StringBuilder json = new StringBuilder("{\"data\":{");
        boolean first = true;
        for (Map.Entry<String, String> e : new TreeMap<>(data).entrySet()) {
            json.append(first ? "" : ",").append(goJson(e.getKey())).append(':').append(goJson(e.getValue()));
            first = false;
        }
        json.append("},\"kind\":").append(goJson(kind)).append(",\"name\":\"\"");
        if (kind.equals("Secret")) {
            json.append(",\"type\":").append(goJson("Opaque"));
        }
        json.append('}');
        String hex;
        try {
            hex = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(json.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        StringBuilder suffix = new StringBuilder();
        for (char c : hex.substring(0, 10).toCharArray()) {
            suffix.append(switch (c) {
                case '0' -> 'g';
                case '1' -> 'h';
                case '3' -> 'k';
                case 'a' -> 'm';
                case 'e' -> 't';
                default -> c;
            });
        }
        return suffix.toString();
    }

    /** A string as Go's encoding/json writes it: HTML-safe (<, >, & escaped), control characters as \\u00XX. */
    static String goJson(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '<', '>', '&', '\u2028', '\u2029' -> out.append(String.format("\\u%04x", (int) c));
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /**
     * An env file as kustomize reads it (api/kv): leading blanks trimmed, blank and # lines skipped, KEY=VALUE
     * split at the first '=', the value kept as written. A key without '=' would take the value from the
     * environment of whoever renders, so it is refused here.
     */
    static Map<String, String> envFile(Path file) throws IOException {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String raw : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String line = raw.stripLeading();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] kv = line.split("=", 2);
            require(kv.length == 2, file + ": a line without '=' (kustomize would read the environment): " + raw);
            require(ENV_NAME.matcher(kv[0]).matches(), file + ": not an environment variable name: " + kv[0]);
            put(pairs, kv[0], kv[1]);
        }
        return pairs;
    }

    private static String unquote(String v) {
        if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }

    private static void put(Map<String, String> data, String key, String value) {
        require(data.putIfAbsent(key, value) == null, "key generated twice: " + key);
    }

    private static void applyLabels(ObjectNode o, JsonNode entry) {
        for (String field : entry.propertyNames()) {
            require(Set.of("pairs", "includeSelectors", "includeTemplates").contains(field),
                    "labels field not rendered by this test: " + field);
        }
        require(!entry.path("includeSelectors").asBoolean(false), "labels with includeSelectors: true");
        ObjectNode pairs = (ObjectNode) entry.get("pairs");
        labelsOf((ObjectNode) o.get("metadata")).setAll(pairs);
        if (entry.path("includeTemplates").asBoolean(false) && WORKLOADS.contains(o.path("kind").asString())) {
            JsonNode template = o.path("spec").path("template");
            if (template.isObject()) {
                ObjectNode metadata = template.has("metadata") ? (ObjectNode) template.get("metadata")
                        : ((ObjectNode) template).putObject("metadata");
                labelsOf(metadata).setAll(pairs);
            }
        }
    }

    private static ObjectNode labelsOf(ObjectNode metadata) {
        return metadata.has("labels") ? (ObjectNode) metadata.get("labels") : metadata.putObject("labels");
    }

    private static void forEachPodSpec(ObjectNode o, Consumer<ObjectNode> action) {
        JsonNode spec = o.path("spec").path("template").path("spec");
        if (spec.isObject()) {
            action.accept((ObjectNode) spec);
        }
    }

    /** kustomize's nameReference for ConfigMaps and Secrets in a pod spec. */
    private static void rewriteReferences(ObjectNode pod, Map<String, String> renamed) {
        for (JsonNode volume : pod.path("volumes")) {
            rename(volume.path("configMap"), "name", "ConfigMap", renamed);
            rename(volume.path("secret"), "secretName", "Secret", renamed);
            for (JsonNode source : volume.path("projected").path("sources")) {
                rename(source.path("configMap"), "name", "ConfigMap", renamed);
                rename(source.path("secret"), "name", "Secret", renamed);
            }
        }
        for (JsonNode pullSecret : pod.path("imagePullSecrets")) {
            rename(pullSecret, "name", "Secret", renamed);
        }
        for (String list : List.of("initContainers", "containers")) {
            for (JsonNode container : pod.path(list)) {
                for (JsonNode from : container.path("envFrom")) {
                    rename(from.path("configMapRef"), "name", "ConfigMap", renamed);
                    rename(from.path("secretRef"), "name", "Secret", renamed);
                }
                for (JsonNode env : container.path("env")) {
                    rename(env.path("valueFrom").path("configMapKeyRef"), "name", "ConfigMap", renamed);
                    rename(env.path("valueFrom").path("secretKeyRef"), "name", "Secret", renamed);
                }
            }
        }
    }

    private static void rename(JsonNode holder, String field, String kind, Map<String, String> renamed) {
        if (holder.isObject() && holder.path(field).isString()) {
            String to = renamed.get(kind + "/" + holder.path(field).asString());
            if (to != null) {
                ((ObjectNode) holder).put(field, to);
            }
        }
    }

    /** kustomize's images transformer: a container image named like the entry gets its newName and newTag. */
    private static void setImage(ObjectNode pod, JsonNode entry) {
        for (String field : entry.propertyNames()) {
            require(Set.of("name", "newName", "newTag").contains(field), "images field not rendered: " + field);
        }
        for (String list : List.of("initContainers", "containers")) {
            for (JsonNode container : pod.path(list)) {
                String image = container.path("image").asString();
                int at = image.indexOf('@');
                String withoutDigest = at >= 0 ? image.substring(0, at) : image;
                int colon = withoutDigest.lastIndexOf(':');
                String name = colon > withoutDigest.lastIndexOf('/') ? withoutDigest.substring(0, colon)
                        : withoutDigest;
                String tag = at >= 0 ? image.substring(at) : colon > withoutDigest.lastIndexOf('/')
                        ? withoutDigest.substring(colon) : "";
                if (name.equals(entry.path("name").asString())) {
                    String newName = entry.path("newName").asString(name);
                    String newTag = entry.has("newTag") ? ":" + entry.path("newTag").asString() : tag;
                    ((ObjectNode) container).put("image", newName + newTag);
                }
            }
        }
    }

    /** The objects of a multi-document YAML text (kustomize's output), keyed kind/namespace/name. */
    static Map<String, ObjectNode> byKey(List<ObjectNode> objects) {
        Map<String, ObjectNode> map = new TreeMap<>();
        for (ObjectNode o : objects) {
            require(map.put(key(o), o) == null, "two objects " + key(o));
        }
        return map;
    }

    static String key(JsonNode o) {
        return o.path("kind").asString() + "/" + o.path("metadata").path("namespace").asString("") + "/"
                + o.path("metadata").path("name").asString();
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
