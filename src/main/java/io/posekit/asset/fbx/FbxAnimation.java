package io.posekit.asset.fbx;

import java.util.HashMap;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportScene;
import io.posekit.asset.ImportWarnings;
import io.posekit.clip.Curve;
import io.posekit.clip.NodeTransformTrack;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns each {@code AnimationStack} into a clip.
 *
 * <ul>
 *   <li><b>Clip</b>: named by the stack (repeated names get {@code _2}, {@code _3}, …); clip time 0 is the stack's
 *       {@code LocalStart} and the clip lasts {@code LocalStop − LocalStart} (ticks / 46 186 158 000). When the stack
 *       has no such span the {@code Takes} entry of the same name gives it ({@code LocalTime}), else the clip lasts
 *       until its last key.</li>
 *   <li><b>Layers</b>: the stack's first {@code AnimationLayer} (connected to it); further layers are ignored with a
 *       warning (layer blending is not supported).</li>
 *   <li><b>Channels</b>: the layer's {@code AnimationCurveNode}s connected object-to-property to a Model's
 *       {@code Lcl Translation}, {@code Lcl Rotation} or {@code Lcl Scaling}, each with up to three
 *       {@code AnimationCurve}s connected to its {@code d|X}, {@code d|Y}, {@code d|Z}; a component without a curve
 *       holds the curve node's own value ({@code d|X} …), else the Model's. Curve nodes on other properties are
 *       ignored (one warning names them).</li>
 *   <li><b>Tracks</b>: each animated Model gets a {@link NodeTransformTrack} with its whole transform chain
 *       ({@link FbxTransform#elements}): pivots, offsets, pre- and post-rotation as constant matrices, the translation,
 *       the three Euler rotations in the node's rotation order and the scaling driven by their curves
 *       ({@link FbxCurves}), so sampling evaluates the FBX curves and the chain exactly.</li>
 * </ul>
 */
final class FbxAnimation {

    private static final String[] PROPERTIES = {"Lcl Translation", "Lcl Rotation", "Lcl Scaling"};

    private FbxAnimation() {
    }

    /** The curves animating one Model: [property][component], {@code null} where not animated. */
    private static final class Channels {
        final Curve[][] curves = new Curve[3][3];
        final double[][] defaults = new double[3][];
    }

    /** One clip per {@code AnimationStack}, in file order. */
    static List<ImportScene.Clip> clips(FbxScene scene, FbxHierarchy nodes, List<FbxBlendShapes.Placement> morphs,
            DecodeBudget budget, ImportWarnings warnings) {
        List<ImportScene.Clip> clips = new ArrayList<>();
        List<FbxScene.FbxObject> stacks = scene.objects("AnimationStack");
        int maxClips = budget.limits().maxClips();
        if (stacks.size() > maxClips) {
            throw ImportLimits.exceeded("the file", stacks.size(), "AnimationStacks (clips)", maxClips,
                    ImportLimits.CLIPS);
        }
        Set<String> names = new HashSet<>();
        Map<String, Integer> nextSuffix = new HashMap<>();
        for (FbxScene.FbxObject stack : stacks) {
            budget.checkTimeNow();
            String unique = stack.name();
            if (!names.add(unique)) {
                // suffixes below the one remembered are taken already (the set only grows)
                int n = nextSuffix.getOrDefault(stack.name(), 2);
                do {
                    unique = stack.name() + "_" + n++;
                } while (!names.add(unique));
                nextSuffix.put(stack.name(), n);
            }
            clips.add(clip(scene, nodes, morphs, stack, unique, budget, warnings));
        }
        return clips;
    }

    private static ImportScene.Clip clip(FbxScene scene, FbxHierarchy nodes, List<FbxBlendShapes.Placement> morphs,
            FbxScene.FbxObject stack, String name, DecodeBudget budget, ImportWarnings warnings) {
        long[] span = span(scene, stack);
        long start = span[0];
        long stop = span[1];
        Double duration = stop > start ? (double) (stop - start) / FbxScene.TICKS_PER_SECOND : null;
        double sceneStart = (double) start / FbxScene.TICKS_PER_SECOND;
        String where = stack.label();
        List<FbxScene.FbxObject> layers = scene.sources(stack.id(), "AnimationLayer", null);
        if (layers.isEmpty()) {
            return new ImportScene.Clip(name, List.of(), List.of(), duration, sceneStart);
        }
        if (layers.size() > 1) {
            warnings.add(where + " has " + layers.size() + " animation layers; only the first ('"
                    + FbxScene.display(layers.getFirst().name()) + "') is used (layers are not blended)");
        }
        Map<Integer, Channels> byNode = new LinkedHashMap<>();
        Map<Long, Curve> deformCurves = new HashMap<>();
        Map<String, Integer> ignored = new TreeMap<>();
        for (FbxScene.FbxObject curveNode : scene.sources(layers.getFirst().id(), "AnimationCurveNode", null)) {
            for (FbxScene.Connection target : scene.parentsOf(curveNode.id())) {
                budget.checkTime();
                if (!target.toProperty()) {
                    continue;
                }
                FbxScene.FbxObject owner = scene.object(target.parent());
                if (owner != null && owner.subclass().equals("BlendShapeChannel")
                        && target.property().equals("DeformPercent")) {
                    Curve curve = deformCurve(scene, curveNode, start, duration,
                            where + ": DeformPercent of " + owner.label(), budget, warnings);
                    if (curve != null) {
                        deformCurves.putIfAbsent(owner.id(), curve);
                    }
                    continue;
                }
                int property = propertyIndex(target.property());
                Integer node = owner != null && owner.type().equals("Model") ? nodes.indexOf(owner.id()) : null;
                if (property < 0 || node == null) {
                    ignored.merge(target.property(), 1, Integer::sum);
                    continue;
                }
                Channels channels = byNode.computeIfAbsent(node, k -> new Channels());
                if (channels.defaults[property] != null) {
                    warnings.add(where + ": " + owner.label() + " '" + target.property() + "' is animated by two curve"
                            + " nodes; the first is used");
                    continue;
                }
                double[] d = new double[3];
                channels.defaults[property] = d;
                FbxProperties cp = scene.properties(curveNode);
                d[0] = cp.number("d|X", Double.NaN);
                d[1] = cp.number("d|Y", Double.NaN);
                d[2] = cp.number("d|Z", Double.NaN);
                for (FbxScene.Connection c : scene.childrenOf(curveNode.id())) {
                    FbxScene.FbxObject curve = scene.object(c.child());
                    if (!c.toProperty() || curve == null || !curve.type().equals("AnimationCurve")) {
                        continue;
                    }
                    int component = componentIndex(c.property());
                    if (component < 0) {
                        continue;
                    }
                    String cw = where + ": " + target.property() + " " + c.property() + " of " + owner.label();
                    channels.curves[property][component] = FbxCurves.read(curve.node(), start, duration, cw, budget,
                            warnings);
                }
            }
        }
        if (!ignored.isEmpty()) {
            StringBuilder list = new StringBuilder();
            ignored.forEach((p, n) -> list.append(list.isEmpty() ? "" : ", ").append(FbxScene.display(p))
                    .append(" (").append(n).append(')'));
            warnings.add(where + ": animated properties other than Lcl Translation/Rotation/Scaling of Models are not"
                    + " applied: " + list);
        }
        List<NodeTransformTrack> tracks = new ArrayList<>(byNode.size());
        for (Map.Entry<Integer, Channels> e : byNode.entrySet()) {
            budget.checkTime();
            int node = e.getKey();
            Channels ch = e.getValue();
            FbxTransform.Data data = nodes.data(node);
            double[][] statics = {data.translation(), data.rotation(), data.scaling()};
            Curve[][] curves = new Curve[3][3];
            for (int p = 0; p < 3; p++) {
                for (int c = 0; c < 3; c++) {
                    Curve curve = ch.curves[p][c];
                    if (curve == null) {
                        double v = ch.defaults[p] != null && Double.isFinite(ch.defaults[p][c]) ? ch.defaults[p][c]
                                : statics[p][c];
                        curve = FbxTransform.constant(v, where + ": " + nodes.model(node).label());
                    }
                    curves[p][c] = curve;
                }
            }
            int parent = nodes.parent(node);
            if (nodes.compensation(node) != 1 && parent >= 0 && byNode.containsKey(parent)
                    && byNode.get(parent).defaults[2] != null) {
                warnings.add(where + ": " + nodes.model(node).label() + " (InheritType 2) compensates its parent's rest"
                        + " scale, not its animated one");
            }
            tracks.add(new NodeTransformTrack(node, FbxTransform.elements(data, curves[0], curves[1], curves[2],
                    nodes.compensation(node), where + ": " + nodes.model(node).label())));
        }
        return new ImportScene.Clip(name, FbxMorphTracks.tracks(morphs, deformCurves, budget), tracks, duration,
                sceneStart);
    }

    /** The curve connected to a DeformPercent curve node ({@code d|DeformPercent}), or {@code null}. */
    private static Curve deformCurve(FbxScene scene, FbxScene.FbxObject curveNode, long start, Double end,
            String where, DecodeBudget budget, ImportWarnings warnings) {
        for (FbxScene.Connection c : scene.childrenOf(curveNode.id())) {
            FbxScene.FbxObject curve = scene.object(c.child());
            if (c.toProperty() && curve != null && curve.type().equals("AnimationCurve")) {
                return FbxCurves.read(curve.node(), start, end, where, budget, warnings);
            }
        }
        return null;
    }

    private static int propertyIndex(String property) {
        for (int i = 0; i < PROPERTIES.length; i++) {
            if (PROPERTIES[i].equals(property)) {
                return i;
            }
        }
        return -1;
    }

    private static int componentIndex(String property) {
        return switch (property) {
            case "d|X", "X" -> 0;
            case "d|Y", "Y" -> 1;
            case "d|Z", "Z" -> 2;
            default -> -1;
        };
    }

    /**
     * The stack's span in FBX ticks of scene time, {start, stop}: its {@code LocalStart}/{@code LocalStop}, else its
     * take's {@code LocalTime}; stop ≤ start when neither gives one. Clip time 0 is {@code start}.
     */
    static long[] span(FbxScene scene, FbxScene.FbxObject stack) {
        FbxProperties props = scene.properties(stack);
        long start = props.integer("LocalStart", 0);
        long stop = props.integer("LocalStop", 0);
        if (stop <= start) {
            long[] take = takeTime(scene, stack.name());
            if (take != null) {
                start = take[0];
                stop = take[1];
            }
        }
        return new long[] {start, stop};
    }

    /** {@code Takes/Take "name"/LocalTime: start, stop}, or {@code null}. */
    private static long[] takeTime(FbxScene scene, String name) {
        FbxNode takes = scene.topLevel("Takes");
        if (takes == null) {
            return null;
        }
        for (FbxNode take : takes.children("Take")) {
            if (take.properties().isEmpty() || !(take.property(0) instanceof String s)
                    || !FbxScene.plainName(s).equals(name)) {
                continue;
            }
            FbxNode time = take.child("LocalTime");
            if (time != null && time.properties().size() >= 2) {
                long a = time.integer(0);
                long b = time.integer(1);
                return b > a ? new long[] {a, b} : null;
            }
        }
        return null;
    }
}
