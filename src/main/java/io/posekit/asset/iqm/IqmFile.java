package io.posekit.asset.iqm;

import io.posekit.asset.ImportException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The validated layout of one IQM version 2 file ({@code iqm.txt} of the IQM SDK): the 124-byte header and the
 * position of every section. {@link #parse} checks the magic, the version, that {@code filesize} is the actual
 * size, and that every section a count announces ({@code count × element size} bytes at its {@code ofs_*}) lies
 * within the file after the header, in 64-bit arithmetic so no count can wrap around. After that every read of
 * a section element stays inside the file.
 *
 * <p>All header fields are unsigned 32-bit numbers and are held as {@code long}. Data is little-endian.
 */
final class IqmFile {

    static final int HEADER_SIZE = 124;
    static final int MESH_SIZE = 24;
    static final int VERTEX_ARRAY_SIZE = 20;
    static final int TRIANGLE_SIZE = 12;
    static final int JOINT_SIZE = 48;
    static final int POSE_SIZE = 88;
    static final int ANIM_SIZE = 20;
    static final int BOUNDS_SIZE = 32;
    static final int EXTENSION_SIZE = 16;
    private static final byte[] MAGIC = "INTERQUAKEMODEL\0".getBytes(StandardCharsets.US_ASCII);

    private final ByteBuffer data;
    private final int size;

    final long numText;
    final long ofsText;
    final long numMeshes;
    final long ofsMeshes;
    final long numVertexArrays;
    final long numVertexes;
    final long ofsVertexArrays;
    final long numTriangles;
    final long ofsTriangles;
    final long numJoints;
    final long ofsJoints;
    final long numPoses;
    final long ofsPoses;
    final long numAnims;
    final long ofsAnims;
    final long numFrames;
    final long numFrameChannels;
    final long ofsFrames;

    private IqmFile(byte[] bytes) {
        this.data = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        this.size = bytes.length;
        numText = field(3);
        ofsText = field(4);
        numMeshes = field(5);
        ofsMeshes = field(6);
        numVertexArrays = field(7);
        numVertexes = field(8);
        ofsVertexArrays = field(9);
        numTriangles = field(10);
        ofsTriangles = field(11);
        numJoints = field(13);
        ofsJoints = field(14);
        numPoses = field(15);
        ofsPoses = field(16);
        numAnims = field(17);
        ofsAnims = field(18);
        numFrames = field(19);
        numFrameChannels = field(20);
        ofsFrames = field(21);
    }

    /**
     * Checks the header of {@code bytes} and the bounds of every section.
     *
     * @throws ImportException invalid (422) for a file that is not IQM, is truncated or padded (its header
     *     {@code filesize} differs from its length), or announces a section beyond its end; unsupported (415) for
     *     an IQM version other than 2
     */
    static IqmFile parse(byte[] bytes) {
        if (bytes.length < MAGIC.length || !java.util.Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw ImportException.invalid("not an IQM file: it does not start with the magic \"INTERQUAKEMODEL\\0\"");
        }
        if (bytes.length < HEADER_SIZE) {
            throw ImportException.invalid("IQM header truncated: the file has " + bytes.length + " bytes, the header needs "
                    + HEADER_SIZE);
        }
        IqmFile file = new IqmFile(bytes);
        long version = file.field(0);
        if (version != 2) {
            throw ImportException.unsupported("IQM version " + version + " is not supported; only version 2 is");
        }
        long filesize = file.field(1);
        if (filesize != bytes.length) {
            throw ImportException.invalid("header: filesize " + filesize + " does not match the file's actual size of "
                    + bytes.length + " bytes (truncated or padded)");
        }
        file.section("text", "num_text", file.numText, 1, "ofs_text", file.ofsText);
        file.section("meshes", "num_meshes", file.numMeshes, MESH_SIZE, "ofs_meshes", file.ofsMeshes);
        file.section("vertex arrays", "num_vertexarrays", file.numVertexArrays, VERTEX_ARRAY_SIZE, "ofs_vertexarrays",
                file.ofsVertexArrays);
        file.section("triangles", "num_triangles", file.numTriangles, TRIANGLE_SIZE, "ofs_triangles", file.ofsTriangles);
        long ofsAdjacency = file.field(12);
        if (ofsAdjacency != 0) {
            file.section("adjacency", "num_triangles", file.numTriangles, TRIANGLE_SIZE, "ofs_adjacency", ofsAdjacency);
        }
        file.section("joints", "num_joints", file.numJoints, JOINT_SIZE, "ofs_joints", file.ofsJoints);
        file.section("poses", "num_poses", file.numPoses, POSE_SIZE, "ofs_poses", file.ofsPoses);
        file.section("anims", "num_anims", file.numAnims, ANIM_SIZE, "ofs_anims", file.ofsAnims);
        file.section("frames", "num_frames × num_framechannels",
                multiply(file.numFrames, file.numFrameChannels, "frames: num_frames × num_framechannels"), 2, "ofs_frames",
                file.ofsFrames);
        long ofsBounds = file.field(22);
        if (ofsBounds != 0) {
            file.section("bounds", "num_frames", file.numFrames, BOUNDS_SIZE, "ofs_bounds", ofsBounds);
        }
        file.section("comment", "num_comment", file.field(23), 1, "ofs_comment", file.field(24));
        if (file.field(25) != 0) {
            // extensions are a linked list that posekit does not follow; only the first entry's position is checked
            file.section("extensions", "num_extensions", 1, EXTENSION_SIZE, "ofs_extensions", file.field(26));
        }
        return file;
    }

    /** The file's length in bytes. */
    int size() {
        return size;
    }

    /** Header field {@code index} (0 = version, 1 = filesize, …, 26 = ofs_extensions). */
    private long field(int index) {
        return Integer.toUnsignedLong(data.getInt(16 + 4 * index));
    }

    /**
     * Checks that {@code count} elements of {@code elementSize} bytes at {@code offset} lie after the header and
     * within the file.
     */
    void section(String what, String countField, long count, long elementSize, String offsetField, long offset) {
        if (count == 0) {
            return;
        }
        long bytes = multiply(count, elementSize, what + ": " + countField + " " + count + " × " + elementSize + " bytes");
        if (offset < HEADER_SIZE) {
            throw ImportException.invalid("header: " + what + " (" + countField + " " + count + ") at " + offsetField + " "
                    + offset + " overlap the " + HEADER_SIZE + "-byte header");
        }
        if (bytes > size - offset) {
            throw ImportException.invalid("header: " + what + " (" + countField + " " + count + " × " + elementSize
                    + " bytes at " + offsetField + " " + offset + ") end at byte " + (offset + bytes)
                    + ", beyond the end of the " + size + "-byte file");
        }
    }

    /** {@code a × b} for unsigned 32-bit (or already checked) factors; a product past 2⁶³ is an invalid file. */
    static long multiply(long a, long b, String what) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw ImportException.invalid(what + " overflows");
        }
    }

    /** Unsigned 32-bit value at {@code offset}. */
    long u32(long offset) {
        return Integer.toUnsignedLong(data.getInt(position(offset, 4)));
    }

    /** Signed 32-bit value at {@code offset}. */
    int i32(long offset) {
        return data.getInt(position(offset, 4));
    }

    /** 32-bit float at {@code offset}. */
    float f32(long offset) {
        return data.getFloat(position(offset, 4));
    }

    /** Unsigned 16-bit value at {@code offset}. */
    int u16(long offset) {
        return Short.toUnsignedInt(data.getShort(position(offset, 2)));
    }

    /** Signed 16-bit value at {@code offset}. */
    short i16(long offset) {
        return data.getShort(position(offset, 2));
    }

    /** Signed byte at {@code offset}. */
    byte i8(long offset) {
        return data.get(position(offset, 1));
    }

    /** 64-bit float at {@code offset}. */
    double f64(long offset) {
        return data.getDouble(position(offset, 8));
    }

    private int position(long offset, int length) {
        if (offset < 0 || offset > size - length) {
            // unreachable for validated sections; kept so a logic error is a precise 422, never an overflowed read
            throw ImportException.invalid("read of " + length + " bytes at " + offset + " is outside the " + size + "-byte file");
        }
        return (int) offset;
    }

    /**
     * The NUL-terminated string at {@code offset} in the text block (UTF-8), {@code null} for the empty string.
     *
     * @param what names the reference in messages, e.g. {@code joint 3 name}
     */
    String text(long offset, String what) {
        if (offset == 0 && numText == 0) {
            return null;
        }
        if (offset >= numText) {
            throw ImportException.invalid(what + ": text offset " + offset + " is beyond the " + numText
                    + "-byte text block");
        }
        int start = (int) (ofsText + offset);
        int end = (int) (ofsText + numText);
        for (int i = start; i < end; i++) {
            if (data.get(i) == 0) {
                if (i == start) {
                    return null;
                }
                byte[] chars = new byte[i - start];
                data.get(start, chars);
                return new String(chars, StandardCharsets.UTF_8);
            }
        }
        throw ImportException.invalid(what + ": the string at text offset " + offset
                + " is not NUL-terminated within the " + numText + "-byte text block");
    }
}
