package io.posekit.asset.iqm;

import io.posekit.asset.ImportException;

/**
 * One IQM vertex array ({@code type, flags, format, size, offset}): {@code size} components of {@code format}
 * per vertex, {@code num_vertexes × size} tightly packed values at {@code offset}. {@link #read} checks the
 * format and that the data lies within the file; {@link #value} and {@link #normalized} then read any component.
 *
 * <p>Formats: 0 BYTE, 1 UBYTE, 2 SHORT, 3 USHORT, 4 INT, 5 UINT, 6 HALF, 7 FLOAT, 8 DOUBLE.
 *
 * @param index the array's position in the vertex array table
 * @param type the type (0 POSITION … 6 COLOR, ≥ 0x10 custom)
 * @param format the component format
 * @param size components per vertex
 * @param offset file offset of the data
 * @param name the type's name for messages, e.g. {@code NORMAL} or {@code custom 'foo'}
 */
record VertexArray(int index, long type, int format, int size, long offset, String name) {

    static final int POSITION = 0;
    static final int TEXCOORD = 1;
    static final int NORMAL = 2;
    static final int TANGENT = 3;
    static final int BLENDINDEXES = 4;
    static final int BLENDWEIGHTS = 5;
    static final int COLOR = 6;
    static final int CUSTOM = 0x10;

    private static final String[] TYPE_NAMES = {"POSITION", "TEXCOORD", "NORMAL", "TANGENT", "BLENDINDEXES",
        "BLENDWEIGHTS", "COLOR"};
    private static final String[] FORMAT_NAMES = {"BYTE", "UBYTE", "SHORT", "USHORT", "INT", "UINT", "HALF", "FLOAT",
        "DOUBLE"};
    private static final int[] FORMAT_BYTES = {1, 1, 2, 2, 4, 4, 2, 4, 8};

    /** Reads and checks vertex array {@code index} of {@code file}. */
    static VertexArray read(IqmFile file, int index) {
        long at = file.ofsVertexArrays + (long) index * IqmFile.VERTEX_ARRAY_SIZE;
        long type = file.u32(at);
        long format = file.u32(at + 8);
        long size = file.u32(at + 12);
        long offset = file.u32(at + 16);
        String name;
        if (type < TYPE_NAMES.length) {
            name = TYPE_NAMES[(int) type];
        } else if (type >= CUSTOM) {
            String custom = file.text(type - CUSTOM, "vertex array " + index + " custom type name");
            name = "custom '" + (custom == null ? "" : custom) + "'";
        } else {
            name = "reserved type " + type;
        }
        String where = "vertex array " + index + " (" + name + ")";
        if (format >= FORMAT_BYTES.length) {
            throw ImportException.invalid(where + ": format " + format + " is not an IQM component format (0–8)");
        }
        long values = IqmFile.multiply(file.numVertexes, size, where + ": num_vertexes " + file.numVertexes
                + " × size " + size);
        file.section(where + " data", "num_vertexes × size", values, FORMAT_BYTES[(int) format], "offset", offset);
        if (size > Integer.MAX_VALUE) {
            throw ImportException.invalid(where + ": size " + size + " is not a plausible component count");
        }
        return new VertexArray(index, type, (int) format, (int) size, offset, name);
    }

    /** {@code POSITION (FLOAT × 3)}, for messages. */
    String describe() {
        return "vertex array " + index + " (" + name + ", " + FORMAT_NAMES[format] + " × " + size + ")";
    }

    /** Whether the format is an integer format. */
    boolean isInteger() {
        return format <= 5;
    }

    /** Component {@code c} of vertex {@code v} as stored (integers unconverted, HALF widened). */
    double value(IqmFile file, long v, int c) {
        long at = offset + (v * size + c) * FORMAT_BYTES[format];
        return switch (format) {
            case 0 -> file.i8(at);
            case 1 -> file.i8(at) & 0xFF;
            case 2 -> file.i16(at);
            case 3 -> file.i16(at) & 0xFFFF;
            case 4 -> file.i32(at);
            case 5 -> file.u32(at);
            case 6 -> Float.float16ToFloat(file.i16(at));
            case 7 -> file.f32(at);
            default -> file.f64(at);
        };
    }

    /**
     * Component {@code c} of vertex {@code v} as a normalised value: integer formats divided by their largest
     * value (UBYTE / 255, USHORT / 65535, UINT / (2³²−1); signed formats by 127, 32767, 2³¹−1, clamped at −1),
     * float formats as stored.
     */
    double normalized(IqmFile file, long v, int c) {
        double x = value(file, v, c);
        return switch (format) {
            case 0 -> Math.max(-1, x / 127);
            case 1 -> x / 255;
            case 2 -> Math.max(-1, x / 32767);
            case 3 -> x / 65535;
            case 4 -> Math.max(-1, x / 2147483647.0);
            case 5 -> x / 4294967295.0;
            default -> x;
        };
    }
}
