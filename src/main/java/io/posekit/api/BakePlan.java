package io.posekit.api;

import io.posekit.api.body.IkSpec;
import io.posekit.api.body.LayerSpec;
import io.posekit.api.body.SamplingQuery;
import io.posekit.api.http.ApiException;
import io.posekit.asset.Model;
import io.posekit.bake.FrameEvaluator;
import io.posekit.bake.FramePostProcess;
import io.posekit.ik.FootLock;
import io.posekit.motion.ClipRootMotion;
import io.posekit.retarget.HumanoidJoints;
import io.posekit.clip.Clip;
import io.posekit.sampling.LoopMode;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.SkinningMethod;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A validated bake: the frames' playback and clip-local times, the outputs, and the binary layout of one frame as
 * {@link Block}s. Everything a bake can fail on is checked here, before the first byte is written: once streaming,
 * a failure could no longer become a problem response.
 *
 * @param clip the clip, or {@code null} for the rest pose or a blend
 * @param blend the blend, or {@code null}
 * @param normalized whether {@code times} are phases (clip durations) rather than seconds
 * @param skinning how skinned positions and normals are computed
 * @param loop the loop mode
 * @param times playback times of the frames, seconds (after speed), or phases when {@code normalized}
 * @param localTimes clip-local times sampled, seconds (for a blend, computed per frame instead)
 * @param outputs the outputs, in canonical order
 * @param layout the matrix layout
 * @param skins selected skin indices
 * @param meshes selected mesh instance indices
 * @param blocks the blocks of one frame, in order
 * @param frameFloats floats per frame
 * @param post root-motion extraction and IK chains applied to every frame
 * @param footLock which legs to pin where their feet plant, or {@code null}
 */
record BakePlan(Clip clip, Sampling.BlendTemplate blend, boolean normalized, SkinningMethod skinning, LoopMode loop,
        double[] times, double[] localTimes, Set<Output> outputs,
        MatrixLayout layout, int[] skins, int[] meshes, List<Block> blocks, int frameFloats, PostProcessing post,
        FootLocking footLock) {

    /**
     * Foot locking as asked: the legs and the detection settings.
     *
     * @param legs the legs' hip, knee and ankle joints
     * @param settings the thresholds ({@code null} entries: defaults)
     */
    record FootLocking(List<FootLock.Leg> legs, FootLock.Settings settings) {
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String OUTPUT_NAMES = "localPose, modelPose, skinningMatrices, skinningDualQuaternions,"
            + " skinnedPositions, skinnedNormals, bounds, rootMotion";

    /** What a frame can hold, in the order it is laid out. */
    enum Output {
        LOCAL_POSE("localPose"), MODEL_POSE("modelPose"), SKINNING_MATRICES("skinningMatrices"),
        SKINNING_DUAL_QUATERNIONS("skinningDualQuaternions"),
        SKINNED_POSITIONS("skinnedPositions"), SKINNED_NORMALS("skinnedNormals"), BOUNDS("bounds"),
        ROOT_MOTION("rootMotion");

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
        Set<String> known = Set.of("clip", "layers", "threshold", "times", "timeUnit", "loop", "speed", "outputs",
                "matrixLayout", "skinning", "skins", "meshes", "rootMotion", "rootJoint", "rootComponents", "ik",
                "footLock");
        for (String name : body.propertyNames()) {
            if (!known.contains(name)) {
                throw bad("unknown field '" + name + "'; fields: clip, layers, threshold, times, timeUnit, loop, speed,"
                        + " outputs, matrixLayout, skinning, skins, meshes, rootMotion, rootJoint, rootComponents, ik,"
                        + " footLock");
            }
        }
        String clipName = optionalString(body, "clip");
        String loopName = optionalString(body, "loop");
        double speed = body.hasNonNull("speed") ? finiteNumber(body.get("speed"), "speed") : 1;
        String unit = optionalString(body, "timeUnit");
        if (unit != null && !unit.equals("seconds") && !unit.equals("normalized")) {
            throw bad("timeUnit '" + unit + "' is not one of seconds, normalized");
        }
        boolean normalized = "normalized".equals(unit);
        String skinningName = optionalString(body, "skinning");
        SkinningMethod skinning = skinningName == null ? SkinningMethod.LINEAR : SkinningMethod.byWireName(skinningName)
                .orElseThrow(() -> bad("skinning '" + skinningName + "' is not one of linear, dq, authored"));
        Sampling.BlendTemplate blend = null;
        Sampling base;
        if (body.hasNonNull("layers")) {
            if (clipName != null) {
                throw bad("give clip or layers, not both");
            }
            base = Sampling.parse(model, SamplingQuery.of(null, loopName));
            blend = Sampling.blend(model, layers(body.get("layers")), body.hasNonNull("threshold")
                    ? finiteNumber(body.get("threshold"), "threshold") : null, base.loop());
        } else {
            if (body.hasNonNull("threshold")) {
                throw bad("threshold is only meaningful with layers");
            }
            base = Sampling.parse(model, SamplingQuery.of(clipName, loopName));
            if (normalized && base.clip() == null) {
                throw bad("timeUnit normalized needs a clip or layers (the rest pose has no duration)");
            }
        }
        double[] times = times(body.get("times"), maxFrames, speed);
        double[] localTimes = new double[blend == null ? times.length : 0];
        for (int i = 0; i < localTimes.length; i++) {
            double seconds = normalized ? times[i] * base.clip().duration() : times[i];
            localTimes[i] = base.clip() == null ? 0 : base.loop().localTime(seconds, base.clip().duration());
        }
        Set<Output> outputs = outputs(body.get("outputs"));
        MatrixLayout layout = layout(optionalString(body, "matrixLayout"));
        int[] skins = indices(body.get("skins"), model.skins().size(), "skins", "skin");
        int[] meshes = indices(body.get("meshes"), model.meshes().size(), "meshes", "mesh");
        for (Output o : List.of(Output.SKINNING_MATRICES, Output.SKINNING_DUAL_QUATERNIONS)) {
            if (outputs.contains(o) && skins.length == 0) {
                throw bad(o.wire + " needs a skin; " + (model.skins().isEmpty() ? "the asset has none"
                        : "skins selects none"));
            }
        }
        boolean posed = outputs.contains(Output.SKINNED_POSITIONS) || outputs.contains(Output.SKINNED_NORMALS)
                || outputs.contains(Output.BOUNDS);
        if (posed && meshes.length == 0) {
            throw bad("skinnedPositions, skinnedNormals and bounds need a mesh; "
                    + (model.meshes().isEmpty() ? "the asset has none" : "meshes selects none"));
        }
        PostProcessing post = PostProcessing.parse(model, optionalString(body, "rootMotion"),
                optionalString(body, "rootJoint"), strings(body.get("rootComponents"), "rootComponents"), null,
                ik(body.get("ik")));
        if (outputs.contains(Output.ROOT_MOTION) && post.rootMotion() == null) {
            throw bad("the rootMotion output needs \"rootMotion\": \"extract\"");
        }
        FootLocking footLock = footLock(model, body.get("footLock"));
        List<Block> blocks = blocks(model, outputs, layout, skins, meshes);
        long frameFloats = blocks.isEmpty() ? 0 : (long) blocks.getLast().offset()
                + (long) blocks.getLast().count() * blocks.getLast().components();
        long bytes = 4L * (frameFloats + 1) * times.length;
        if (frameFloats > Integer.MAX_VALUE - 8 || bytes > maxBytes) {
            throw bad("the bake would be " + bytes + " bytes of float32 data (" + times.length + " frames × "
                    + frameFloats + " floats); the limit is " + maxBytes + " (posekit.bake.max-bytes)");
        }
        if (blend != null) {
            // every layer time of every frame is checked now: a failure while streaming could not be reported
            double[] scratch = new double[blend.timings().size()];
            BakePlan probe = new BakePlan(null, blend, normalized, skinning, base.loop(), times, localTimes, outputs,
                    layout, skins, meshes, List.of(), 0, PostProcessing.NONE, null);
            for (int f = 0; f < times.length; f++) {
                probe.layerTimes(f, scratch);
            }
        }
        return new BakePlan(base.clip(), blend, normalized, skinning, base.loop(), times, localTimes, outputs, layout,
                skins, meshes, blocks,
                (int) frameFloats, post, footLock);
    }

    private static List<String> strings(JsonNode node, String field) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isArray()) {
            throw bad(field + " must be a list of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode v : node) {
            if (!v.isString()) {
                throw bad(field + " must be a list of strings");
            }
            out.add(v.asString());
        }
        return out;
    }

    private static List<IkSpec> ik(JsonNode node) {
        return node == null || node.isNull() ? null : list(node, IkSpec.class, "ik", "IK chain");
    }

    /** {@code footLock}: {@code true} (both legs found by name, default thresholds) or {legs, height, speed, release}. */
    private static FootLocking footLock(Model model, JsonNode node) {
        if (node == null || node.isNull() || (node.isBoolean() && !node.asBoolean())) {
            return null;
        }
        if (!node.isBoolean() && !node.isObject()) {
            throw bad("footLock must be true or {legs, height, speed, release}");
        }
        Double height = null;
        Double speed = null;
        Double release = null;
        List<FootLock.Leg> legs = new ArrayList<>();
        if (node.isObject()) {
            for (String name : node.propertyNames()) {
                if (!Set.of("legs", "height", "speed", "release").contains(name)) {
                    throw bad("unknown field 'footLock." + name + "'; footLock has legs, height, speed, release");
                }
            }
            height = node.hasNonNull("height") ? finiteNumber(node.get("height"), "footLock.height") : null;
            speed = node.hasNonNull("speed") ? finiteNumber(node.get("speed"), "footLock.speed") : null;
            release = node.hasNonNull("release") ? finiteNumber(node.get("release"), "footLock.release") : null;
            JsonNode given = node.get("legs");
            if (given != null && !given.isNull()) {
                if (!given.isArray() || given.isEmpty()) {
                    throw bad("footLock.legs must be a non-empty list of {start, mid, end} joint names");
                }
                for (int i = 0; i < given.size(); i++) {
                    JsonNode leg = given.get(i);
                    String where = "footLock.legs[" + i + "].";
                    legs.add(new FootLock.Leg(joint(model, leg, "start", where), joint(model, leg, "mid", where),
                            joint(model, leg, "end", where)));
                }
            }
        }
        if (legs.isEmpty()) {
            for (boolean left : new boolean[] {true, false}) {
                HumanoidJoints.leg(model, left).ifPresent(j -> legs.add(new FootLock.Leg(j[0], j[1], j[2])));
            }
            if (legs.isEmpty()) {
                throw bad("footLock: no leg found by name (upper leg, lower leg, foot); give footLock.legs");
            }
        }
        FootLock.Settings settings = new FootLock.Settings(height, speed, release);
        for (FootLock.Leg leg : legs) {
            try {
                new io.posekit.ik.IkChain.TwoBone(leg.hip(), leg.knee(), leg.ankle(), new double[3], null, null, 1, 1,
                        0).validate(model.rig());
            } catch (IllegalArgumentException e) {
                throw bad("footLock: " + e.getMessage());
            }
            for (Double d : new Double[] {height, speed, release}) {
                if (d != null && d < 0) {
                    throw bad("footLock: height, speed and release must not be negative");
                }
            }
        }
        return new FootLocking(List.copyOf(legs), settings);
    }

    private static int joint(Model model, JsonNode leg, String field, String where) {
        JsonNode v = leg == null ? null : leg.get(field);
        if (v == null || !v.isString()) {
            throw bad(where + field + " must be a joint name");
        }
        int index = model.rig().indexOf(v.asString());
        if (index < 0) {
            throw bad(where + field + " '" + v.asString() + "' is not a node of the asset");
        }
        return index;
    }

    /** The root motion of the clip (or of the blend from every layer's start), or {@code null} without extraction. */
    ClipRootMotion rootMotion(Model model) {
        PostProcessing.RootMotion r = post.rootMotion();
        if (r == null) {
            return null;
        }
        if (blend == null) {
            return ClipRootMotion.of(model.rig(), clip, r.joint(), r.components());
        }
        blend.evaluator().evaluate(new double[blend.timings().size()]);
        return ClipRootMotion.ofReference(model.rig(), r.joint(), r.components(),
                blend.evaluator().modelMatrices().clone());
    }

    /**
     * Plans the foot locking: every frame is sampled once (before anything is streamed) for its ankle positions.
     *
     * @return the plan, or {@code null} without foot locking
     */
    FootLock planFootLock(Model model) {
        if (footLock == null) {
            return null;
        }
        FrameEvaluator probe = new FrameEvaluator(model, clip, blend == null ? null : blend.evaluator(), new int[0],
                new int[0], false, false, SkinningMethod.LINEAR);
        double[] scratch = new double[blend == null ? 0 : blend.timings().size()];
        List<FootLock.Leg> legs = footLock.legs();
        double[][] ankles = new double[legs.size()][3 * times.length];
        double[][] hips = new double[legs.size()][3 * times.length];
        for (int f = 0; f < times.length; f++) {
            evaluate(probe, f, scratch);
            float[] m = probe.modelMatrices();
            for (int l = 0; l < legs.size(); l++) {
                int a = 16 * legs.get(l).ankle();
                int h = 16 * legs.get(l).hip();
                for (int k = 0; k < 3; k++) {
                    ankles[l][3 * f + k] = m[a + 12 + k];
                    hips[l][3 * f + k] = m[h + 12 + k];
                }
            }
        }
        double[] seconds = new double[times.length];
        for (int f = 0; f < times.length; f++) {
            seconds[f] = normalized && clip != null ? times[f] * clip.duration() : times[f];
        }
        return FootLock.plan(model.rig(), legs, seconds, hips, ankles, footLock.settings());
    }

    /**
     * A fresh per-frame post-processing for one evaluator, or {@code null} when the plan asks for none.
     *
     * @param footLock the planned foot locking ({@link #planFootLock}), or {@code null}
     */
    FramePostProcess postProcess(Model model, FootLock footLock, ClipRootMotion rootMotion) {
        if (footLock == null && rootMotion == null && post.ik().isEmpty()) {
            return null;
        }
        return new FramePostProcess(model.rig(), footLock, rootMotion, post.ik());
    }

    /** Whole loops played before frame {@code f} (for the accumulated root motion; 0 for a blend). */
    long loops(ClipRootMotion rootMotion, int f) {
        if (rootMotion == null || clip == null) {
            return 0;
        }
        return rootMotion.loops(loop, normalized ? times[f] * clip.duration() : times[f]);
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

    private static List<LayerSpec> layers(JsonNode node) {
        return list(node, LayerSpec.class, "layers", "layer");
    }

    /** A JSON list of {@code type} objects, each read by Jackson; a 400 naming the entry that does not fit. */
    private static <T> List<T> list(JsonNode node, Class<T> type, String field, String what) {
        if (!node.isArray()) {
            throw bad(field + " must be a list of " + what + "s");
        }
        List<T> out = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            try {
                out.add(JSON.treeToValue(node.get(i), type));
            } catch (RuntimeException e) {
                throw bad(field + "[" + i + "] is not " + (what.startsWith("I") ? "an " : "a ") + what + ": "
                        + e.getMessage().lines().findFirst().orElse(""));
            }
        }
        return out;
    }

    /** Each layer's clip-local time for frame {@code f} (seconds, loop-mapped) into {@code out}. */
    void layerTimes(int f, double[] out) {
        for (int i = 0; i < blend.timings().size(); i++) {
            Sampling.LayerTiming timing = blend.timings().get(i);
            out[i] = timing.localTime(timing.time(times[f], normalized, "layer " + i + ": "));
        }
    }

    /** Evaluates frame {@code f} into {@code frames}; {@code scratch} holds one entry per layer. */
    void evaluate(FrameEvaluator frames, int f, double[] scratch) {
        if (frames.edit() instanceof FramePostProcess p) {
            p.frame(f, loops(p.rootMotion(), f));
        }
        if (blend != null) {
            layerTimes(f, scratch);
            frames.evaluateBlend(scratch);
        } else {
            frames.evaluate(localTimes[f]);
        }
    }

    private static ApiException tooManyFrames(double frames, int max) {
        return bad("the bake has " + (long) frames + " frames; the limit is " + max + " (posekit.bake.max-frames)");
    }

    private static Set<Output> outputs(JsonNode node) {
        if (node == null || node.isNull()) {
            throw bad("outputs is required: any of " + OUTPUT_NAMES);
        }
        if (!node.isArray() || node.size() == 0) {
            throw bad("outputs must be a non-empty list of " + OUTPUT_NAMES);
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
                throw bad("outputs[" + i + "] " + v + " is not one of " + OUTPUT_NAMES);
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
        if (outputs.contains(Output.SKINNING_DUAL_QUATERNIONS)) {
            for (int s : skins) {
                // real xyzw, dual xyzw, then the uniform scale applied before them
                add.accept(new Block("skinningDualQuaternions", s, -1, -1, model.skins().get(s).jointCount(), 9, 0));
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
        if (outputs.contains(Output.ROOT_MOTION)) {
            // accumulated translation xyz, rotation xyzw, then the delta since the previous frame likewise
            add.accept(new Block("rootMotion", -1, -1, -1, 1, 14, 0));
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
