package io.posekit.asset.gltf;

import io.posekit.asset.ImportException;
import tools.jackson.databind.JsonNode;

/**
 * A validated glTF accessor description: where its elements lie and how to read them. Parsing checks the
 * JSON types, the component type and element type, and that every element (and every sparse index and
 * value) lies inside its buffer view; so reading with these numbers cannot run past the data.
 *
 * @param index the accessor's index
 * @param view the buffer view holding the elements, or {@code null} (all elements start as zero)
 * @param byteOffset offset of element 0 within {@code view}, bytes
 * @param componentType the component type
 * @param normalized whether integer components map to [0,1] or [-1,1]
 * @param count number of elements, ≥ 1
 * @param type the element type
 * @param stride bytes from one element to the next in {@code view}
 * @param sparse the sparse substitution, or {@code null}
 */
record Accessor(int index, BufferResolver.View view, int byteOffset, ComponentType componentType, boolean normalized,
        int count, AccessorType type, int stride, Sparse sparse) {

    /**
     * Sparse storage: {@code count} (index, value) pairs replacing elements of the accessor.
     *
     * @param count number of replaced elements
     * @param indices the view of the indices
     * @param indicesOffset byte offset of the first index within {@code indices}
     * @param indicesType unsigned byte, unsigned short or unsigned int
     * @param values the view of the replacement elements (tightly packed)
     * @param valuesOffset byte offset of the first value within {@code values}
     */
    record Sparse(int count, BufferResolver.View indices, int indicesOffset, ComponentType indicesType,
            BufferResolver.View values, int valuesOffset) {
    }

    /** Number of components of all elements ({@code count × components}). */
    long totalComponents() {
        return (long) count * type.components;
    }

    /** The user-facing name, {@code accessor N}. */
    String describe() {
        return "accessor " + index;
    }

    /**
     * Parses and validates accessor {@code index} of {@code doc}.
     *
     * @throws ImportException (invalid) naming the accessor and the offending field
     */
    static Accessor parse(GltfDocument doc, BufferResolver buffers, int index) {
        String where = "accessor " + index;
        JsonNode json = doc.element("accessors", index, "accessor");
        int code = Json.reqInt(json, "componentType", where);
        ComponentType componentType = ComponentType.of(code);
        if (componentType == null) {
            throw ImportException.invalid(where + ": componentType " + code + " is not a glTF component type "
                    + "(5120, 5121, 5122, 5123, 5125 or 5126)");
        }
        String typeName = Json.optString(json, "type", where);
        if (typeName == null) {
            throw ImportException.invalid(where + ": type is required");
        }
        AccessorType type = AccessorType.of(typeName);
        if (type == null) {
            throw ImportException.invalid(where + ": type '" + Json.shorten(typeName, 40)
                    + "' is not SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3 or MAT4");
        }
        boolean normalized = Json.optBoolean(json, "normalized", false, where);
        int count = Json.reqInt(json, "count", where);
        if (count < 1) {
            throw ImportException.invalid(where + ": count " + count + " must be at least 1");
        }
        int elementSize = type.elementSize(componentType.size);
        BufferResolver.View view = null;
        int byteOffset = 0;
        int stride = elementSize;
        if (Json.has(json, "bufferView")) {
            int bv = Json.reqInt(json, "bufferView", where);
            view = buffers.view(bv, "bufferView", where);
            byteOffset = Json.optInt(json, "byteOffset", 0, where);
            if (byteOffset < 0) {
                throw ImportException.invalid(where + ": byteOffset " + byteOffset + " is negative");
            }
            if (view.byteStride() != 0) {
                if (view.byteStride() < elementSize) {
                    throw ImportException.invalid(where + ": byteStride " + view.byteStride() + " of bufferView " + bv
                            + " is smaller than the " + elementSize + "-byte " + type + " " + componentType.label
                            + " element");
                }
                stride = view.byteStride();
            }
            checkFits(where, "", byteOffset, count, stride, elementSize, view);
        }
        Sparse sparse = null;
        JsonNode sparseJson = Json.optObject(json, "sparse", where);
        if (sparseJson != null) {
            sparse = parseSparse(sparseJson, where, count, elementSize, buffers);
        }
        return new Accessor(index, view, byteOffset, componentType, normalized, count, type, stride, sparse);
    }

    private static Sparse parseSparse(JsonNode json, String where, int accessorCount, int elementSize,
            BufferResolver buffers) {
        String sw = where + " sparse";
        int count = Json.reqInt(json, "count", sw);
        if (count < 1 || count > accessorCount) {
            throw ImportException.invalid(sw + ": count " + count + " must be between 1 and the accessor count "
                    + accessorCount);
        }
        JsonNode indices = Json.reqObject(json, "indices", sw);
        String iw = sw + " indices";
        BufferResolver.View indicesView = buffers.view(Json.reqInt(indices, "bufferView", iw), "bufferView", iw);
        int indicesOffset = Json.optInt(indices, "byteOffset", 0, iw);
        if (indicesOffset < 0) {
            throw ImportException.invalid(iw + ": byteOffset " + indicesOffset + " is negative");
        }
        int code = Json.reqInt(indices, "componentType", iw);
        ComponentType indicesType = ComponentType.of(code);
        if (indicesType != ComponentType.UNSIGNED_BYTE && indicesType != ComponentType.UNSIGNED_SHORT
                && indicesType != ComponentType.UNSIGNED_INT) {
            throw ImportException.invalid(iw + ": componentType " + code
                    + " must be 5121 (unsigned byte), 5123 (unsigned short) or 5125 (unsigned int)");
        }
        checkFits(where, "sparse indices ", indicesOffset, count, indicesType.size, indicesType.size, indicesView);
        JsonNode values = Json.reqObject(json, "values", sw);
        String vw = sw + " values";
        BufferResolver.View valuesView = buffers.view(Json.reqInt(values, "bufferView", vw), "bufferView", vw);
        int valuesOffset = Json.optInt(values, "byteOffset", 0, vw);
        if (valuesOffset < 0) {
            throw ImportException.invalid(vw + ": byteOffset " + valuesOffset + " is negative");
        }
        checkFits(where, "sparse values ", valuesOffset, count, elementSize, elementSize, valuesView);
        return new Sparse(count, indicesView, indicesOffset, indicesType, valuesView, valuesOffset);
    }

    /**
     * Checks {@code byteOffset + stride × (count − 1) + elementSize ≤ view length}, failing with e.g.
     * {@code accessor 7: count 4000 × stride 12 exceeds bufferView 3 length 1024}.
     */
    private static void checkFits(String where, String part, int byteOffset, int count, int stride, int elementSize,
            BufferResolver.View view) {
        long end = byteOffset + (long) stride * (count - 1) + elementSize;
        if (end > view.byteLength()) {
            throw ImportException.invalid(where + ": " + part + (byteOffset == 0 ? "" : "byteOffset " + byteOffset + " + ")
                    + "count " + count + " × stride " + stride + " exceeds bufferView " + view.index() + " length "
                    + view.byteLength());
        }
    }
}
