package io.posekit.asset.gltf;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.gltf.meshopt.MeshoptDecoder;
import io.posekit.asset.gltf.meshopt.MeshoptFilter;
import io.posekit.asset.gltf.meshopt.MeshoptMode;
import java.nio.ByteBuffer;
import tools.jackson.databind.JsonNode;

/**
 * The meshopt extensions' JSON ({@code KHR_meshopt_compression}, and {@code EXT_meshopt_compression}, its vendor
 * predecessor with the same fields): which buffers are fallback placeholders without data, and the decoded bytes of a
 * compressed buffer view. The bitstream itself is {@link MeshoptDecoder}'s.
 */
final class MeshoptViews {

    /** The extension names, the Khronos one first (used when a view carries both). */
    static final String KHR = "KHR_meshopt_compression";
    static final String EXT = "EXT_meshopt_compression";

    private MeshoptViews() {
    }

    /** The meshopt extension object of a buffer or buffer view, or {@code null}. */
    static JsonNode extension(JsonNode element, String where) {
        JsonNode extensions = Json.optObject(element, "extensions", where);
        if (extensions == null) {
            return null;
        }
        JsonNode khr = Json.optObject(extensions, KHR, where + " extensions");
        return khr != null ? khr : Json.optObject(extensions, EXT, where + " extensions");
    }

    /** The extension's name on {@code element} (which has one), for messages. */
    static String extensionName(JsonNode element) {
        JsonNode extensions = element.get("extensions");
        return extensions != null && extensions.has(KHR) ? KHR : EXT;
    }

    /**
     * Whether buffer {@code buffer}, which has no {@code uri}, may stand without data: it is tagged
     * {@code fallback: true}, or the file uses a meshopt extension (whose fallback buffers may omit the tag).
     */
    static boolean isPlaceholder(GltfDocument doc, JsonNode buffer, String where) {
        JsonNode ext = extension(buffer, where);
        if (ext != null && Json.optBoolean(ext, "fallback", false, where)) {
            return true;
        }
        JsonNode used = Json.optArray(doc.root(), "extensionsUsed", "glTF");
        if (used != null) {
            for (JsonNode name : used) {
                if (name.isString() && (KHR.equals(name.stringValue()) || EXT.equals(name.stringValue()))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Decodes the compressed data of buffer view {@code where} whose meshopt extension is {@code ext}.
     *
     * @param viewLength the view's own {@code byteLength}, which must equal {@code count × byteStride}
     * @param buffers every buffer's bytes ({@code null} for placeholders)
     * @return the decoded view: little-endian, position 0, capacity {@code viewLength}
     * @throws ImportException (invalid) for a missing or malformed field, a source outside its buffer or a malformed
     *     stream; (too large) past the decode budget
     */
    static ByteBuffer decode(JsonNode ext, String name, String where, int viewLength, ByteBuffer[] buffers,
            DecodeBudget budget) {
        String ew = where + " " + name;
        int buffer = Json.checkIndex(Json.reqInt(ext, "buffer", ew), buffers.length, "buffer", ew);
        ByteBuffer source = buffers[buffer];
        if (source == null) {
            throw ImportException.invalid(ew + ": buffer " + buffer + " is a fallback buffer without data");
        }
        int byteOffset = Json.optInt(ext, "byteOffset", 0, ew);
        int byteLength = Json.reqInt(ext, "byteLength", ew);
        if (byteOffset < 0 || byteLength < 0 || (long) byteOffset + byteLength > source.capacity()) {
            throw ImportException.invalid(ew + ": byteOffset " + byteOffset + " + byteLength " + byteLength
                    + " lies outside buffer " + buffer + " (" + source.capacity() + " bytes)");
        }
        int stride = Json.reqInt(ext, "byteStride", ew);
        int count = Json.reqInt(ext, "count", ew);
        String modeName = Json.optString(ext, "mode", ew);
        MeshoptMode mode = modeName == null ? null : MeshoptMode.of(modeName);
        if (mode == null) {
            throw ImportException.invalid(ew + ": mode " + (modeName == null ? "is required" : "'"
                    + Json.shorten(modeName, 40) + "' is not ATTRIBUTES, TRIANGLES or INDICES"));
        }
        String filterName = Json.optString(ext, "filter", ew);
        MeshoptFilter filter = filterName == null ? MeshoptFilter.NONE : MeshoptFilter.of(filterName);
        if (filter == null) {
            throw ImportException.invalid(ew + ": filter '" + Json.shorten(filterName, 40)
                    + "' is not NONE, OCTAHEDRAL, QUATERNION, EXPONENTIAL or COLOR");
        }
        if (count < 0 || stride < 1 || (long) count * stride != viewLength) {
            throw ImportException.invalid(ew + ": count " + count + " × byteStride " + stride
                    + " must equal the bufferView's byteLength " + viewLength);
        }
        byte[] src;
        int start;
        if (source.hasArray()) {
            src = source.array();
            start = source.arrayOffset() + byteOffset;
        } else {
            src = new byte[byteLength];
            source.get(byteOffset, src);
            start = 0;
        }
        byte[] decoded = MeshoptDecoder.decode(src, start, byteLength, count, stride, mode, filter, budget, ew);
        return ByteBuffer.wrap(decoded).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }
}
