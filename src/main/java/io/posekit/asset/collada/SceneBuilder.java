package io.posekit.asset.collada;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.skinning.Primitive;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the import nodes, skins and mesh instances of the chosen visual scene ({@code <scene>}'s
 * {@code <instance_visual_scene>}, else the first {@code <visual_scene>}).
 *
 * <p>Node 0 is a synthetic root for the visual scene itself (named after it, {@code sourceIndex} −1) that
 * carries the document's {@code <asset>} conversion to glTF's Y-up metres: {@code Z_UP} rotates −90° about X,
 * {@code X_UP} +90° about Z, and {@code <unit meter>} scales uniformly. Every top-level {@code <node>} is its
 * child. Nodes follow in depth-first document order; a joint's name is its {@code sid} (how skins name it), any
 * other node's its {@code name}, each falling back to {@code name}, {@code id}, {@code sid}; its {@code sourceIndex} is the document order of its {@code <node>} element within the visual
 * scene, or −1 for nodes instantiated through {@code <instance_node>} (the referenced node's subtree, any number
 * of times; an instantiation cycle is an error). The rest transform is the product of the node's transform
 * elements decomposed into TRS (a warning when shear cannot be represented).
 *
 * <p>{@code <instance_geometry>} places a rigid mesh; {@code <instance_controller>} of a morph places its base
 * geometry with the morph targets (default weights from {@code MORPH_WEIGHT}); of a skin places a skinned
 * mesh with its own skin (one per instance), whose joints are resolved in the subtrees of the instance's
 * {@code <skeleton>} roots (all scene nodes without any): a Name_array entry matches a node's {@code sid}, else
 * {@code id}, else {@code name}; an IDREF_array entry matches a node {@code id}.
 */
final class SceneBuilder {

    private final ColladaDocument doc;
    private final ImportLimits limits;
    private final DecodeBudget budget;
    private final GeometryDecoder geometries;
    private final ControllerDecoder controllers;
    private final ImportWarnings warnings;

    private final List<ImportScene.Node> nodes = new ArrayList<>();
    private final List<XmlElement> elements = new ArrayList<>();
    private final Map<XmlElement, List<Integer>> importIndices = new IdentityHashMap<>();
    private final Map<XmlElement, List<TransformElement>> transforms = new IdentityHashMap<>();
    private final List<ImportScene.Skin> skins = new ArrayList<>();
    private final List<ImportScene.MeshInstance> meshes = new ArrayList<>();
    private final Map<XmlElement, Integer> geometryIndex = new IdentityHashMap<>();
    private final Map<String, Lookup> lookups = new HashMap<>();
    /** Morph controller → the import nodes its morphed mesh is placed on (directly or under a skin). */
    private final Map<XmlElement, List<Integer>> morphNodes = new IdentityHashMap<>();
    private int[] subtreeEnd;

    SceneBuilder(ColladaDocument doc, DecodeBudget budget, GeometryDecoder geometries, ControllerDecoder controllers,
            ImportWarnings warnings) {
        this.doc = doc;
        this.limits = budget.limits();
        this.budget = budget;
        this.geometries = geometries;
        this.controllers = controllers;
        this.warnings = warnings;
        List<XmlElement> all = doc.library("library_geometries", "geometry");
        for (int i = 0; i < all.size(); i++) {
            geometryIndex.put(all.get(i), i);
        }
    }

    /** A node element and the import node it becomes a child of. */
    private record Work(XmlElement node, int parent, boolean instanced, Path path) {
    }

    /** The chain of node elements from the scene down to a node (for instantiation cycles). */
    private record Path(XmlElement node, Path up) {
        boolean contains(XmlElement e) {
            for (Path p = this; p != null; p = p.up) {
                if (p.node == e) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A mesh placement found while walking the nodes, resolved once every node exists. */
    private record Pending(int node, XmlElement instance) {
    }

    /**
     * Walks the visual scene.
     *
     * @throws ImportException (invalid) without a visual scene, for bad transforms, instantiation cycles or
     *     unresolvable joints; (too large) past {@link ImportLimits#maxNodes()}
     */
    void build() {
        XmlElement scene = visualScene();
        String sceneName = scene.attr("name") != null ? scene.attr("name") : scene.attr("id");
        nodes.add(root(sceneName));
        elements.add(scene);
        Map<XmlElement, Integer> sourceIndex = new IdentityHashMap<>();
        numberNodes(scene, sourceIndex);
        List<Pending> pending = new ArrayList<>();
        Deque<Work> stack = new ArrayDeque<>();
        pushChildren(stack, scene, 0, false, null);
        while (!stack.isEmpty()) {
            budget.checkTime();
            Work w = stack.pop();
            int index = nodes.size();
            if (index >= limits.maxNodes()) {
                throw ImportException.tooLarge("the scene has more than " + limits.maxNodes() + " nodes; the limit is "
                        + limits.maxNodes() + " (" + ImportLimits.NODES + ")");
            }
            XmlElement e = w.node();
            nodes.add(node(e, w.parent(), w.instanced() ? -1 : sourceIndex.getOrDefault(e, -1)));
            elements.add(e);
            importIndices.computeIfAbsent(e, k -> new ArrayList<>()).add(index);
            Path path = new Path(e, w.path());
            for (XmlElement c : e.children()) {
                if (c.name().equals("instance_geometry") || c.name().equals("instance_controller")) {
                    pending.add(new Pending(index, c));
                }
            }
            pushChildren(stack, e, index, w.instanced(), path);
        }
        subtreeEnd = new int[nodes.size()];
        for (int i = nodes.size() - 1; i >= 0; i--) {
            subtreeEnd[i] = Math.max(subtreeEnd[i], i + 1);
            int p = nodes.get(i).parent();
            if (p >= 0) {
                subtreeEnd[p] = Math.max(subtreeEnd[p], subtreeEnd[i]);
            }
        }
        for (Pending p : pending) {
            budget.checkTime();
            instance(p.node(), p.instance());
        }
    }

    private XmlElement visualScene() {
        XmlElement sceneElement = doc.root().child("scene");
        XmlElement instance = sceneElement == null ? null : sceneElement.child("instance_visual_scene");
        if (instance != null) {
            XmlElement vs = doc.resolve(instance.attr("url"));
            if (vs == null || !vs.name().equals("visual_scene")) {
                throw ImportException.invalid("<instance_visual_scene> url " + Text.quote(instance.attr("url"))
                        + " is not a <visual_scene> in this file");
            }
            return vs;
        }
        List<XmlElement> all = doc.library("library_visual_scenes", "visual_scene");
        if (all.isEmpty()) {
            throw ImportException.invalid("the file has no <visual_scene>");
        }
        return all.getFirst();
    }

    /** Numbers the {@code <node>} elements of the visual scene in document order. */
    private static void numberNodes(XmlElement scene, Map<XmlElement, Integer> out) {
        Deque<XmlElement> stack = new ArrayDeque<>();
        List<XmlElement> top = scene.children("node");
        for (int i = top.size() - 1; i >= 0; i--) {
            stack.push(top.get(i));
        }
        while (!stack.isEmpty()) {
            XmlElement n = stack.pop();
            out.put(n, out.size());
            List<XmlElement> children = n.children("node");
            for (int i = children.size() - 1; i >= 0; i--) {
                stack.push(children.get(i));
            }
        }
    }

    /** Pushes the child nodes and instantiated nodes of {@code e} so they pop in document order. */
    private void pushChildren(Deque<Work> stack, XmlElement e, int parent, boolean instanced, Path path) {
        List<Work> children = new ArrayList<>();
        for (XmlElement c : e.children()) {
            if (c.name().equals("node")) {
                children.add(new Work(c, parent, instanced, path));
            } else if (c.name().equals("instance_node")) {
                XmlElement target = doc.resolve(c.attr("url"));
                String where = e.name().equals("node") ? "node " + e.label() : "visual_scene " + e.label();
                if (target == null || !target.name().equals("node")) {
                    warnings.add(where + ": <instance_node> url " + Text.quote(c.attr("url"))
                            + " is not a <node> in this file; skipped");
                    continue;
                }
                if (target == e || (path != null && path.contains(target))) {
                    throw ImportException.invalid(where + ": <instance_node> " + Text.quote(c.attr("url"))
                            + " instantiates a node that contains it (an instantiation cycle)");
                }
                children.add(new Work(target, parent, true, path));
            }
        }
        for (int i = children.size() - 1; i >= 0; i--) {
            stack.push(children.get(i));
        }
    }

    private ImportScene.Node root(String name) {
        float[] rotation = {0, 0, 0, 1};
        XmlElement asset = doc.root().child("asset");
        XmlElement up = asset == null ? null : asset.child("up_axis");
        String axis = up == null ? "Y_UP" : up.text();
        float half = (float) Math.sqrt(0.5);
        switch (axis) {
            case "Y_UP" -> {
            }
            case "Z_UP" -> rotation = new float[] {-half, 0, 0, half};
            case "X_UP" -> rotation = new float[] {0, 0, half, half};
            default -> warnings.add("<up_axis> " + Text.quote(axis) + " is not X_UP, Y_UP or Z_UP; Y_UP is used");
        }
        float scale = 1;
        XmlElement unit = asset == null ? null : asset.child("unit");
        if (unit != null && unit.attr("meter") != null) {
            double meter;
            try {
                meter = Attributes.number(unit, "meter", 1, "<unit>");
            } catch (ImportException e) {
                meter = Double.NaN;
            }
            if (meter > 0 && Double.isFinite(meter) && (float) meter > 0) {
                scale = (float) meter;
            } else {
                warnings.add("<unit> meter " + Text.quote(unit.attr("meter")) + " is not a positive number; 1 is used");
            }
        }
        return new ImportScene.Node(name, -1, -1, new float[] {0, 0, 0}, rotation, new float[] {scale, scale, scale});
    }

    /**
     * A joint is named by its {@code sid}, the name skins use to refer to it (and what three.js reports, so
     * posekit's joint names match a frontend's); any other node by its {@code name}. Either falls back to the
     * other attributes ({@code name}, {@code id}, {@code sid}).
     */
    static String nodeName(XmlElement e) {
        String first = "JOINT".equals(e.attr("type")) ? e.attr("sid") : e.attr("name");
        for (String candidate : new String[] {first, e.attr("name"), e.attr("id"), e.attr("sid")}) {
            if (candidate != null) {
                return candidate;
            }
        }
        return null;
    }

    private ImportScene.Node node(XmlElement e, int parent, int sourceIndex) {
        String name = nodeName(e);
        List<TransformElement> list = transforms(e);
        double[] m = new double[16];
        String where = "node " + e.label();
        int degenerate = TransformMath.compose(list, m);
        if (degenerate >= 0) {
            TransformElement d = list.get(degenerate);
            warnings.add(where + ": <" + d.kind().tag() + "> is degenerate"
                    + (d.kind() == TransformElement.Kind.LOOKAT ? " (eye at the interest point, or up along the view); only its position is used"
                    : " (zero or parallel axes, or a 90° shear); it is ignored"));
        }
        float[] t = new float[3];
        float[] r = new float[4];
        float[] s = new float[3];
        double error = TransformMath.decompose(m, t, r, s);
        if (!(error <= TransformMath.SHEAR_TOLERANCE)) {
            warnings.add(where + ": its transform has shear that translation/rotation/scale cannot represent "
                    + "(relative reconstruction error " + (float) error + "); the nearest TRS is used");
        }
        return new ImportScene.Node(name, parent, sourceIndex, t, r, s);
    }

    /** The transform elements of a node element (parsed once). */
    List<TransformElement> transforms(XmlElement node) {
        List<TransformElement> list = transforms.get(node);
        if (list == null) {
            list = TransformElement.read(node, "node " + node.label());
            transforms.put(node, list);
        }
        return list;
    }

    private void instance(int node, XmlElement instance) {
        String where = "node " + elements.get(node).label();
        XmlElement target = doc.resolve(instance.attr("url"));
        String nodeName = nodes.get(node).name();
        if (instance.name().equals("instance_geometry")) {
            if (target == null || !target.name().equals("geometry")) {
                warnings.add(where + ": <instance_geometry> url " + Text.quote(instance.attr("url"))
                        + " is not a <geometry> in this file; skipped");
                return;
            }
            place(node, target, -1, geometries.rigid(target), null, nodeName, where);
            return;
        }
        if (target == null || !target.name().equals("controller")) {
            warnings.add(where + ": <instance_controller> url " + Text.quote(instance.attr("url"))
                    + " is not a <controller> in this file; skipped");
            return;
        }
        if (target.child("skin") == null) {
            if (target.child("morph") != null) {
                ControllerDecoder.MorphData morph = controllers.morph(target);
                place(node, morph.geometry(), -1, controllers.morphPrimitives(target), morph.weights(), nodeName, where);
                morphNodes.computeIfAbsent(target, k -> new ArrayList<>()).add(node);
            } else {
                warnings.add(where + ": controller " + target.label() + " has no <skin> or <morph>; skipped");
            }
            return;
        }
        SkinData skin = controllers.skin(target);
        List<Primitive> primitives = controllers.primitives(target);
        if (primitives.isEmpty()) {
            warnings.add(where + ": " + skin.where() + " has no triangles to place; skipped");
            return;
        }
        // every instance has its own joint list (the inverse binds are shared)
        budget.charge(skin.jointNames().length, 8, where + ": skin instance");
        int[] joints = resolveJoints(skin, instance);
        skins.add(new ImportScene.Skin(skin.name(), joints, skin.inverseBindMatrices()));
        float[] weights = skin.morph() == null ? null : controllers.morph(skin.morph()).weights();
        place(node, skin.geometry(), skins.size() - 1, primitives, weights, nodeName, where);
        if (skin.morph() != null) {
            morphNodes.computeIfAbsent(skin.morph(), k -> new ArrayList<>()).add(node);
        }
    }

    private void place(int node, XmlElement geometry, int skin, List<Primitive> primitives, float[] morphWeights,
            String nodeName, String where) {
        if (primitives.isEmpty()) {
            warnings.add(where + ": geometry " + geometry.label() + " has no triangles to place; skipped");
            return;
        }
        String name = geometry.attr("name") != null ? geometry.attr("name") : nodeName;
        meshes.add(new ImportScene.MeshInstance(name, node, skin, geometryIndex.getOrDefault(geometry, -1), primitives,
                morphWeights));
    }

    /** First import node per sid, id and name within some node ranges. */
    private record Lookup(Map<String, Integer> sid, Map<String, Integer> id, Map<String, Integer> name) {
    }

    private int[] resolveJoints(SkinData skin, XmlElement instance) {
        List<int[]> ranges = new ArrayList<>();
        StringBuilder key = new StringBuilder();
        String skeletons = "";
        for (XmlElement sk : instance.children("skeleton")) {
            String url = sk.text();
            XmlElement root = doc.resolve(url);
            List<Integer> found = root == null ? null : importIndices.get(root);
            if (found == null) {
                warnings.add(skin.where() + ": <skeleton> " + Text.quote(url)
                        + " is not a node of the scene; joints are looked up among all nodes");
                continue;
            }
            skeletons = skeletons.isEmpty() ? Text.quote(url) : skeletons + ", " + Text.quote(url);
            for (int i : found) {
                ranges.add(new int[] {i, subtreeEnd[i]});
                key.append(i).append(',');
            }
        }
        if (ranges.isEmpty()) {
            ranges.add(new int[] {1, nodes.size()});
            key.append("all");
            skeletons = "";
        }
        Lookup lookup = lookups.computeIfAbsent(key.toString(), k -> lookup(ranges));
        Lookup everywhere = skin.idrefs() ? lookups.computeIfAbsent("all", k -> lookup(List.of(new int[] {1, nodes.size()})))
                : null;
        String[] names = skin.jointNames();
        int[] joints = new int[names.length];
        for (int k = 0; k < names.length; k++) {
            budget.checkTime();
            String n = names[k];
            Integer node;
            if (skin.idrefs()) {
                node = lookup.id().get(n);
                if (node == null) {
                    node = everywhere.id().get(n);
                }
            } else {
                node = lookup.sid().get(n);
                if (node == null) {
                    node = lookup.id().get(n);
                }
                if (node == null) {
                    node = lookup.name().get(n);
                }
            }
            if (node == null) {
                throw ImportException.invalid(skin.where() + ": joint " + k + " " + Text.quote(n) + " matches no node's "
                        + (skin.idrefs() ? "id" : "sid, id or name")
                        + (skeletons.isEmpty() ? " in the scene" : " under <skeleton> " + skeletons));
            }
            joints[k] = node;
        }
        return joints;
    }

    private Lookup lookup(List<int[]> ranges) {
        Map<String, Integer> sid = new HashMap<>();
        Map<String, Integer> id = new HashMap<>();
        Map<String, Integer> name = new HashMap<>();
        for (int[] r : ranges) {
            for (int i = r[0]; i < r[1]; i++) {
                budget.checkTime();
                XmlElement e = elements.get(i);
                putIfPresent(sid, e.attr("sid"), i);
                putIfPresent(id, e.attr("id"), i);
                putIfPresent(name, e.attr("name"), i);
            }
        }
        return new Lookup(sid, id, name);
    }

    private static void putIfPresent(Map<String, Integer> map, String key, int value) {
        if (key != null) {
            map.putIfAbsent(key, value);
        }
    }

    List<ImportScene.Node> nodes() {
        return nodes;
    }

    List<ImportScene.Skin> skins() {
        return skins;
    }

    List<ImportScene.MeshInstance> meshes() {
        return meshes;
    }

    /** The import nodes made from a {@code <node>} element (several when it is instantiated more than once). */
    List<Integer> importNodes(XmlElement node) {
        return importIndices.getOrDefault(node, List.of());
    }

    /** The import nodes carrying the mesh morphed by {@code controller} (a {@code <controller>} with a morph). */
    List<Integer> morphNodes(XmlElement controller) {
        return morphNodes.getOrDefault(controller, List.of());
    }
}
