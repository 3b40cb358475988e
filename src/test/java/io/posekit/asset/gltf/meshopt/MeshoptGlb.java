package io.posekit.asset.gltf.meshopt;

import io.posekit.asset.gltf.GltfBuilder;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Test fixture: a GLB made meshopt-compressed as gltfpack {@code -c} lays it out: every buffer view whose elements
 * the codecs can hold is compressed into the BIN chunk ({@link MeshoptFixtures}' streams: vertex and animation data
 * as attributes, scalar unsigned short or int views as an index sequence), and the views keep their place in a
 * fallback buffer without data ({@code fallback: true}), which the extension is then required for.
 */
public final class MeshoptGlb {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private MeshoptGlb() {
    }

    /** {@code glb} (one buffer, the BIN chunk) with its compressible views compressed under {@code extension}. */
    public static byte[] compress(byte[] glb, String extension) {
        ByteBuffer in = ByteBuffer.wrap(glb).order(ByteOrder.LITTLE_ENDIAN);
        int jsonLength = in.getInt(12);
        ObjectNode root = (ObjectNode) JSON.readTree(Arrays.copyOfRange(glb, 20, 20 + jsonLength));
        int binLength = in.getInt(20 + jsonLength);
        byte[] bin = Arrays.copyOfRange(glb, 28 + jsonLength, 28 + jsonLength + binLength);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ArrayNode views = (ArrayNode) root.get("bufferViews");
        for (int i = 0; i < views.size(); i++) {
            ObjectNode view = (ObjectNode) views.get(i);
            int offset = view.path("byteOffset").asInt(0);
            int length = view.get("byteLength").asInt();
            byte[] data = Arrays.copyOfRange(bin, offset, offset + length);
            int stride = elementSize(root, i, view);
            if (stride == 0 || length % stride != 0) {
                throw new IllegalArgumentException("bufferView " + i + " cannot be compressed (stride " + stride + ")");
            }
            boolean indices = stride == 2 || view.path("target").asInt() == 34963;
            int count = length / stride;
            byte[] compressed = indices ? indexSequence(data, stride) : MeshoptFixtures.attributes(data, count, stride);
            ObjectNode ext = JSON.createObjectNode();
            ext.put("buffer", 0);
            ext.put("byteOffset", out.size());
            ext.put("byteLength", compressed.length);
            ext.put("byteStride", stride);
            ext.put("count", count);
            ext.put("mode", indices ? "INDICES" : "ATTRIBUTES");
            out.writeBytes(compressed);
            while (out.size() % 4 != 0) {
                out.write(0);
            }
            view.put("buffer", 1);
            view.putObject("extensions").set(extension, ext);
        }
        ArrayNode buffers = root.putArray("buffers");
        buffers.addObject().put("byteLength", out.size());
        ObjectNode fallback = buffers.addObject();
        fallback.put("byteLength", binLength);
        fallback.putObject("extensions").putObject(extension).put("fallback", true);
        root.putArray("extensionsUsed").add(extension);
        root.putArray("extensionsRequired").add(extension);
        return GltfBuilder.glb(JSON.writeValueAsString(root).getBytes(StandardCharsets.UTF_8), out.toByteArray());
    }

    /** The element size of view {@code i}: its byteStride, else that of an accessor on it. */
    private static int elementSize(JsonNode root, int i, JsonNode view) {
        if (view.has("byteStride")) {
            return view.get("byteStride").asInt();
        }
        for (JsonNode a : root.path("accessors")) {
            if (a.path("bufferView").asInt(-1) == i) {
                int component = switch (a.get("componentType").asInt()) {
                    case 5120, 5121 -> 1;
                    case 5122, 5123 -> 2;
                    default -> 4;
                };
                int components = switch (a.get("type").asString()) {
                    case "SCALAR" -> 1;
                    case "VEC2" -> 2;
                    case "VEC3" -> 3;
                    case "VEC4", "MAT2" -> 4;
                    case "MAT3" -> 12; // with column padding for byte/short components; float: 9
                    default -> 16;
                };
                if (a.get("type").asString().equals("MAT3") && component == 4) {
                    components = 9;
                }
                int size = component * components;
                return size % 4 == 0 || (component == 2 && components == 1) ? size : 0;
            }
        }
        return 0;
    }

    private static byte[] indexSequence(byte[] data, int stride) {
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        int[] indices = new int[data.length / stride];
        for (int k = 0; k < indices.length; k++) {
            indices[k] = stride == 2 ? b.getShort(2 * k) & 0xFFFF : b.getInt(4 * k);
        }
        return MeshoptFixtures.indexSequence(indices);
    }
}
