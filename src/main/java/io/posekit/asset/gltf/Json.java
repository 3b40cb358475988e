package io.posekit.asset.gltf;

import io.posekit.asset.ImportException;
import tools.jackson.databind.JsonNode;

/**
 * Typed, checked access to the fields of a glTF JSON object. Every method takes {@code where}, the user-facing
 * name of the element being read (e.g. {@code accessor 3}), and fails with {@link ImportException#invalid}
 * naming that element and the field when the value has the wrong JSON type, is not an integer where one is
 * required, is out of {@code int} range, or is missing when required. A field holding JSON {@code null} is
 * treated as absent.
 *
 * <p>Stateless; all methods are static.
 */
final class Json {

    /** Longest JSON excerpt quoted in a message. */
    private static final int QUOTE_LIMIT = 40;

    private Json() {
    }

    /** The value of {@code key} in {@code obj}, or {@code null} when absent or JSON null. */
    static JsonNode field(JsonNode obj, String key) {
        JsonNode v = obj.get(key);
        return v == null || v.isNull() || v.isMissingNode() ? null : v;
    }

    /** Whether {@code obj} has a non-null {@code key}. */
    static boolean has(JsonNode obj, String key) {
        return field(obj, key) != null;
    }

    /** {@code obj[key]} as an integer, or {@code def} when absent. */
    static int optInt(JsonNode obj, String key, int def, String where) {
        JsonNode v = field(obj, key);
        return v == null ? def : toInt(v, where + ": " + key);
    }

    /** {@code obj[key]} as an integer; fails when absent. */
    static int reqInt(JsonNode obj, String key, String where) {
        JsonNode v = field(obj, key);
        if (v == null) {
            throw ImportException.invalid(where + ": " + key + " is required");
        }
        return toInt(v, where + ": " + key);
    }

    /**
     * {@code v} as an int: an integral JSON number (an integer, or a float with no fractional part) within
     * {@code int} range.
     *
     * @param what names the value in the message, e.g. {@code accessor 3: count}
     */
    static int toInt(JsonNode v, String what) {
        if (!v.isNumber()) {
            throw ImportException.invalid(what + " must be an integer, not " + quote(v));
        }
        if (v.isIntegralNumber()) {
            if (!v.canConvertToInt()) {
                throw ImportException.invalid(what + " " + quote(v) + " is out of range");
            }
            return v.intValue();
        }
        double d = v.doubleValue();
        if (d != Math.rint(d) || Double.isInfinite(d)) {
            throw ImportException.invalid(what + " " + quote(v) + " is not an integer");
        }
        if (d < Integer.MIN_VALUE || d > Integer.MAX_VALUE) {
            throw ImportException.invalid(what + " " + quote(v) + " is out of range");
        }
        return (int) d;
    }

    /** {@code obj[key]} as a string, or {@code null} when absent. */
    static String optString(JsonNode obj, String key, String where) {
        JsonNode v = field(obj, key);
        if (v == null) {
            return null;
        }
        if (!v.isString()) {
            throw ImportException.invalid(where + ": " + key + " must be a string, not " + quote(v));
        }
        return v.stringValue();
    }

    /** {@code obj[key]} as a boolean, or {@code def} when absent. */
    static boolean optBoolean(JsonNode obj, String key, boolean def, String where) {
        JsonNode v = field(obj, key);
        if (v == null) {
            return def;
        }
        if (!v.isBoolean()) {
            throw ImportException.invalid(where + ": " + key + " must be true or false, not " + quote(v));
        }
        return v.booleanValue();
    }

    /** {@code obj[key]} as a JSON array, or {@code null} when absent. */
    static JsonNode optArray(JsonNode obj, String key, String where) {
        JsonNode v = field(obj, key);
        if (v != null && !v.isArray()) {
            throw ImportException.invalid(where + ": " + key + " must be an array, not " + quote(v));
        }
        return v;
    }

    /** {@code obj[key]} as a JSON array; fails when absent. */
    static JsonNode reqArray(JsonNode obj, String key, String where) {
        JsonNode v = optArray(obj, key, where);
        if (v == null) {
            throw ImportException.invalid(where + ": " + key + " is required");
        }
        return v;
    }

    /** {@code obj[key]} as a JSON object, or {@code null} when absent. */
    static JsonNode optObject(JsonNode obj, String key, String where) {
        JsonNode v = field(obj, key);
        if (v != null && !v.isObject()) {
            throw ImportException.invalid(where + ": " + key + " must be an object, not " + quote(v));
        }
        return v;
    }

    /** {@code obj[key]} as a JSON object; fails when absent. */
    static JsonNode reqObject(JsonNode obj, String key, String where) {
        JsonNode v = optObject(obj, key, where);
        if (v == null) {
            throw ImportException.invalid(where + ": " + key + " is required");
        }
        return v;
    }

    /**
     * {@code obj[key]} as exactly {@code length} finite numbers (each finite also once rounded to float), or
     * {@code null} when absent.
     */
    static float[] optFloats(JsonNode obj, String key, int length, String where) {
        JsonNode v = optArray(obj, key, where);
        if (v == null) {
            return null;
        }
        if (v.size() != length) {
            throw ImportException.invalid(where + ": " + key + " must have " + length + " numbers, not " + v.size());
        }
        float[] out = new float[length];
        for (int i = 0; i < length; i++) {
            JsonNode e = v.get(i);
            if (e == null || !e.isNumber()) {
                throw ImportException.invalid(where + ": " + key + "[" + i + "] must be a number, not " + quote(e));
            }
            float f = (float) e.doubleValue();
            if (!Float.isFinite(f)) {
                throw ImportException.invalid(where + ": " + key + "[" + i + "] " + quote(e) + " is not a finite float");
            }
            out[i] = f;
        }
        return out;
    }

    /**
     * Checks that {@code index} refers to one of {@code size} elements.
     *
     * @param label what the index is, as it should read before the number (e.g. {@code bufferView})
     * @return {@code index}
     */
    static int checkIndex(int index, int size, String label, String where) {
        if (index < 0 || index >= size) {
            throw ImportException.invalid(where + ": " + label + " " + index + " does not exist (there are " + size + ")");
        }
        return index;
    }

    /** A short excerpt of {@code v} for a message: its JSON text, cut at {@value #QUOTE_LIMIT} characters. */
    static String quote(JsonNode v) {
        if (v == null || v.isMissingNode()) {
            return "nothing";
        }
        String s = v.toString();
        return s.length() <= QUOTE_LIMIT ? s : s.substring(0, QUOTE_LIMIT) + "…";
    }

    /** {@code s} cut to {@code max} characters for a message. */
    static String shorten(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "…";
    }
}
