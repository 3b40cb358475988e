package io.posekit.api;

import io.posekit.bake.FrameEvaluator;
import io.posekit.bake.FramePostProcess;
import io.posekit.skinning.Bounds;
import io.posekit.skinning.SkinningDualQuaternionsJob;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;

/**
 * Streams a {@link BakePlan} frame by frame: each frame is evaluated into the {@link FrameEvaluator}'s reused buffers
 * and written at once, so memory stays flat however many frames there are.
 *
 * <p><b>Binary</b> ({@code application/octet-stream}), all little-endian:
 * <pre>
 *   bytes 0–3   magic "PKBK"
 *   bytes 4–7   uint32 version (1)
 *   bytes 8–11  uint32 H: length of the JSON header, padded with spaces to a multiple of 4
 *   bytes 12–   the JSON header (UTF-8): frames, frameFloats, timesOffset, dataOffset, matrixLayout, clip, loop,
 *               blocks [{output, skin?, mesh?, primitive?, count, components, offset}]
 *   timesOffset float32 × frames: each frame's playback time, seconds
 *   dataOffset  float32 × frames × frameFloats: frame f's block b starts at dataOffset + 4 · (f · frameFloats + b.offset)
 * </pre>
 * Blocks: localTranslations (3 per node), localRotations (xyzw per node), localScales, modelMatrices,
 * skinningMatrices per skin (16 column-major or 12 = the top three rows, row by row, per matrixLayout),
 * skinningDualQuaternions per skin (9 per joint: real xyzw, dual xyzw, then the uniform scale applied first),
 * skinnedPositions and skinnedNormals per mesh primitive (xyz per vertex, model space), bounds (min xyz, max xyz,
 * center xyz, radius; NaN when nothing was posed), rootMotion (14: the root motion accumulated since the clip's start,
 * translation xyz and rotation xyzw, then likewise its delta since the previous frame).
 *
 * <p><b>NDJSON</b> ({@code application/x-ndjson}): one JSON object per frame and line: {@code frame}, {@code time},
 * {@code localTime} (one clip) or {@code layerTimes} (a blend: each layer's clip-local time) and the outputs asked for
 * (a value a degenerate file overflows to infinity is written as {@code null}), named as in the request, with the same arrays as the binary blocks.
 */
final class BakeWriter {

    static final byte[] MAGIC = {'P', 'K', 'B', 'K'};
    static final int VERSION = 1;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private BakeWriter() {
    }

    /** The binary header (magic, version, padded JSON) for {@code plan}. */
    static byte[] binaryHeader(BakePlan plan) {
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("format", "posekit-bake");
        header.put("version", VERSION);
        header.put("clip", plan.clip() == null ? null : plan.clip().name());
        if (plan.blend() != null) {
            header.put("layers", plan.blend().evaluator().layers().stream().map(l -> Map.of("clip", l.clip().name(),
                    "weight", l.weight(), "mode", l.mode().wireName())).toList());
        }
        header.put("timeUnit", plan.normalized() ? "normalized" : "seconds");
        header.put("skinning", plan.skinning().wireName());
        header.put("loop", plan.loop().wireName());
        header.put("matrixLayout", plan.layout().wire);
        header.put("frames", plan.times().length);
        header.put("frameFloats", plan.frameFloats());
        header.put("timesOffset", 0); // filled in below, once the header's own length is known
        header.put("dataOffset", 0);
        header.put("blocks", plan.blocks().stream().map(BakeWriter::describe).toList());
        byte[] json = JSON.writeValueAsBytes(header);
        // the offsets' digits change the length; two rounds settle it (the second adds at most a few digits)
        for (int round = 0; round < 3; round++) {
            int padded = (json.length + 3) & ~3;
            long timesOffset = 12L + padded;
            header.put("timesOffset", timesOffset);
            header.put("dataOffset", timesOffset + 4L * plan.times().length);
            json = JSON.writeValueAsBytes(header);
            if (((json.length + 3) & ~3) == padded) {
                break;
            }
        }
        int padded = (json.length + 3) & ~3;
        ByteBuffer out = ByteBuffer.allocate(12 + padded).order(ByteOrder.LITTLE_ENDIAN);
        out.put(MAGIC).putInt(VERSION).putInt(padded).put(json);
        while (out.hasRemaining()) {
            out.put((byte) ' ');
        }
        return out.array();
    }

    private static Map<String, Object> describe(BakePlan.Block b) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("output", b.output());
        if (b.skin() >= 0) {
            m.put("skin", b.skin());
        }
        if (b.mesh() >= 0) {
            m.put("mesh", b.mesh());
            m.put("primitive", b.primitive());
        }
        m.put("count", b.count());
        m.put("components", b.components());
        m.put("offset", b.offset());
        return m;
    }

    /** The exact length of the binary response. */
    static long binaryLength(BakePlan plan) {
        return binaryHeader(plan).length + 4L * plan.times().length * (1L + plan.frameFloats());
    }

    /** Writes the binary form of {@code plan} to {@code out}. */
    static void writeBinary(BakePlan plan, FrameEvaluator frames, OutputStream out) throws IOException {
        out.write(binaryHeader(plan));
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
        for (double t : plan.times()) {
            put(buffer, (float) t, out);
        }
        float[] frame = new float[plan.frameFloats()];
        Scratch scratch = new Scratch(plan);
        for (int f = 0; f < plan.times().length; f++) {
            fill(plan, frames, f, frame, scratch);
            for (float v : frame) {
                put(buffer, v, out);
            }
        }
        out.write(buffer.array(), 0, buffer.position());
        out.flush();
    }

    private static void put(ByteBuffer buffer, float v, OutputStream out) throws IOException {
        if (!buffer.hasRemaining()) {
            out.write(buffer.array(), 0, buffer.position());
            buffer.clear();
        }
        buffer.putFloat(v);
    }

    /** Per-bake working storage: layer times, and dual quaternions and scales of the largest selected skin. */
    static final class Scratch {
        final double[] layerTimes;
        final float[] dualQuaternions;
        final float[] scales;
        final SkinningDualQuaternionsJob toDualQuaternions = new SkinningDualQuaternionsJob();

        Scratch(BakePlan plan) {
            layerTimes = new double[plan.blend() == null ? 0 : plan.blend().timings().size()];
            int joints = 0;
            for (BakePlan.Block b : plan.blocks()) {
                if (b.output().equals("skinningDualQuaternions")) {
                    joints = Math.max(joints, b.count());
                }
            }
            dualQuaternions = new float[8 * joints];
            scales = new float[joints];
        }
    }

    /** Evaluates frame {@code f} into {@code frame}, block by block. */
    static void fill(BakePlan plan, FrameEvaluator frames, int f, float[] frame, Scratch scratch) {
        plan.evaluate(frames, f, scratch.layerTimes);
        int skinBlock = 0;
        int dualQuaternionBlock = 0;
        for (BakePlan.Block b : plan.blocks()) {
            int o = b.offset();
            switch (b.output()) {
                case "localTranslations" -> System.arraycopy(frames.local().translations(), 0, frame, o, 3 * b.count());
                case "localRotations" -> System.arraycopy(frames.local().rotations(), 0, frame, o, 4 * b.count());
                case "localScales" -> System.arraycopy(frames.local().scales(), 0, frame, o, 3 * b.count());
                case "modelMatrices" -> matrices(frames.modelMatrices(), b.count(), plan.layout(), frame, o);
                case "skinningMatrices" -> matrices(frames.skinningMatrices(skinBlock++), b.count(), plan.layout(), frame, o);
                case "skinnedPositions" -> System.arraycopy(frames.positions(meshSlot(plan, b.mesh()), b.primitive()), 0,
                        frame, o, 3 * b.count());
                case "skinnedNormals" -> System.arraycopy(frames.normals(meshSlot(plan, b.mesh()), b.primitive()), 0,
                        frame, o, 3 * b.count());
                case "skinningDualQuaternions" -> dualQuaternions(frames.skinningMatrices(dualQuaternionBlock++), b.count(),
                        scratch, frame, o);
                case "bounds" -> bounds(frames.bounds(), frame, o);
                case "rootMotion" -> {
                    FramePostProcess post = (FramePostProcess) frames.edit();
                    post.total().write(frame, o);
                    post.delta().write(frame, o + 7);
                }
                default -> throw new IllegalStateException("unknown block " + b.output());
            }
        }
    }

    private static int meshSlot(BakePlan plan, int mesh) {
        for (int i = 0; i < plan.meshes().length; i++) {
            if (plan.meshes()[i] == mesh) {
                return i;
            }
        }
        throw new IllegalStateException("mesh " + mesh + " was not selected");
    }

    /** Copies {@code count} column-major matrices, whole or as their top three rows row by row. */
    static void matrices(float[] src, int count, BakePlan.MatrixLayout layout, float[] dst, int o) {
        if (layout == BakePlan.MatrixLayout.MAT4) {
            System.arraycopy(src, 0, dst, o, 16 * count);
            return;
        }
        for (int k = 0; k < count; k++) {
            int s = 16 * k;
            int d = o + 12 * k;
            for (int row = 0; row < 3; row++) {
                for (int col = 0; col < 4; col++) {
                    dst[d + 4 * row + col] = src[s + 4 * col + row];
                }
            }
        }
    }

    /** Converts {@code count} skinning matrices into 9 floats each: the dual quaternion, then the uniform scale. */
    private static void dualQuaternions(float[] matrices, int count, Scratch scratch, float[] dst, int o) {
        SkinningDualQuaternionsJob job = scratch.toDualQuaternions;
        job.skinningMatrices = matrices;
        job.usedJoints = null;
        job.outDualQuaternions = scratch.dualQuaternions;
        job.outScales = scratch.scales;
        job.run();
        for (int j = 0; j < count; j++) {
            System.arraycopy(scratch.dualQuaternions, 8 * j, dst, o + 9 * j, 8);
            dst[o + 9 * j + 8] = scratch.scales[j];
        }
    }

    private static void bounds(Bounds b, float[] dst, int o) {
        if (b == null) {
            java.util.Arrays.fill(dst, o, o + 10, Float.NaN);
            return;
        }
        System.arraycopy(b.min(), 0, dst, o, 3);
        System.arraycopy(b.max(), 0, dst, o + 3, 3);
        System.arraycopy(b.center(), 0, dst, o + 6, 3);
        dst[o + 9] = b.radius();
    }

    /** Writes the NDJSON form of {@code plan} to {@code out}: one object per frame and line. */
    static void writeNdjson(BakePlan plan, FrameEvaluator frames, OutputStream raw) throws IOException {
        OutputStream out = new BufferedOutputStream(raw, 64 * 1024);
        float[] frame = new float[plan.frameFloats()];
        Scratch scratch = new Scratch(plan);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            for (int f = 0; f < plan.times().length; f++) {
                fill(plan, frames, f, frame, scratch);
                g.writeStartObject();
                g.writeNumberProperty("frame", f);
                g.writeNumberProperty("time", plan.times()[f]);
                if (plan.clip() != null) {
                    g.writeNumberProperty("localTime", plan.localTimes()[f]);
                }
                if (plan.blend() != null) {
                    g.writeName("layerTimes");
                    g.writeArray(scratch.layerTimes, 0, scratch.layerTimes.length);
                }
                writeFrame(plan, frame, g);
                g.writeEndObject();
                g.flush();
                out.write('\n');
            }
        }
        out.flush();
    }

    private static void writeFrame(BakePlan plan, float[] frame, JsonGenerator g) {
        List<BakePlan.Block> blocks = plan.blocks();
        int i = 0;
        while (i < blocks.size()) {
            BakePlan.Block b = blocks.get(i);
            switch (b.output()) {
                case "localTranslations" -> {
                    g.writeName("localPose");
                    g.writeStartObject();
                    floats(g, "translations", frame, b);
                    floats(g, "rotations", frame, blocks.get(i + 1));
                    floats(g, "scales", frame, blocks.get(i + 2));
                    g.writeEndObject();
                    i += 3;
                    continue;
                }
                case "modelMatrices" -> floats(g, "modelPose", frame, b);
                case "rootMotion" -> {
                    g.writeName("rootMotion");
                    g.writeStartObject();
                    floats(g, "translation", frame, b.offset(), 3);
                    floats(g, "rotation", frame, b.offset() + 3, 4);
                    floats(g, "deltaTranslation", frame, b.offset() + 7, 3);
                    floats(g, "deltaRotation", frame, b.offset() + 10, 4);
                    g.writeEndObject();
                }
                case "bounds" -> {
                    g.writeName("bounds");
                    g.writeStartObject();
                    if (Float.isNaN(frame[b.offset()])) {
                        g.writeEndObject();
                        break;
                    }
                    floats(g, "min", frame, b.offset(), 3);
                    floats(g, "max", frame, b.offset() + 3, 3);
                    floats(g, "center", frame, b.offset() + 6, 3);
                    float radius = frame[b.offset() + 9];
                    g.writeName("radius");
                    if (Float.isFinite(radius)) {
                        g.writeNumber(radius);
                    } else {
                        g.writeNull();
                    }
                    g.writeEndObject();
                }
                default -> {
                    // skinningMatrices / skinnedPositions / skinnedNormals: a list of per-skin or per-primitive entries
                    g.writeName(b.output());
                    g.writeStartArray();
                    while (i < blocks.size() && blocks.get(i).output().equals(b.output())) {
                        BakePlan.Block e = blocks.get(i);
                        g.writeStartObject();
                        if (e.skin() >= 0) {
                            g.writeNumberProperty("skin", e.skin());
                        } else {
                            g.writeNumberProperty("mesh", e.mesh());
                            g.writeNumberProperty("primitive", e.primitive());
                        }
                        floats(g, "values", frame, e);
                        g.writeEndObject();
                        i++;
                    }
                    g.writeEndArray();
                    continue;
                }
            }
            i++;
        }
    }

    private static void floats(JsonGenerator g, String name, float[] frame, BakePlan.Block b) {
        floats(g, name, frame, b.offset(), b.count() * b.components());
    }

    private static void floats(JsonGenerator g, String name, float[] frame, int offset, int length) {
        g.writeName(name);
        g.writeStartArray();
        for (int k = offset; k < offset + length; k++) {
            // JSON has no infinities: a value a degenerate file overflowed is null here (the binary form keeps it)
            if (Float.isFinite(frame[k])) {
                g.writeNumber(frame[k]);
            } else {
                g.writeNull();
            }
        }
        g.writeEndArray();
    }
}
