package io.posekit.asset.gltf;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A mesh primitive compressed with {@code KHR_draco_mesh_compression}: its Draco stream decoded
 * ({@link DracoDecoder}) and checked against the glTF's own declarations of the accessors it fills, which then read
 * the decoded data ({@link AccessorReader#supply}); the rest of the import reads them like any accessor.
 *
 * <p>What is checked, each mismatch an {@link ImportException} (invalid, 422) naming the primitive, the attribute
 * and the accessor: the primitive is a triangle list with an {@code indices} accessor; every attribute the extension
 * names is one of the primitive's, with a unique id the stream has; the stream's triangles are the indices
 * accessor's {@code count / 3}, and its points every attribute accessor's {@code count} (checked against the
 * header's counts before decoding, then against the decoded mesh); each attribute's components are the accessor
 * type's and its data type the accessor's {@code componentType}; every index fits the indices accessor's component
 * type; and every decoded value lies within the accessor's {@code min}/{@code max} when given: integers exactly (Draco
 * stores them losslessly), floats within {@link #QUANTIZATION_SLACK} of the accessor's largest extent plus
 * {@link #FLOAT_BOUND_SLACK} of the bound's magnitude. Why the slack: Draco dequantizes every component onto one grid
 * whose step is the attribute's largest extent over {@code 2^bits − 1}, and encoders (glTF Transform among them) keep
 * the bounds of the data before quantization, so a decoded value lies up to half a step outside them (measured: 6 of
 * the 12 gltf-transform {@code draco} variants of the conformance models, by up to 6.1e-5 of the extent). Attributes
 * the extension does not name (glTF Transform leaves a sparse {@code POSITION} out and compresses only the
 * triangles), and morph targets, which Draco does not carry in * glTF) are read from their own accessors.
 */
final class DracoPrimitive {

    /** The extension's name. */
    static final String EXTENSION = "KHR_draco_mesh_compression";

    /**
     * How far (relative to the larger of the bound's magnitude and 1) a decoded float may lie outside its accessor's
     * {@code min}/{@code max} besides {@link #QUANTIZATION_SLACK}: a few float32 roundings of Draco's dequantization
     * {@code min + q · range / (2^bits − 1)}.
     */
    static final double FLOAT_BOUND_SLACK = 1e-6;

    /**
     * How far (relative to the accessor's largest extent {@code max − min} over its components) a decoded float may
     * lie outside its {@code min}/{@code max}: half a quantization step at 6 bits, {@code 1 / (2 · 63)}, the coarsest
     * quantization this accepts as agreeing with the bounds (encoders default to 8 to 14 bits).
     */
    static final double QUANTIZATION_SLACK = 1.0 / 126;

    private DracoPrimitive() {
    }

    /** The primitive's {@code KHR_draco_mesh_compression} object, or {@code null} when it has none. */
    static JsonNode extension(JsonNode primitive, String where) {
        JsonNode extensions = Json.optObject(primitive, "extensions", where);
        return extensions == null ? null : Json.optObject(extensions, EXTENSION, where + " extensions");
    }

    /**
     * Decodes the primitive's Draco data into the accessors its attributes and indices name.
     *
     * @param primitive the primitive's JSON, with {@code ext} its Draco extension object
     * @throws ImportException (invalid) for a malformed extension, corrupt Draco data or a mismatch with the accessor
     *     declarations; (too large) past the decode budget
     */
    static void decode(GltfDocument doc, JsonNode primitive, JsonNode ext, AccessorReader accessors,
            DecodeBudget budget, String where) {
        String ew = where + " " + EXTENSION;
        int mode = Json.optInt(primitive, "mode", 4, where);
        if (mode != 4) {
            throw ImportException.invalid(ew + ": the primitive's mode is " + mode
                    + "; Draco primitives are read as triangle lists (mode 4) only");
        }
        if (!Json.has(primitive, "indices")) {
            throw ImportException.invalid(ew + ": the primitive has no indices accessor for the Draco triangles");
        }
        Accessor indices = accessors.require(Json.reqInt(primitive, "indices", where), AccessorUsage.INDICES,
                "indices", where);
        if (indices.sparse() != null) {
            throw ImportException.invalid(ew + ": indices " + indices.describe() + " is sparse; a Draco primitive's "
                    + "indices cannot be");
        }
        JsonNode own = Json.reqObject(primitive, "attributes", where);
        JsonNode named = Json.reqObject(ext, "attributes", ew);
        Map<String, Integer> ids = new LinkedHashMap<>();
        Map<String, Accessor> declared = new LinkedHashMap<>();
        for (String name : named.propertyNames()) {
            String aw = ew + " attribute " + Json.shorten(name, 40);
            int id = Json.toInt(named.get(name), aw);
            if (id < 0 || id > 0xFFFF) {
                throw ImportException.invalid(aw + ": unique id " + id + " is not a Draco attribute id (0 to 65535)");
            }
            if (!own.has(name)) {
                throw ImportException.invalid(aw + " is not one of the primitive's attributes");
            }
            if (ids.containsValue(id)) {
                throw ImportException.invalid(aw + ": unique id " + id + " is given to two attributes");
            }
            ids.put(name, id);
            int index = Json.toInt(own.get(name), where + ": attribute " + name);
            AccessorUsage usage = AccessorUsage.forAttribute(name);
            declared.put(name, usage == null ? accessors.accessor(index, name + " accessor", where)
                    : accessors.require(index, usage, name, where));
        }
        int view = Json.reqInt(ext, "bufferView", ew);
        ByteBuffer data = accessors.view(view, "bufferView", ew).data();
        byte[] bytes;
        int offset;
        if (data.hasArray()) {
            bytes = data.array();
            offset = data.arrayOffset();
        } else {
            bytes = new byte[data.capacity()];
            data.get(0, bytes);
            offset = 0;
        }
        int length = data.capacity();
        DracoStreamHeader header = DracoStreamHeader.read(bytes, offset, length, ew);
        if (header.faces() * 3 != indices.count()) {
            throw ImportException.invalid(ew + ": the Draco data has " + header.faces() + " triangles but indices "
                    + indices.describe() + " declares " + indices.count() + " indices");
        }
        if (!declared.isEmpty()) {
            // the points every attribute must have; a stream without attributes holds only the triangles
            Map.Entry<String, Accessor> first = declared.entrySet().iterator().next();
            int vertexCount = first.getValue().count();
            if (header.method() == DracoStreamHeader.SEQUENTIAL ? header.vertices() != vertexCount
                    : vertexCount > 3 * header.faces()) {
                throw ImportException.invalid(ew + ": the Draco data has " + (header.method()
                        == DracoStreamHeader.SEQUENTIAL ? header.vertices() + " vertices" : header.faces()
                        + " triangles (at most " + 3 * header.faces() + " vertices)") + " but " + first.getKey() + " "
                        + first.getValue().describe() + " declares " + vertexCount);
            }
        }
        DracoDecoder.Mesh mesh = DracoDecoder.decode(bytes, offset, length, header,
                new LinkedHashSet<>(ids.values()), budget, ew);
        for (Map.Entry<String, Accessor> e : declared.entrySet()) {
            String name = e.getKey();
            Accessor a = e.getValue();
            DracoDecoder.Attribute values = mesh.attributes().get(ids.get(name));
            String aw = ew + " attribute " + Json.shorten(name, 40) + " (" + a.describe() + ")";
            check(doc, a, values, mesh.points(), aw);
            accessors.supply(a, ByteBuffer.wrap(values.values()).order(ByteOrder.LITTLE_ENDIAN), aw);
        }
        budget.charge(indices.count(), indices.componentType().size, ew + " indices");
        accessors.supply(indices, indexData(indices, mesh.indices(), ew), ew);
    }

    /** Checks one decoded attribute against its accessor's declaration. */
    private static void check(GltfDocument doc, Accessor a, DracoDecoder.Attribute values, int points, String aw) {
        if (a.sparse() != null) {
            throw ImportException.invalid(aw + " is sparse; a Draco attribute's accessor cannot be");
        }
        if (points != a.count()) {
            throw ImportException.invalid(aw + ": the Draco data has " + points + " vertices but the accessor declares "
                    + a.count());
        }
        if (values.components() != a.type().components) {
            throw ImportException.invalid(aw + ": the Draco attribute has " + values.components()
                    + " components but the accessor is " + a.type());
        }
        if (values.componentType() != a.componentType()) {
            throw ImportException.invalid(aw + ": the Draco attribute holds " + values.dracoType()
                    + " but the accessor's componentType is " + a.componentType().label);
        }
        if (a.type().elementSize(a.componentType().size) != a.type().components * a.componentType().size) {
            throw ImportException.invalid(aw + ": a " + a.type() + " of " + a.componentType().label
                    + " has column padding, which Draco data does not");
        }
        JsonNode json = doc.element("accessors", a.index(), "accessor");
        float[] min = Json.optFloats(json, "min", a.type().components, a.describe());
        float[] max = Json.optFloats(json, "max", a.type().components, a.describe());
        if (min == null && max == null) {
            return;
        }
        ByteBuffer b = ByteBuffer.wrap(values.values()).order(ByteOrder.LITTLE_ENDIAN);
        int n = a.type().components;
        double extent = 0;
        for (int c = 0; min != null && max != null && c < n; c++) {
            extent = Math.max(extent, (double) max[c] - min[c]);
        }
        boolean floats = a.componentType() == ComponentType.FLOAT;
        for (int v = 0; v < points; v++) {
            for (int c = 0; c < n; c++) {
                double x = component(b, (v * n + c) * a.componentType().size, a.componentType());
                if (min != null && x < min[c] - (floats ? slack(extent, min[c]) : 0)) {
                    throw outside(aw, v, c, x, "below its min", min[c]);
                }
                if (max != null && x > max[c] + (floats ? slack(extent, max[c]) : 0)) {
                    throw outside(aw, v, c, x, "above its max", max[c]);
                }
            }
        }
    }

    private static double slack(double extent, float bound) {
        return QUANTIZATION_SLACK * extent + FLOAT_BOUND_SLACK * Math.max(1, Math.abs(bound));
    }

    private static ImportException outside(String aw, int vertex, int component, double value, String what,
            float bound) {
        return ImportException.invalid(aw + ": the Draco data's vertex " + vertex + " component " + component + " is "
                + (float) value + ", " + what + " " + bound);
    }

    /** Component at byte {@code at}, as stored (integers not normalized: glTF's min/max are in stored units). */
    private static double component(ByteBuffer b, int at, ComponentType t) {
        return switch (t) {
            case BYTE -> b.get(at);
            case UNSIGNED_BYTE -> b.get(at) & 0xFF;
            case SHORT -> b.getShort(at);
            case UNSIGNED_SHORT -> b.getShort(at) & 0xFFFF;
            case UNSIGNED_INT -> Integer.toUnsignedLong(b.getInt(at));
            case FLOAT -> b.getFloat(at);
        };
    }

    /** The decoded triangles in the indices accessor's component type, each index checked to fit it. */
    private static ByteBuffer indexData(Accessor indices, int[] values, String ew) {
        ComponentType t = indices.componentType();
        long limit = t == ComponentType.UNSIGNED_BYTE ? 0xFF : t == ComponentType.UNSIGNED_SHORT ? 0xFFFF : 0xFFFFFFFFL;
        ByteBuffer out = ByteBuffer.allocate(values.length * t.size).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < values.length; i++) {
            int v = values[i];
            if (v > limit) {
                throw ImportException.invalid(ew + ": Draco index " + i + " = " + v + " does not fit indices "
                        + indices.describe() + "'s " + t.label + " components");
            }
            switch (t) {
                case UNSIGNED_BYTE -> out.put(i, (byte) v);
                case UNSIGNED_SHORT -> out.putShort(2 * i, (short) v);
                default -> out.putInt(4 * i, v);
            }
        }
        return out;
    }
}
