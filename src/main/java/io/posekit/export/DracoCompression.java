package io.posekit.export;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link Compression#DRACO}: a written glTF document (its JSON and its one buffer) with every triangle-list primitive
 * compressed with {@code KHR_draco_mesh_compression} by Google's encoder ({@link DracoEncoder}), in the form glTF
 * Transform's {@code draco()} writes: the extension used and required, the primitive's attributes and indices in one
 * Draco stream in a buffer view of its own, their accessors without buffer views (no uncompressed fallback), their
 * counts the decoded mesh's, {@code min}/{@code max} kept.
 *
 * <p>Every attribute a primitive has goes into the stream: {@code POSITION}, {@code NORMAL}, {@code TANGENT},
 * {@code TEXCOORD_n}, {@code COLOR_n}, {@code JOINTS_n}, {@code WEIGHTS_n}. Float attributes are quantized with
 * glTF Transform's default bits ({@link DracoEncoder.Settings#DEFAULT}: positions 14 in the primitive's bounding cube,
 * normals 10 (octahedral), colours 8, texture coordinates 12, tangents and float weights 12); integer ones (joints,
 * normalized weights and colours) are kept exactly. What is left uncompressed, as glTF Transform leaves it: primitives
 * that are not triangle lists, and primitives with morph targets (the targets are not in the stream and index the
 * vertices, which the encoder merges and reorders), and primitives of degenerate triangles only. Edgebreaker drops
 * degenerate triangles (a repeated vertex, after equal vertices are merged), as it does for glTF Transform.
 *
 * <p>The other buffer views (animation keys, inverse bind matrices, images, uncompressed primitives) are kept in their
 * order; views only compressed accessors used are dropped. Stateless and thread-safe: each call works on its own copy.
 */
final class DracoCompression {

    /** The extension's name. */
    static final String EXTENSION = "KHR_draco_mesh_compression";

    /** How long the compression of one document may take, all its primitives together. */
    static final Duration TIME_LIMIT = Duration.ofSeconds(60);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A compressed document: its JSON tree (buffer 0 without a {@code uri}) and the buffer's bytes. */
    record Result(ObjectNode root, byte[] bin) {

        /** The JSON text with buffer 0's {@code uri} set to {@code bufferUri} when not {@code null}. */
        byte[] json(String bufferUri) {
            if (bufferUri != null && root.has("buffers")) {
                ((ObjectNode) root.get("buffers").get(0)).put("uri", bufferUri);
            }
            return JSON.writeValueAsBytes(root);
        }
    }

    private DracoCompression() {
    }

    /**
     * {@code json} (a document whose buffer 0 is {@code bin}, without a {@code uri}) with its triangle primitives
     * Draco-compressed.
     *
     * @throws IllegalArgumentException when the encoder fails on a primitive, or the document's primitives take longer
     *     than {@link #TIME_LIMIT}
     */
    static Result apply(String json, byte[] bin) {
        return apply(json, bin, DracoEncoder.Settings.DEFAULT, TIME_LIMIT);
    }

    /** {@link #apply(String, byte[])} with {@code settings} and a time limit of {@code limit}. */
    static Result apply(String json, byte[] bin, DracoEncoder.Settings settings, Duration limit) {
        ObjectNode root = (ObjectNode) JSON.readTree(json);
        if (!root.has("meshes")) {
            return new Result(root, bin);
        }
        long deadline = System.nanoTime() + limit.toNanos();
        ArrayNode accessors = (ArrayNode) root.get("accessors");
        ArrayNode views = root.has("bufferViews") ? (ArrayNode) root.get("bufferViews") : root.putArray("bufferViews");
        Map<Integer, Integer> uses = accessorUses(root);
        // the Draco streams, by the index of the buffer view they will get (appended after the existing ones)
        List<byte[]> streams = new ArrayList<>();
        int meshIndex = 0;
        for (JsonNode mesh : root.get("meshes")) {
            int primIndex = 0;
            for (JsonNode p : mesh.get("primitives")) {
                ObjectNode prim = (ObjectNode) p;
                String where = "mesh " + meshIndex + " primitive " + primIndex++;
                if (prim.path("mode").asInt(4) != 4 || prim.has("targets") || !prim.get("attributes").has("POSITION")) {
                    continue;
                }
                ObjectNode attributes = (ObjectNode) prim.get("attributes");
                List<String> names = new ArrayList<>(attributes.propertyNames());
                int vertices = accessors.get(attributes.get("POSITION").asInt()).get("count").asInt();
                List<DracoEncoder.Attribute> input = new ArrayList<>();
                for (String name : names) {
                    ObjectNode a = (ObjectNode) accessors.get(attributes.get(name).asInt());
                    input.add(new DracoEncoder.Attribute(dracoType(name), valueType(a, where), components(a, where),
                            a.path("normalized").asBoolean(false), values(a, views, bin, where)));
                }
                int[] indices = prim.has("indices") ? indices((ObjectNode) accessors.get(prim.get("indices").asInt()),
                        views, bin, where) : sequence(vertices);
                if (indices.length < 3) {
                    continue;
                }
                DracoEncoder.Encoded e = DracoEncoder.encode(indices, vertices, input, settings, deadline, limit,
                        where);
                if (e.faces() == 0 || e.points() == 0) {
                    // only degenerate triangles, which edgebreaker drops: glTF has no empty accessor, so left as it is
                    continue;
                }
                streams.add(e.stream());
                int view = views.size() + streams.size() - 1;
                ObjectNode ext = prim.putObject("extensions").putObject(EXTENSION);
                ext.put("bufferView", view);
                ObjectNode ids = ext.putObject("attributes");
                for (int i = 0; i < names.size(); i++) {
                    String name = names.get(i);
                    ids.put(name, e.ids()[i]);
                    attributes.put(name, compressed(accessors, uses, attributes.get(name).asInt(), e.points(), -1));
                }
                int indexType = e.points() <= 0xFFFF ? GltfWriter.UNSIGNED_SHORT : GltfWriter.UNSIGNED_INT;
                if (prim.has("indices")) {
                    prim.put("indices", compressed(accessors, uses, prim.get("indices").asInt(), 3 * e.faces(),
                            indexType));
                } else {
                    ObjectNode a = accessors.addObject();
                    a.put("componentType", indexType).put("count", 3 * e.faces()).put("type", "SCALAR");
                    prim.put("indices", accessors.size() - 1);
                }
            }
            meshIndex++;
        }
        if (streams.isEmpty()) {
            return new Result(root, bin);
        }
        for (String list : new String[] {"extensionsUsed", "extensionsRequired"}) {
            ArrayNode a = root.has(list) ? (ArrayNode) root.get(list) : root.putArray(list);
            a.add(EXTENSION);
        }
        reorder(root);
        return new Result(root, relayout(root, bin, streams));
    }

    /** How many times each accessor is referred to in the document. */
    private static Map<Integer, Integer> accessorUses(ObjectNode root) {
        Map<Integer, Integer> uses = new HashMap<>();
        for (JsonNode mesh : root.path("meshes")) {
            for (JsonNode p : mesh.path("primitives")) {
                for (JsonNode a : p.path("attributes")) {
                    uses.merge(a.asInt(), 1, Integer::sum);
                }
                if (p.has("indices")) {
                    uses.merge(p.get("indices").asInt(), 1, Integer::sum);
                }
                for (JsonNode t : p.path("targets")) {
                    for (JsonNode a : t) {
                        uses.merge(a.asInt(), 1, Integer::sum);
                    }
                }
            }
        }
        for (JsonNode s : root.path("skins")) {
            if (s.has("inverseBindMatrices")) {
                uses.merge(s.get("inverseBindMatrices").asInt(), 1, Integer::sum);
            }
        }
        for (JsonNode a : root.path("animations")) {
            for (JsonNode s : a.path("samplers")) {
                uses.merge(s.get("input").asInt(), 1, Integer::sum);
                uses.merge(s.get("output").asInt(), 1, Integer::sum);
            }
        }
        return uses;
    }

    /**
     * The accessor that holds compressed accessor {@code index}'s values: itself without a buffer view when only one
     * primitive uses it, else a copy; {@code count} set, and {@code componentType} when not -1.
     */
    private static int compressed(ArrayNode accessors, Map<Integer, Integer> uses, int index, int count,
            int componentType) {
        ObjectNode a = (ObjectNode) accessors.get(index);
        int target = index;
        if (uses.getOrDefault(index, 0) > 1) {
            uses.merge(index, -1, Integer::sum);
            a = a.deepCopy();
            accessors.add(a);
            target = accessors.size() - 1;
        }
        a.remove("bufferView");
        a.remove("byteOffset");
        a.put("count", count);
        if (componentType >= 0) {
            a.put("componentType", componentType);
            a.remove("min");
            a.remove("max");
        }
        return target;
    }

    /** The buffer: the views still referred to, in their order, then the Draco streams; every index updated. */
    private static byte[] relayout(ObjectNode root, byte[] bin, List<byte[]> streams) {
        ArrayNode views = (ArrayNode) root.get("bufferViews");
        int old = views.size();
        boolean[] used = new boolean[old + streams.size()];
        for (JsonNode a : root.path("accessors")) {
            if (a.has("bufferView")) {
                used[a.get("bufferView").asInt()] = true;
            }
        }
        for (JsonNode i : root.path("images")) {
            if (i.has("bufferView")) {
                used[i.get("bufferView").asInt()] = true;
            }
        }
        for (int s = 0; s < streams.size(); s++) {
            used[old + s] = true;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ArrayNode kept = JSON.createArrayNode();
        int[] renumber = new int[used.length];
        for (int v = 0; v < used.length; v++) {
            if (!used[v]) {
                renumber[v] = -1;
                continue;
            }
            byte[] bytes;
            ObjectNode view;
            if (v < old) {
                view = (ObjectNode) views.get(v);
                int at = view.path("byteOffset").asInt(0);
                bytes = java.util.Arrays.copyOfRange(bin, at, at + view.get("byteLength").asInt());
            } else {
                bytes = streams.get(v - old);
                view = JSON.createObjectNode().put("buffer", 0);
                view.put("byteLength", bytes.length);
            }
            while (out.size() % 4 != 0) {
                out.write(0);
            }
            view.put("byteOffset", out.size());
            out.writeBytes(bytes);
            renumber[v] = kept.size();
            kept.add(view);
        }
        while (out.size() % 4 != 0) {
            out.write(0);
        }
        root.set("bufferViews", kept);
        renumber(root.path("accessors"), renumber);
        renumber(root.path("images"), renumber);
        for (JsonNode mesh : root.path("meshes")) {
            for (JsonNode p : mesh.path("primitives")) {
                JsonNode ext = p.path("extensions").path(EXTENSION);
                if (ext instanceof ObjectNode e) {
                    e.put("bufferView", renumber[e.get("bufferView").asInt()]);
                }
            }
        }
        if (!root.has("buffers")) {
            root.putArray("buffers").addObject();
        }
        ((ObjectNode) root.get("buffers").get(0)).put("byteLength", out.size());
        return out.toByteArray();
    }

    private static void renumber(JsonNode list, int[] renumber) {
        for (JsonNode n : list) {
            if (n.has("bufferView")) {
                ((ObjectNode) n).put("bufferView", renumber[n.get("bufferView").asInt()]);
            }
        }
    }

    /** {@code root}'s properties with asset, extensionsUsed and extensionsRequired first. */
    private static void reorder(ObjectNode root) {
        Map<String, JsonNode> all = new LinkedHashMap<>();
        for (String k : List.of("asset", "extensionsUsed", "extensionsRequired")) {
            if (root.has(k)) {
                all.put(k, root.get(k));
            }
        }
        for (String k : new ArrayList<>(root.propertyNames())) {
            all.putIfAbsent(k, root.get(k));
        }
        root.removeAll();
        all.forEach(root::set);
    }

    private static int dracoType(String semantic) {
        if (semantic.equals("POSITION")) {
            return DracoEncoder.POSITION;
        }
        if (semantic.equals("NORMAL")) {
            return DracoEncoder.NORMAL;
        }
        if (semantic.startsWith("TEXCOORD_")) {
            return DracoEncoder.TEX_COORD;
        }
        if (semantic.startsWith("COLOR_")) {
            return DracoEncoder.COLOR;
        }
        return DracoEncoder.GENERIC;
    }

    private static DracoEncoder.ValueType valueType(JsonNode accessor, String where) {
        return switch (accessor.get("componentType").asInt()) {
            case GltfWriter.FLOAT -> DracoEncoder.ValueType.FLOAT;
            case GltfWriter.BYTE -> DracoEncoder.ValueType.BYTE;
            case GltfWriter.UNSIGNED_BYTE -> DracoEncoder.ValueType.UNSIGNED_BYTE;
            case GltfWriter.SHORT -> DracoEncoder.ValueType.SHORT;
            case GltfWriter.UNSIGNED_SHORT -> DracoEncoder.ValueType.UNSIGNED_SHORT;
            case GltfWriter.UNSIGNED_INT -> DracoEncoder.ValueType.UNSIGNED_INT;
            default -> throw new IllegalStateException(where + ": component type " + accessor.get("componentType"));
        };
    }

    private static int components(JsonNode accessor, String where) {
        return switch (accessor.get("type").asString()) {
            case "SCALAR" -> 1;
            case "VEC2" -> 2;
            case "VEC3" -> 3;
            case "VEC4" -> 4;
            default -> throw new IllegalStateException(where + ": accessor type " + accessor.get("type"));
        };
    }

    /** An accessor's values tightly packed (zeros for one without a buffer view). */
    private static byte[] values(ObjectNode accessor, ArrayNode views, byte[] bin, String where) {
        int element = valueType(accessor, where).size * components(accessor, where);
        int count = accessor.get("count").asInt();
        byte[] out = new byte[Math.multiplyExact(count, element)];
        if (!accessor.has("bufferView")) {
            return out;
        }
        JsonNode view = views.get(accessor.get("bufferView").asInt());
        int stride = view.path("byteStride").asInt(element);
        int at = view.path("byteOffset").asInt(0) + accessor.path("byteOffset").asInt(0);
        for (int i = 0; i < count; i++) {
            System.arraycopy(bin, at + i * stride, out, i * element, element);
        }
        return out;
    }

    private static int[] indices(ObjectNode accessor, ArrayNode views, byte[] bin, String where) {
        byte[] raw = values(accessor, views, bin, where);
        ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        int[] out = new int[accessor.get("count").asInt()];
        int type = accessor.get("componentType").asInt();
        for (int i = 0; i < out.length; i++) {
            out[i] = switch (type) {
                case GltfWriter.UNSIGNED_BYTE -> raw[i] & 0xFF;
                case GltfWriter.UNSIGNED_SHORT -> b.getShort(2 * i) & 0xFFFF;
                default -> b.getInt(4 * i);
            };
        }
        return out;
    }

    private static int[] sequence(int n) {
        int[] out = new int[n - n % 3];
        for (int i = 0; i < out.length; i++) {
            out[i] = i;
        }
        return out;
    }
}
