package io.posekit.asset.gltf;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The glTF node hierarchy and the subset of it that is imported. All nodes' {@code children} are checked:
 * indices must exist, no node may have two parents, and the hierarchy must be acyclic. The imported set
 * starts as the subtrees of the chosen scene's root nodes (the {@code scene} property, else scene 0, else,
 * when there are no scenes, every root node) and can grow by whole root hierarchies that skins need
 * ({@link #includeHierarchy}).
 *
 * <p>Imported nodes keep their file order; {@link #importIndex} maps a glTF node index to its position in
 * the emitted {@link ImportScene#nodes()} list.
 */
final class SceneGraph {

    private final GltfDocument doc;
    private final int[] parent;
    private final int[][] children;
    private final boolean[] included;
    private final String sceneLabel;
    private int[] importIndex;

    private SceneGraph(GltfDocument doc, int[] parent, int[][] children, String sceneLabel) {
        this.doc = doc;
        this.parent = parent;
        this.children = children;
        this.included = new boolean[parent.length];
        this.sceneLabel = sceneLabel;
    }

    /**
     * Reads the hierarchy and selects the scene.
     *
     * @throws ImportException (too large) beyond {@link ImportLimits#maxNodes()} nodes; (invalid) on a bad
     *     child or scene reference, a node with two parents, or a cycle
     */
    static SceneGraph build(GltfDocument doc, ImportLimits limits, ImportWarnings warnings) {
        int n = doc.count("nodes");
        if (n > limits.maxNodes()) {
            throw ImportLimits.exceeded("the asset", n, "nodes", limits.maxNodes(), ImportLimits.NODES);
        }
        int[] parent = new int[n];
        java.util.Arrays.fill(parent, -1);
        int[][] children = new int[n][];
        for (int i = 0; i < n; i++) {
            String where = "node " + i;
            JsonNode list = Json.optArray(doc.element("nodes", i, "node"), "children", where);
            int size = list == null ? 0 : list.size();
            children[i] = new int[size];
            for (int k = 0; k < size; k++) {
                int c = Json.checkIndex(Json.toInt(list.get(k), where + ": children[" + k + "]"), n, "child", where);
                if (c == i) {
                    throw ImportException.invalid("the node hierarchy has a cycle: node " + i + " lists itself as a child");
                }
                if (parent[c] == i) {
                    throw ImportException.invalid(where + " lists child " + c + " twice");
                }
                if (parent[c] >= 0) {
                    throw ImportException.invalid("node " + c + " has two parents: node " + parent[c] + " and node " + i);
                }
                parent[c] = i;
                children[i][k] = c;
            }
        }
        checkAcyclic(parent, children);
        String label = sceneLabel(doc);
        SceneGraph graph = new SceneGraph(doc, parent, children, label);
        graph.selectScene(warnings);
        return graph;
    }

    private static void checkAcyclic(int[] parent, int[][] children) {
        int n = parent.length;
        boolean[] reached = new boolean[n];
        int[] stack = new int[n];
        for (int root = 0; root < n; root++) {
            if (parent[root] != -1) {
                continue;
            }
            int top = 0;
            stack[top++] = root;
            reached[root] = true;
            while (top > 0) {
                int node = stack[--top];
                for (int c : children[node]) {
                    reached[c] = true; // single parents: each node is pushed at most once
                    stack[top++] = c;
                }
            }
        }
        for (int i = 0; i < n; i++) {
            if (!reached[i]) {
                // every unreached node hangs below a cycle; walk up until the walk repeats
                boolean[] seen = new boolean[n];
                int node = i;
                while (!seen[node]) {
                    seen[node] = true;
                    node = parent[node];
                }
                throw ImportException.invalid("the node hierarchy has a cycle through node " + node);
            }
        }
    }

    private static String sceneLabel(GltfDocument doc) {
        int scenes = doc.count("scenes");
        JsonNode field = Json.field(doc.root(), "scene");
        if (field != null) {
            int s = Json.checkIndex(Json.toInt(field, "glTF: scene"), scenes, "scene", "glTF");
            return "scene " + s;
        }
        return scenes == 0 ? "the default scene (all root nodes)" : "scene 0";
    }

    private void selectScene(ImportWarnings warnings) {
        int scenes = doc.count("scenes");
        if (scenes == 0) {
            for (int i = 0; i < parent.length; i++) {
                if (parent[i] == -1) {
                    markSubtree(i);
                }
            }
            return;
        }
        JsonNode field = Json.field(doc.root(), "scene");
        int s = field == null ? 0 : Json.toInt(field, "glTF: scene");
        String where = "scene " + s;
        JsonNode roots = Json.optArray(doc.element("scenes", s, "scene"), "nodes", where);
        if (roots == null) {
            return;
        }
        for (int k = 0; k < roots.size(); k++) {
            int r = Json.checkIndex(Json.toInt(roots.get(k), where + ": nodes[" + k + "]"), parent.length, "node", where);
            if (parent[r] != -1) {
                warnings.add(where + ": node " + r + " is not a root node (its parent is node " + parent[r]
                        + "); it is imported with its subtree");
            }
            markSubtree(r);
        }
    }

    private void markSubtree(int root) {
        if (included[root]) {
            return;
        }
        List<Integer> stack = new ArrayList<>();
        stack.add(root);
        while (!stack.isEmpty()) {
            int node = stack.removeLast();
            included[node] = true;
            for (int c : children[node]) {
                if (!included[c]) {
                    stack.add(c);
                }
            }
        }
        importIndex = null;
    }

    /** Number of glTF nodes (imported or not). */
    int nodeCount() {
        return parent.length;
    }

    /** Names the selected scene in messages, e.g. {@code scene 0}. */
    String sceneLabel() {
        return sceneLabel;
    }

    /** Whether glTF node {@code node} is imported. */
    boolean isIncluded(int node) {
        return included[node];
    }

    /**
     * Imports the whole hierarchy (from its root) containing {@code node}, when not imported yet, and warns.
     *
     * @param why the reason, e.g. {@code skin 0: joint node 7}
     */
    void includeHierarchy(int node, String why, ImportWarnings warnings) {
        if (included[node]) {
            return;
        }
        int root = node;
        while (parent[root] != -1) {
            root = parent[root];
        }
        warnings.add(why + " is not in " + sceneLabel + "; its hierarchy (root node " + root
                + ") was added to the import");
        markSubtree(root);
    }

    /** For each glTF node, its index in the imported node list, or -1 when not imported. */
    int[] importIndex() {
        if (importIndex == null) {
            int[] map = new int[parent.length];
            int next = 0;
            for (int i = 0; i < map.length; i++) {
                map[i] = included[i] ? next++ : -1;
            }
            importIndex = map;
        }
        return importIndex;
    }

    /** The imported nodes in file order, with parents as imported indices and transforms read from the file. */
    List<ImportScene.Node> importNodes(ImportWarnings warnings) {
        int[] map = importIndex();
        List<ImportScene.Node> out = new ArrayList<>();
        for (int i = 0; i < parent.length; i++) {
            if (included[i]) {
                int p = parent[i] >= 0 && included[parent[i]] ? map[parent[i]] : -1;
                out.add(NodeTransform.read(doc.element("nodes", i, "node"), i, p, warnings));
            }
        }
        return out;
    }
}
