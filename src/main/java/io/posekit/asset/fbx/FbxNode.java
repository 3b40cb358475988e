package io.posekit.asset.fbx;

import io.posekit.asset.ImportException;
import java.util.ArrayList;
import java.util.List;

/**
 * One record of an FBX document's node tree, the same for binary and ASCII files: a name, typed properties and
 * children. Property values are, by FBX type code: {@code C} {@link Boolean}; {@code Y} {@link Short}; {@code I}
 * {@link Integer}; {@code L} {@link Long}; {@code F} {@link Float}; {@code D} {@link Double}; {@code S}
 * {@link String} (binary names keep FBX's {@code "Name\0\1Class"} separator as read); {@code R} {@code byte[]};
 * arrays {@code b} {@code boolean[]}, {@code c} {@code byte[]}, {@code i} {@code int[]}, {@code l} {@code long[]},
 * {@code f} {@code float[]},
 * {@code d} {@code double[]}. ASCII files give {@link Long} or {@link Double} for numbers and, for {@code a:}
 * arrays, {@code long[]} or {@code double[]} — the accessors below convert, so interpretation code never cares
 * which container a value came from.
 *
 * <p>Accessors fail with {@link ImportException} (invalid) naming the node and property, never with a class-cast
 * or index exception.
 *
 * @param name the record's name, e.g. {@code Model}
 * @param properties its property values
 * @param children its child records
 */
record FbxNode(String name, List<Object> properties, List<FbxNode> children) {

    FbxNode {
        properties = List.copyOf(properties);
        children = List.copyOf(children);
    }

    /** The first child called {@code childName}, or {@code null}. */
    FbxNode child(String childName) {
        for (FbxNode c : children) {
            if (c.name.equals(childName)) {
                return c;
            }
        }
        return null;
    }

    /** Every child called {@code childName}, in order. */
    List<FbxNode> children(String childName) {
        List<FbxNode> out = new ArrayList<>();
        for (FbxNode c : children) {
            if (c.name.equals(childName)) {
                out.add(c);
            }
        }
        return out;
    }

    /** Property {@code i}. */
    Object property(int i) {
        if (i < 0 || i >= properties.size()) {
            throw ImportException.invalid("FBX record " + name + " has " + properties.size() + " properties; property "
                    + i + " was expected");
        }
        return properties.get(i);
    }

    /** Property {@code i} as a string. */
    String string(int i) {
        Object p = property(i);
        if (p instanceof String s) {
            return s;
        }
        throw wrongType(i, "a string", p);
    }

    /** Property {@code i} as a long (any integer type; a boolean is 0 or 1). */
    long integer(int i) {
        Object p = property(i);
        return switch (p) {
            case Long l -> l;
            case Integer v -> v;
            case Short v -> v;
            case Boolean b -> b ? 1 : 0;
            case Double d when d == Math.rint(d) && Math.abs(d) < 0x1p53 -> (long) (double) d;
            default -> throw wrongType(i, "an integer", p);
        };
    }

    /** Property {@code i} as a double (any numeric type). */
    double number(int i) {
        Object p = property(i);
        return switch (p) {
            case Double d -> d;
            case Float f -> f;
            case Long l -> l;
            case Integer v -> v;
            case Short v -> v;
            default -> throw wrongType(i, "a number", p);
        };
    }

    /** Property {@code i} as a double array (from any numeric array type). */
    double[] doubles(int i) {
        Object p = property(i);
        return switch (p) {
            case double[] d -> d;
            case float[] f -> {
                double[] out = new double[f.length];
                for (int k = 0; k < f.length; k++) {
                    out[k] = f[k];
                }
                yield out;
            }
            case long[] l -> {
                double[] out = new double[l.length];
                for (int k = 0; k < l.length; k++) {
                    out[k] = l[k];
                }
                yield out;
            }
            case int[] v -> {
                double[] out = new double[v.length];
                for (int k = 0; k < v.length; k++) {
                    out[k] = v[k];
                }
                yield out;
            }
            default -> throw wrongType(i, "a number array", p);
        };
    }

    /** Property {@code i} as an int array (from int, long or integral double arrays; values must fit an int). */
    int[] ints(int i) {
        Object p = property(i);
        return switch (p) {
            case int[] v -> v;
            case long[] l -> {
                int[] out = new int[l.length];
                for (int k = 0; k < l.length; k++) {
                    if (l[k] != (int) l[k]) {
                        throw ImportException.invalid("FBX record " + name + " property " + i + ": element " + k
                                + " = " + l[k] + " does not fit an int");
                    }
                    out[k] = (int) l[k];
                }
                yield out;
            }
            case double[] d -> {
                int[] out = new int[d.length];
                for (int k = 0; k < d.length; k++) {
                    if (d[k] != Math.rint(d[k]) || Math.abs(d[k]) > Integer.MAX_VALUE) {
                        throw ImportException.invalid("FBX record " + name + " property " + i + ": element " + k
                                + " = " + d[k] + " is not an int");
                    }
                    out[k] = (int) d[k];
                }
                yield out;
            }
            default -> throw wrongType(i, "an integer array", p);
        };
    }

    /** Property {@code i} as a long array (from long or int arrays). */
    long[] longs(int i) {
        Object p = property(i);
        return switch (p) {
            case long[] l -> l;
            case int[] v -> {
                long[] out = new long[v.length];
                for (int k = 0; k < v.length; k++) {
                    out[k] = v[k];
                }
                yield out;
            }
            case double[] d -> {
                long[] out = new long[d.length];
                for (int k = 0; k < d.length; k++) {
                    if (d[k] != Math.rint(d[k]) || Math.abs(d[k]) >= 0x1p63) {
                        throw ImportException.invalid("FBX record " + name + " property " + i + ": element " + k
                                + " = " + d[k] + " is not an integer");
                    }
                    out[k] = (long) d[k];
                }
                yield out;
            }
            default -> throw wrongType(i, "an integer array", p);
        };
    }

    private ImportException wrongType(int i, String expected, Object actual) {
        String type = actual == null ? "nothing" : actual.getClass().getSimpleName();
        return ImportException.invalid("FBX record " + name + " property " + i + " is " + type + ", not " + expected);
    }
}
