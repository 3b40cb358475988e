package io.posekit.asset.fbx;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites an FBX 6.x document (versions 6000–6999: 3ds Max 2009–2010, MotionBuilder, Maya and Blender's 6.1
 * exporters) into the shape of an FBX 7 document, which the rest of the importer reads — as ufbx reads both from one
 * object model. What differs in 6.x and how it is rewritten:
 * <ul>
 *   <li><b>Objects by name</b>: an object is {@code Model: "Model::Box001", "Mesh"}, a connection
 *       {@code Connect: "OO", "Model::Box001", "Model::Scene"}. Each distinct name gets an id (1, 2, … in file
 *       order); {@code Model::Scene} is the root (0). Pose nodes name their Model; that name becomes its id.</li>
 *   <li><b>Properties</b>: {@code Properties60} with {@code Property: name, type, flags, value…} become
 *       {@code Properties70} with {@code P: name, type, "", flags, value…}.</li>
 *   <li><b>Geometry inside the Model</b>: a Model of type {@code Mesh} holds its {@code Vertices},
 *       {@code PolygonVertexIndex} and layer elements; they move to a {@code Geometry} object connected to the Model,
 *       and a skin deformer connected to the Model is connected to that geometry instead. ASCII 6.x writes arrays as
 *       plain number lists: they become arrays.</li>
 *   <li><b>Animation in Takes</b>: each {@code Take} becomes an {@code AnimationStack} with one layer (its span
 *       stays the take's {@code LocalTime}); each {@code Model}'s {@code Channel: "Transform"} channels {@code T},
 *       {@code R}, {@code S} with {@code X}, {@code Y}, {@code Z} become curve nodes on {@code Lcl Translation},
 *       {@code Lcl Rotation}, {@code Lcl Scaling} with their {@code Default}s, and each channel's
 *       {@code Key: time, value, mode, …} list an {@code AnimationCurve}: mode {@code C} constant, {@code L} linear,
 *       {@code U} cubic — {@code s} and {@code b} with the right slope and the next key's left slope, {@code a}
 *       auto (time-independent and clamp-progressive, as 7.x files flag the same keys) — followed by its weights
 *       ({@code n} none, {@code a} right and next-left, {@code r} right, {@code l} next-left; decimals, kept unrounded
 *       where 7.x packs them in 1/10000 units), {@code T} TCB with tension, continuity and bias. The key grammar is ufbx's
 *       ({@code ufbxi_read_legacy_...}) as far as 6.x writers use it.</li>
 * </ul>
 * Textures (connected to Models in 6.x, not to material properties) and blend shapes of 6.x are not carried (a
 * warning says so). FBX 5.x (5000–5999) is first rewritten into this 6.x shape by {@link FbxLegacy5}; versions
 * below 5000 are refused.
 */
final class FbxLegacy {

    /** The first version this rewrites; older files are refused. */
    static final int FIRST_VERSION = 6000;
    /** The version the rewritten document is read as. */
    static final int AS_VERSION = 7000;

    private static final Set<String> GEOMETRY = Set.of("Vertices", "PolygonVertexIndex", "Edges", "GeometryVersion",
            "Layer");
    private static final Set<String> ARRAYS = Set.of("Vertices", "PolygonVertexIndex", "Edges", "Normals",
            "NormalsIndex", "NormalIndex", "UV", "UVIndex", "Colors", "ColorIndex", "Materials", "Indexes", "Weights",
            "Transform", "TransformLink", "Matrix", "TextureId", "Smoothing", "Binormals", "Tangents");
    private static final String[] TRS = {"T", "R", "S"};
    private static final String[] TRS_PROPERTY = {"Lcl Translation", "Lcl Rotation", "Lcl Scaling"};
    private static final String[] AXES = {"X", "Y", "Z"};

    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final Map<String, Long> ids = new HashMap<>();
    private final List<FbxNode> objects = new ArrayList<>();
    private final List<FbxNode> connections = new ArrayList<>();
    /** Model name → the id of the geometry split from it. */
    private final Map<String, Long> geometryOf = new HashMap<>();
    private long nextId = 1;

    private FbxLegacy(DecodeBudget budget, ImportWarnings warnings) {
        this.budget = budget;
        this.warnings = warnings;
    }

    /**
     * The FBX 7-shaped document of a 6.x one.
     *
     * @throws ImportException unsupported (415) below version 5000; invalid (422) for a malformed take key list
     */
    static FbxNode upgrade(FbxNode root, int headerVersion, DecodeBudget budget, ImportWarnings warnings) {
        int version = documentVersion(root, headerVersion);
        if (version < FbxLegacy5.FIRST_VERSION) {
            throw ImportException.unsupported("FBX version " + version + " predates FBX 5.0, whose object model posekit"
                    + " reads (FBX 5.x, 6.x and 7.x); re-export the file as FBX 6.1 or 7.x");
        }
        FbxNode six = version < FIRST_VERSION ? FbxLegacy5.toSix(root, budget, warnings) : root;
        return new FbxLegacy(budget, warnings).rewrite(six);
    }

    /**
     * The version a pre-7.0 document is read as: binary files of the FBX 5 era write 3000 in the binary header and
     * their real version in {@code FBXHeaderExtension} → {@code FBXVersion} (5000, 5800), as ufbx reads them; below
     * 6000 the later of the two counts. A header version of 6000 or later is the file's version.
     *
     * @throws ImportException invalid (422) for an {@code FBXVersion} that is not a four-digit version
     */
    static int documentVersion(FbxNode root, int headerVersion) {
        if (headerVersion >= FIRST_VERSION) {
            return headerVersion;
        }
        FbxNode header = root.child("FBXHeaderExtension");
        FbxNode declared = header == null ? null : header.child("FBXVersion");
        if (declared == null || declared.properties().isEmpty()) {
            return headerVersion;
        }
        int v = FbxReader.checkVersion(declared.integer(0), "FBXHeaderExtension FBXVersion");
        return Math.max(v, headerVersion);
    }

    private FbxNode rewrite(FbxNode root) {
        List<FbxNode> top = new ArrayList<>();
        FbxNode section = root.child("Objects");
        FbxNode globalSettings = root.child("GlobalSettings");
        if (section != null) {
            for (FbxNode record : section.children()) {
                budget.checkTime();
                if (record.name().equals("GlobalSettings")) {
                    globalSettings = record;
                    continue;
                }
                object(record);
            }
        }
        FbxNode conns = root.child("Connections");
        if (conns != null) {
            for (FbxNode c : conns.children("Connect")) {
                connection(c);
            }
        }
        FbxNode takes = root.child("Takes");
        if (takes != null) {
            for (FbxNode take : takes.children("Take")) {
                take(take);
            }
        }
        for (FbxNode record : root.children()) {
            switch (record.name()) {
                case "Objects", "Connections", "GlobalSettings" -> {
                }
                default -> top.add(properties(record));
            }
        }
        if (globalSettings != null) {
            top.add(properties(new FbxNode("GlobalSettings", List.of(), globalSettings.children())));
        }
        top.add(new FbxNode("Objects", List.of(), objects));
        top.add(new FbxNode("Connections", List.of(), connections));
        return new FbxNode(root.name(), root.properties(), top);
    }

    private long id(String name) {
        return ids.computeIfAbsent(canonical(name), n -> nextId++);
    }

    /**
     * An object name as ASCII files write it, {@code Model::pCube1}: binary 6.x files write {@code pCube1\0\1Model}
     * (name, separator, class), in objects and connections alike, the scene root as {@code Scene\0\1Model}.
     */
    static String canonical(String name) {
        int separator = name.indexOf("\0\1");
        return separator < 0 ? name : name.substring(separator + 2) + "::" + name.substring(0, separator);
    }

    private void object(FbxNode record) {
        if (record.properties().isEmpty() || !(record.property(0) instanceof String name)) {
            return;
        }
        String subclass = record.properties().size() > 1 && record.property(1) instanceof String s ? s : "";
        long id = id(name);
        List<FbxNode> own = new ArrayList<>();
        List<FbxNode> geometry = new ArrayList<>();
        boolean mesh = record.name().equals("Model") && subclass.equals("Mesh");
        for (FbxNode c : record.children()) {
            FbxNode converted = properties(arrays(c));
            if (record.name().equals("Pose") && c.name().equals("PoseNode")) {
                converted = poseNode(converted);
            }
            if (mesh && (GEOMETRY.contains(c.name()) || c.name().startsWith("LayerElement"))) {
                geometry.add(converted);
            } else {
                own.add(converted);
            }
        }
        objects.add(new FbxNode(record.name(), List.of(id, name, subclass), own));
        if (mesh && !geometry.isEmpty()) {
            long g = nextId++;
            objects.add(new FbxNode("Geometry", List.of(g, "Geometry::" + FbxScene.plainName(name), "Mesh"), geometry));
            connections.add(new FbxNode("C", List.of("OO", g, id), List.of()));
            geometryOf.put(canonical(name), g);
        }
        if (record.name().equals("Texture")) {
            warnings.add("FBX 6.x Texture '" + FbxScene.display(FbxScene.plainName(name)) + "': textures of FBX 6.x"
                    + " files are not carried; the material's colour is used");
        }
    }

    private FbxNode poseNode(FbxNode poseNode) {
        List<FbxNode> children = new ArrayList<>();
        for (FbxNode c : poseNode.children()) {
            if (c.name().equals("Node") && !c.properties().isEmpty() && c.property(0) instanceof String s) {
                children.add(new FbxNode("Node", List.of(id(s)), c.children()));
            } else {
                children.add(c);
            }
        }
        return new FbxNode(poseNode.name(), poseNode.properties(), children);
    }

    private void connection(FbxNode c) {
        if (c.properties().size() < 3 || !(c.property(0) instanceof String kind)
                || !(c.property(1) instanceof String child) || !(c.property(2) instanceof String parent)) {
            return;
        }
        long childId = id(child);
        long parentId = canonical(parent).equals("Model::Scene") ? 0 : id(parent);
        // 6.x connects a skin to the Model; 7.x (and posekit) to its geometry
        if (canonical(child).startsWith("Deformer::") && geometryOf.containsKey(canonical(parent))) {
            parentId = geometryOf.get(canonical(parent));
        }
        List<Object> props = new ArrayList<>(List.of(kind, childId, parentId));
        if (c.properties().size() > 3) {
            props.add(c.property(3));
        }
        connections.add(new FbxNode("C", props, List.of()));
    }

    /** {@code node} with its Properties60 (at any depth) as Properties70. */
    private static FbxNode properties(FbxNode node) {
        if (node.name().equals("Properties60")) {
            List<FbxNode> ps = new ArrayList<>();
            for (FbxNode p : node.children("Property")) {
                List<Object> values = new ArrayList<>(p.properties());
                // Property: name, type, flags, values… → P: name, type, label, flags, values…
                values.add(Math.min(2, values.size()), "");
                ps.add(new FbxNode("P", values, List.of()));
            }
            return new FbxNode("Properties70", List.of(), ps);
        }
        if (node.children().isEmpty()) {
            return node;
        }
        List<FbxNode> children = new ArrayList<>(node.children().size());
        for (FbxNode c : node.children()) {
            children.add(properties(c));
        }
        return new FbxNode(node.name(), node.properties(), children);
    }

    /** {@code node} (and its children) with plain number lists of array records made arrays. */
    private FbxNode arrays(FbxNode node) {
        List<Object> props = node.properties();
        if (ARRAYS.contains(node.name()) && !props.isEmpty() && !(props.size() == 1 && props.getFirst().getClass().isArray())) {
            budget.charge(props.size(), 8, "FBX 6.x array " + node.name());
            double[] d = new double[props.size()];
            for (int i = 0; i < d.length; i++) {
                d[i] = node.number(i);
            }
            props = List.of(d);
        }
        List<FbxNode> children = new ArrayList<>(node.children().size());
        for (FbxNode c : node.children()) {
            children.add(arrays(c));
        }
        return new FbxNode(node.name(), props, children);
    }

    private void take(FbxNode take) {
        if (take.properties().isEmpty() || !(take.property(0) instanceof String name)) {
            return;
        }
        long stack = nextId++;
        long layer = nextId++;
        objects.add(new FbxNode("AnimationStack", List.of(stack, "AnimStack::" + name, ""), List.of()));
        objects.add(new FbxNode("AnimationLayer", List.of(layer, "AnimLayer::" + name, ""), List.of()));
        connections.add(new FbxNode("C", List.of("OO", layer, stack), List.of()));
        for (FbxNode model : take.children("Model")) {
            budget.checkTime();
            if (model.properties().isEmpty() || !(model.property(0) instanceof String modelName)
                    || !ids.containsKey(canonical(modelName))) {
                continue;
            }
            FbxNode transform = channel(model, "Transform");
            if (transform == null) {
                continue;
            }
            for (int k = 0; k < 3; k++) {
                FbxNode trs = channel(transform, TRS[k]);
                if (trs == null) {
                    continue;
                }
                long curveNode = nextId++;
                List<FbxNode> defaults = new ArrayList<>();
                List<long[]> curves = new ArrayList<>();
                for (int a = 0; a < 3; a++) {
                    FbxNode axis = channel(trs, AXES[a]);
                    if (axis == null) {
                        continue;
                    }
                    FbxNode def = axis.child("Default");
                    if (def != null && !def.properties().isEmpty()) {
                        defaults.add(new FbxNode("P", List.of("d|" + AXES[a], "Number", "", "A", def.number(0)),
                                List.of()));
                    }
                    FbxNode curve = curve(axis, "'" + FbxScene.display(FbxScene.plainName(modelName)) + "' " + TRS[k]
                            + AXES[a]);
                    if (curve != null) {
                        long id = nextId++;
                        objects.add(new FbxNode("AnimationCurve", List.of(id, "AnimCurve::", ""), curve.children()));
                        curves.add(new long[] {id, a});
                    }
                }
                objects.add(new FbxNode("AnimationCurveNode", List.of(curveNode, "AnimCurveNode::" + TRS[k], ""),
                        List.of(new FbxNode("Properties70", List.of(), defaults))));
                connections.add(new FbxNode("C", List.of("OO", curveNode, layer), List.of()));
                connections.add(new FbxNode("C", List.of("OP", curveNode, ids.get(canonical(modelName)), TRS_PROPERTY[k]),
                        List.of()));
                for (long[] c : curves) {
                    connections.add(new FbxNode("C", List.of("OP", c[0], curveNode, "d|" + AXES[(int) c[1]]),
                            List.of()));
                }
            }
        }
    }

    private static FbxNode channel(FbxNode parent, String name) {
        for (FbxNode c : parent.children("Channel")) {
            if (!c.properties().isEmpty() && name.equals(c.property(0))) {
                return c;
            }
        }
        return null;
    }

    /** The AnimationCurve (its children: KeyTime, KeyValueFloat, KeyAttr…) of a channel's Key list, or null. */
    private FbxNode curve(FbxNode axis, String where) {
        FbxNode keyNode = axis.child("Key");
        if (keyNode == null || keyNode.properties().isEmpty()) {
            return null;
        }
        List<Object> tokens = keyNode.properties();
        budget.charge(tokens.size(), 32, "FBX 6.x keys of " + where);
        List<Long> times = new ArrayList<>();
        List<Float> values = new ArrayList<>();
        List<Integer> flags = new ArrayList<>();
        List<float[]> data = new ArrayList<>();
        List<double[]> exactWeights = new ArrayList<>();
        int i = 0;
        int n = tokens.size();
        while (i < n) {
            budget.checkTime();
            if (n - i < 3) {
                throw ImportException.invalid("FBX 6.x channel " + where + ": its Key list ends inside a key (token "
                        + i + " of " + n + ")");
            }
            long t = integer(tokens.get(i++), where, i);
            float v = (float) number(tokens.get(i++), where, i);
            String mode = word(tokens.get(i++), where, i);
            int f;
            float[] d = {0, 0, 0, 0};
            double[] w = {1.0 / 3, 1.0 / 3};
            switch (mode.charAt(0)) {
                case 'C' -> {
                    f = FbxCurves.CONSTANT;
                    if (i < n && isWord(tokens.get(i))) {
                        i++; // n (normal) or s (standard)
                    }
                }
                case 'L' -> f = FbxCurves.LINEAR;
                case 'U' -> {
                    f = FbxCurves.CUBIC;
                    String tangent = i < n && isWord(tokens.get(i)) ? word(tokens.get(i++), where, i) : "a";
                    switch (tangent.charAt(0)) {
                        case 's', 'b' -> {
                            f |= tangent.charAt(0) == 's' ? FbxCurves.TANGENT_USER : FbxCurves.TANGENT_BREAK;
                            d[0] = (float) number(need(tokens, i++, where), where, i);
                            d[1] = (float) number(need(tokens, i++, where), where, i);
                        }
                        // auto keys as 7.x writes them (3ds Max's 7.5 export of a 6.1 scene's `U,a` keys flags them
                        // time-independent and clamp-progressive): flat at the ends and between equal neighbours
                        case 'a' -> f |= FbxCurves.TANGENT_AUTO | FbxCurves.TIME_INDEPENDENT
                                | FbxCurves.CLAMP_PROGRESSIVE;
                        default -> throw ImportException.invalid("FBX 6.x channel " + where + ": cubic key " + times.size()
                                + " has the unknown tangent mode '" + FbxScene.display(tangent) + "'");
                    }
                    int[] withWeights = {f};
                    i = weights(tokens, i, where, w, withWeights);
                    f = withWeights[0];
                }
                case 'T' -> {
                    f = FbxCurves.CUBIC | FbxCurves.TANGENT_TCB;
                    for (int k = 0; k < 3; k++) {
                        d[k] = (float) number(need(tokens, i++, where), where, i);
                    }
                    int[] withWeights = {f};
                    i = weights(tokens, i, where, w, withWeights);
                    f = withWeights[0];
                }
                default -> throw ImportException.invalid("FBX 6.x channel " + where + ": key " + times.size()
                        + " has the unknown interpolation '" + FbxScene.display(mode) + "'");
            }
            times.add(t);
            values.add(v);
            flags.add(f);
            data.add(d);
            exactWeights.add(w);
        }
        int keys = times.size();
        long[] kt = new long[keys];
        float[] kv = new float[keys];
        int[] kf = new int[keys];
        float[] kd = new float[4 * keys];
        double[] kw = new double[2 * keys];
        int[] kr = new int[keys];
        for (int k = 0; k < keys; k++) {
            kt[k] = times.get(k);
            kv[k] = values.get(k);
            kf[k] = flags.get(k);
            System.arraycopy(data.get(k), 0, kd, 4 * k, 4);
            System.arraycopy(exactWeights.get(k), 0, kw, 2 * k, 2);
            kr[k] = 1;
        }
        return new FbxNode("AnimationCurve", List.of(), List.of(
                new FbxNode("KeyTime", List.of((Object) kt), List.of()),
                new FbxNode("KeyValueFloat", List.of((Object) kv), List.of()),
                new FbxNode("KeyAttrFlags", List.of((Object) kf), List.of()),
                new FbxNode("KeyAttrDataFloat", List.of((Object) kd), List.of()),
                new FbxNode("KeyAttrRefCount", List.of((Object) kr), List.of()),
                new FbxNode(FbxCurves.EXACT_WEIGHTS, List.of((Object) kw), List.of())));
    }

    /**
     * Reads a cubic key's weight mode after its tangents: {@code n} none, {@code a} right and next-left, {@code r}
     * right, {@code l} next-left (fractions of the segment, clamped to 0–1), into {@code exact} (right, next-left) and
     * the weight bits into {@code f[0]}. The weights travel unrounded ({@link FbxCurves#EXACT_WEIGHTS}) rather than
     * packed into data float 2 as 7.x files do: that float is a TCB key's bias.
     *
     * @return the index of the token after the weights
     */
    private static int weights(List<Object> tokens, int i, String where, double[] exact, int[] f) {
        int flags = f[0];
        if (i < tokens.size() && isWord(tokens.get(i))) {
            String mode = word(tokens.get(i++), where, i);
            switch (mode.charAt(0)) {
                case 'a' -> {
                    exact[0] = exactWeight(number(need(tokens, i++, where), where, i), where);
                    exact[1] = exactWeight(number(need(tokens, i++, where), where, i), where);
                    flags |= FbxCurves.WEIGHTED_RIGHT | FbxCurves.WEIGHTED_NEXT_LEFT;
                }
                case 'r' -> {
                    exact[0] = exactWeight(number(need(tokens, i++, where), where, i), where);
                    flags |= FbxCurves.WEIGHTED_RIGHT;
                }
                case 'l' -> {
                    exact[1] = exactWeight(number(need(tokens, i++, where), where, i), where);
                    flags |= FbxCurves.WEIGHTED_NEXT_LEFT;
                }
                default -> {
                }
            }
        }
        f[0] = flags;
        return i;
    }

    /** A weight as printed, clamped to 0–1 (a control point outside its segment has no meaning). */
    private static double exactWeight(double w, String where) {
        if (!Double.isFinite(w)) {
            throw ImportException.invalid("FBX 6.x channel " + where + ": a key weight is not finite (" + w + ")");
        }
        return Math.clamp(w, 0, 1);
    }

    private static Object need(List<Object> tokens, int i, String where) {
        if (i >= tokens.size()) {
            throw ImportException.invalid("FBX 6.x channel " + where + ": its Key list ends inside a key");
        }
        return tokens.get(i);
    }

    private static boolean isWord(Object o) {
        return o instanceof String s && !s.isEmpty();
    }

    private static String word(Object o, String where, int at) {
        if (o instanceof String s && !s.isEmpty()) {
            return s;
        }
        throw ImportException.invalid("FBX 6.x channel " + where + ": Key token " + (at - 1) + " should be a mode letter,"
                + " not " + o);
    }

    private static long integer(Object o, String where, int at) {
        return switch (o) {
            case Long l -> l;
            case Integer v -> v;
            case Double d when d == Math.rint(d) -> (long) (double) d;
            default -> throw ImportException.invalid("FBX 6.x channel " + where + ": Key token " + (at - 1)
                    + " should be a key time, not " + o);
        };
    }

    private static double number(Object o, String where, int at) {
        return switch (o) {
            case Double d -> d;
            case Float v -> v;
            case Long l -> l;
            case Integer v -> v;
            default -> throw ImportException.invalid("FBX 6.x channel " + where + ": Key token " + (at - 1)
                    + " should be a number, not " + o);
        };
    }
}
