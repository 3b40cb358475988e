package io.posekit.asset.gltf;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Test fixture: builds glTF 2.0 assets in code, as GLB bytes, glTF JSON with {@code data:} URI buffers, or
 * glTF JSON with an external {@code .bin}. Usable from any test (e.g. HTTP tests uploading an asset).
 *
 * <p>Every {@code add…}/builder call appends one element to the corresponding top-level glTF array and
 * returns (or exposes through {@code index()}) its index. Binary data is appended to buffer 0 (created on
 * first use), each piece aligned to 4 bytes. Nothing is validated: tests can build broken assets on
 * purpose, and {@link #json()} / {@link #set} give raw access to the JSON for anything the fluent API does
 * not cover. Buffer {@code uri}s are filled in by the {@code to…} methods unless a test set one itself.
 *
 * <pre>{@code
 * GltfBuilder b = new GltfBuilder();
 * int pos = b.addFloatAccessor(new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
 * int mesh = b.mesh("tri").primitive(GltfBuilder.attributes("POSITION", pos)).index();
 * int node = b.node("tri").mesh(mesh).index();
 * b.addScene("scene", node);
 * byte[] glb = b.toGlb();
 * }</pre>
 */
public final class GltfBuilder {

    public static final int BYTE = 5120;
    public static final int UNSIGNED_BYTE = 5121;
    public static final int SHORT = 5122;
    public static final int UNSIGNED_SHORT = 5123;
    public static final int UNSIGNED_INT = 5125;
    public static final int FLOAT = 5126;

    public static final int POINTS = 0;
    public static final int LINES = 1;
    public static final int TRIANGLES = 4;
    public static final int TRIANGLE_STRIP = 5;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final ObjectNode root = F.objectNode();
    private final List<ByteArrayOutputStream> buffers = new ArrayList<>();

    /** An empty asset with {@code asset.version "2.0"}. */
    public GltfBuilder() {
        ObjectNode asset = root.putObject("asset");
        asset.put("version", "2.0");
        asset.put("generator", "posekit GltfBuilder");
    }

    // ------------------------------------------------------------------------------------------ raw JSON

    /** The live JSON root, for tests that need to write anything the fluent API does not. */
    public ObjectNode json() {
        return root;
    }

    /**
     * Sets {@code field} of element {@code index} of top-level array {@code array} (e.g.
     * {@code set("accessors", 3, "count", "x")}). {@code value} may be a Number, String, Boolean, int[],
     * float[], a JsonNode, or {@code null} to remove the field.
     */
    public GltfBuilder set(String array, int index, String field, Object value) {
        ObjectNode element = (ObjectNode) root.get(array).get(index);
        if (value == null) {
            element.remove(field);
        } else {
            element.set(field, toNode(value));
        }
        return this;
    }

    /** Sets a top-level field (e.g. {@code scene}); {@code null} removes it. */
    public GltfBuilder setRoot(String field, Object value) {
        if (value == null) {
            root.remove(field);
        } else {
            root.set(field, toNode(value));
        }
        return this;
    }

    /** Sets {@code asset.version}. */
    public GltfBuilder assetVersion(String version) {
        ((ObjectNode) root.get("asset")).put("version", version);
        return this;
    }

    public GltfBuilder extensionsUsed(String... names) {
        ArrayNode a = root.putArray("extensionsUsed");
        for (String n : names) {
            a.add(n);
        }
        return this;
    }

    public GltfBuilder extensionsRequired(String... names) {
        ArrayNode a = root.putArray("extensionsRequired");
        for (String n : names) {
            a.add(n);
        }
        return this;
    }

    // ------------------------------------------------------------------------------- buffers and views

    /** Adds an empty buffer and returns its index (buffer 0 is created automatically on first append). */
    public int addBuffer() {
        ObjectNode b = array("buffers").addObject();
        b.put("byteLength", 0);
        buffers.add(new ByteArrayOutputStream());
        return buffers.size() - 1;
    }

    /** Appends {@code data} to {@code buffer} at the next 4-byte boundary; returns the offset it landed at. */
    public int appendBytes(int buffer, byte[] data) {
        while (buffers.size() <= buffer) {
            addBuffer();
        }
        ByteArrayOutputStream out = buffers.get(buffer);
        while (out.size() % 4 != 0) {
            out.write(0);
        }
        int offset = out.size();
        out.writeBytes(data);
        ((ObjectNode) root.get("buffers").get(buffer)).put("byteLength", out.size());
        return offset;
    }

    /** Appends {@code data} to buffer 0 and adds a buffer view over exactly it (no byteStride). */
    public int addBufferView(byte[] data) {
        int offset = appendBytes(0, data);
        return addBufferView(0, offset, data.length, null);
    }

    /** Appends {@code data} to buffer 0 and adds a buffer view over it with {@code byteStride}. */
    public int addBufferView(byte[] data, int byteStride) {
        int offset = appendBytes(0, data);
        return addBufferView(0, offset, data.length, byteStride);
    }

    /** Adds a buffer view with the given fields ({@code byteStride} omitted when {@code null}). */
    public int addBufferView(int buffer, int byteOffset, int byteLength, Integer byteStride) {
        ObjectNode v = array("bufferViews").addObject();
        v.put("buffer", buffer);
        if (byteOffset != 0) {
            v.put("byteOffset", byteOffset);
        }
        v.put("byteLength", byteLength);
        if (byteStride != null) {
            v.put("byteStride", byteStride);
        }
        return array("bufferViews").size() - 1;
    }

    // ---------------------------------------------------------------------------------------- accessors

    /** Starts an accessor with no buffer view (add one with {@link AccessorBuilder#bufferView}). */
    public AccessorBuilder accessor(int componentType, String type, int count) {
        ObjectNode a = array("accessors").addObject();
        a.put("componentType", componentType);
        a.put("count", count);
        a.put("type", type);
        return new AccessorBuilder(a, array("accessors").size() - 1);
    }

    /** Adds an accessor over {@code bufferView} with the given fields. */
    public int addAccessor(int bufferView, int byteOffset, int componentType, String type, int count, boolean normalized) {
        return accessor(componentType, type, count).bufferView(bufferView).byteOffset(byteOffset).normalized(normalized)
                .index();
    }

    /** Adds tightly packed floats in their own buffer view and an accessor (with min/max) over them. */
    public int addFloatAccessor(float[] data, String type) {
        int n = components(type);
        int view = addBufferView(le().f32(data).toArray());
        float[] min = new float[n];
        float[] max = new float[n];
        for (int c = 0; c < n; c++) {
            min[c] = Float.POSITIVE_INFINITY;
            max[c] = Float.NEGATIVE_INFINITY;
        }
        for (int i = 0; i < data.length; i++) {
            min[i % n] = Math.min(min[i % n], data[i]);
            max[i % n] = Math.max(max[i % n], data[i]);
        }
        AccessorBuilder a = accessor(FLOAT, type, data.length / n).bufferView(view);
        if (data.length > 0 && allFinite(min) && allFinite(max)) {
            a.min(min).max(max);
        }
        return a.index();
    }

    /** Adds integers stored as {@code componentType} (byte … unsigned int) in their own view, not normalized. */
    public int addIntAccessor(int[] data, int componentType, String type) {
        return addIntAccessor(data, componentType, type, false);
    }

    /** Adds integers stored as {@code componentType} in their own view, with the {@code normalized} flag. */
    public int addIntAccessor(int[] data, int componentType, String type, boolean normalized) {
        int view = addBufferView(le().ints(componentType, data).toArray());
        return accessor(componentType, type, data.length / components(type)).bufferView(view).normalized(normalized)
                .index();
    }

    /** Adds triangle (or other) indices as unsigned short, or unsigned int when a value exceeds 65535. */
    public int addIndices(int... indices) {
        int max = 0;
        for (int i : indices) {
            max = Math.max(max, i);
        }
        return addIntAccessor(indices, max > 65535 ? UNSIGNED_INT : UNSIGNED_SHORT, "SCALAR");
    }

    /** Fluent setter for one accessor; it is already in the JSON. */
    public final class AccessorBuilder {
        private final ObjectNode json;
        private final int index;

        private AccessorBuilder(ObjectNode json, int index) {
            this.json = json;
            this.index = index;
        }

        public AccessorBuilder bufferView(int bufferView) {
            json.put("bufferView", bufferView);
            return this;
        }

        public AccessorBuilder byteOffset(int byteOffset) {
            if (byteOffset != 0) {
                json.put("byteOffset", byteOffset);
            } else {
                json.remove("byteOffset");
            }
            return this;
        }

        public AccessorBuilder normalized(boolean normalized) {
            if (normalized) {
                json.put("normalized", true);
            } else {
                json.remove("normalized");
            }
            return this;
        }

        public AccessorBuilder name(String name) {
            json.put("name", name);
            return this;
        }

        public AccessorBuilder min(float... min) {
            json.set("min", toNode(min));
            return this;
        }

        public AccessorBuilder max(float... max) {
            json.set("max", toNode(max));
            return this;
        }

        /** Adds {@code sparse} storage whose indices and values live in the given views. */
        public AccessorBuilder sparse(int count, int indicesView, int indicesByteOffset, int indicesComponentType,
                int valuesView, int valuesByteOffset) {
            ObjectNode s = json.putObject("sparse");
            s.put("count", count);
            ObjectNode i = s.putObject("indices");
            i.put("bufferView", indicesView);
            if (indicesByteOffset != 0) {
                i.put("byteOffset", indicesByteOffset);
            }
            i.put("componentType", indicesComponentType);
            ObjectNode v = s.putObject("values");
            v.put("bufferView", valuesView);
            if (valuesByteOffset != 0) {
                v.put("byteOffset", valuesByteOffset);
            }
            return this;
        }

        /** The accessor's index. */
        public int index() {
            return index;
        }
    }

    // ------------------------------------------------------------------------------------------- nodes

    /** Adds a node ({@code name} omitted when {@code null}). */
    public NodeBuilder node(String name) {
        ObjectNode n = array("nodes").addObject();
        if (name != null) {
            n.put("name", name);
        }
        return new NodeBuilder(n, array("nodes").size() - 1);
    }

    /** Fluent setter for one node; it is already in the JSON. */
    public final class NodeBuilder {
        private final ObjectNode json;
        private final int index;

        private NodeBuilder(ObjectNode json, int index) {
            this.json = json;
            this.index = index;
        }

        public NodeBuilder translation(float x, float y, float z) {
            json.set("translation", toNode(new float[] {x, y, z}));
            return this;
        }

        /** Rotation quaternion {@code [x, y, z, w]}. */
        public NodeBuilder rotation(float x, float y, float z, float w) {
            json.set("rotation", toNode(new float[] {x, y, z, w}));
            return this;
        }

        public NodeBuilder scale(float x, float y, float z) {
            json.set("scale", toNode(new float[] {x, y, z}));
            return this;
        }

        /** A 4×4 column-major local matrix (16 floats). */
        public NodeBuilder matrix(float... m) {
            json.set("matrix", toNode(m));
            return this;
        }

        public NodeBuilder children(int... children) {
            json.set("children", toNode(children));
            return this;
        }

        public NodeBuilder mesh(int mesh) {
            json.put("mesh", mesh);
            return this;
        }

        public NodeBuilder skin(int skin) {
            json.put("skin", skin);
            return this;
        }

        /** The node's index. */
        public int index() {
            return index;
        }
    }

    // ------------------------------------------------------------------------------------------ meshes

    /** Adds a mesh ({@code name} omitted when {@code null}); add primitives on the returned builder. */
    public MeshBuilder mesh(String name) {
        ObjectNode m = array("meshes").addObject();
        if (name != null) {
            m.put("name", name);
        }
        m.putArray("primitives");
        return new MeshBuilder(m, array("meshes").size() - 1);
    }

    /** An insertion-ordered attribute map from alternating names and accessor indices. */
    public static Map<String, Integer> attributes(Object... nameIndexPairs) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < nameIndexPairs.length; i += 2) {
            out.put((String) nameIndexPairs[i], (Integer) nameIndexPairs[i + 1]);
        }
        return out;
    }

    /** Fluent builder of one mesh; it is already in the JSON. */
    public final class MeshBuilder {
        private final ObjectNode json;
        private final int index;

        private MeshBuilder(ObjectNode json, int index) {
            this.json = json;
            this.index = index;
        }

        /** A non-indexed primitive with default mode (triangles). */
        public MeshBuilder primitive(Map<String, Integer> attributes) {
            return primitive(attributes, -1, -1);
        }

        /** A primitive with {@code indices} (-1: none) and default mode. */
        public MeshBuilder primitive(Map<String, Integer> attributes, int indices) {
            return primitive(attributes, indices, -1);
        }

        /** A primitive with {@code indices} (-1: none) and {@code mode} (-1: omitted, i.e. triangles). */
        public MeshBuilder primitive(Map<String, Integer> attributes, int indices, int mode) {
            ObjectNode p = ((ArrayNode) json.get("primitives")).addObject();
            ObjectNode a = p.putObject("attributes");
            attributes.forEach(a::put);
            if (indices >= 0) {
                p.put("indices", indices);
            }
            if (mode >= 0) {
                p.put("mode", mode);
            }
            return this;
        }

        /** Adds a morph target (attribute name → accessor) to primitive {@code primitive}. */
        public MeshBuilder morphTarget(int primitive, Map<String, Integer> attributes) {
            ObjectNode p = (ObjectNode) json.get("primitives").get(primitive);
            ArrayNode targets = p.has("targets") ? (ArrayNode) p.get("targets") : p.putArray("targets");
            ObjectNode t = targets.addObject();
            attributes.forEach(t::put);
            return this;
        }

        /** The mesh's index. */
        public int index() {
            return index;
        }
    }

    // -------------------------------------------------------------------------------- skins and scenes

    /** Adds a skin ({@code inverseBindMatrices} -1: omitted; {@code name} null: omitted). */
    public int addSkin(String name, int inverseBindMatrices, int... joints) {
        ObjectNode s = array("skins").addObject();
        if (name != null) {
            s.put("name", name);
        }
        if (inverseBindMatrices >= 0) {
            s.put("inverseBindMatrices", inverseBindMatrices);
        }
        s.set("joints", toNode(joints));
        return array("skins").size() - 1;
    }

    /** Adds a scene with root {@code nodes} ({@code name} null: omitted). */
    public int addScene(String name, int... nodes) {
        ObjectNode s = array("scenes").addObject();
        if (name != null) {
            s.put("name", name);
        }
        s.set("nodes", toNode(nodes));
        return array("scenes").size() - 1;
    }

    /** Sets the top-level {@code scene}. */
    public GltfBuilder defaultScene(int scene) {
        root.put("scene", scene);
        return this;
    }

    // -------------------------------------------------------------------------------------- animations

    /** Adds an animation ({@code name} null: omitted); add samplers and channels on the returned builder. */
    public AnimationBuilder animation(String name) {
        ObjectNode a = array("animations").addObject();
        if (name != null) {
            a.put("name", name);
        }
        a.putArray("channels");
        a.putArray("samplers");
        return new AnimationBuilder(a, array("animations").size() - 1);
    }

    /** Fluent builder of one animation; it is already in the JSON. */
    public final class AnimationBuilder {
        private final ObjectNode json;
        private final int index;

        private AnimationBuilder(ObjectNode json, int index) {
            this.json = json;
            this.index = index;
        }

        /** Adds a sampler ({@code interpolation} null: omitted, i.e. LINEAR); returns its index in this animation. */
        public int sampler(int input, int output, String interpolation) {
            ArrayNode samplers = (ArrayNode) json.get("samplers");
            ObjectNode s = samplers.addObject();
            s.put("input", input);
            s.put("output", output);
            if (interpolation != null) {
                s.put("interpolation", interpolation);
            }
            return samplers.size() - 1;
        }

        /** Adds a channel driving {@code path} of {@code node} (-1: target without node) from {@code sampler}. */
        public AnimationBuilder channel(int sampler, int node, String path) {
            ObjectNode c = ((ArrayNode) json.get("channels")).addObject();
            c.put("sampler", sampler);
            ObjectNode t = c.putObject("target");
            if (node >= 0) {
                t.put("node", node);
            }
            t.put("path", path);
            return this;
        }

        /**
         * Adds float accessors for {@code times} and {@code values} (VEC3 for translation/scale, VEC4 for
         * rotation, SCALAR for weights), a sampler and a channel.
         */
        public AnimationBuilder track(int node, String path, String interpolation, float[] times, float[] values) {
            int input = addFloatAccessor(times, "SCALAR");
            String type = switch (path) {
                case "rotation" -> "VEC4";
                case "weights" -> "SCALAR";
                default -> "VEC3";
            };
            int output = addFloatAccessor(values, type);
            return channel(sampler(input, output, interpolation), node, path);
        }

        /** The animation's index. */
        public int index() {
            return index;
        }
    }

    // ------------------------------------------------------------------------------------------ output

    /** A glTF JSON file with its buffer 0 in a separate {@code .bin} file. */
    public record ExternalGltf(String json, byte[] bin) {
        /** The JSON as UTF-8 bytes. */
        public byte[] jsonBytes() {
            return json.getBytes(StandardCharsets.UTF_8);
        }
    }

    /**
     * The asset as GLB: buffer 0 (when present and without a test-set uri) becomes the BIN chunk; other
     * buffers become {@code data:} URIs.
     */
    public byte[] toGlb() {
        ObjectNode out = root.deepCopy();
        byte[] bin = null;
        ArrayNode bufs = (ArrayNode) out.get("buffers");
        for (int i = 0; bufs != null && i < bufs.size(); i++) {
            ObjectNode b = (ObjectNode) bufs.get(i);
            if (b.has("uri")) {
                continue;
            }
            if (i == 0) {
                bin = buffers.get(0).toByteArray();
            } else {
                b.put("uri", dataUri(buffers.get(i).toByteArray()));
            }
        }
        return glb(MAPPER.writeValueAsString(out).getBytes(StandardCharsets.UTF_8), bin);
    }

    /** The asset as glTF JSON with every buffer (without a test-set uri) as a base64 {@code data:} URI. */
    public String toGltfJson() {
        ObjectNode out = root.deepCopy();
        ArrayNode bufs = (ArrayNode) out.get("buffers");
        for (int i = 0; bufs != null && i < bufs.size(); i++) {
            ObjectNode b = (ObjectNode) bufs.get(i);
            if (!b.has("uri")) {
                b.put("uri", dataUri(buffers.get(i).toByteArray()));
            }
        }
        return MAPPER.writeValueAsString(out);
    }

    /** The asset as glTF JSON whose buffer 0 has uri {@code binName}, plus the bytes of that file. */
    public ExternalGltf toGltfWithExternalBin(String binName) {
        ObjectNode out = root.deepCopy();
        ArrayNode bufs = (ArrayNode) out.get("buffers");
        byte[] bin = new byte[0];
        for (int i = 0; bufs != null && i < bufs.size(); i++) {
            ObjectNode b = (ObjectNode) bufs.get(i);
            if (b.has("uri")) {
                continue;
            }
            if (i == 0) {
                b.put("uri", binName);
                bin = buffers.get(0).toByteArray();
            } else {
                b.put("uri", dataUri(buffers.get(i).toByteArray()));
            }
        }
        return new ExternalGltf(MAPPER.writeValueAsString(out), bin);
    }

    /** Wraps a JSON chunk and an optional BIN chunk into a GLB (chunks padded with spaces / zeros). */
    public static byte[] glb(byte[] json, byte[] bin) {
        int jsonPadded = (json.length + 3) & ~3;
        int binPadded = bin == null ? 0 : (bin.length + 3) & ~3;
        int total = 12 + 8 + jsonPadded + (bin == null ? 0 : 8 + binPadded);
        ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0x46546C67).putInt(2).putInt(total);
        b.putInt(jsonPadded).putInt(0x4E4F534A).put(json);
        for (int i = json.length; i < jsonPadded; i++) {
            b.put((byte) ' ');
        }
        if (bin != null) {
            b.putInt(binPadded).putInt(0x004E4942).put(bin);
        }
        return b.array();
    }

    private static String dataUri(byte[] data) {
        return "data:application/octet-stream;base64," + Base64.getEncoder().encodeToString(data);
    }

    // ----------------------------------------------------------------------------------------- helpers

    /** A little-endian byte writer for hand-made buffer contents. */
    public static Bytes le() {
        return new Bytes();
    }

    /** Little-endian byte writer. */
    public static final class Bytes {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        public Bytes i8(int... v) {
            for (int x : v) {
                out.write(x);
            }
            return this;
        }

        public Bytes u8(int... v) {
            return i8(v);
        }

        public Bytes i16(int... v) {
            for (int x : v) {
                out.write(x);
                out.write(x >> 8);
            }
            return this;
        }

        public Bytes u16(int... v) {
            return i16(v);
        }

        public Bytes u32(int... v) {
            for (int x : v) {
                out.write(x);
                out.write(x >> 8);
                out.write(x >> 16);
                out.write(x >> 24);
            }
            return this;
        }

        public Bytes f32(float... v) {
            for (float f : v) {
                u32(Float.floatToRawIntBits(f));
            }
            return this;
        }

        /** Writes {@code v} as {@code componentType} (byte, unsigned byte, short, unsigned short, unsigned int, float). */
        public Bytes ints(int componentType, int... v) {
            return switch (componentType) {
                case BYTE, UNSIGNED_BYTE -> i8(v);
                case SHORT, UNSIGNED_SHORT -> i16(v);
                case UNSIGNED_INT -> u32(v);
                case FLOAT -> {
                    for (int x : v) {
                        f32(x);
                    }
                    yield this;
                }
                default -> throw new IllegalArgumentException("component type " + componentType);
            };
        }

        /** Zero bytes. */
        public Bytes zeros(int n) {
            for (int i = 0; i < n; i++) {
                out.write(0);
            }
            return this;
        }

        /** Zero bytes up to the next multiple of 4. */
        public Bytes pad4() {
            while (out.size() % 4 != 0) {
                out.write(0);
            }
            return this;
        }

        public int size() {
            return out.size();
        }

        public byte[] toArray() {
            return out.toByteArray();
        }
    }

    // ---------------------------------------------------------------------------------- ready-made asset

    /**
     * A small skinned, animated asset for end-to-end tests. Facts:
     * <ul>
     *   <li>nodes: 0 {@code Strip} (mesh 0, skin 0), 1 {@code Root} (child 2, joint 0), 2 {@code Tip}
     *       (translation (0,1,0), joint 1); scene 0 = [0, 1]</li>
     *   <li>mesh 0 {@code Strip}: one indexed triangle primitive, 6 vertices at x = ±0.5, y = 0, 1, 2
     *       (vertex 2k at x=−0.5, 2k+1 at x=+0.5, y=k), 12 unsigned-short indices (4 triangles),
     *       attributes POSITION, NORMAL (all (0,0,1)), JOINTS_0 (unsigned byte), WEIGHTS_0 (float): y=0 →
     *       joint 0 weight 1; y=1 → joints 0,1 weights 0.5,0.5; y=2 → joint 1 weight 1</li>
     *   <li>skin 0 {@code Armature}: joints [1, 2], inverse binds identity and translation (0,−1,0)</li>
     *   <li>animation 0 {@code Bend}: Tip rotation LINEAR at t = 0, 1, 2 s: identity, 45° and 90° about +Z;
     *       Root translation STEP at t = 0, 1 s: (0,0,0), (0,0.5,0). Duration 2 s.</li>
     * </ul>
     */
    public static GltfBuilder skinnedTwoBoneStrip() {
        GltfBuilder b = new GltfBuilder();
        int pos = b.addFloatAccessor(new float[] {
            -0.5f, 0, 0, 0.5f, 0, 0,
            -0.5f, 1, 0, 0.5f, 1, 0,
            -0.5f, 2, 0, 0.5f, 2, 0}, "VEC3");
        int nrm = b.addFloatAccessor(new float[] {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3");
        int joints = b.addIntAccessor(new int[] {
            0, 0, 0, 0, 0, 0, 0, 0,
            0, 1, 0, 0, 0, 1, 0, 0,
            1, 0, 0, 0, 1, 0, 0, 0}, UNSIGNED_BYTE, "VEC4");
        int weights = b.addFloatAccessor(new float[] {
            1, 0, 0, 0, 1, 0, 0, 0,
            0.5f, 0.5f, 0, 0, 0.5f, 0.5f, 0, 0,
            1, 0, 0, 0, 1, 0, 0, 0}, "VEC4");
        int indices = b.addIndices(0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4);
        int ibm = b.addFloatAccessor(new float[] {
            1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
            1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1}, "MAT4");
        int mesh = b.mesh("Strip").primitive(attributes("POSITION", pos, "NORMAL", nrm, "JOINTS_0", joints,
                "WEIGHTS_0", weights), indices, TRIANGLES).index();
        int strip = b.node("Strip").mesh(mesh).skin(0).index();
        int root = b.node("Root").children(2).index();
        int tip = b.node("Tip").translation(0, 1, 0).index();
        b.addSkin("Armature", ibm, root, tip);
        b.addScene("Scene", strip, root);
        b.defaultScene(0);
        float s45 = (float) Math.sin(Math.PI / 8);
        float c45 = (float) Math.cos(Math.PI / 8);
        float s90 = (float) Math.sqrt(0.5);
        b.animation("Bend")
                .track(tip, "rotation", "LINEAR", new float[] {0, 1, 2},
                        new float[] {0, 0, 0, 1, 0, 0, s45, c45, 0, 0, s90, s90})
                .track(root, "translation", "STEP", new float[] {0, 1}, new float[] {0, 0, 0, 0, 0.5f, 0});
        return b;
    }

    /**
     * {@link #skinnedTwoBoneStrip()} with two morph targets on its primitive. Additional facts:
     * <ul>
     *   <li>target 0 moves every vertex by (1,0,0) and has NORMAL deltas (1,0,0); target 1 moves every vertex by
     *       (0,0,1), as a sparse accessor without buffer view (only vertices 0…5 listed, all (0,0,1))</li>
     *   <li>mesh 0 {@code weights} = [0, 0.5]</li>
     *   <li>animation 1 {@code Morph}: weights of node 0 (Strip) LINEAR at t = 0, 1 s: (0,0), (1,0). Duration 1 s.</li>
     * </ul>
     */
    public static GltfBuilder morphedTwoBoneStrip() {
        GltfBuilder b = skinnedTwoBoneStrip();
        float[] dx = new float[18];
        for (int v = 0; v < 6; v++) {
            dx[3 * v] = 1;
        }
        int t0 = b.addFloatAccessor(dx, "VEC3");
        int indicesView = b.addBufferView(le().u8(0, 1, 2, 3, 4, 5).toArray());
        float[] dz = new float[18];
        for (int v = 0; v < 6; v++) {
            dz[3 * v + 2] = 1;
        }
        int valuesView = b.addBufferView(le().f32(dz).toArray());
        int t1 = b.accessor(FLOAT, "VEC3", 6).sparse(6, indicesView, 0, UNSIGNED_BYTE, valuesView, 0).index();
        ObjectNode prim = (ObjectNode) b.root.get("meshes").get(0).get("primitives").get(0);
        ArrayNode targets = prim.putArray("targets");
        targets.addObject().put("POSITION", t0).put("NORMAL", t0);
        targets.addObject().put("POSITION", t1);
        b.set("meshes", 0, "weights", new float[] {0, 0.5f});
        b.animation("Morph").track(0, "weights", "LINEAR", new float[] {0, 1}, new float[] {0, 0, 1, 0});
        return b;
    }

    // ---------------------------------------------------------------------------------------- internals

    private ArrayNode array(String name) {
        JsonNode a = root.get(name);
        return a instanceof ArrayNode arr ? arr : root.putArray(name);
    }

    private static int components(String type) {
        return switch (type) {
            case "SCALAR" -> 1;
            case "VEC2" -> 2;
            case "VEC3" -> 3;
            case "VEC4", "MAT2" -> 4;
            case "MAT3" -> 9;
            case "MAT4" -> 16;
            default -> throw new IllegalArgumentException("accessor type " + type);
        };
    }

    private static boolean allFinite(float[] v) {
        for (float f : v) {
            if (!Float.isFinite(f)) {
                return false;
            }
        }
        return true;
    }

    private static JsonNode toNode(Object value) {
        return switch (value) {
            case JsonNode n -> n;
            case String s -> F.stringNode(s);
            case Boolean b -> F.booleanNode(b);
            case Integer i -> F.numberNode(i);
            case Long l -> F.numberNode(l);
            case Float f -> F.numberNode(f);
            case Double d -> F.numberNode(d);
            case int[] a -> {
                ArrayNode arr = F.arrayNode();
                for (int x : a) {
                    arr.add(x);
                }
                yield arr;
            }
            case float[] a -> {
                ArrayNode arr = F.arrayNode();
                for (float x : a) {
                    arr.add(x);
                }
                yield arr;
            }
            default -> throw new IllegalArgumentException("unsupported JSON value " + value);
        };
    }
}
