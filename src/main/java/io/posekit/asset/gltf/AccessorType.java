package io.posekit.asset.gltf;

/**
 * The glTF accessor element types. Matrices are column-major; {@link #rows} is the column height (0 for
 * scalars and vectors), used for the column padding of the specification's "Data Alignment" section.
 */
enum AccessorType {
    SCALAR(1, 0), VEC2(2, 0), VEC3(3, 0), VEC4(4, 0), MAT2(4, 2), MAT3(9, 3), MAT4(16, 4);

    /** Components per element. */
    final int components;
    /** Rows per column for matrices, 0 otherwise. */
    final int rows;

    AccessorType(int components, int rows) {
        this.components = components;
        this.rows = rows;
    }

    /** The type named {@code name} (exact, upper case), or {@code null}. */
    static AccessorType of(String name) {
        for (AccessorType t : values()) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }

    /**
     * Byte offset of each component within one element stored with components of {@code size} bytes. Matrix
     * columns start on 4-byte boundaries, so MAT2 and MAT3 of 1-byte and MAT3 of 2-byte components carry
     * padding after each column.
     */
    int[] componentOffsets(int size) {
        int[] offsets = new int[components];
        if (rows == 0) {
            for (int c = 0; c < components; c++) {
                offsets[c] = c * size;
            }
        } else {
            int columnBytes = columnBytes(size);
            for (int c = 0; c < components; c++) {
                offsets[c] = (c / rows) * columnBytes + (c % rows) * size;
            }
        }
        return offsets;
    }

    /** Bytes of one element stored with components of {@code size} bytes, column padding included. */
    int elementSize(int size) {
        return rows == 0 ? components * size : rows * columnBytes(size);
    }

    private int columnBytes(int size) {
        return (rows * size + 3) & ~3;
    }
}
