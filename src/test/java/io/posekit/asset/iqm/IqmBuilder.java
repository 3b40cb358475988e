package io.posekit.asset.iqm;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes IQM version 2 files byte by byte for tests: a text block, joints, poses, vertex arrays of any format,
 * triangles, meshes, anims and frames, laid out after the 124-byte header in that order (4-byte aligned), with the
 * header's counts, offsets and filesize filled in. {@link #offsetOf} tells where a section ended up, for tests
 * that corrupt it.
 */
public final class IqmBuilder {

    static final int BYTE = 0;
    static final int UBYTE = 1;
    static final int SHORT = 2;
    static final int USHORT = 3;
    static final int INT = 4;
    static final int UINT = 5;
    static final int HALF = 6;
    static final int FLOAT = 7;
    static final int DOUBLE = 8;

    private final ByteArrayOutputStream text = new ByteArrayOutputStream();
    private final Map<String, Integer> strings = new LinkedHashMap<>();
    private final List<float[]> joints = new ArrayList<>();
    private final List<Integer> jointNames = new ArrayList<>();
    private final List<int[]> poseHeads = new ArrayList<>();
    private final List<float[]> poseValues = new ArrayList<>();
    private final List<long[]> arrays = new ArrayList<>();
    private final List<byte[]> arrayData = new ArrayList<>();
    private final List<Integer> triangles = new ArrayList<>();
    private final List<long[]> meshes = new ArrayList<>();
    private final List<long[]> anims = new ArrayList<>();
    private final List<Integer> frames = new ArrayList<>();
    private int numVertexes;
    private int numFrameChannels;
    private int version = 2;
    private final Map<String, Integer> offsets = new LinkedHashMap<>();

    IqmBuilder() {
        text.write(0); // text[0] is the empty string
        strings.put("", 0);
    }

    /** Offset of a string in the text block (added once). */
    public int string(String s) {
        return strings.computeIfAbsent(s, k -> {
            int at = text.size();
            text.writeBytes(k.getBytes(StandardCharsets.UTF_8));
            text.write(0);
            return at;
        });
    }

    public IqmBuilder version(int v) {
        version = v;
        return this;
    }

    /** A joint: translate, rotate (x y z w), scale. */
    public IqmBuilder joint(String name, int parent, float[] t, float[] r, float[] s) {
        jointNames.add(string(name));
        float[] v = new float[11];
        v[0] = parent;
        System.arraycopy(t, 0, v, 1, 3);
        System.arraycopy(r, 0, v, 4, 4);
        System.arraycopy(s, 0, v, 8, 3);
        joints.add(v);
        return this;
    }

    /** A pose with 10 channel offsets and scales. */
    public IqmBuilder pose(int parent, int mask, float[] offset, float[] scale) {
        poseHeads.add(new int[] {parent, mask});
        float[] v = new float[20];
        System.arraycopy(offset, 0, v, 0, 10);
        System.arraycopy(scale, 0, v, 10, 10);
        poseValues.add(v);
        return this;
    }

    public IqmBuilder vertexes(int n) {
        numVertexes = n;
        return this;
    }

    /** A vertex array whose data is {@code data} (already encoded in {@code format}). */
    public IqmBuilder array(int type, int format, int size, byte[] data) {
        arrays.add(new long[] {type, 0, format, size});
        arrayData.add(data);
        return this;
    }

    public IqmBuilder floats(int type, int size, float... values) {
        ByteBuffer b = le(4 * values.length);
        for (float v : values) {
            b.putFloat(v);
        }
        return array(type, FLOAT, size, b.array());
    }

    public IqmBuilder ubytes(int type, int size, int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return array(type, UBYTE, size, b);
    }

    public IqmBuilder triangle(int a, int b, int c) {
        triangles.add(a);
        triangles.add(b);
        triangles.add(c);
        return this;
    }

    public IqmBuilder mesh(String name, String material, int firstVertex, int numVertexes, int firstTriangle, int numTriangles) {
        meshes.add(new long[] {string(name), string(material), firstVertex, numVertexes, firstTriangle, numTriangles});
        return this;
    }

    public IqmBuilder anim(String name, int firstFrame, int numFrames, float framerate, int flags) {
        anims.add(new long[] {string(name), firstFrame, numFrames, Float.floatToRawIntBits(framerate), flags});
        return this;
    }

    public IqmBuilder frameChannels(int n) {
        numFrameChannels = n;
        return this;
    }

    /** Appends frame channel values (unsigned shorts). */
    public IqmBuilder frames(int... values) {
        for (int v : values) {
            frames.add(v);
        }
        return this;
    }

    /** Where section {@code name} (text, joints, poses, vertexarrays, arrayN, triangles, meshes, anims, frames) starts. */
    public int offsetOf(String name) {
        return offsets.get(name);
    }

    public byte[] build() {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int base = IqmFile.HEADER_SIZE;
        int ofsText = place(body, base, "text", text.toByteArray());
        ByteBuffer j = le(48 * joints.size());
        for (int i = 0; i < joints.size(); i++) {
            float[] v = joints.get(i);
            j.putInt(jointNames.get(i)).putInt((int) v[0]);
            for (int c = 1; c < 11; c++) {
                j.putFloat(v[c]);
            }
        }
        int ofsJoints = place(body, base, "joints", j.array());
        ByteBuffer p = le(88 * poseHeads.size());
        for (int i = 0; i < poseHeads.size(); i++) {
            p.putInt(poseHeads.get(i)[0]).putInt(poseHeads.get(i)[1]);
            for (float v : poseValues.get(i)) {
                p.putFloat(v);
            }
        }
        int ofsPoses = place(body, base, "poses", p.array());
        int[] dataOffsets = new int[arrays.size()];
        for (int i = 0; i < arrays.size(); i++) {
            dataOffsets[i] = place(body, base, "array" + i, arrayData.get(i));
        }
        ByteBuffer va = le(20 * arrays.size());
        for (int i = 0; i < arrays.size(); i++) {
            long[] a = arrays.get(i);
            va.putInt((int) a[0]).putInt((int) a[1]).putInt((int) a[2]).putInt((int) a[3]).putInt(dataOffsets[i]);
        }
        int ofsArrays = place(body, base, "vertexarrays", va.array());
        ByteBuffer t = le(4 * triangles.size());
        triangles.forEach(t::putInt);
        int ofsTriangles = place(body, base, "triangles", t.array());
        ByteBuffer m = le(24 * meshes.size());
        meshes.forEach(x -> {
            for (long v : x) {
                m.putInt((int) v);
            }
        });
        int ofsMeshes = place(body, base, "meshes", m.array());
        ByteBuffer an = le(20 * anims.size());
        anims.forEach(x -> {
            for (long v : x) {
                an.putInt((int) v);
            }
        });
        int ofsAnims = place(body, base, "anims", an.array());
        ByteBuffer fr = le(2 * frames.size());
        frames.forEach(v -> fr.putShort((short) (int) v));
        int ofsFrames = place(body, base, "frames", fr.array());
        int numFrames = numFrameChannels == 0 ? 0 : frames.size() / numFrameChannels;
        int filesize = base + body.size();
        ByteBuffer h = le(IqmFile.HEADER_SIZE);
        h.put("INTERQUAKEMODEL\0".getBytes(StandardCharsets.US_ASCII));
        int[] fields = {version, filesize, 0, text.size(), ofsText, meshes.size(), or0(meshes.size(), ofsMeshes),
            arrays.size(), numVertexes, or0(arrays.size(), ofsArrays), triangles.size() / 3,
            or0(triangles.size(), ofsTriangles), 0, joints.size(), or0(joints.size(), ofsJoints), poseHeads.size(),
            or0(poseHeads.size(), ofsPoses), anims.size(), or0(anims.size(), ofsAnims), numFrames, numFrameChannels,
            or0(frames.size(), ofsFrames), 0, 0, 0, 0, 0};
        for (int f : fields) {
            h.putInt(f);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(h.array());
        out.writeBytes(body.toByteArray());
        return out.toByteArray();
    }

    private static int or0(int count, int offset) {
        return count == 0 ? 0 : offset;
    }

    private int place(ByteArrayOutputStream body, int base, String name, byte[] data) {
        int at = base + body.size();
        offsets.put(name, at);
        body.writeBytes(data);
        while (body.size() % 4 != 0) {
            body.write(0);
        }
        return at;
    }

    public static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** A header field's byte position: 0 = version, 1 = filesize, … (see iqm.txt). */
    public static int field(int index) {
        return 16 + 4 * index;
    }

    /** A small valid rig: two joints, one mesh of three vertices, one anim of three frames with masked channels. */
    public static IqmBuilder twoJointTriangle() {
        // frame channels: [hip tz, knee qz, knee qw] per frame
        return new IqmBuilder()
                .joint("hip", -1, new float[] {0, 0, 1}, new float[] {0, 0, 0, 1}, new float[] {1, 1, 1})
                .joint("knee", 0, new float[] {0, 0, 2}, new float[] {0, 0, 0, 1}, new float[] {1, 1, 1})
                // pose 0: translation z animated (offset 1, scale 0.5); pose 1: rotation z and w animated
                .pose(-1, 1 << 2, new float[] {0, 0, 1, 0, 0, 0, 1, 1, 1, 1}, new float[] {0, 0, 0.5f, 0, 0, 0, 0, 0, 0, 0})
                .pose(0, (1 << 5) | (1 << 6), new float[] {0, 0, 2, 0, 0, 0, 0, 1, 1, 1},
                        new float[] {0, 0, 0, 0, 0, 1f / 65535, 1f / 65535, 0, 0, 0})
                .vertexes(3)
                .floats(VertexArray.POSITION, 3, 0, 0, 0, 1, 0, 0, 0, 0, 3)
                .floats(VertexArray.NORMAL, 3, 0, 1, 0, 0, 1, 0, 0, 1, 0)
                .ubytes(VertexArray.BLENDINDEXES, 4, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0)
                .ubytes(VertexArray.BLENDWEIGHTS, 4, 255, 0, 0, 0, 128, 127, 0, 0, 255, 0, 0, 0)
                .triangle(0, 1, 2)
                .mesh("body", "skin", 0, 3, 0, 1)
                .anim("bend", 0, 3, 10, 1)
                .frameChannels(3)
                .frames(0, 0, 65535, 2, 46341, 46341, 4, 65535, 0);
    }
}
