package io.posekit.api;

import io.posekit.api.body.LayerEcho;
import io.posekit.api.body.LayerSpec;
import io.posekit.api.body.SamplingBody;
import io.posekit.api.body.SamplingQuery;
import io.posekit.api.http.ApiException;
import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.ik.IkSolver;
import io.posekit.motion.ClipRootMotion;
import io.posekit.motion.RigidMotion;
import io.posekit.motion.RootMotionComponent;
import io.posekit.sampling.BlendEvaluator;
import io.posekit.sampling.BlendMode;
import io.posekit.sampling.BlendingJob;
import io.posekit.sampling.JointMask;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.LoopMode;
import io.posekit.sampling.MorphWeights;
import io.posekit.sampling.Pose;
import io.posekit.sampling.SamplingJob;
import io.posekit.sampling.TimeBase;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a sampling request asks for, validated against an asset: one clip ({@code clip}: a name, or an index; absent
 * = the rest pose) or a blend of layers, the playback time and how it maps into the clip.
 *
 * <p>The playback time in seconds is one of {@code time}; {@code frame / fps}; or {@code normalized × duration}
 * (default 0), multiplied by {@code speed} (default 1, negative allowed). The loop mode ({@code clamp} default,
 * {@code repeat}, {@code pingpong}) maps it to the clip-local time that is sampled. A blend resolves each layer's
 * time the same way (see {@link LayerSpec}); {@code normalized} then applies to each layer's own clip.
 *
 * <p>{@code timeBase} says what the time and frame count ({@link TimeBase}): the clip's time ({@code clip}, the
 * default) or the file's scene time ({@code scene}: the time after speed, minus the clip's
 * {@link Clip#sceneStart()}, is the clip's playback time; for a blend, each layer's own clip's start). Normalized time
 * counts clip durations and takes no scene base.
 *
 * @param clip the clip, or {@code null} for the rest pose or a blend
 * @param time the playback time, seconds of clip time (after unit conversion, speed and the scene base, before loop
 *     mapping); for a blend, the request's time in its own base (or, in normalized time, the phase × speed)
 * @param loop how time maps into the clip
 * @param localTime the clip-local time sampled, seconds, or {@code null} without a clip
 * @param blend the blend, or {@code null}
 * @param post what is done to the pose after sampling (root-motion extraction, IK)
 */
record Sampling(Clip clip, double time, LoopMode loop, Double localTime, Blend blend, PostProcessing post) {

    /** The most layers one blend may have. */
    static final int MAX_LAYERS = 16;


    /**
     * A resolved blend: its evaluator, each layer's clip-local time, and what the response echoes.
     *
     * @param evaluator samples and blends the layers
     * @param localTimes each layer's clip-local time, seconds
     * @param layers the echo
     */
    record Blend(BlendEvaluator evaluator, double[] localTimes, List<LayerEcho> layers) {
    }

    /**
     * How one layer's time follows the request's: its own fixed time (seconds, from its time, frame or normalized), or
     * the request's (seconds, or a phase × its clip's duration when the request is normalized); times its speed, then
     * its loop mode.
     *
     * @param clip the layer's clip
     * @param ownTime the layer's own time, seconds, or {@code null} to follow the request
     * @param speed multiplies the time
     * @param loop maps it into the clip
     * @param base what the layer's time (its own or the request's) counts: {@link TimeBase#SCENE} subtracts the
     *     clip's scene start after the speed
     */
    record LayerTiming(Clip clip, Double ownTime, double speed, LoopMode loop, TimeBase base) {

        /**
         * The layer's playback time, seconds of clip time, for the request time {@code requestTime} (a phase when
         * {@code normalized}).
         */
        double time(double requestTime, boolean normalized, String where) {
            double t = ownTime != null ? ownTime : normalized ? requestTime * clip.duration() : requestTime;
            t = finite(t * speed, where + "time × speed");
            return base == TimeBase.CLIP ? t : finite(base.clipTime(t, clip), where + "scene time − sceneStart");
        }

        double localTime(double time) {
            return loop.localTime(time, clip.duration());
        }
    }

    /**
     * A validated blend whose times are not fixed yet: its evaluator and each layer's timing.
     *
     * @param evaluator samples and blends the layers
     * @param timings each layer's timing
     */
    record BlendTemplate(BlendEvaluator evaluator, List<LayerTiming> timings) {
    }

    /** The time a request names, before it is resolved against a clip. */
    private record When(Double time, Double frame, Double fps, Double normalized, Double speed, LoopMode loop,
            TimeBase base) {
    }

    /**
     * Validates the query parameters {@code q} against {@code model}.
     *
     * @throws ApiException 400 for a malformed or conflicting parameter; 404 for an unknown clip
     */
    static Sampling parse(Model model, SamplingQuery q) {
        When when = new When(optional(q.time(), "time", "a finite decimal number of seconds"),
                optional(q.frame(), "frame", "a finite decimal frame number"),
                optional(q.fps(), "fps", "a positive decimal number of frames per second"),
                optional(q.normalized(), "normalized", "a finite decimal number of clip durations"),
                optional(q.speed(), "speed", "a finite decimal number"), loop(q.loop(), "loop"),
                timeBase(q.timeBase()));
        List<LayerSpec> layers = null;
        if (q.layer() != null && !q.layer().isEmpty()) {
            layers = new ArrayList<>();
            for (int i = 0; i < q.layer().size(); i++) {
                layers.add(compactLayer(q.layer().get(i), i));
            }
        }
        Double threshold = optional(q.threshold(), "threshold", "a positive decimal number");
        return resolve(model, emptyToNull(q.clip()), when, layers, threshold);
    }

    /**
     * Validates a POST body {@code b} against {@code model}.
     *
     * @throws ApiException 400 for a malformed or conflicting field; 404 for an unknown clip
     */
    static Sampling parse(Model model, SamplingBody b) {
        if (b == null) {
            throw bad("Invalid body", "the body must be a JSON object");
        }
        When when = new When(b.time(), b.frame(), b.fps(), b.normalized(), b.speed(), loop(b.loop(), "loop"),
                timeBase(b.timeBase()));
        return resolve(model, emptyToNull(b.clip()), when, b.layers(), b.threshold());
    }

    private static Sampling resolve(Model model, String clipName, When when, List<LayerSpec> layers, Double threshold) {
        checkWhen(when.time(), when.frame(), when.fps(), when.normalized(), "");
        checkBase(when.base(), when.normalized(), "");
        if (layers == null) {
            if (threshold != null) {
                throw bad("Invalid threshold", "threshold is only meaningful with layers");
            }
            Clip clip = clipName == null ? null : clip(model, clipName, "");
            if (when.normalized() != null && clip == null) {
                throw bad("Invalid time", "normalized time needs a clip (the rest pose has no duration)");
            }
            if (when.base() == TimeBase.SCENE && clip == null) {
                throw bad("Invalid timeBase", "timeBase 'scene' needs a clip (the rest pose has no scene time)");
            }
            double time = playback(when.time(), when.frame(), when.fps(), when.normalized(),
                    clip == null ? 0 : clip.duration(), when.speed(), "");
            if (when.base() == TimeBase.SCENE) {
                time = finite(when.base().clipTime(time, clip), "scene time − sceneStart");
                time = time == 0 ? 0 : time;
            }
            return new Sampling(clip, time, when.loop(),
                    clip == null ? null : when.loop().localTime(time, clip.duration()), null, PostProcessing.NONE);
        }
        if (clipName != null) {
            throw bad("Invalid blend", "give clip or layers, not both");
        }
        // the request's own time: seconds, or a phase when normalized (the rest pose's duration is irrelevant here)
        double requestTime = playback(when.time(), when.frame(), when.fps(), when.normalized(), 1, when.speed(), "");
        BlendTemplate template = blend(model, layers, threshold, when.loop(), when.base());
        double[] localTimes = new double[layers.size()];
        List<LayerEcho> echo = new ArrayList<>(layers.size());
        for (int i = 0; i < layers.size(); i++) {
            LayerTiming timing = template.timings().get(i);
            double t = timing.time(requestTime, when.normalized() != null, "layer " + i + ": ");
            localTimes[i] = timing.localTime(t);
            BlendEvaluator.Layer layer = template.evaluator().layers().get(i);
            echo.add(new LayerEcho(timing.clip().name(), layer.weight(), layer.mode().wireName(), t, localTimes[i]));
        }
        return new Sampling(null, requestTime, when.loop(), null,
                new Blend(template.evaluator(), localTimes, List.copyOf(echo)), PostProcessing.NONE);
    }

    /**
     * Validates the layers of a blend against {@code model} and builds its evaluator.
     *
     * @param defaultLoop the loop mode of layers that do not name one
     * @throws ApiException 400 for a malformed layer or threshold; 404 for an unknown clip
     */
    static BlendTemplate blend(Model model, List<LayerSpec> layers, Double threshold, LoopMode defaultLoop) {
        return blend(model, layers, threshold, defaultLoop, TimeBase.CLIP);
    }

    /**
     * {@link #blend(Model, List, Double, LoopMode)} with the layers' times counted in {@code base}.
     *
     * @throws ApiException also 400 for a layer in normalized time with the scene base
     */
    static BlendTemplate blend(Model model, List<LayerSpec> layers, Double threshold, LoopMode defaultLoop,
            TimeBase base) {
        if (layers.isEmpty() || layers.size() > MAX_LAYERS) {
            throw bad("Invalid blend", "a blend has 1 to " + MAX_LAYERS + " layers, not " + layers.size());
        }
        if (threshold != null && !(threshold > 0 && Double.isFinite(threshold))) {
            throw bad("Invalid threshold", "threshold must be a positive finite number, not " + threshold);
        }
        float th = threshold == null ? BlendingJob.DEFAULT_THRESHOLD : threshold.floatValue();
        List<BlendEvaluator.Layer> resolved = new ArrayList<>(layers.size());
        List<LayerTiming> timings = new ArrayList<>(layers.size());
        for (int i = 0; i < layers.size(); i++) {
            LayerSpec l = layers.get(i);
            String where = "layer " + i + ": ";
            if (l == null || l.clip() == null || l.clip().isEmpty()) {
                throw bad("Invalid blend", where + "clip is required");
            }
            Clip clip = clip(model, l.clip(), where);
            checkWhen(l.time(), l.frame(), l.fps(), l.normalized(), where);
            checkBase(base, l.normalized(), where);
            boolean own = l.time() != null || l.frame() != null || l.normalized() != null;
            Double ownTime = own ? playback(l.time(), l.frame(), l.fps(), l.normalized(), clip.duration(), null, where) : null;
            double speed = number(l.speed(), 1, where + "speed");
            LoopMode loop = l.loop() == null ? defaultLoop : loop(l.loop(), where + "loop");
            double weight = number(l.weight(), 1, where + "weight");
            if (weight < 0) {
                throw bad("Invalid blend", where + "weight must not be negative, not " + weight);
            }
            BlendMode mode = l.mode() == null ? BlendMode.NORMAL : BlendMode.byWireName(l.mode()).orElseThrow(
                    () -> bad("Invalid blend", where + "mode '" + l.mode() + "' is not one of normal, additive"));
            float[] mask = null;
            if (l.mask() != null) {
                try {
                    mask = JointMask.subtrees(model.rig(), l.mask());
                } catch (IllegalArgumentException e) {
                    throw bad("Invalid blend", where + "mask: " + e.getMessage());
                }
            }
            if (mode == BlendMode.NORMAL && l.reference() != null) {
                throw bad("Invalid blend", where + "reference is only meaningful for additive layers");
            }
            LocalPose reference = mode == BlendMode.ADDITIVE ? reference(model, l.reference(), where) : null;
            resolved.add(new BlendEvaluator.Layer(clip, (float) weight, mode, mask, reference));
            timings.add(new LayerTiming(clip, ownTime, speed, loop, base));
        }
        return new BlendTemplate(new BlendEvaluator(model.rig(), resolved, th), List.copyOf(timings));
    }

    /** An additive layer's reference: null = its clip's first frame (the evaluator samples it). */
    private static LocalPose reference(Model model, String name, String where) {
        if (name == null || name.equals("first")) {
            return null;
        }
        LocalPose pose = new LocalPose(model.rig().nodeCount());
        if (name.equals("rest")) {
            pose.setToRest(model.rig());
            return pose;
        }
        io.posekit.sampling.AdditiveDelta.sampleFirstFrame(new SamplingJob(), model.rig(),
                clip(model, name, where + "reference: "), pose);
        return pose;
    }

    /**
     * A layer in the compact query form: {@code key:value} pairs separated by semicolons (not commas: Spring splits a
     * lone comma-separated parameter into several values).
     */
    private static LayerSpec compactLayer(String text, int index) {
        String where = "layer " + index + ": ";
        String clip = null, mode = null, loop = null, reference = null;
        Double weight = null, time = null, normalized = null, frame = null, fps = null, speed = null;
        List<String> mask = null;
        for (String part : text.split(";", -1)) {
            int colon = part.indexOf(':');
            if (colon <= 0) {
                throw bad("Invalid blend", where + "'" + part + "' is not key:value");
            }
            String key = part.substring(0, colon).strip();
            String value = part.substring(colon + 1).strip();
            switch (key) {
                case "clip" -> clip = value;
                case "mode" -> mode = value;
                case "loop" -> loop = value;
                case "reference" -> reference = value;
                case "weight" -> weight = required(value, where + "weight", "a finite decimal number");
                case "time" -> time = required(value, where + "time", "a finite decimal number of seconds");
                case "normalized" -> normalized = required(value, where + "normalized", "a finite decimal number of clip durations");
                case "frame" -> frame = required(value, where + "frame", "a finite decimal frame number");
                case "fps" -> fps = required(value, where + "fps", "a positive decimal number of frames per second");
                case "speed" -> speed = required(value, where + "speed", "a finite decimal number");
                case "mask" -> mask = List.of(value.split("\\|", -1));
                default -> throw bad("Invalid blend", where + "unknown key '" + key + "'; keys: clip, weight, mode,"
                        + " time, normalized, frame, fps, speed, loop, mask, reference");
            }
        }
        return new LayerSpec(clip, weight, mode, time, normalized, frame, fps, speed, loop, mask, reference);
    }

    private static void checkWhen(Double time, Double frame, Double fps, Double normalized, String where) {
        int given = (time != null ? 1 : 0) + (frame != null ? 1 : 0) + (normalized != null ? 1 : 0);
        if (given > 1) {
            throw bad("Invalid time", where + "give at most one of time, frame (with fps) and normalized");
        }
        if ((fps != null) != (frame != null)) {
            throw bad("Invalid time", where + (fps != null ? "fps is only meaningful with frame"
                    : "frame needs fps (frames per second)"));
        }
        if (fps != null && !(fps > 0)) {
            throw bad("Invalid time", where + "fps '" + plain(fps) + "' is not a positive decimal number of frames per second");
        }
        for (Double d : new Double[] {time, frame, fps, normalized}) {
            if (d != null && !Double.isFinite(d)) {
                throw bad("Invalid time", where + "times must be finite numbers");
            }
        }
    }

    /** Seconds (or a phase for duration 1) from whichever of time, frame/fps and normalized is given, times speed. */
    private static double playback(Double time, Double frame, Double fps, Double normalized, double duration,
            Double speed, String where) {
        double t;
        if (frame != null) {
            t = finite(frame / fps, where + "frame / fps");
        } else if (normalized != null) {
            t = finite(normalized * duration, where + "normalized × duration");
        } else {
            t = time == null ? 0 : time;
        }
        if (speed != null) {
            t = finite(t * speed, where + "time × speed");
        }
        return t == 0 ? 0 : t; // no -0.0 in the echo
    }

    private static Clip clip(Model model, String name, String where) {
        int index = model.findClip(name).orElseThrow(() -> ApiException.notFound("Unknown clip",
                where + "clip '" + name + "' does not exist; clips: " + (model.clips().isEmpty() ? "none"
                        : model.clips().stream().map(c -> "'" + c.name() + "'").collect(Collectors.joining(", ")))));
        return model.clips().get(index);
    }

    /** The time base a request names: absent or empty = {@link TimeBase#CLIP}. */
    private static TimeBase timeBase(String value) {
        if (value == null || value.isEmpty()) {
            return TimeBase.CLIP;
        }
        return TimeBase.byWireName(value).orElseThrow(() -> bad("Invalid timeBase",
                "timeBase '" + value + "' is not one of clip, scene"));
    }

    /** Normalized time counts clip durations: it has no scene base. */
    private static void checkBase(TimeBase base, Double normalized, String where) {
        if (base == TimeBase.SCENE && normalized != null) {
            throw bad("Invalid timeBase", where + "normalized time counts clip durations; timeBase 'scene' takes"
                    + " time or frame");
        }
    }

    private static LoopMode loop(String value, String name) {
        if (value == null || value.isEmpty()) {
            return LoopMode.CLAMP;
        }
        return LoopMode.byWireName(value).orElseThrow(() -> bad("Invalid loop mode",
                name + " '" + value + "' is not one of clamp, repeat, pingpong"));
    }

    private static double finite(double value, String what) {
        if (!Double.isFinite(value)) {
            throw bad("Invalid time", what + " is out of range");
        }
        return value;
    }

    private static double number(Double value, double otherwise, String what) {
        if (value == null) {
            return otherwise;
        }
        if (!Double.isFinite(value)) {
            throw bad("Invalid blend", what + " must be a finite number");
        }
        return value;
    }

    /** A query parameter as a plain finite decimal number, {@code null} when absent. */
    private static Double optional(String value, String name, String what) {
        return value == null || value.isEmpty() ? null : required(value, name, what);
    }

    /** A plain finite decimal number, or a 400 saying {@code name 'value' is not <what>} / is out of range. */
    private static double required(String value, String name, String what) {
        String title = "Invalid " + (name.contains(": ") ? "blend" : name);
        if (!isDecimal(value)) {
            throw bad(title, name + " '" + value + "' is not " + what);
        }
        double d = Double.parseDouble(value);
        if (!Double.isFinite(d)) {
            throw bad(title, name + " '" + value + "' is out of range");
        }
        return d;
    }

    /**
     * Whether {@code s} is a plain decimal number, {@code [+-]?(digits[.digits?]|.digits)([eE][+-]?digits)?}: no NaN,
     * Infinity, hex floats or type suffixes that Java's parser would accept.
     */
    static boolean isDecimal(String s) {
        int i = 0;
        int n = s.length();
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int intDigits = 0;
        while (i < n && isDigit(s.charAt(i))) {
            i++;
            intDigits++;
        }
        int fracDigits = 0;
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                fracDigits++;
            }
        }
        if (intDigits == 0 && fracDigits == 0) {
            return false;
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int expDigits = 0;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                expDigits++;
            }
            if (expDigits == 0) {
                return false;
            }
        }
        return i == n;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static String plain(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static ApiException bad(String title, String detail) {
        return ApiException.badRequest(title, detail);
    }

    /** The clip's name, or {@code null} for the rest pose or a blend. */
    String clipName() {
        return clip == null ? null : clip.name();
    }

    /** The blended layers, or {@code null} without a blend. */
    List<LayerEcho> layers() {
        return blend == null ? null : blend.layers();
    }

    /**
     * The morph weights of every mesh instance at the sampled time (the defaults for the rest pose; for a blend, the
     * weights of the first normal layer's clip at its time — weights are not blended).
     */
    MorphWeights morphWeights(Model model) {
        if (blend != null) {
            return MorphWeights.evaluate(model.meshes(), blend.evaluator().layers().getFirst().clip(), blend.localTimes()[0]);
        }
        return MorphWeights.evaluate(model.meshes(), clip, localTime == null ? 0 : localTime);
    }

    /** This sampling with {@code post} done to its poses. */
    Sampling with(PostProcessing post) {
        return new Sampling(clip, time, loop, localTime, blend, post);
    }

    /**
     * The root motion of an evaluated pose.
     *
     * @param joint the root joint's name
     * @param components what was extracted
     * @param loops whole loops played before the sample
     * @param total the motion since the clip's start, over the loops
     * @param cycle the motion within the present loop, since the clip's start
     * @param delta the motion since the previous sample ({@code previousTime}), in the character's frame there; or
     *     {@code null}
     */
    record Motion(String joint, List<String> components, long loops, RigidMotion total, RigidMotion cycle,
            RigidMotion delta) {
    }

    /**
     * A pose and what post-processing found.
     *
     * @param pose the pose (in place when the root motion was extracted; IK applied)
     * @param motion the root motion, or {@code null}
     * @param reached per IK chain whether its target was reached, or {@code null} without IK
     */
    record Evaluation(Pose pose, Motion motion, boolean[] reached) {
    }

    /**
     * Samples the asset's rig (or blends the layers), accumulates model matrices and applies the post-processing.
     *
     * @throws ApiException 422 when the pose overflows the float range (see {@link FiniteValues})
     */
    Pose evaluate(Model model) {
        return evaluation(model).pose();
    }

    /**
     * {@link #evaluate} with what the post-processing found.
     *
     * @throws ApiException 400 for previousTime with a blend; 422 when the pose overflows the float range or an IK
     *     joint has a singular matrix
     */
    Evaluation evaluation(Model model) {
        ClipRootMotion rootMotion = post.rootMotion() == null ? null : rootMotion(model);
        Pose pose = sample(model);
        if (!post.any()) {
            return new Evaluation(pose, null, null);
        }
        Motion motion = null;
        if (rootMotion != null) {
            RigidMotion cycle = new RigidMotion();
            rootMotion.extractor().extract(pose.local(), pose.modelMatrices(), cycle);
            long loops = rootMotion.loops(loop, time);
            RigidMotion total = new RigidMotion();
            rootMotion.accumulate(loops, cycle, total);
            RigidMotion delta = null;
            Double previous = post.rootMotion().previousTime();
            if (previous != null) {
                RigidMotion before = new RigidMotion();
                double previousLocal = clip == null ? 0 : loop.localTime(previous, clip.duration());
                rootMotion.extractor().motion(Pose.evaluate(model.rig(), clip, previousLocal).modelMatrices(), before);
                rootMotion.accumulate(rootMotion.loops(loop, previous), before, before);
                delta = before.invert().mul(before, total);
            }
            motion = new Motion(model.rig().name(rootMotion.extractor().joint()), post.rootMotion().components()
                    .stream().map(RootMotionComponent::wireName).toList(), loops, total, cycle, delta);
        }
        boolean[] reached = null;
        IkSolver solver = post.solver(model);
        if (solver != null) {
            try {
                solver.apply(pose.local(), pose.modelMatrices());
            } catch (IllegalStateException e) {
                throw new ApiException(org.springframework.http.HttpStatus.UNPROCESSABLE_CONTENT, "IK failed",
                        e.getMessage());
            }
            reached = new boolean[solver.chains().size()];
            for (int i = 0; i < reached.length; i++) {
                reached[i] = solver.reached(i);
            }
        }
        FiniteValues.check(model, pose);
        return new Evaluation(pose, motion, reached);
    }

    /** The root motion of the clip (or the rest pose); for a blend, relative to the blend with every layer at 0. */
    private ClipRootMotion rootMotion(Model model) {
        PostProcessing.RootMotion r = post.rootMotion();
        if (blend == null) {
            return ClipRootMotion.of(model.rig(), clip, r.joint(), r.components());
        }
        if (r.previousTime() != null) {
            throw ApiException.badRequest("Invalid rootMotion", "previousTime is not supported with a blend");
        }
        blend.evaluator().evaluate(new double[blend.localTimes().length]);
        return ClipRootMotion.ofReference(model.rig(), r.joint(), r.components(),
                blend.evaluator().modelMatrices().clone());
    }

    private Pose sample(Model model) {
        Pose pose;
        if (blend != null) {
            blend.evaluator().evaluate(blend.localTimes());
            pose = new Pose(blend.evaluator().local(), blend.evaluator().modelMatrices());
        } else {
            pose = Pose.evaluate(model.rig(), clip, localTime == null ? 0 : localTime);
        }
        FiniteValues.check(model, pose);
        return pose;
    }
}
