package io.posekit.asset.collada;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes {@code <source>} elements on first use and caches them (one decode per import, shared by every
 * user). Arrays: {@code float_array} (finite numbers only), {@code int_array}, {@code bool_array} (as 0/1),
 * {@code Name_array}, {@code IDREF_array} (and 1.5's {@code SIDREF_array}/{@code token_array}). An array's
 * {@code count} is charged to the {@link DecodeBudget} before its values are allocated; fewer values than
 * {@code count} is an error naming the array, more is a warning. The accessor ({@code technique_common}) must
 * fit its array: {@code offset + count × stride} values. Without an accessor a source reads as one value per
 * element.
 */
final class Sources {

    private final ColladaDocument doc;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final Map<XmlElement, Source> sources = new IdentityHashMap<>();
    private final Map<XmlElement, Object> arrays = new IdentityHashMap<>();

    Sources(ColladaDocument doc, DecodeBudget budget, ImportWarnings warnings) {
        this.doc = doc;
        this.budget = budget;
        this.warnings = warnings;
    }

    /**
     * The source a {@code source} attribute ({@code #id}) names.
     *
     * @param where names the referring element in messages
     * @throws ImportException (invalid) when the URL names no {@code <source>} of this document
     */
    Source resolve(String url, String where) {
        XmlElement e = doc.resolve(url);
        if (e == null || !e.name().equals("source")) {
            throw ImportException.invalid(where + ": " + (url == null ? "no source given"
                    : "source " + Text.quote(url) + " is not a <source> in this file"));
        }
        return get(e);
    }

    /** The decoded {@code <source>} element. */
    Source get(XmlElement source) {
        Source s = sources.get(source);
        if (s == null) {
            s = decode(source);
            sources.put(source, s);
        }
        return s;
    }

    private Source decode(XmlElement source) {
        String label = source.label();
        String where = "source " + label;
        XmlElement common = source.child("technique_common");
        XmlElement accessor = common == null ? null : common.child("accessor");
        XmlElement array;
        if (accessor != null && accessor.attr("source") != null) {
            array = doc.resolve(accessor.attr("source"));
            if (array == null || !isArray(array.name())) {
                throw ImportException.invalid(where + ": accessor source " + Text.quote(accessor.attr("source"))
                        + " is not an array in this file");
            }
        } else {
            array = null;
            for (XmlElement c : source.children()) {
                if (isArray(c.name())) {
                    array = c;
                    break;
                }
            }
            if (array == null) {
                throw ImportException.invalid(where + " has no array");
            }
        }
        Object values = array(array);
        int length = values instanceof float[] f ? f.length : values instanceof int[] i ? i.length : ((String[]) values).length;
        Source.Kind kind = values instanceof float[] ? Source.Kind.FLOAT
                : values instanceof int[] ? Source.Kind.INT : Source.Kind.NAME;
        int count;
        int stride;
        int offset;
        int[] components;
        if (accessor == null) {
            count = length;
            stride = 1;
            offset = 0;
            components = new int[] {0};
        } else {
            String aw = where + " accessor";
            count = Attributes.nonNegativeInt(accessor, "count", -1, aw);
            if (count < 0) {
                throw ImportException.invalid(aw + " has no count");
            }
            stride = Attributes.nonNegativeInt(accessor, "stride", 1, aw);
            offset = Attributes.nonNegativeInt(accessor, "offset", 0, aw);
            if (stride == 0) {
                throw ImportException.invalid(aw + ": stride must be at least 1");
            }
            components = components(accessor.children("param"), stride, aw);
            long needed = offset + (long) count * stride;
            if (needed > length) {
                throw ImportException.invalid(where + ": accessor count " + count + " × stride " + stride + " + offset "
                        + offset + " = " + needed + " values exceed " + array.name() + " " + array.label() + " with "
                        + length);
            }
        }
        return new Source(label, array.name(), kind, count, stride, offset, components, values instanceof float[] f ? f : null,
                values instanceof String[] s ? s : null, values instanceof int[] i ? i : null);
    }

    /** Positions within the stride of the named params' values (all params when none is named). */
    private static int[] components(List<XmlElement> params, int stride, String where) {
        boolean anyNamed = false;
        int span = 0;
        for (XmlElement p : params) {
            anyNamed |= p.attr("name") != null && !p.attr("name").isEmpty();
            span += size(p.attr("type"));
        }
        if (params.isEmpty()) {
            int[] all = new int[stride];
            for (int i = 0; i < stride; i++) {
                all[i] = i;
            }
            return all;
        }
        if (span > stride) {
            throw ImportException.invalid(where + ": its params take " + span + " values but the stride is " + stride);
        }
        int n = 0;
        for (XmlElement p : params) {
            if (!anyNamed || (p.attr("name") != null && !p.attr("name").isEmpty())) {
                n += size(p.attr("type"));
            }
        }
        int[] out = new int[n];
        int k = 0;
        int position = 0;
        for (XmlElement p : params) {
            int size = size(p.attr("type"));
            if (!anyNamed || (p.attr("name") != null && !p.attr("name").isEmpty())) {
                for (int j = 0; j < size; j++) {
                    out[k++] = position + j;
                }
            }
            position += size;
        }
        return out;
    }

    /** Values one param covers: 16 for {@code float4x4}, 9 for {@code float3x3}, n for {@code floatn}, else 1. */
    private static int size(String type) {
        if (type == null) {
            return 1;
        }
        return switch (type) {
            case "float4x4", "double4x4" -> 16;
            case "float3x3", "double3x3" -> 9;
            case "float2x2", "double2x2" -> 4;
            case "float2", "int2", "double2", "bool2" -> 2;
            case "float3", "int3", "double3", "bool3" -> 3;
            case "float4", "int4", "double4", "bool4" -> 4;
            default -> 1;
        };
    }

    static boolean isArray(String name) {
        return switch (name) {
            case "float_array", "int_array", "bool_array", "Name_array", "IDREF_array", "SIDREF_array", "token_array" -> true;
            default -> false;
        };
    }

    /** The decoded values of an array element: float[], int[] or String[]. */
    private Object array(XmlElement array) {
        Object values = arrays.get(array);
        if (values != null) {
            return values;
        }
        String what = array.name() + " " + array.label();
        String text = array.text();
        int tokens = Tokens.count(text);
        int count = Attributes.nonNegativeInt(array, "count", tokens, what);
        values = switch (array.name()) {
            case "float_array" -> Tokens.floats(text, count, what, budget);
            case "int_array" -> Tokens.ints(text, count, what, budget);
            case "bool_array" -> bools(text, count, what);
            default -> Tokens.names(text, count, what, budget);
        };
        if (tokens > count) {
            warnings.add(what + " has " + tokens + " values but count " + count + "; the extra ones are ignored");
        }
        arrays.put(array, values);
        return values;
    }

    private int[] bools(String text, int count, String what) {
        String[] tokens = Tokens.names(text, count, what, budget);
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            switch (tokens[i]) {
                case "true", "1" -> out[i] = 1;
                case "false", "0" -> out[i] = 0;
                default -> throw ImportException.invalid(what + " value " + i + " (" + Text.shorten(tokens[i])
                        + ") is not a boolean");
            }
        }
        return out;
    }
}
