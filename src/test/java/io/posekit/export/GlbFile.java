package io.posekit.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A GLB read back for tests, checked on the way in against the container rules of the glTF 2.0 specification:
 * magic, version 2, total length, a JSON chunk first (padded with spaces to 4 bytes), an optional BIN chunk (padded
 * with zeros), nothing after it; every buffer view inside the BIN chunk and 4-byte aligned; every accessor inside
 * its view. Accessors can then be read as floats or ints.
 */
public final class GlbFile {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JsonNode json;
    private final ByteBuffer bin;
    private final String jsonText;

    private GlbFile(JsonNode json, String jsonText, ByteBuffer bin) {
        this.json = json;
        this.jsonText = jsonText;
        this.bin = bin;
    }

    public static GlbFile parse(byte[] glb) {
        ByteBuffer b = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(glb.length).as("GLB length").isGreaterThanOrEqualTo(20);
        assertThat(b.getInt(0)).as("magic").isEqualTo(0x46546C67);
        assertThat(b.getInt(4)).as("version").isEqualTo(2);
        assertThat(b.getInt(8)).as("header length").isEqualTo(glb.length);
        assertThat(glb.length % 4).as("total length alignment").isZero();
        int jsonLength = b.getInt(12);
        assertThat(b.getInt(16)).as("first chunk type").isEqualTo(0x4E4F534A);
        assertThat(jsonLength % 4).as("JSON chunk length alignment").isZero();
        assertThat(20 + jsonLength).isLessThanOrEqualTo(glb.length);
        String text = new String(glb, 20, jsonLength, StandardCharsets.UTF_8);
        String trimmed = text.stripTrailing();
        assertThat(text.substring(trimmed.length())).as("JSON padding").matches(" *");
        assertThat(text.length() - trimmed.length()).isLessThan(4);
        JsonNode json = JSON.readTree(trimmed);
        ByteBuffer bin = null;
        int at = 20 + jsonLength;
        if (at < glb.length) {
            int binLength = b.getInt(at);
            assertThat(b.getInt(at + 4)).as("second chunk type").isEqualTo(0x004E4942);
            assertThat(binLength % 4).as("BIN chunk length alignment").isZero();
            assertThat(at + 8 + binLength).as("BIN chunk ends the file").isEqualTo(glb.length);
            bin = ByteBuffer.wrap(glb, at + 8, binLength).slice().order(ByteOrder.LITTLE_ENDIAN);
            assertThat(json.path("buffers").size()).isEqualTo(1);
            long declared = json.get("buffers").get(0).get("byteLength").asLong();
            assertThat(declared).as("buffer 0 byteLength").isBetween(binLength - 3L, (long) binLength);
            assertThat(json.get("buffers").get(0).has("uri")).isFalse();
        } else {
            assertThat(json.has("buffers")).isFalse();
        }
        GlbFile file = new GlbFile(json, trimmed, bin);
        file.checkViewsAndAccessors();
        return file;
    }

    private void checkViewsAndAccessors() {
        for (JsonNode v : json.path("bufferViews")) {
            int offset = v.path("byteOffset").asInt(0);
            assertThat(offset % 4).as("bufferView offset alignment %s", v).isZero();
            assertThat((long) offset + v.get("byteLength").asInt()).as("bufferView %s in BIN", v)
                    .isLessThanOrEqualTo(bin.capacity());
            assertThat(v.has("byteStride")).isFalse();
        }
        for (JsonNode a : json.path("accessors")) {
            if (!a.has("bufferView")) {
                continue; // all zeros, as the specification defines
            }
            JsonNode view = json.get("bufferViews").get(a.get("bufferView").asInt());
            int size = componentSize(a.get("componentType").asInt()) * components(a.get("type").asString());
            assertThat((long) a.path("byteOffset").asInt(0) + (long) a.get("count").asInt() * size)
                    .as("accessor %s in its view", a).isLessThanOrEqualTo(view.get("byteLength").asInt());
        }
    }

    public JsonNode json() {
        return json;
    }

    public String jsonText() {
        return jsonText;
    }

    public JsonNode accessor(int index) {
        return json.get("accessors").get(index);
    }

    /** The primitive {@code p} of mesh {@code m}. */
    public JsonNode primitive(int m, int p) {
        return json.get("meshes").get(m).get("primitives").get(p);
    }

    /** Accessor {@code index} as floats (float components only; zeros for an accessor without a buffer view). */
    public float[] floats(int index) {
        JsonNode a = accessor(index);
        assertThat(a.get("componentType").asInt()).isEqualTo(5126);
        int n = a.get("count").asInt() * components(a.get("type").asString());
        if (!a.has("bufferView")) {
            return new float[n];
        }
        ByteBuffer v = view(a);
        float[] out = new float[n];
        for (int i = 0; i < n; i++) {
            out[i] = v.getFloat(4 * i);
        }
        return out;
    }

    /** Accessor {@code index} as ints (unsigned byte, short or int components). */
    public int[] ints(int index) {
        JsonNode a = accessor(index);
        int ct = a.get("componentType").asInt();
        int n = a.get("count").asInt() * components(a.get("type").asString());
        ByteBuffer v = view(a);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = switch (ct) {
                case 5121 -> v.get(i) & 0xFF;
                case 5123 -> v.getShort(2 * i) & 0xFFFF;
                case 5125 -> v.getInt(4 * i);
                default -> throw new AssertionError("not an integer accessor: " + a);
            };
        }
        return out;
    }

    /** The bytes of buffer view {@code index}. */
    public byte[] viewBytes(int index) {
        JsonNode view = json.get("bufferViews").get(index);
        byte[] out = new byte[view.get("byteLength").asInt()];
        bin.slice(view.path("byteOffset").asInt(0), out.length).get(out);
        return out;
    }

    private ByteBuffer view(JsonNode accessor) {
        JsonNode view = json.get("bufferViews").get(accessor.get("bufferView").asInt());
        int offset = view.path("byteOffset").asInt(0) + accessor.path("byteOffset").asInt(0);
        return bin.slice(offset, view.get("byteLength").asInt() - accessor.path("byteOffset").asInt(0))
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    static int componentSize(int componentType) {
        return switch (componentType) {
            case 5120, 5121 -> 1;
            case 5122, 5123 -> 2;
            case 5125, 5126 -> 4;
            default -> throw new AssertionError("component type " + componentType);
        };
    }

    static int components(String type) {
        return switch (type) {
            case "SCALAR" -> 1;
            case "VEC2" -> 2;
            case "VEC3" -> 3;
            case "VEC4", "MAT2" -> 4;
            case "MAT3" -> 9;
            case "MAT4" -> 16;
            default -> throw new AssertionError("type " + type);
        };
    }
}
