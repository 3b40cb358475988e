package io.posekit.asset.fbx;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.ImportWarnings;
import io.posekit.math.Matrices;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The import nodes of an FBX scene: one per {@code Model} (whatever its subclass — {@code LimbNode}, {@code Null},
 * {@code Mesh}, {@code Camera}, …), in file order, named by its plain name; {@code sourceIndex} is its position among
 * the file's Models. A Model's parent is the first Model (or the scene root, id 0) it is connected to object-to-object;
 * a Model connected to neither is made a root with a warning, and a cycle of Models is invalid (422).
 *
 * <p>The rest pose is the {@link FbxTransform} chain of the Model's own properties, decomposed into translation,
 * rotation and scale (the chain has no shear). {@code InheritType} decides how the parent's scale reaches the child;
 * posekit composes every node as {@code world = parentWorld · local}, which is exactly {@code InheritType} 1 (RSrs,
 * what Blender and Maya write for ordinary nodes). {@code InheritType} 0 (RrSs, the FBX default) applies the
 * parent's global scale after the child's rotation: the same product whenever that scale is uniform; under a
 * non-uniformly scaled parent it needs shear, which a TRS node cannot hold, so the plain product is used with a
 * warning. {@code InheritType} 2 (Rrs, Maya's segment scale compensation) does not inherit the parent's own
 * {@code Lcl Scaling}: the child's rotation-and-scale is divided by it (a uniform scale element at the end of the
 * chain, exact for a uniform parent scale; a non-uniform one is replaced by its geometric mean, with a warning).
 */
final class FbxHierarchy {

    /** Relative spread of a scale above which it counts as non-uniform. */
    private static final double UNIFORM_TOLERANCE = 1e-5;
    /** Relative reconstruction error above which a decomposed rest matrix is reported. */
    private static final double TRS_TOLERANCE = 1e-4;

    private final List<ImportScene.Node> nodes = new ArrayList<>();
    private final List<FbxScene.FbxObject> models;
    private final Map<Long, Integer> indexOf = new HashMap<>();
    private final int[] parents;
    private final FbxTransform.Data[] data;
    private final double[] compensation;
    private final double[][] restWorld;

    private FbxHierarchy(List<FbxScene.FbxObject> models) {
        this.models = models;
        int n = models.size();
        parents = new int[n];
        data = new FbxTransform.Data[n];
        compensation = new double[n];
        restWorld = new double[n][];
    }

    /**
     * Builds the nodes of every Model.
     *
     * @throws ImportException too large (413) past {@link ImportLimits#maxNodes()}, invalid (422) for a cycle or a
     *     transform that is not finite
     */
    static FbxHierarchy build(FbxScene scene, ImportLimits limits, DecodeBudget budget, ImportWarnings warnings) {
        List<FbxScene.FbxObject> models = scene.objects("Model");
        if (models.size() > limits.maxNodes()) {
            throw ImportException.tooLarge("the file has " + models.size() + " Models; the limit is " + limits.maxNodes()
                    + " nodes (" + ImportLimits.NODES + ")");
        }
        budget.charge(models.size(), 512, "FBX Model transforms");
        FbxHierarchy h = new FbxHierarchy(models);
        for (int i = 0; i < models.size(); i++) {
            h.indexOf.put(models.get(i).id(), i);
        }
        h.link(scene, warnings);
        int[] order = h.parentFirst();
        for (int i : order) {
            budget.checkTime();
            h.resolve(scene, i, warnings);
        }
        for (int i = 0; i < models.size(); i++) {
            h.nodes.add(h.node(i, warnings));
        }
        return h;
    }

    private void link(FbxScene scene, ImportWarnings warnings) {
        int unparented = 0;
        for (int i = 0; i < models.size(); i++) {
            FbxScene.FbxObject m = models.get(i);
            int parent = -2;
            int candidates = 0;
            for (FbxScene.Connection c : scene.parentsOf(m.id())) {
                if (c.toProperty()) {
                    continue;
                }
                Integer p = c.parent() == FbxScene.ROOT_ID ? Integer.valueOf(-1) : indexOf.get(c.parent());
                if (p == null) {
                    continue;
                }
                candidates++;
                if (parent == -2) {
                    parent = p;
                }
            }
            if (candidates > 1) {
                warnings.add(m.label() + " is connected to " + candidates + " parents; the first is used");
            }
            if (parent == -2) {
                unparented++;
                parent = -1;
            }
            if (parent == i) {
                throw ImportException.invalid(m.label() + " is connected to itself as its parent");
            }
            parents[i] = parent;
        }
        if (unparented > 0) {
            warnings.add(unparented + " Model(s) are connected neither to the scene root nor to another Model; they are"
                    + " made roots");
        }
    }

    /** Node indices parents before children; a cycle is invalid. */
    private int[] parentFirst() {
        int n = models.size();
        int[] state = new int[n];
        int[] order = new int[n];
        int count = 0;
        int[] path = new int[n];
        for (int start = 0; start < n; start++) {
            // walk up to a resolved node or a root, then emit the path top-down
            int len = 0;
            int i = start;
            while (i >= 0 && state[i] == 0) {
                state[i] = 1;
                path[len++] = i;
                i = parents[i];
            }
            if (i >= 0 && state[i] == 1) {
                throw ImportException.invalid("the Model hierarchy has a cycle through " + models.get(i).label());
            }
            for (int k = len - 1; k >= 0; k--) {
                state[path[k]] = 2;
                order[count++] = path[k];
            }
        }
        return order;
    }

    private void resolve(FbxScene scene, int i, ImportWarnings warnings) {
        FbxScene.FbxObject m = models.get(i);
        FbxTransform.Data d = FbxTransform.read(scene.properties(m), m.label(), warnings);
        data[i] = d;
        int p = parents[i];
        double c = 1;
        if (d.inheritType() == FbxTransform.INHERIT_RRS && p >= 0) {
            c = compensation(p, m, warnings);
        }
        compensation[i] = c;
        double[] local = localMatrix(i, d.translation(), d.rotation(), d.scaling());
        FbxTransform.requireFinite(local, m.label() + ": its transform");
        double[] parentWorld = p >= 0 ? restWorld[p] : FbxTransform.identity();
        if (d.inheritType() == FbxTransform.INHERIT_RRSS && p >= 0 && !uniform(FbxTransform.columnLengths(parentWorld))
                && !isRotationFree(d)) {
            warnings.add(m.label() + " has InheritType 0 (RrSs) under a non-uniformly scaled parent, which needs shear"
                    + " that translation/rotation/scale cannot hold; it is composed as the plain product (RSrs)");
        }
        restWorld[i] = FbxTransform.times(parentWorld, local);
    }

    /** The uniform scale that undoes the parent's own scaling for an InheritType 2 (Rrs) child. */
    private double compensation(int parent, FbxScene.FbxObject child, ImportWarnings warnings) {
        double[] s = data[parent].scaling();
        double product = Math.abs(s[0] * s[1] * s[2]);
        if (product == 0) {
            warnings.add(child.label() + " has InheritType 2 (Rrs) under a parent scaled to zero; its scale is not"
                    + " compensated");
            return 1;
        }
        if (!uniform(new double[] {Math.abs(s[0]), Math.abs(s[1]), Math.abs(s[2])})) {
            warnings.add(child.label() + " has InheritType 2 (Rrs) under a non-uniformly scaled parent; the parent's"
                    + " scale is compensated by its geometric mean (shear cannot be represented)");
        }
        return 1 / Math.cbrt(product);
    }

    private static boolean isRotationFree(FbxTransform.Data d) {
        return FbxTransform.isZero(d.rotation()) && FbxTransform.isZero(d.preRotation())
                && FbxTransform.isZero(d.postRotation());
    }

    private static boolean uniform(double[] s) {
        double max = Math.max(s[0], Math.max(s[1], s[2]));
        double min = Math.min(s[0], Math.min(s[1], s[2]));
        return max - min <= UNIFORM_TOLERANCE * max;
    }

    /** Node {@code i}'s local matrix for translation {@code t}, rotation {@code r} and scaling {@code s}. */
    double[] localMatrix(int i, double[] t, double[] r, double[] s) {
        double[] local = FbxTransform.local(data[i], t, r, s);
        double c = compensation[i];
        return c == 1 ? local : FbxTransform.times(local, FbxTransform.scale(new double[] {c, c, c}));
    }

    private ImportScene.Node node(int i, ImportWarnings warnings) {
        FbxScene.FbxObject m = models.get(i);
        double[] local = localMatrix(i, data[i].translation(), data[i].rotation(), data[i].scaling());
        float[] t = new float[3];
        float[] r = new float[4];
        float[] s = new float[3];
        Matrices.decompose(local, 0, t, 0, r, 0, s, 0);
        double[] back = new double[16];
        Matrices.composeTrs(t, 0, r, 0, s, 0, back, 0);
        double err = 0;
        double largest = 1;
        for (int k = 0; k < 16; k++) {
            err = Math.max(err, Math.abs(back[k] - local[k]));
            largest = Math.max(largest, Math.abs(local[k]));
        }
        if (err / largest > TRS_TOLERANCE) {
            warnings.add(m.label() + ": its transform cannot be held by translation/rotation/scale (relative error "
                    + (float) (err / largest) + "); the nearest TRS is used");
        }
        return new ImportScene.Node(m.name(), parents[i], m.order(), t, r, s);
    }

    /** The import nodes, in the file's Model order. */
    List<ImportScene.Node> nodes() {
        return nodes;
    }

    /** The import node of the Model with this id, or {@code null}. */
    Integer indexOf(long modelId) {
        return indexOf.get(modelId);
    }

    FbxScene.FbxObject model(int i) {
        return models.get(i);
    }

    FbxTransform.Data data(int i) {
        return data[i];
    }

    int parent(int i) {
        return parents[i];
    }

    /** The uniform InheritType-2 scale compensation of node {@code i} (1 for other nodes). */
    double compensation(int i) {
        return compensation[i];
    }

    /** Node {@code i}'s world matrix in the rest pose (the plain product of the local matrices). */
    double[] restWorld(int i) {
        return restWorld[i];
    }
}
