package io.posekit.fuzz;

import io.posekit.asset.gltf.GltfBuilder;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * glTF-aware mutations: the JSON is parsed, one edit is made to the tree (an index, count, offset or length set
 * to a value that is huge, negative, misaligned or one past the array it refers to; a key deleted; arrays or their
 * elements swapped, duplicated or removed; a value of the wrong type; a node made its own descendant; an enum
 * changed; a buffer uri pointed elsewhere; a {@code data:} payload corrupted; a sparse accessor added; a huge array
 * or deeply nested value) and the tree written back. Inside a GLB the container is rebuilt around the edited JSON
 * (or an edited BIN chunk) with correct header and chunk lengths, so the edit reaches the glTF reader itself.
 */
final class JsonMutations {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** Keys (or arrays of indices) that refer to an element of a top-level array, and that array. */
    private static final Map<String, String> REFERENCES = Map.ofEntries(
            Map.entry("bufferView", "bufferViews"), Map.entry("buffer", "buffers"), Map.entry("indices", "accessors"),
            Map.entry("input", "accessors"), Map.entry("output", "accessors"),
            Map.entry("inverseBindMatrices", "accessors"), Map.entry("POSITION", "accessors"),
            Map.entry("NORMAL", "accessors"), Map.entry("JOINTS_0", "accessors"), Map.entry("WEIGHTS_0", "accessors"),
            Map.entry("node", "nodes"), Map.entry("skeleton", "nodes"), Map.entry("children", "nodes"),
            Map.entry("joints", "nodes"), Map.entry("nodes", "nodes"), Map.entry("mesh", "meshes"),
            Map.entry("skin", "skins"), Map.entry("scene", "scenes"), Map.entry("scenes", "scenes"),
            Map.entry("material", "materials"), Map.entry("camera", "cameras"), Map.entry("sampler", "samplers"));

    /** Numeric keys whose values are sizes, offsets or counts. */
    private static final List<String> SIZES = List.of("count", "byteOffset", "byteLength", "byteStride",
            "componentType", "mode");

    private static final String[] URIS = {"", "../strip.bin", "/etc/passwd", "file:///etc/passwd",
        "http://127.0.0.1:1/strip.bin", "strip.bin%00.png", "STRIP.BIN", "missing.bin", "strip.gltf", "%",
        "data:application/octet-stream;base64,@@@@", "data:application/octet-stream;base64,", "data:,abc",
        "data:application/octet-stream;base64,AAAA", "data:text/plain,hello", "data:", "C:\\strip.bin", "//host/x"};

    private JsonMutations() {
    }

    /** A place in the tree: a member of an object or an element of an array. */
    private record Slot(JsonNode parent, String key, int index, JsonNode value, String field, String path) {

        void set(JsonNode v) {
            if (parent instanceof ObjectNode o) {
                o.set(key, v);
            } else {
                ((ArrayNode) parent).set(index, v);
            }
        }
    }

    /** One edit of a glTF JSON document; bytes that are not a JSON object get a text edit instead. */
    static byte[] mutate(byte[] json, SplittableRandom r, List<String> log) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JacksonException e) {
            return ByteMutations.mutateText(json, r, log);
        }
        if (!(root instanceof ObjectNode doc)) {
            return ByteMutations.mutateText(json, r, log);
        }
        double[] weights = {5, 2, 1.5, 1.5, 1, 1, 1.5, 0.7, 0.3, 1, 0.5, 0.3, 0.7};
        int op = ByteMutations.pick(weights, r);
        if (op == 8) {
            return deepNesting(JSON.writeValueAsBytes(doc), r, log);
        }
        List<Slot> slots = new ArrayList<>();
        collect(doc, "", slots);
        switch (op) {
            case 0 -> numberLie(doc, slots, r, log);
            case 1 -> deleteKey(doc, slots, r, log);
            case 2 -> swap(slots, r, log);
            case 3 -> duplicateOrRemoveElement(slots, r, log);
            case 4 -> retype(slots, r, log);
            case 5 -> cycle(doc, r, log);
            case 6 -> enumEdit(doc, slots, r, log);
            case 7 -> uriEdit(doc, slots, r, log);
            case 9 -> dataUriPayload(doc, slots, r, log);
            case 10 -> stringEdit(doc, slots, r, log);
            case 11 -> hugeArray(doc, slots, r, log);
            default -> sparse(doc, r, log);
        }
        return JSON.writeValueAsBytes(doc);
    }

    /**
     * One edit of a GLB: of its JSON chunk (three times in four) or its BIN chunk, the container rebuilt with
     * correct lengths. A GLB whose container no longer parses gets a byte-level edit instead.
     */
    static byte[] mutateGlb(byte[] glb, byte[] donor, SplittableRandom r, List<String> log) {
        ByteBuffer b = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN);
        if (glb.length < 20 || b.getInt(0) != 0x46546C67 || b.getInt(16) != 0x4E4F534A) {
            return ByteMutations.mutate(glb, donor, 3, r, log);
        }
        long jsonLength = Integer.toUnsignedLong(b.getInt(12));
        if (20 + jsonLength > glb.length) {
            return ByteMutations.mutate(glb, donor, 3, r, log);
        }
        byte[] json = Arrays.copyOfRange(glb, 20, 20 + (int) jsonLength);
        byte[] bin = null;
        int binAt = 20 + (int) jsonLength;
        if (binAt + 8 <= glb.length && b.getInt(binAt + 4) == 0x004E4942) {
            long binLength = Integer.toUnsignedLong(b.getInt(binAt));
            bin = Arrays.copyOfRange(glb, binAt + 8, (int) Math.min(glb.length, binAt + 8 + binLength));
        }
        if (bin != null && r.nextInt(4) == 0) {
            List<String> inner = new ArrayList<>();
            byte[] edited = switch (r.nextInt(4)) {
                case 0 -> ByteMutations.flipBits(bin, r, inner);
                case 1 -> ByteMutations.setBytes(bin, r, inner);
                case 2 -> ByteMutations.lieAboutLength(bin, r, inner);
                default -> ByteMutations.copyWithin(bin, r, inner);
            };
            log.add("GLB BIN chunk: " + String.join("; ", inner));
            return GltfBuilder.glb(json, edited);
        }
        List<String> inner = new ArrayList<>();
        byte[] edited = mutate(json, r, inner);
        log.add("GLB JSON chunk: " + String.join("; ", inner));
        return GltfBuilder.glb(edited, bin);
    }

    private static void collect(JsonNode node, String path, List<Slot> out) {
        if (node instanceof ObjectNode o) {
            for (String key : List.copyOf(o.propertyNames())) {
                JsonNode v = o.get(key);
                String p = path.isEmpty() ? key : path + "." + key;
                out.add(new Slot(o, key, -1, v, key, p));
                collect(v, p, out);
            }
        } else if (node instanceof ArrayNode a) {
            String field = path.substring(path.lastIndexOf('.') + 1).replaceAll("\\[.*", "");
            for (int i = 0; i < a.size(); i++) {
                String p = path + "[" + i + "]";
                out.add(new Slot(a, null, i, a.get(i), field, p));
                collect(a.get(i), p, out);
            }
        }
    }

    /** An index, count, offset or length set to a value that breaks it. */
    private static void numberLie(ObjectNode doc, List<Slot> slots, SplittableRandom r, List<String> log) {
        List<Slot> numbers = slots.stream().filter(s -> s.value().isNumber()).toList();
        List<Slot> telling = numbers.stream()
                .filter(s -> REFERENCES.containsKey(s.field()) || SIZES.contains(s.field())).toList();
        List<Slot> pool = !telling.isEmpty() && r.nextInt(10) < 8 ? telling : numbers;
        if (pool.isEmpty()) {
            retype(slots, r, log);
            return;
        }
        Slot s = pool.get(r.nextInt(pool.size()));
        long current = (long) s.value().asDouble(0); // saturates: asLong() refuses 1e20
        String target = REFERENCES.get(s.field());
        int referenced = target == null || !(doc.get(target) instanceof ArrayNode a) ? 1 : a.size();
        JsonNode v = switch (r.nextInt(16)) {
            case 0 -> F.numberNode(0);
            case 1 -> F.numberNode(-1);
            case 2 -> F.numberNode(Integer.MAX_VALUE);
            case 3 -> F.numberNode(2147483648L);
            case 4 -> F.numberNode(4294967295L);
            case 5 -> F.numberNode(Integer.MIN_VALUE);
            case 6 -> F.numberNode(1e20);
            case 7 -> F.numberNode(1.5);
            case 8 -> F.numberNode(new BigInteger("9007199254740993"));
            case 9 -> F.numberNode(current + 1);
            case 10 -> F.numberNode(current - 1);
            case 11 -> F.numberNode(current * 2);
            case 12 -> F.numberNode(current + 3);
            case 13 -> F.numberNode(referenced);
            case 14 -> F.numberNode(current * 100_000L);
            default -> F.numberNode(1L << 40);
        };
        s.set(v);
        log.add("json " + s.path() + " " + s.value() + " → " + v);
    }

    private static void deleteKey(ObjectNode doc, List<Slot> slots, SplittableRandom r, List<String> log) {
        List<Slot> objects = slots.stream().filter(s -> s.value() instanceof ObjectNode o && !o.isEmpty()).toList();
        ObjectNode o;
        String path;
        if (objects.isEmpty() || r.nextInt(8) == 0) {
            o = doc;
            path = "";
        } else {
            Slot s = objects.get(r.nextInt(objects.size()));
            o = (ObjectNode) s.value();
            path = s.path() + ".";
        }
        List<String> keys = List.copyOf(o.propertyNames());
        if (keys.isEmpty()) {
            retype(slots, r, log);
            return;
        }
        String key = keys.get(r.nextInt(keys.size()));
        o.remove(key);
        log.add("json delete " + path + key);
    }

    /** Two elements of one array swapped, or the values of two array-valued members. */
    private static void swap(List<Slot> slots, SplittableRandom r, List<String> log) {
        List<Slot> arrays = slots.stream().filter(s -> s.value() instanceof ArrayNode).toList();
        if (arrays.size() < 2) {
            retype(slots, r, log);
            return;
        }
        if (r.nextBoolean()) {
            List<Slot> long2 = arrays.stream().filter(s -> s.value().size() >= 2).toList();
            if (!long2.isEmpty()) {
                Slot s = long2.get(r.nextInt(long2.size()));
                ArrayNode a = (ArrayNode) s.value();
                int i = r.nextInt(a.size());
                int j = r.nextInt(a.size());
                JsonNode t = a.get(i);
                a.set(i, a.get(j));
                a.set(j, t);
                log.add("json swap " + s.path() + "[" + i + "] and [" + j + "]");
                return;
            }
        }
        Slot x = arrays.get(r.nextInt(arrays.size()));
        Slot y = arrays.get(r.nextInt(arrays.size()));
        JsonNode xv = x.value().deepCopy();
        JsonNode yv = y.value().deepCopy();
        x.set(yv);
        y.set(xv);
        log.add("json swap arrays " + x.path() + " and " + y.path());
    }

    private static void duplicateOrRemoveElement(List<Slot> slots, SplittableRandom r, List<String> log) {
        List<Slot> arrays = slots.stream().filter(s -> s.value() instanceof ArrayNode a && !a.isEmpty()).toList();
        if (arrays.isEmpty()) {
            retype(slots, r, log);
            return;
        }
        Slot s = arrays.get(r.nextInt(arrays.size()));
        ArrayNode a = (ArrayNode) s.value();
        int i = r.nextInt(a.size());
        if (r.nextBoolean()) {
            a.remove(i);
            log.add("json remove " + s.path() + "[" + i + "]");
        } else {
            a.insert(r.nextInt(a.size() + 1), a.get(i).deepCopy());
            log.add("json duplicate " + s.path() + "[" + i + "]");
        }
    }

    /** A value of the wrong type. */
    private static void retype(List<Slot> slots, SplittableRandom r, List<String> log) {
        if (slots.isEmpty()) {
            return;
        }
        Slot s = slots.get(r.nextInt(slots.size()));
        JsonNode v = switch (r.nextInt(8)) {
            case 0 -> F.stringNode("1");
            case 1 -> F.nullNode();
            case 2 -> F.booleanNode(true);
            case 3 -> F.objectNode();
            case 4 -> F.arrayNode();
            case 5 -> F.arrayNode().add(0);
            case 6 -> F.numberNode(-0.0);
            default -> F.numberNode(0.25);
        };
        s.set(v);
        log.add("json retype " + s.path() + " → " + v);
    }

    /** A node made a child of itself or of one of its descendants. */
    private static void cycle(ObjectNode doc, SplittableRandom r, List<String> log) {
        if (!(doc.get("nodes") instanceof ArrayNode nodes) || nodes.isEmpty()) {
            return;
        }
        int a = r.nextInt(nodes.size());
        int b = r.nextInt(3) == 0 ? a : r.nextInt(nodes.size());
        if (!(nodes.get(a) instanceof ObjectNode node)) {
            return;
        }
        JsonNode children = node.get("children");
        ArrayNode list = children instanceof ArrayNode existing ? existing : node.putArray("children");
        list.add(b);
        log.add("json nodes[" + a + "].children += " + b);
    }

    private static void enumEdit(ObjectNode doc, List<Slot> slots, SplittableRandom r, List<String> log) {
        List<Slot> enums = slots.stream().filter(s -> switch (s.field()) {
            case "type", "path", "interpolation", "componentType", "mode", "normalized", "target" -> !s.value().isContainer();
            default -> false;
        }).toList();
        if (enums.isEmpty()) {
            numberLie(doc, slots, r, log);
            return;
        }
        Slot s = enums.get(r.nextInt(enums.size()));
        JsonNode v = switch (s.field()) {
            case "type" -> F.stringNode(pick(r, "SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4", "VEC5", "vec3", ""));
            case "path" -> F.stringNode(pick(r, "translation", "rotation", "scale", "weights", "pointer", "matrix", ""));
            case "interpolation" -> F.stringNode(pick(r, "LINEAR", "STEP", "CUBICSPLINE", "CUBIC", "linear", ""));
            case "componentType" -> F.numberNode(new int[] {5120, 5121, 5122, 5123, 5124, 5125, 5126, 5127, 0}[r.nextInt(9)]);
            case "mode" -> F.numberNode(r.nextInt(9) - 1);
            case "normalized" -> F.booleanNode(r.nextBoolean());
            default -> F.numberNode(new int[] {34962, 34963, 0}[r.nextInt(3)]);
        };
        s.set(v);
        log.add("json " + s.path() + " " + s.value() + " → " + v);
    }

    private static void uriEdit(ObjectNode doc, List<Slot> slots, SplittableRandom r, List<String> log) {
        if (!(doc.get("buffers") instanceof ArrayNode buffers) || buffers.isEmpty()
                || !(buffers.get(r.nextInt(buffers.size())) instanceof ObjectNode buffer)) {
            retype(slots, r, log);
            return;
        }
        if (buffer.has("uri") && r.nextInt(4) == 0) {
            buffer.remove("uri");
            log.add("json delete a buffer's uri");
            return;
        }
        String uri = URIS[r.nextInt(URIS.length)];
        buffer.put("uri", uri);
        log.add("json buffer uri → '" + uri + "'");
    }

    /** The bytes of a {@code data:} URI buffer corrupted in place, the URI still well-formed base64. */
    private static void dataUriPayload(ObjectNode doc, List<Slot> slots, SplittableRandom r, List<String> log) {
        List<Slot> uris = slots.stream().filter(s -> s.field().equals("uri") && s.value().isString()
                && s.value().asString().startsWith("data:") && s.value().asString().contains(";base64,")).toList();
        if (uris.isEmpty()) {
            numberLie(doc, slots, r, log);
            return;
        }
        Slot s = uris.get(r.nextInt(uris.size()));
        String uri = s.value().asString();
        int comma = uri.indexOf(";base64,") + ";base64,".length();
        byte[] data;
        try {
            data = Base64.getDecoder().decode(uri.substring(comma));
        } catch (IllegalArgumentException notBase64) {
            // an earlier edit of this mutant broke the payload already
            numberLie(doc, slots, r, log);
            return;
        }
        List<String> inner = new ArrayList<>();
        byte[] edited = switch (r.nextInt(4)) {
            case 0 -> ByteMutations.flipBits(data, r, inner);
            case 1 -> ByteMutations.setBytes(data, r, inner);
            case 2 -> ByteMutations.lieAboutLength(data, r, inner);
            default -> ByteMutations.truncate(data, r, inner);
        };
        s.set(F.stringNode(uri.substring(0, comma) + Base64.getEncoder().encodeToString(edited)));
        log.add("json " + s.path() + " payload: " + String.join("; ", inner));
    }

    private static void stringEdit(ObjectNode doc, List<Slot> slots, SplittableRandom r, List<String> log) {
        List<Slot> strings = slots.stream().filter(s -> s.value().isString() && !s.field().equals("uri")).toList();
        if (strings.isEmpty()) {
            retype(slots, r, log);
            return;
        }
        Slot s = strings.get(r.nextInt(strings.size()));
        String v = switch (r.nextInt(6)) {
            case 0 -> "A".repeat(100_000);
            case 1 -> "";
            case 2 -> "\u0000";
            case 3 -> "名前/../\u202e";
            case 4 -> "\ud800";
            default -> "😀".repeat(1000);
        };
        s.set(F.stringNode(v));
        log.add("json " + s.path() + " → string of " + v.length() + " chars");
    }

    /** An array member replaced by a long array of small numbers. */
    private static void hugeArray(ObjectNode doc, List<Slot> slots, SplittableRandom r, List<String> log) {
        List<Slot> arrays = slots.stream().filter(s -> s.value() instanceof ArrayNode && s.parent() instanceof ObjectNode)
                .toList();
        if (arrays.isEmpty()) {
            numberLie(doc, slots, r, log);
            return;
        }
        Slot s = arrays.get(r.nextInt(arrays.size()));
        int n = new int[] {5, 17, 1000, 100_000}[r.nextInt(4)];
        ArrayNode a = F.arrayNode();
        boolean integers = r.nextBoolean();
        for (int i = 0; i < n; i++) {
            if (integers) {
                a.add(r.nextInt(4));
            } else {
                a.add(r.nextDouble());
            }
        }
        s.set(a);
        log.add("json " + s.path() + " → " + n + (integers ? " integers" : " floats"));
    }

    /** Sparse storage added to an accessor, over whatever buffer views exist. */
    private static void sparse(ObjectNode doc, SplittableRandom r, List<String> log) {
        if (!(doc.get("accessors") instanceof ArrayNode accessors) || accessors.isEmpty()
                || !(doc.get("bufferViews") instanceof ArrayNode views) || views.isEmpty()) {
            return;
        }
        int index = r.nextInt(accessors.size());
        if (!(accessors.get(index) instanceof ObjectNode accessor)) {
            return;
        }
        int declared = (int) accessor.path("count").asDouble(1);
        int count = new int[] {0, 1, 2, declared, declared + 1, 1000}[r.nextInt(6)];
        ObjectNode sparse = accessor.putObject("sparse");
        sparse.put("count", count);
        ObjectNode indices = sparse.putObject("indices");
        indices.put("bufferView", r.nextInt(views.size()));
        if (r.nextBoolean()) {
            indices.put("byteOffset", r.nextInt(8));
        }
        indices.put("componentType", new int[] {5121, 5123, 5125, 5126}[r.nextInt(4)]);
        ObjectNode values = sparse.putObject("values");
        values.put("bufferView", r.nextInt(views.size()));
        if (r.nextInt(4) == 0) {
            accessor.remove("bufferView");
        }
        log.add("json accessors[" + index + "].sparse = " + sparse);
    }

    /** A value nested thousands deep, inserted as text (the tree writer would recurse as deep). */
    private static byte[] deepNesting(byte[] json, SplittableRandom r, List<String> log) {
        int depth = new int[] {64, 600, 5000, 100_000}[r.nextInt(4)];
        String open = r.nextBoolean() ? "[" : "{\"a\":";
        String close = open.equals("[") ? "]" : "}";
        String text = new String(json, StandardCharsets.UTF_8);
        int at = text.indexOf('{') + 1;
        String nested = "\"extras\":" + open.repeat(depth) + "0" + close.repeat(depth) + (text.charAt(at) == '}' ? "" : ",");
        log.add("json extras nested " + depth + " deep in " + (open.equals("[") ? "arrays" : "objects"));
        return (text.substring(0, at) + nested + text.substring(at)).getBytes(StandardCharsets.UTF_8);
    }

    private static String pick(SplittableRandom r, String... values) {
        return values[r.nextInt(values.length)];
    }
}
