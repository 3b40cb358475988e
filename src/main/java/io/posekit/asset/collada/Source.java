package io.posekit.asset.collada;

/**
 * A decoded {@code <source>}: its array and the access pattern of its {@code <accessor>}. Element {@code i}
 * starts at {@code offset + i·stride}; its components are the accessor's named {@code <param>}s (unnamed ones
 * are skipped positions; a {@code float4x4} param covers 16 values), at {@link #componentOffset}. Immutable.
 */
final class Source {

    /** The array type behind a source. */
    enum Kind {
        FLOAT, NAME, INT
    }

    private final String label;
    private final String arrayTag;
    private final Kind kind;
    private final int count;
    private final int stride;
    private final int offset;
    private final int[] components;
    private final float[] floats;
    private final String[] names;
    private final int[] ints;

    Source(String label, String arrayTag, Kind kind, int count, int stride, int offset, int[] components, float[] floats,
            String[] names, int[] ints) {
        this.label = label;
        this.arrayTag = arrayTag;
        this.kind = kind;
        this.count = count;
        this.stride = stride;
        this.offset = offset;
        this.components = components;
        this.floats = floats;
        this.names = names;
        this.ints = ints;
    }

    /** {@code source 'id'}, for messages. */
    String describe() {
        return "source " + label;
    }

    /** The quoted id, e.g. {@code 'Cube-normals'}. */
    String label() {
        return label;
    }

    /** The element name of the array behind the source, e.g. {@code IDREF_array}. */
    String arrayTag() {
        return arrayTag;
    }

    Kind kind() {
        return kind;
    }

    /** Number of elements (the accessor's count). */
    int count() {
        return count;
    }

    /** Components per element. */
    int components() {
        return components.length;
    }

    /** Position of component {@code c} within an element's stride. */
    int componentOffset(int c) {
        return components[c];
    }

    /** Component {@code c} of element {@code i} of a float source. */
    float f(int i, int c) {
        return floats[offset + i * stride + components[c]];
    }

    /** Component {@code c} of element {@code i} of a name source. */
    String name(int i, int c) {
        return names[offset + i * stride + components[c]];
    }

    /** Component {@code c} of element {@code i} of an int source. */
    int i(int i, int c) {
        return ints[offset + i * stride + components[c]];
    }
}
