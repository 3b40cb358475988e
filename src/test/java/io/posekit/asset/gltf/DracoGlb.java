package io.posekit.asset.gltf;

import com.openize.drako.AttributeType;
import com.openize.drako.DataBuffer;
import com.openize.drako.DataType;
import com.openize.drako.Draco;
import com.openize.drako.DracoCompressionLevel;
import com.openize.drako.DracoEncodeOptions;
import com.openize.drako.DracoMesh;
import com.openize.drako.DrakoException;
import com.openize.drako.PointAttribute;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.LinkedHashMap;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Test fixture: a GLB whose every triangle primitive is {@code KHR_draco_mesh_compression}-compressed as glTF
 * pipelines lay it out: the primitive's attributes and indices encoded into one Draco stream, appended to the BIN
 * chunk as a buffer view of its own, and the accessors left without buffer views (so only the Draco data holds their
 * values). The extension is required. Primitives must be indexed triangle lists of tightly packed accessors.
 *
 * <p>Two encoders: {@link #sequential} writes Draco's sequential method with every attribute stored as it is
 * (bitstream 2.2, the "generic" attribute coding: the layout Google's decoder reads, checked with npm
 * {@code draco3dgltf}); edgebreaker streams come from drako's encoder, for float attributes only: its integer
 * attribute coding keeps the first component of each value (read as an int32), which Google's decoder confirms.
 */
public final class DracoGlb {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * How to encode.
     *
     * @param level {@code NO_COMPRESSION} is Draco's sequential method, the others edgebreaker
     * @param positionBits quantization bits of positions, normals and texture coordinates; 0 stores them as they are
     */
    public record Options(DracoCompressionLevel level, int positionBits) {

        /** Sequential and lossless: the decoded mesh is the original, vertex for vertex. */
        public static final Options SEQUENTIAL = new Options(DracoCompressionLevel.NO_COMPRESSION, 0);
        /** Edgebreaker and lossless: the same triangles and corner values, in the order the traversal chose. */
        public static final Options EDGEBREAKER = new Options(DracoCompressionLevel.STANDARD, 0);
        /** {@link #EDGEBREAKER} for primitives of float attributes only, {@link #SEQUENTIAL} for the others. */
        public static final Options MIXED = new Options(DracoCompressionLevel.FAST, 0);
    }

    private DracoGlb() {
    }

    /**
     * A mesh of a 5 × 4 grid of vertices (24 triangles) with every attribute kind, each vertex's values distinct; without the
     * integer attributes (colours, joints and weights) when {@code integers} is false (drako's edgebreaker encoder
     * cannot write them). Returns the mesh's index; its accessors are added in the order POSITION, NORMAL, TANGENT,
     * TEXCOORD_0, TEXCOORD_1, (COLOR_0, JOINTS_0, WEIGHTS_0,) indices.
     */
    public static int addGrid(GltfBuilder b, boolean integers) {
        int w = 5;
        int h = 4;
        int n = w * h;
        float[] pos = new float[3 * n];
        float[] nrm = new float[3 * n];
        float[] tan = new float[4 * n];
        float[] uv0 = new float[2 * n];
        float[] uv1 = new float[2 * n];
        int[] col = new int[4 * n];
        int[] joints = new int[4 * n];
        float[] weights = new float[4 * n];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int v = y * w + x;
                pos[3 * v] = x * 0.25f - 0.5f;
                pos[3 * v + 1] = y * 0.3f;
                pos[3 * v + 2] = (x * y) * 0.01f;
                float len = (float) Math.sqrt(1 + x * x * 0.01);
                nrm[3 * v] = 0.1f * x / len;
                nrm[3 * v + 2] = 1 / len;
                tan[4 * v] = 1;
                tan[4 * v + 3] = x % 2 == 0 ? 1 : -1;
                uv0[2 * v] = x / (w - 1f);
                uv0[2 * v + 1] = y / (h - 1f);
                uv1[2 * v] = 0.5f + 0.1f * v;
                uv1[2 * v + 1] = 0.25f;
                col[4 * v] = 10 * v;
                col[4 * v + 1] = 255 - 10 * v;
                col[4 * v + 2] = 128;
                col[4 * v + 3] = 255;
                joints[4 * v] = 1000 + v;
                joints[4 * v + 1] = 300 + 7 * v;
                joints[4 * v + 2] = v;
                weights[4 * v] = 0.5f;
                weights[4 * v + 1] = 0.25f + v / 1000f;
                weights[4 * v + 2] = 0.25f - v / 1000f;
            }
        }
        List<Integer> idx = new ArrayList<>();
        for (int y = 0; y + 1 < h; y++) {
            for (int x = 0; x + 1 < w; x++) {
                int a = y * w + x;
                idx.addAll(List.of(a, a + 1, a + w + 1, a, a + w + 1, a + w));
            }
        }
        int p = b.addFloatAccessor(pos, "VEC3");
        b.set("accessors", p, "min", new float[] {-0.5f, 0, 0});
        b.set("accessors", p, "max", new float[] {0.5f, 0.90000004f, 0.12f});
        Map<String, Integer> attributes = new LinkedHashMap<>();
        attributes.put("POSITION", p);
        attributes.put("NORMAL", b.addFloatAccessor(nrm, "VEC3"));
        attributes.put("TANGENT", b.addFloatAccessor(tan, "VEC4"));
        attributes.put("TEXCOORD_0", b.addFloatAccessor(uv0, "VEC2"));
        attributes.put("TEXCOORD_1", b.addFloatAccessor(uv1, "VEC2"));
        if (integers) {
            attributes.put("COLOR_0", b.addIntAccessor(col, GltfBuilder.UNSIGNED_BYTE, "VEC4", true));
            attributes.put("JOINTS_0", b.addIntAccessor(joints, GltfBuilder.UNSIGNED_SHORT, "VEC4"));
            attributes.put("WEIGHTS_0", b.addFloatAccessor(weights, "VEC4"));
        }
        return b.mesh("Grid").primitive(attributes, b.addIndices(idx.stream().mapToInt(Integer::intValue)
                .toArray()), GltfBuilder.TRIANGLES).index();
    }

    /** The Draco stream of a GLB {@link #compress} made with one primitive: its last buffer view's bytes. */
    public static byte[] lastStream(byte[] glb) {
        int jsonLength = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN).getInt(12);
        ObjectNode root = (ObjectNode) JSON.readTree(Arrays.copyOfRange(glb, 20, 20 + jsonLength));
        ObjectNode view = (ObjectNode) root.get("bufferViews").get(root.get("bufferViews").size() - 1);
        int start = 28 + jsonLength + view.get("byteOffset").asInt();
        return Arrays.copyOfRange(glb, start, start + view.get("byteLength").asInt());
    }

    /** {@code glb} (one buffer, the BIN chunk) with its primitives Draco-compressed. */
    public static byte[] compress(byte[] glb, Options options) {
        ByteBuffer in = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN);
        int jsonLength = in.getInt(12);
        ObjectNode root = (ObjectNode) JSON.readTree(Arrays.copyOfRange(glb, 20, 20 + jsonLength));
        int binLength = in.getInt(20 + jsonLength);
        byte[] bin = Arrays.copyOfRange(glb, 28 + jsonLength, 28 + jsonLength + binLength);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(bin);
        ArrayNode views = (ArrayNode) root.get("bufferViews");
        for (var mesh : root.get("meshes")) {
            for (var p : mesh.get("primitives")) {
                ObjectNode prim = (ObjectNode) p;
                byte[] draco = encode(root, bin, prim, options);
                while (out.size() % 4 != 0) {
                    out.write(0);
                }
                ObjectNode view = views.addObject();
                view.put("buffer", 0);
                view.put("byteOffset", out.size());
                view.put("byteLength", draco.length);
                out.writeBytes(draco);
                ObjectNode ext = prim.putObject("extensions").putObject("KHR_draco_mesh_compression");
                ext.put("bufferView", views.size() - 1);
                ObjectNode ids = ext.putObject("attributes");
                int id = 0;
                for (String name : prim.get("attributes").propertyNames()) {
                    ids.put(name, id++);
                }
            }
        }
        // the accessors the streams hold lose their own data
        for (var mesh : root.get("meshes")) {
            for (var prim : mesh.get("primitives")) {
                for (String name : prim.get("attributes").propertyNames()) {
                    strip(root, prim.get("attributes").get(name).asInt());
                }
                strip(root, prim.get("indices").asInt());
            }
        }
        while (out.size() % 4 != 0) {
            out.write(0);
        }
        ((ObjectNode) root.get("buffers").get(0)).put("byteLength", out.size());
        for (String list : new String[] {"extensionsUsed", "extensionsRequired"}) {
            ArrayNode a = root.has(list) ? (ArrayNode) root.get(list) : root.putArray(list);
            a.add("KHR_draco_mesh_compression");
        }
        return glb(JSON.writeValueAsString(root).getBytes(StandardCharsets.UTF_8), out.toByteArray());
    }

    private static void strip(ObjectNode root, int accessor) {
        ObjectNode a = (ObjectNode) root.get("accessors").get(accessor);
        a.remove("bufferView");
        a.remove("byteOffset");
    }

    /** One primitive as a Draco stream: attribute {@code i} (in the JSON's order) gets unique id {@code i}. */
    private static byte[] encode(ObjectNode root, byte[] bin, ObjectNode prim, Options options) {
        if (options.level() == DracoCompressionLevel.NO_COMPRESSION
                || options.level() == DracoCompressionLevel.FAST && hasIntegers(root, prim)) {
            return sequential(root, bin, prim);
        }
        if (options.level() == DracoCompressionLevel.FAST) {
            options = EDGEBREAKER_OPTIONS;
        }
        DracoMesh mesh = new DracoMesh();
        int points = -1;
        for (String name : prim.get("attributes").propertyNames()) {
            ObjectNode a = (ObjectNode) root.get("accessors").get(prim.get("attributes").get(name).asInt());
            int count = a.get("count").asInt();
            int components = components(name, a);
            int componentType = a.get("componentType").asInt();
            if (componentType != GltfBuilder.FLOAT) {
                throw new IllegalArgumentException(name + ": drako's encoder keeps one component of integer values");
            }
            byte[] values = slice(root, bin, a, count * components * size(componentType));
            PointAttribute pa = new PointAttribute(attributeType(name), dataType(componentType), components,
                    a.path("normalized").asBoolean(false), -1, 0, new DataBuffer(values));
            mesh.setNumPoints(count);
            mesh.addAttribute(pa);
            points = count;
        }
        if (points < 0) {
            throw new IllegalArgumentException("a primitive without attributes");
        }
        ObjectNode ia = (ObjectNode) root.get("accessors").get(prim.get("indices").asInt());
        int indexType = ia.get("componentType").asInt();
        int count = ia.get("count").asInt();
        ByteBuffer ib = ByteBuffer.wrap(slice(root, bin, ia, count * (indexType == GltfBuilder.UNSIGNED_INT ? 4
                : indexType == GltfBuilder.UNSIGNED_SHORT ? 2 : 1))).order(ByteOrder.LITTLE_ENDIAN);
        for (int f = 0; f < count / 3; f++) {
            int[] face = new int[3];
            for (int k = 0; k < 3; k++) {
                int i = 3 * f + k;
                face[k] = switch (indexType) {
                    case GltfBuilder.UNSIGNED_BYTE -> ib.get(i) & 0xFF;
                    case GltfBuilder.UNSIGNED_SHORT -> ib.getShort(2 * i) & 0xFFFF;
                    default -> ib.getInt(4 * i);
                };
            }
            mesh.addFace(face);
        }
        DracoEncodeOptions o = new DracoEncodeOptions();
        o.setCompressionLevel(options.level());
        o.setPositionBits(options.positionBits());
        o.setNormalBits(options.positionBits());
        o.setTextureCoordinateBits(options.positionBits());
        o.setColorBits(0);
        try {
            return Draco.encode(mesh, o);
        } catch (DrakoException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Draco's sequential method, bitstream 2.2, with the indices and every attribute value stored as they are: header;
     * face and point counts (varints), connectivity method 1 (indices raw: one byte each below 256 points, two below
     * 65 536, else varints); one attributes decoder with each attribute's type, data type, components, normalized flag
     * and unique id, and sequential decoder type 0 (generic); then each attribute's values, point by point.
     */
    static byte[] sequential(ObjectNode root, byte[] bin, ObjectNode prim) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {'D', 'R', 'A', 'C', 'O', 2, 2, 1, 0, 0, 0});
        ObjectNode ia = (ObjectNode) root.get("accessors").get(prim.get("indices").asInt());
        int indexType = ia.get("componentType").asInt();
        int indexCount = ia.get("count").asInt();
        String first = prim.get("attributes").propertyNames().iterator().next();
        int points = root.get("accessors").get(prim.get("attributes").get(first).asInt()).get("count").asInt();
        varint(out, indexCount / 3);
        varint(out, points);
        out.write(1);
        ByteBuffer ib = ByteBuffer.wrap(slice(root, bin, ia, indexCount * (indexType == GltfBuilder.UNSIGNED_INT ? 4
                : indexType == GltfBuilder.UNSIGNED_SHORT ? 2 : 1))).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < indexCount; i++) {
            int v = switch (indexType) {
                case GltfBuilder.UNSIGNED_BYTE -> ib.get(i) & 0xFF;
                case GltfBuilder.UNSIGNED_SHORT -> ib.getShort(2 * i) & 0xFFFF;
                default -> ib.getInt(4 * i);
            };
            if (points < 256) {
                out.write(v);
            } else if (points < 65536) {
                out.write(v & 0xFF);
                out.write(v >>> 8);
            } else {
                varint(out, v);
            }
        }
        out.write(1); // one attributes decoder
        List<String> names = new ArrayList<>(prim.get("attributes").propertyNames());
        varint(out, names.size());
        List<byte[]> values = new ArrayList<>();
        for (int id = 0; id < names.size(); id++) {
            ObjectNode a = (ObjectNode) root.get("accessors").get(prim.get("attributes").get(names.get(id)).asInt());
            int components = components(names.get(id), a);
            int componentType = a.get("componentType").asInt();
            out.write(attributeType(names.get(id)));
            out.write(dataType(componentType));
            out.write(components);
            out.write(a.path("normalized").asBoolean(false) ? 1 : 0);
            varint(out, id);
            values.add(slice(root, bin, a, points * components * size(componentType)));
        }
        for (int id = 0; id < names.size(); id++) {
            out.write(0); // generic: values as they are
        }
        values.forEach(out::writeBytes);
        return out.toByteArray();
    }

    private static final Options EDGEBREAKER_OPTIONS = Options.EDGEBREAKER;

    private static boolean hasIntegers(ObjectNode root, ObjectNode prim) {
        for (String name : prim.get("attributes").propertyNames()) {
            if (root.get("accessors").get(prim.get("attributes").get(name).asInt()).get("componentType").asInt()
                    != GltfBuilder.FLOAT) {
                return true;
            }
        }
        return false;
    }

    private static void varint(ByteArrayOutputStream out, int v) {
        while ((v & ~0x7F) != 0) {
            out.write((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }

    private static int components(String name, ObjectNode a) {
        return switch (a.get("type").asString()) {
            case "SCALAR" -> 1;
            case "VEC2" -> 2;
            case "VEC3" -> 3;
            case "VEC4" -> 4;
            default -> throw new IllegalArgumentException(name + ": " + a.get("type"));
        };
    }

    private static int size(int componentType) {
        return componentType == GltfBuilder.FLOAT || componentType == GltfBuilder.UNSIGNED_INT ? 4
                : componentType == GltfBuilder.SHORT || componentType == GltfBuilder.UNSIGNED_SHORT ? 2 : 1;
    }

    private static byte[] slice(ObjectNode root, byte[] bin, ObjectNode accessor, int length) {
        ObjectNode view = (ObjectNode) root.get("bufferViews").get(accessor.get("bufferView").asInt());
        int start = view.path("byteOffset").asInt(0) + accessor.path("byteOffset").asInt(0);
        return Arrays.copyOfRange(bin, start, start + length);
    }

    private static int attributeType(String name) {
        if (name.equals("POSITION")) {
            return AttributeType.POSITION;
        }
        if (name.equals("NORMAL")) {
            return AttributeType.NORMAL;
        }
        if (name.startsWith("TEXCOORD_")) {
            return AttributeType.TEX_COORD;
        }
        return name.startsWith("COLOR_") ? AttributeType.COLOR : AttributeType.GENERIC;
    }

    private static int dataType(int componentType) {
        return switch (componentType) {
            case GltfBuilder.BYTE -> DataType.INT8;
            case GltfBuilder.UNSIGNED_BYTE -> DataType.UINT8;
            case GltfBuilder.SHORT -> DataType.INT16;
            case GltfBuilder.UNSIGNED_SHORT -> DataType.UINT16;
            case GltfBuilder.UNSIGNED_INT -> DataType.UINT32;
            default -> DataType.FLOAT32;
        };
    }

    /** A GLB of a JSON chunk and a BIN chunk. */
    static byte[] glb(byte[] json, byte[] bin) {
        int jsonPadded = (json.length + 3) & ~3;
        int binPadded = (bin.length + 3) & ~3;
        ByteBuffer b = ByteBuffer.allocate(12 + 8 + jsonPadded + 8 + binPadded).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0x46546C67).putInt(2).putInt(b.capacity());
        b.putInt(jsonPadded).putInt(0x4E4F534A).put(json);
        for (int i = json.length; i < jsonPadded; i++) {
            b.put((byte) ' ');
        }
        b.putInt(binPadded).putInt(0x004E4942).put(bin);
        return b.array();
    }
}
