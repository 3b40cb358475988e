package io.posekit.export;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Minimal JSON text for the glTF documents {@link GltfWriter} writes: strings, numbers, arrays and objects. */
final class GltfJson {

    private GltfJson() {
    }

    static String string(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7F || Character.isSurrogate(c) && !validSurrogate(s, i)) {
                        b.append(String.format("\\u%04x", (int) (Character.isSurrogate(c) ? 0xFFFD : c)));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    private static boolean validSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    /** A float in its shortest decimal form (factors). */
    static String number(float f) {
        return f == 0 ? "0" : Float.toString(f).replace("E", "e");
    }

    static String floats(float[] v) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < v.length; i++) {
            b.append(i == 0 ? "" : ",").append(number(v[i]));
        }
        return b.append(']').toString();
    }

    /** Floats as the exact decimal of their float32 value, so a reader in double precision gets the same value. */
    static String exactFloats(float[] v) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < v.length; i++) {
            double d = v[i];
            b.append(i == 0 ? "" : ",").append(d == 0 ? "0" : Double.toString(d).replace("E", "e"));
        }
        return b.append(']').toString();
    }

    static String object(Map<String, ?> map) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, ?> e : new LinkedHashMap<>(map).entrySet()) {
            b.append(b.length() == 1 ? "" : ",").append(string(Objects.requireNonNull(e.getKey()))).append(':');
            b.append(value(e.getValue()));
        }
        return b.append('}').toString();
    }

    private static String value(Object v) {
        if (v == null) {
            return "null";
        } else if (v instanceof Boolean bool) {
            return bool.toString();
        } else if (v instanceof Integer || v instanceof Long) {
            return v.toString();
        } else if (v instanceof Number num) {
            double d = num.doubleValue();
            return !Double.isFinite(d) ? "null" : d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d)
                    : Double.toString(d).replace("E", "e");
        } else if (v instanceof Map<?, ?> m) {
            Map<String, Object> copy = new LinkedHashMap<>();
            m.forEach((k, x) -> copy.put(String.valueOf(k), x));
            return object(copy);
        } else if (v instanceof List<?> list) {
            StringBuilder b = new StringBuilder("[");
            for (Object x : list) {
                b.append(b.length() == 1 ? "" : ",").append(value(x));
            }
            return b.append(']').toString();
        }
        return string(v.toString());
    }
}
