package io.posekit.asset.gltf;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The bytes behind a glTF asset's {@code buffers} and {@code bufferViews}, resolved and validated once per
 * import. Buffers come from the GLB BIN chunk (buffer 0 of a GLB without {@code uri}), from base64
 * {@code data:} URIs (decoded after charging the {@link DecodeBudget}), or from other files of the upload
 * (see {@link UriReference}); each is cut to its declared {@code byteLength}. Every buffer view is checked
 * to lie inside its buffer and to have a legal {@code byteStride}. Images are checked against the same URI
 * policy but never decoded. Views share the underlying bytes; nothing is copied except decoded data URIs.
 */
final class BufferResolver {

    /**
     * One validated buffer view.
     *
     * @param index the bufferView's index
     * @param data its bytes: little-endian, position 0, capacity {@code byteLength}
     * @param byteStride the declared stride in bytes, or 0 when the view has none (tightly packed)
     */
    record View(int index, ByteBuffer data, int byteStride) {
        /** Length of the view in bytes. */
        int byteLength() {
            return data.capacity();
        }
    }

    private final View[] views;

    /**
     * Resolves every buffer and validates every buffer view and image.
     *
     * @param glbBin the GLB BIN chunk, or {@code null}
     * @param isGlb whether the main file is a GLB (only then may buffer 0 omit its {@code uri})
     * @throws ImportException (invalid) naming the buffer, view or image at fault; (too large) when a data URI
     *     exceeds the budget
     */
    BufferResolver(GltfDocument doc, SourceFile main, SourceFiles upload, ByteBuffer glbBin, boolean isGlb,
            DecodeBudget budget, ImportWarnings warnings) {
        int bufferCount = doc.count("buffers");
        ByteBuffer[] buffers = new ByteBuffer[bufferCount];
        int[] declaredLengths = new int[bufferCount];
        for (int i = 0; i < bufferCount; i++) {
            buffers[i] = resolveBuffer(doc, i, main, upload, glbBin, isGlb, budget);
            declaredLengths[i] = Json.reqInt(doc.element("buffers", i, "buffer"), "byteLength", "buffer " + i);
        }
        int viewCount = doc.count("bufferViews");
        views = new View[viewCount];
        for (int i = 0; i < viewCount; i++) {
            views[i] = resolveView(doc, i, buffers, declaredLengths, budget);
        }
        checkImages(doc, main, upload, warnings);
    }

    /** Number of buffer views. */
    int viewCount() {
        return views.length;
    }

    /**
     * Buffer view {@code index}.
     *
     * @param where the referring element for the message when the view does not exist
     */
    View view(int index, String label, String where) {
        Json.checkIndex(index, views.length, label, where);
        return views[index];
    }

    private static ByteBuffer resolveBuffer(GltfDocument doc, int i, SourceFile main, SourceFiles upload,
            ByteBuffer glbBin, boolean isGlb, DecodeBudget budget) {
        String where = "buffer " + i;
        JsonNode buffer = doc.element("buffers", i, "buffer");
        int byteLength = Json.reqInt(buffer, "byteLength", where);
        if (byteLength < 1) {
            throw ImportException.invalid(where + ": byteLength " + byteLength + " must be at least 1");
        }
        String uri = Json.optString(buffer, "uri", where);
        ByteBuffer data;
        String source;
        if (uri == null && (!isGlb || i != 0) && MeshoptViews.isPlaceholder(doc, buffer, where)) {
            return null;
        }
        if (uri == null) {
            if (!isGlb || i != 0) {
                throw ImportException.invalid(where + " has no uri; only buffer 0 of a GLB file may refer to the "
                        + "GLB BIN chunk");
            }
            if (glbBin == null) {
                throw ImportException.invalid(where + " refers to the GLB BIN chunk, but the file has none");
            }
            data = glbBin;
            source = "the GLB BIN chunk";
        } else if (UriReference.isDataUri(uri)) {
            data = decodeDataUri(uri, where, budget);
            source = "its data: URI";
        } else {
            Optional<SourceFile> file = UriReference.resolve(uri, where, main, upload);
            if (file.isEmpty()) {
                throw ImportException.invalid(UriReference.notUploaded(uri, where, upload));
            }
            data = file.get().buffer(); // mapped when on disk: read only where accessors point
            source = "'" + file.get().name() + "'";
        }
        if (byteLength > data.capacity()) {
            throw ImportException.invalid(where + ": byteLength " + byteLength + " exceeds the " + data.capacity()
                    + " bytes of " + source);
        }
        return data.slice(0, byteLength).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Decodes {@code data:[<mime>][;params];base64,<payload>}; other data URIs are rejected. */
    private static ByteBuffer decodeDataUri(String uri, String where, DecodeBudget budget) {
        int comma = uri.indexOf(',');
        if (comma < 0) {
            throw ImportException.invalid(where + ": data URI has no ',' before its payload");
        }
        String header = uri.substring(5, comma);
        if (!header.regionMatches(true, header.length() - 7, ";base64", 0, 7)) {
            throw ImportException.invalid(where + ": data URI '" + Json.shorten(uri, 60)
                    + "' is not base64-encoded (';base64' is required)");
        }
        int payloadLength = uri.length() - comma - 1;
        budget.charge(payloadLength / 4 * 3L + 3, 1, where + " data URI");
        try {
            return ByteBuffer.wrap(Base64.getDecoder().decode(uri.substring(comma + 1)));
        } catch (IllegalArgumentException e) {
            throw ImportException.invalid(where + ": data URI has invalid base64: " + e.getMessage());
        }
    }

    /**
     * Buffer view {@code i}: a slice of its buffer, or, when it carries a meshopt extension, its decoded data (the
     * view's own buffer is then only the fallback, which may be a placeholder without data).
     */
    private static View resolveView(GltfDocument doc, int i, ByteBuffer[] buffers, int[] declaredLengths,
            DecodeBudget budget) {
        String where = "bufferView " + i;
        JsonNode view = doc.element("bufferViews", i, "bufferView");
        int buffer = Json.checkIndex(Json.reqInt(view, "buffer", where), buffers.length, "buffer", where);
        int byteOffset = Json.optInt(view, "byteOffset", 0, where);
        if (byteOffset < 0) {
            throw ImportException.invalid(where + ": byteOffset " + byteOffset + " is negative");
        }
        int byteLength = Json.reqInt(view, "byteLength", where);
        if (byteLength < 1) {
            throw ImportException.invalid(where + ": byteLength " + byteLength + " must be at least 1");
        }
        int capacity = buffers[buffer] == null ? declaredLengths[buffer] : buffers[buffer].capacity();
        if ((long) byteOffset + byteLength > capacity) {
            throw ImportException.invalid(where + ": byteOffset " + byteOffset + " + byteLength " + byteLength
                    + " exceeds buffer " + buffer + " byteLength " + capacity);
        }
        JsonNode meshopt = MeshoptViews.extension(view, where);
        if (meshopt == null && buffers[buffer] == null) {
            throw ImportException.invalid(where + " refers to buffer " + buffer + ", a meshopt fallback buffer without "
                    + "data, but is not compressed");
        }
        int byteStride = 0;
        if (Json.has(view, "byteStride")) {
            byteStride = Json.reqInt(view, "byteStride", where);
            if (byteStride < 4 || byteStride > 252 || byteStride % 4 != 0) {
                throw ImportException.invalid(where + ": byteStride " + byteStride
                        + " must be a multiple of 4 between 4 and 252");
            }
        }
        ByteBuffer data = meshopt != null
                ? MeshoptViews.decode(meshopt, MeshoptViews.extensionName(view), where, byteLength, buffers, budget)
                : buffers[buffer].slice(byteOffset, byteLength).order(ByteOrder.LITTLE_ENDIAN);
        return new View(i, data, byteStride);
    }

    private void checkImages(GltfDocument doc, SourceFile main, SourceFiles upload, ImportWarnings warnings) {
        int count = doc.count("images");
        for (int i = 0; i < count; i++) {
            String where = "image " + i;
            JsonNode image = doc.element("images", i, "image");
            String uri = Json.optString(image, "uri", where);
            if (Json.has(image, "bufferView")) {
                Json.checkIndex(Json.reqInt(image, "bufferView", where), views.length, "bufferView", where);
            }
            if (uri == null || UriReference.isDataUri(uri)) {
                continue;
            }
            if (UriReference.resolve(uri, where, main, upload).isEmpty()) {
                warnings.add(UriReference.notUploaded(uri, where, upload) + "; images are not decoded, so it is ignored");
            }
        }
    }
}
