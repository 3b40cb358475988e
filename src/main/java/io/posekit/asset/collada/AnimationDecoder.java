package io.posekit.asset.collada;

import io.posekit.asset.CurveKeys;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.clip.Curve;
import io.posekit.clip.Interpolation;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.math.Matrices;
import io.posekit.math.Quaternions;
import io.posekit.sampling.CurveSampler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns {@code <library_animations>} into clips.
 *
 * <p>Clips: each {@code <animation_clip>} of {@code <library_animation_clips>} is a clip of the channels of its
 * {@code <instance_animation>}s (nested animations included), named by its {@code name}, else {@code id}, else
 * {@code animation_clip_{index}} (repeated names get {@code _2}, {@code _3}, …), every key time shifted by
 * {@code −start} and lasting {@code end − start}; channels no clip uses are ignored (warning). Without a clip
 * library every channel of the file forms one clip, {@code default}, lasting until its last key.
 *
 * <p>Channels target {@code nodeId/sid} (a whole transform element), {@code nodeId/sid.X|Y|Z|ANGLE} or
 * {@code nodeId/sid(i)} / {@code nodeId/sid(row)(column)} (one parameter; for a {@code <matrix>} the first index
 * is the row). A target naming no node of the scene or no transform element of the node is skipped with a
 * warning, as are animations of a rotation's axis, of {@code <lookat>} and of {@code <skew>}. Channels targeting a
 * morph's {@code MORPH_WEIGHT} source or array ({@code weights-id(i)} for one weight, {@code weights-id} for all)
 * animate that morph's weights: a {@link TrackProperty#WEIGHTS} track on every node its mesh is placed on, the curves
 * sampled at their {@link CurveKeys}, the weights not animated held at their {@code MORPH_WEIGHT} values.
 *
 * <p>Per animated node and clip:
 * <ul>
 *   <li>When a {@code <matrix>} element is animated, the node's local matrix (its whole element stack, every
 *       animated parameter evaluated by its own curve) is built at the union of the channels' key times and
 *       decomposed into translation, rotation and scale {@link Track}s, LINEAR (STEP when every segment is STEP),
 *       rotation keys made hemisphere-continuous. Between keys they interpolate by lerp and slerp.</li>
 *   <li>Otherwise the node gets a {@link NodeTransformTrack}: its whole element stack in document order with every
 *       parameter a {@link Curve} (constants where not animated), evaluated exactly at sampling time. A full
 *       {@code <rotate>} channel animates the angle about the element's static axis (warning when the keys'
 *       axes differ from it).</li>
 * </ul>
 */
final class AnimationDecoder {

    private final ColladaDocument doc;
    private final SceneBuilder scene;
    private final ControllerDecoder controllers;
    private final SamplerDecoder samplers;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final Map<XmlElement, Binding> bindings = new IdentityHashMap<>();
    private final Set<XmlElement> skipped = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<XmlElement, XmlElement> animationOf = new IdentityHashMap<>();
    private final Map<XmlElement, Optional<MorphChannel>> morphChannels = new IdentityHashMap<>();
    /** The id of every morph's MORPH_WEIGHT {@code <source>} and its array → the {@code <controller>}; built on use. */
    private Map<String, XmlElement> morphWeightIds;

    AnimationDecoder(ColladaDocument doc, SceneBuilder scene, ControllerDecoder controllers, SamplerDecoder samplers,
            DecodeBudget budget, ImportWarnings warnings) {
        this.doc = doc;
        this.scene = scene;
        this.controllers = controllers;
        this.samplers = samplers;
        this.budget = budget;
        this.warnings = warnings;
    }

    /**
     * What a channel drives: a transform element of a node, and for each output component the element parameter
     * it sets (translate/scale 0–2, rotate 3 = angle, matrix 0–15 row-major), or -1 when unused.
     */
    private record Binding(XmlElement node, int element, int[] parameters, SamplerDecoder.Sampler sampler) {
    }

    /**
     * A channel animating morph weights: the morph {@code <controller>}, the weight it sets (−1: all of them, one per
     * output value) and its sampler.
     */
    private record MorphChannel(XmlElement controller, int weight, SamplerDecoder.Sampler sampler) {
    }

    /**
     * All clips.
     *
     * @throws ImportException (invalid) for malformed samplers, clips or channel outputs
     */
    List<ImportScene.Clip> decode() {
        List<XmlElement> clipElements = doc.library("library_animation_clips", "animation_clip");
        List<XmlElement> allChannels = channels(doc.allAnimations());
        List<ImportScene.Clip> clips = new ArrayList<>();
        if (clipElements.isEmpty()) {
            if (!allChannels.isEmpty()) {
                clips.add(clip("default", allChannels, 0, null));
            }
            return clips;
        }
        int maxClips = budget.limits().maxClips();
        if (clipElements.size() > maxClips) {
            throw ImportLimits.exceeded("the file", clipElements.size(), "<animation_clip>s", maxClips,
                    ImportLimits.CLIPS);
        }
        Set<XmlElement> used = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<String> names = new HashSet<>();
        Map<String, Integer> nextSuffix = new HashMap<>();
        for (int i = 0; i < clipElements.size(); i++) {
            budget.checkTime();
            XmlElement c = clipElements.get(i);
            String name = c.attr("name") != null ? c.attr("name") : c.attr("id") != null ? c.attr("id")
                    : "animation_clip_" + i;
            String unique = name;
            if (!names.add(unique)) {
                // suffixes below the one remembered are taken already (the set only grows)
                int n = nextSuffix.getOrDefault(name, 2);
                do {
                    unique = name + "_" + n++;
                } while (!names.add(unique));
                nextSuffix.put(name, n);
            }
            String where = "animation_clip " + Text.quote(unique);
            double start = Attributes.number(c, "start", 0, where);
            Double duration = null;
            if (c.attr("end") != null) {
                double end = Attributes.number(c, "end", 0, where);
                if (end < start) {
                    throw ImportException.invalid(where + ": end " + end + " is before start " + start);
                }
                duration = end - start;
            }
            List<XmlElement> animations = new ArrayList<>();
            for (XmlElement ia : c.children("instance_animation")) {
                XmlElement a = doc.resolve(ia.attr("url"));
                if (a == null || !a.name().equals("animation")) {
                    warnings.add(where + ": <instance_animation> url " + Text.quote(ia.attr("url"))
                            + " is not an <animation> in this file; skipped");
                    continue;
                }
                ColladaDocument.collectAnimations(a, animations);
            }
            List<XmlElement> channels = channels(animations);
            used.addAll(channels);
            clips.add(clip(unique, channels, start, duration));
        }
        int unused = 0;
        for (XmlElement ch : allChannels) {
            if (!used.contains(ch)) {
                unused++;
            }
        }
        if (unused > 0) {
            warnings.add(unused + (unused == 1 ? " animation channel is" : " animation channels are")
                    + " not part of any <animation_clip>; ignored");
        }
        return clips;
    }

    /** The {@code <channel>}s of the animations (each once), in order. */
    private List<XmlElement> channels(List<XmlElement> animations) {
        Set<XmlElement> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<XmlElement> out = new ArrayList<>();
        for (XmlElement a : animations) {
            for (XmlElement ch : a.children("channel")) {
                if (seen.add(ch)) {
                    out.add(ch);
                    animationOf.put(ch, a);
                }
            }
        }
        return out;
    }

    /** The animated parameters of one node in one clip: (element, parameter) → curve. */
    private static final class NodeCurves {
        final Map<Long, Curve> curves = new LinkedHashMap<>();
    }

    private ImportScene.Clip clip(String name, List<XmlElement> channels, double shift, Double duration) {
        Map<XmlElement, NodeCurves> byNode = new LinkedHashMap<>();
        Map<XmlElement, Map<Integer, Curve>> byMorph = new LinkedHashMap<>();
        Map<SamplerDecoder.Sampler, float[]> times = new IdentityHashMap<>();
        for (XmlElement ch : channels) {
            budget.checkTime();
            MorphChannel mc = morphChannel(ch);
            if (mc != null) {
                float[] t = times.computeIfAbsent(mc.sampler(), s -> samplers.shiftedTimes(s, shift));
                Map<Integer, Curve> curves = byMorph.computeIfAbsent(mc.controller(), k -> new LinkedHashMap<>());
                int components = mc.sampler().components();
                for (int c = 0; c < components; c++) {
                    curves.put(mc.weight() >= 0 ? mc.weight() : c, samplers.curve(mc.sampler(), c, shift, t));
                }
                continue;
            }
            Binding b = binding(ch);
            if (b == null) {
                continue;
            }
            float[] t = times.computeIfAbsent(b.sampler(), s -> samplers.shiftedTimes(s, shift));
            NodeCurves nc = byNode.computeIfAbsent(b.node(), k -> new NodeCurves());
            for (int c = 0; c < b.parameters().length; c++) {
                int p = b.parameters()[c];
                if (p < 0) {
                    continue;
                }
                Curve curve = samplers.curve(b.sampler(), c, shift, t);
                if (nc.curves.put(key(b.element(), p), curve) != null) {
                    TransformElement e = scene.transforms(b.node()).get(b.element());
                    warnings.add("clip " + Text.quote(name) + ": node " + b.node().label() + " <" + e.kind().tag()
                            + (e.sid() == null ? "" : " sid='" + Text.shorten(e.sid()) + "'") + "> parameter " + p
                            + " is animated by two channels; the last one is used");
                }
            }
        }
        List<Track> tracks = new ArrayList<>();
        List<NodeTransformTrack> stacks = new ArrayList<>();
        for (Map.Entry<XmlElement, NodeCurves> entry : byNode.entrySet()) {
            XmlElement node = entry.getKey();
            List<TransformElement> elements = scene.transforms(node);
            boolean matrix = false;
            for (long k : entry.getValue().curves.keySet()) {
                matrix |= elements.get((int) (k >>> 32)).kind() == TransformElement.Kind.MATRIX;
            }
            List<Integer> importNodes = scene.importNodes(node);
            if (matrix) {
                List<Track> baked = bake(node, elements, entry.getValue().curves);
                for (int i : importNodes) {
                    for (Track t : baked) {
                        tracks.add(t.withNode(i));
                    }
                }
            } else {
                NodeTransformTrack stack = stack(elements, entry.getValue().curves);
                for (int i : importNodes) {
                    stacks.add(stack.withNode(i));
                }
            }
        }
        for (Map.Entry<XmlElement, Map<Integer, Curve>> e : byMorph.entrySet()) {
            Track weights = morphTrack(e.getKey(), e.getValue());
            for (int i : scene.morphNodes(e.getKey())) {
                tracks.add(weights.withNode(i));
            }
        }
        return new ImportScene.Clip(name, tracks, stacks, duration, shift);
    }

    /**
     * The weights track of a morph (node index 0; the caller re-targets it): the animated weights' curves sampled at
     * their {@link CurveKeys} (exact for linear curves), the others at their {@code MORPH_WEIGHT} value.
     */
    private Track morphTrack(XmlElement controller, Map<Integer, Curve> animated) {
        float[] defaults = controllers.morph(controller).weights();
        List<Curve> curves = new ArrayList<>(animated.values());
        List<double[]> noKinks = Collections.nCopies(curves.size(), new double[0]);
        boolean stepOnly = CurveKeys.stepOnly(curves);
        float[] times = CurveKeys.times(curves, noKinks, stepOnly, budget);
        int n = defaults.length;
        budget.charge((long) times.length * n, 4, "morph " + controller.label() + " weights");
        float[] values = new float[times.length * n];
        for (int k = 0; k < times.length; k++) {
            budget.checkTime();
            System.arraycopy(defaults, 0, values, k * n, n);
            for (Map.Entry<Integer, Curve> w : animated.entrySet()) {
                values[k * n + w.getKey()] = (float) CurveSampler.evaluate(w.getValue(), times[k]);
            }
        }
        return new Track(0, TrackProperty.WEIGHTS, stepOnly ? Interpolation.STEP : Interpolation.LINEAR, n, times,
                values);
    }

    /**
     * The morph weights a channel animates, or {@code null} when it targets something else: {@code id(i)} or {@code id}
     * where {@code id} is a morph's MORPH_WEIGHT {@code <source>} or its {@code <float_array>} (the COLLADA address of
     * an array element, as 3ds Max's and Maya's exporters write them).
     */
    private MorphChannel morphChannel(XmlElement channel) {
        Optional<MorphChannel> known = morphChannels.get(channel);
        if (known == null) {
            known = Optional.ofNullable(readMorphChannel(channel));
            morphChannels.put(channel, known);
        }
        return known.orElse(null);
    }

    private MorphChannel readMorphChannel(XmlElement channel) {
        String target = channel.attr("target");
        if (target == null || target.indexOf('/') >= 0) {
            return null;
        }
        int open = target.indexOf('(');
        String id = open < 0 ? target : target.substring(0, open);
        XmlElement controller = morphWeightIds().get(id);
        if (controller == null) {
            return null;
        }
        String where = "animation channel " + Text.quote(target);
        float[] defaults = controllers.morph(controller).weights();
        int weight = -1;
        if (open >= 0) {
            String index = target.substring(open);
            if (!index.matches("\\(\\d{1,9}\\)")) {
                throw ImportException.invalid(where + ": " + Text.quote(index) + " is not an index (n)");
            }
            weight = Integer.parseInt(index.substring(1, index.length() - 1));
            if (weight >= defaults.length) {
                throw ImportException.invalid(where + ": weight " + weight + " is out of range for the "
                        + defaults.length + " targets of morph " + controller.label());
            }
        }
        SamplerDecoder.Sampler sampler = samplers.sampler(channel.attr("source"), where);
        int needed = weight >= 0 ? 1 : defaults.length;
        if (sampler.components() != needed) {
            throw ImportException.invalid(where + ": " + sampler.where() + " has " + sampler.components()
                    + " output values per key but the target takes " + needed);
        }
        return new MorphChannel(controller, weight, sampler);
    }

    private Map<String, XmlElement> morphWeightIds() {
        if (morphWeightIds == null) {
            morphWeightIds = new HashMap<>();
            for (XmlElement controller : doc.library("library_controllers", "controller")) {
                XmlElement targets = controller.child("morph") == null ? null : controller.child("morph").child("targets");
                for (XmlElement in : targets == null ? List.<XmlElement>of() : targets.children("input")) {
                    XmlElement source = "MORPH_WEIGHT".equals(in.attr("semantic")) ? doc.resolve(in.attr("source")) : null;
                    if (source == null) {
                        continue;
                    }
                    if (source.attr("id") != null) {
                        morphWeightIds.putIfAbsent(source.attr("id"), controller);
                    }
                    XmlElement array = source.child("float_array");
                    if (array != null && array.attr("id") != null) {
                        morphWeightIds.putIfAbsent(array.attr("id"), controller);
                    }
                }
            }
        }
        return morphWeightIds;
    }

    private static long key(int element, int parameter) {
        return ((long) element << 32) | parameter;
    }

    /** The node's whole element stack as curves (constants where not animated). */
    private static NodeTransformTrack stack(List<TransformElement> elements, Map<Long, Curve> curves) {
        List<NodeTransformTrack.Element> out = new ArrayList<>(elements.size());
        double[] m = new double[16];
        for (int e = 0; e < elements.size(); e++) {
            TransformElement el = elements.get(e);
            double[] v = el.values();
            switch (el.kind()) {
                case TRANSLATE -> out.add(new NodeTransformTrack.Translate(param(curves, e, 0, v), param(curves, e, 1, v),
                        param(curves, e, 2, v)));
                case SCALE -> out.add(new NodeTransformTrack.Scale(param(curves, e, 0, v), param(curves, e, 1, v),
                        param(curves, e, 2, v)));
                case ROTATE -> out.add(new NodeTransformTrack.Rotate((float) v[0], (float) v[1], (float) v[2],
                        param(curves, e, 3, v)));
                default -> {
                    TransformMath.matrix(el.kind(), v, m);
                    List<Curve> constants = new ArrayList<>(16);
                    for (int i = 0; i < 16; i++) {
                        constants.add(Curve.constant((float) m[i]));
                    }
                    out.add(new NodeTransformTrack.Matrix(constants));
                }
            }
        }
        return new NodeTransformTrack(0, out);
    }

    private static Curve param(Map<Long, Curve> curves, int element, int parameter, double[] values) {
        Curve c = curves.get(key(element, parameter));
        return c != null ? c : Curve.constant((float) values[parameter]);
    }

    /**
     * Samples the node's local matrix at the union of its curves' key times and decomposes it into translation,
     * rotation and scale tracks (node index 0; the caller re-targets them).
     */
    private List<Track> bake(XmlElement node, List<TransformElement> elements, Map<Long, Curve> curves) {
        int total = 0;
        boolean allStep = true;
        for (Curve c : curves.values()) {
            total += c.keyCount();
            for (byte s : c.segments()) {
                allStep &= s == Curve.STEP;
            }
        }
        budget.charge(total, 4, "node " + node.label() + " key times");
        float[] all = new float[total];
        int at = 0;
        for (Curve c : curves.values()) {
            System.arraycopy(c.times(), 0, all, at, c.keyCount());
            at += c.keyCount();
        }
        Arrays.sort(all);
        int n = 0;
        for (int i = 0; i < all.length; i++) {
            if (i == 0 || all[i] != all[n - 1]) {
                all[n++] = all[i];
            }
        }
        float[] times = Arrays.copyOf(all, n);
        budget.charge(n, 40, "node " + node.label() + " decomposed keys");
        float[] t = new float[3 * n];
        float[] r = new float[4 * n];
        float[] s = new float[3 * n];
        double[][] params = new double[elements.size()][];
        for (int e = 0; e < params.length; e++) {
            params[e] = elements.get(e).values().clone();
        }
        long[] keys = new long[curves.size()];
        Curve[] animated = new Curve[curves.size()];
        int i = 0;
        for (Map.Entry<Long, Curve> c : curves.entrySet()) {
            keys[i] = c.getKey();
            animated[i++] = c.getValue();
        }
        double[] product = new double[16];
        double[] element = new double[16];
        double[] back = new double[16];
        double worst = 0;
        for (int k = 0; k < n; k++) {
            budget.checkTime();
            for (int a = 0; a < keys.length; a++) {
                params[(int) (keys[a] >>> 32)][(int) keys[a]] = CurveSampler.evaluate(animated[a], times[k]);
            }
            TransformMath.identity(product);
            for (int e = 0; e < params.length; e++) {
                TransformMath.matrix(elements.get(e).kind(), params[e], element);
                Matrices.multiply(product, 0, element, 0, product, 0);
            }
            Matrices.decompose(product, 0, t, 3 * k, r, 4 * k, s, 3 * k);
            if (k > 0 && Quaternions.dot(r, 4 * k - 4, r, 4 * k) < 0) {
                for (int c = 0; c < 4; c++) {
                    r[4 * k + c] = -r[4 * k + c];
                }
            }
            Matrices.composeTrs(t, 3 * k, r, 4 * k, s, 3 * k, back, 0);
            double largest = 1;
            double err = 0;
            for (int c = 0; c < 16; c++) {
                largest = Math.max(largest, Math.abs(product[c]));
                err = Math.max(err, Math.abs(back[c] - product[c]));
            }
            worst = Math.max(worst, err / largest);
        }
        if (!(worst <= TransformMath.SHEAR_TOLERANCE)) {
            warnings.add("node " + node.label() + ": its animated transform has shear that translation/rotation/scale "
                    + "cannot represent (relative reconstruction error up to " + (float) worst
                    + "); the nearest TRS is used");
        }
        for (float v : t) {
            checkFinite(v, node);
        }
        for (float v : s) {
            checkFinite(v, node);
        }
        Interpolation interpolation = allStep ? Interpolation.STEP : Interpolation.LINEAR;
        return List.of(new Track(0, TrackProperty.TRANSLATION, interpolation, 3, times, t),
                new Track(0, TrackProperty.ROTATION, interpolation, 4, times, r),
                new Track(0, TrackProperty.SCALE, interpolation, 3, times, s));
    }

    private static void checkFinite(float v, XmlElement node) {
        if (!Float.isFinite(v)) {
            throw ImportException.invalid("node " + node.label() + ": its animated transform is not finite");
        }
    }

    /** The binding of a channel (decoded once), or {@code null} when the channel is skipped (warned once). */
    private Binding binding(XmlElement channel) {
        if (skipped.contains(channel)) {
            return null;
        }
        Binding b = bindings.get(channel);
        if (b == null) {
            b = bind(channel);
            if (b == null) {
                skipped.add(channel);
            } else {
                bindings.put(channel, b);
            }
        }
        return b;
    }

    private Binding bind(XmlElement channel) {
        String target = channel.attr("target");
        XmlElement animation = animationOf.get(channel);
        String where = "animation " + (animation == null ? "" : animation.label() + " ") + "channel "
                + Text.quote(target == null ? "" : target);
        if (target == null) {
            warnings.add(where + " has no target; skipped");
            return null;
        }
        int slash = target.indexOf('/');
        if (slash <= 0) {
            warnings.add(where + " does not address a transform element (id/sid); skipped");
            return null;
        }
        String id = target.substring(0, slash);
        String rest = target.substring(slash + 1);
        if (rest.indexOf('/') >= 0) {
            warnings.add(where + ": nested sid paths are not supported; skipped");
            return null;
        }
        XmlElement node = doc.byId(id);
        if (node == null || !node.name().equals("node") || scene.importNodes(node).isEmpty()) {
            warnings.add(where + ": " + Text.quote(id) + " is not a node of the scene; skipped");
            return null;
        }
        int cut = rest.length();
        for (int i = 0; i < rest.length(); i++) {
            char ch = rest.charAt(i);
            if (ch == '.' || ch == '(') {
                cut = i;
                break;
            }
        }
        String sid = rest.substring(0, cut);
        String selector = rest.substring(cut);
        List<TransformElement> elements = scene.transforms(node);
        int element = -1;
        for (int i = 0; i < elements.size() && element < 0; i++) {
            if (sid.equals(elements.get(i).sid())) {
                element = i;
            }
        }
        if (element < 0) {
            warnings.add(where + ": node " + node.label() + " has no transform element with sid " + Text.quote(sid)
                    + "; skipped");
            return null;
        }
        TransformElement el = elements.get(element);
        if (el.kind() == TransformElement.Kind.LOOKAT || el.kind() == TransformElement.Kind.SKEW) {
            warnings.add(where + ": animating <" + el.kind().tag() + "> is not supported; skipped");
            return null;
        }
        int parameter = selector.isEmpty() ? -1 : parameter(el, selector, where);
        if (parameter == -2) {
            return null;
        }
        SamplerDecoder.Sampler sampler = samplers.sampler(channel.attr("source"), where);
        int comps = sampler.components();
        int[] parameters;
        if (parameter >= 0) {
            if (comps != 1) {
                throw ImportException.invalid(where + ": " + sampler.where() + " has " + comps
                        + " output values per key but the target is a single value");
            }
            parameters = new int[] {parameter};
        } else if (el.kind() == TransformElement.Kind.ROTATE && comps == 1) {
            parameters = new int[] {3};
        } else {
            int needed = el.kind().parameters();
            if (comps != needed) {
                throw ImportException.invalid(where + ": " + sampler.where() + " has " + comps
                        + " output values per key but <" + el.kind().tag() + "> needs " + needed);
            }
            parameters = new int[needed];
            for (int i = 0; i < needed; i++) {
                parameters[i] = i;
            }
            if (el.kind() == TransformElement.Kind.ROTATE) {
                parameters[0] = -1;
                parameters[1] = -1;
                parameters[2] = -1;
                checkAxis(el, sampler, where);
            }
        }
        return new Binding(node, element, parameters, sampler);
    }

    /**
     * The parameter a member ({@code .X}, {@code .ANGLE}) or index ({@code (i)}, {@code (r)(c)}) selector picks, or
     * -2 when it is skipped (warned).
     */
    private int parameter(TransformElement el, String selector, String where) {
        TransformElement.Kind kind = el.kind();
        int p = -2;
        if (selector.startsWith(".")) {
            String member = selector.substring(1).toUpperCase(java.util.Locale.ROOT);
            p = switch (member) {
                case "X" -> 0;
                case "Y" -> 1;
                case "Z" -> 2;
                case "ANGLE" -> kind == TransformElement.Kind.ROTATE ? 3 : -2;
                default -> -2;
            };
            if (kind == TransformElement.Kind.MATRIX) {
                p = -2;
            }
        } else {
            int[] indices = indices(selector);
            if (indices != null && indices.length == 1) {
                p = indices[0] < kind.parameters() ? indices[0] : -2;
            } else if (indices != null && indices.length == 2 && kind == TransformElement.Kind.MATRIX
                    && indices[0] < 4 && indices[1] < 4) {
                p = 4 * indices[0] + indices[1];
            }
        }
        if (p == -2) {
            warnings.add(where + ": " + Text.quote(selector) + " is not a parameter of <" + kind.tag() + ">; skipped");
            return -2;
        }
        if (kind == TransformElement.Kind.ROTATE && p < 3) {
            warnings.add(where + ": animating a rotation's axis is not supported; skipped");
            return -2;
        }
        return p;
    }

    /** {@code (a)} or {@code (a)(b)} as ints, or {@code null} when malformed. */
    private static int[] indices(String selector) {
        List<Integer> out = new ArrayList<>();
        int i = 0;
        while (i < selector.length()) {
            if (selector.charAt(i) != '(') {
                return null;
            }
            int close = selector.indexOf(')', i);
            if (close < 0 || close - i - 1 > 3 || close == i + 1) {
                return null;
            }
            int v = 0;
            for (int k = i + 1; k < close; k++) {
                char c = selector.charAt(k);
                if (c < '0' || c > '9') {
                    return null;
                }
                v = 10 * v + (c - '0');
            }
            out.add(v);
            i = close + 1;
        }
        return out.isEmpty() || out.size() > 2 ? null : out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Warns when a full rotate channel's keys have another axis than the element's static one. */
    private void checkAxis(TransformElement el, SamplerDecoder.Sampler s, String where) {
        double[] v = el.values();
        double len = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        float[] values = s.values();
        for (int k = 0; k < s.keyCount(); k++) {
            double x = values[4 * k];
            double y = values[4 * k + 1];
            double z = values[4 * k + 2];
            double l = Math.sqrt(x * x + y * y + z * z);
            boolean same = len == 0 ? l == 0
                    : l > 0 && Math.abs(x / l - v[0] / len) <= 1e-6 && Math.abs(y / l - v[1] / len) <= 1e-6
                    && Math.abs(z / l - v[2] / len) <= 1e-6;
            if (!same) {
                warnings.add(where + ": the keys change the rotation axis; only the angle is animated, about the "
                        + "static axis");
                return;
            }
        }
    }
}
