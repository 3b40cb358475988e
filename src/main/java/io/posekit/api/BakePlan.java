package io.posekit.api;

import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.sampling.LoopMode;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.Primitive;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * A validated bake: the frames' playback and clip-local times, the outputs, and the binary layout of one frame as
 * {@link Block}s. Everything a bake can fail on is checked here, before the first byte is written: once streaming,
 * a failure could no longer become a problem response.
 *
 * @param clip the clip, or {@code null} for the rest pose
 * @param loop the loop mode
 * @param times playback times of the frames, seconds (after speed)
 * @param localTimes clip-local times sampled, seconds
 * @param outputs the outputs, in canonical order
 * @param layout the matrix layout
 * @param skins selected skin indices
 * @param meshes selected mesh instance indices
 * @param blocks the blocks of one frame, in order
 * @param frameFloats floats per frame
 */
record BakePlan(Clip clip, LoopMode loop, double[] times, double[] localTimes, Set<Output> outputs,
        MatrixLayout layout, int[] skins, int[] meshes, List<Block> blocks, int frameFloats) {

    /** What a frame can hold, in the order it is laid out. */
    enum Output {
        LOCAL_POSE("localPose"), MODEL_POSE("modelPose"), SKINNING_MATRICES("skinningMatrices"),
        SKINNED_POSITIONS("skinnedPositions"), SKINNED_NORMALS("skinnedNormals"), BOUNDS("bounds");

        final String wire;

        Output(String wire) {
            this.wire = wire;
        }
    }

    /** How a matrix is written: all 16 floats column-major, or the top three rows row by row (12 floats). */
    enum MatrixLayout {
        MAT4("mat4", 16), MAT3X4("mat3x4", 12);

        final String wire;
        final int floats;

        MatrixLayout(String wire, int floats) {
            this.wire = wire;
            this.floats = floats;
        }
    }

    /**
     * One array of a frame: {@code count} elements of {@code components} floats at float {@code offset} in the frame.
     * {@code skin}, {@code mesh} and {@code primitive} say whose it is (-1 when not applicable).
     */
    record Block(String output, int skin, int mesh, int primitive, int count, int components, int offset) {
    }

    /**
     * Validates {@code body} against {@code model}.
     *
     * @throws ApiException 400 naming the field that is wrong or the limit exceeded; 404 for an unknown clip
     */
    static BakePlan parse(JsonNode body, Model model, int maxFrames, long maxBytes) {
        if (body == null || !body.isObject()) {
            throw bad("the body must be a JSON object");
        }
        Set<String> known = Set.of("clip", "times", "loop", "speed", "outputs", "matrixLayout", "skins", "meshes");
        for (String name : body.propertyNames()) {
            if (!known.contains(name)) {
                throw bad("unknown field '" + name + "'; fields: clip, times, loop, speed, outputs, matrixLayout, skins, meshes");
            }
        }
        String clipName = optionalString(body, "clip");
        String loopName = optionalString(body, "loop");
        double speed = body.hasNonNull("speed") ? finiteNumber(body.get("speed"), "speed") : 1;
        SamplingQuery query = SamplingQuery.of(clipName, loopName);
        Sampling base = Sampling.parse(model, query);
        double[] times = times(body.get("times"), maxFrames, speed);
        double[] localTimes = new double[times.length];
        for (int i = 0; i < times.length; i++) {
            localTimes[i] = base.clip() == null ? 0 : base.loop().localTime(times[i], base.clip().duration());
        }
        Set<Output> outputs = outputs(body.get("outputs"));
        MatrixLayout layout = layout(optionalString(body, "matrixLayout"));
        int[] skins = indices(body.get("skins"), model.skins().size(), "skins", "skin");
        int[] meshes = indices(body.get("meshes"), model.meshes().size(), "meshes", "mesh");
        if (outputs.contains(Output.SKINNING_MATRICES) && skins.length == 0) {
            throw bad("skinningMatrices needs a skin; " + (model.skins().isEmpty() ? "the asset has none"
                    : "skins selects none"));
        }
        boolean posed = outputs.contains(Output.SKINNED_POSITIONS) || outputs.contains(Output.SKINNED_NORMALS)
                || outputs.contains(Output.BOUNDS);
        if (posed && meshes.length == 0) {
            throw bad("skinnedPositions, skinnedNormals and bounds need a mesh; "
                    + (model.meshes().isEmpty() ? "the asset has none" : "meshes selects none"));
        }
        List<Block> blocks = blocks(model, outputs, layout, skins, meshes);
        long frameFloats = blocks.isEmpty() ? 0 : (long) blocks.getLast().offset()
                + (long) blocks.getLast().count() * blocks.getLast().components();
        long bytes = 4L * (frameFloats + 1) * times.length;
        if (frameFloats > Integer.MAX_VALUE - 8 || bytes > maxBytes) {
            throw bad("the bake would be " + bytes + " bytes of float32 data (" + times.length + " frames × "
                    + frameFloats + " floats); the limit is " + maxBytes + " (posekit.bake.max-bytes)");
        }
        return new BakePlan(base.clip(), base.loop(), times, localTimes, outputs, layout, skins, meshes, blocks,
                (int) frameFloats);
    }

    private static double[] times(JsonNode node, int maxFrames, double speed) {
        double[] times;
        if (node == null || node.isNull()) {
            throw bad("times is required: a list of seconds, or {start, end, fps}");
        } else if (node.isArray()) {
            if (node.size() == 0) {
                throw bad("times is empty");
            }
            if (node.size() > maxFrames) {
                throw tooManyFrames(node.size(), maxFrames);
            }
            times = new double[node.size()];
            for (int i = 0; i < times.length; i++) {
                times[i] = finiteNumber(node.get(i), "times[" + i + "]");
            }
        } else if (node.isObject()) {
            for (String name : node.propertyNames()) {
                if (!Set.of("start", "end", "fps").contains(name)) {
                    throw bad("unknown field 'times." + name + "'; a frame range has start, end and fps");
                }
            }
            double start = node.hasNonNull("start") ? finiteNumber(node.get("start"), "times.start") : 0;
            if (!node.hasNonNull("end")) {
                throw bad("times.end is required");
            }
            double end = finiteNumber(node.get("end"), "times.end");
            if (!node.hasNonNull("fps")) {
                throw bad("times.fps is required");
            }
            double fps = finiteNumber(node.get("fps"), "times.fps");
            if (!(fps > 0)) {
                throw bad("times.fps must be positive, not " + node.get("fps"));
            }
            if (end < start) {
                throw bad("times.end (" + end + ") is before times.start (" + start + ")");
            }
            // frames start + i/fps up to end; the small slack keeps a frame that lands on end despite rounding
            double steps = Math.floor((end - start) * fps + 1e-9);
            if (steps + 1 > maxFrames) {
                throw tooManyFrames(steps + 1, maxFrames);
            }
            int n = (int) steps + 1;
            double last = start + (n - 1) / fps;
            boolean addEnd = end - last > 1e-9 * Math.max(1, Math.abs(end));
            if (addEnd && n + 1 > maxFrames) {
                throw tooManyFrames(n + 1, maxFrames);
            }
            times = new double[addEnd ? n + 1 : n];
            for (int i = 0; i < n; i++) {
                times[i] = start + i / fps;
            }
            times[times.length - 1] = end;
        } else {
            throw bad("times must be a list of seconds or {start, end, fps}, not " + node.getNodeType().name().toLowerCase());
        }
        for (int i = 0; i < times.length; i++) {
            times[i] *= speed;
            if (!Double.isFinite(times[i])) {
                throw bad("times[" + i + "] × speed is out of range");
            }
        }
        return times;
    }

    private static ApiException tooManyFrames(double frames, int max) {
        return bad("the bake has " + (long) frames + " frames; the limit is " + max + " (posekit.bake.max-frames)");
    }

    private static Set<Output> outputs(JsonNode node) {
        if (node == null || node.isNull()) {
            throw bad("outputs is required: any of localPose, modelPose, skinningMatrices, skinnedPositions,"
                    + " skinnedNormals, bounds");
        }
        if (!node.isArray() || node.size() == 0) {
            throw bad("outputs must be a non-empty list of localPose, modelPose, skinningMatrices, skinnedPositions,"
                    + " skinnedNormals, bounds");
        }
        Set<Output> out = EnumSet.noneOf(Output.class);
        for (int i = 0; i < node.size(); i++) {
            JsonNode v = node.get(i);
            Output match = null;
            for (Output o : Output.values()) {
                if (v.isString() && o.wire.equals(v.asString())) {
                    match = o;
                }
            }
            if (match == null) {
                throw bad("outputs[" + i + "] " + v + " is not one of localPose, modelPose, skinningMatrices,"
                        + " skinnedPositions, skinnedNormals, bounds");
            }
            if (!out.add(match)) {
                throw bad("outputs lists " + match.wire + " twice");
            }
        }
        return out;
    }

    private static MatrixLayout layout(String name) {
        if (name == null) {
            return MatrixLayout.MAT4;
        }
        for (MatrixLayout l : MatrixLayout.values()) {
            if (l.wire.equals(name)) {
                return l;
            }
        }
        throw bad("matrixLayout '" + name + "' is not one of mat4, mat3x4");
    }

    private static int[] indices(JsonNode node, int count, String field, String what) {
        if (node == null || node.isNull()) {
            int[] all = new int[count];
            for (int i = 0; i < count; i++) {
                all[i] = i;
            }
            return all;
        }
        if (!node.isArray()) {
            throw bad(field + " must be a list of " + what + " indices");
        }
        Set<Integer> seen = new LinkedHashSet<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode v = node.get(i);
            if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < 0 || v.asInt() >= count) {
                throw ApiException.notFound("Unknown " + what, field + "[" + i + "]: " + what + " " + v
                        + " does not exist; the asset has " + count + " " + field
                        + (count == 0 ? "" : " (0.." + (count - 1) + ")"));
            }
            if (!seen.add(v.asInt())) {
                throw bad(field + " lists " + what + " " + v.asInt() + " twice");
            }
        }
        return seen.stream().mapToInt(Integer::intValue).toArray();
    }

    private static List<Block> blocks(Model model, Set<Output> outputs, MatrixLayout layout, int[] skins, int[] meshes) {
        List<Block> blocks = new ArrayList<>();
        int nodes = model.rig().nodeCount();
        long[] offset = {0};
        java.util.function.Consumer<Block> add = b -> {
            blocks.add(new Block(b.output(), b.skin(), b.mesh(), b.primitive(), b.count(), b.components(),
                    (int) Math.min(Integer.MAX_VALUE, offset[0])));
            offset[0] += (long) b.count() * b.components();
        };
        if (outputs.contains(Output.LOCAL_POSE)) {
            add.accept(new Block("localTranslations", -1, -1, -1, nodes, 3, 0));
            add.accept(new Block("localRotations", -1, -1, -1, nodes, 4, 0));
            add.accept(new Block("localScales", -1, -1, -1, nodes, 3, 0));
        }
        if (outputs.contains(Output.MODEL_POSE)) {
            add.accept(new Block("modelMatrices", -1, -1, -1, nodes, layout.floats, 0));
        }
        if (outputs.contains(Output.SKINNING_MATRICES)) {
            for (int s : skins) {
                add.accept(new Block("skinningMatrices", s, -1, -1, model.skins().get(s).jointCount(), layout.floats, 0));
            }
        }
        for (Output o : List.of(Output.SKINNED_POSITIONS, Output.SKINNED_NORMALS)) {
            if (!outputs.contains(o)) {
                continue;
            }
            for (int m : meshes) {
                MeshInstance mesh = model.meshes().get(m);
                for (int p = 0; p < mesh.primitives().size(); p++) {
                    Primitive prim = mesh.primitives().get(p);
                    if (o == Output.SKINNED_NORMALS && prim.normals() == null) {
                        continue; // nothing to pose: the block is left out, and the header says so
                    }
                    add.accept(new Block(o.wire, -1, m, p, prim.vertexCount(), 3, 0));
                }
            }
        }
        if (outputs.contains(Output.BOUNDS)) {
            add.accept(new Block("bounds", -1, -1, -1, 1, 10, 0));
        }
        if (offset[0] > Integer.MAX_VALUE - 8) {
            throw bad("one frame of the bake would hold " + offset[0] + " floats; select fewer outputs or meshes");
        }
        return blocks;
    }

    private static String optionalString(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isString()) {
            return v.asString();
        }
        if (field.equals("clip") && v.isIntegralNumber()) {
            return v.asString(); // a clip index
        }
        throw bad(field + " must be a string");
    }

    private static double finiteNumber(JsonNode v, String field) {
        if (v == null || !v.isNumber() || !Double.isFinite(v.asDouble())) {
            throw bad(field + " must be a finite number, not " + v);
        }
        return v.asDouble();
    }

    private static ApiException bad(String detail) {
        return ApiException.badRequest("Invalid bake request", detail);
    }
}
