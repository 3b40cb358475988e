package io.posekit.retarget;

import io.posekit.math.Matrices;
import io.posekit.rig.Rig;
import io.posekit.sampling.Pose;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything about a (target, source, joint map) triple that does not depend on time, computed once per request:
 * rest poses in model space, the rest alignment of each mapped joint, the chains and the root.
 *
 * <p>Notation (all rotations unit quaternions in model space, the space of the scene root): {@code Rs(j)} and
 * {@code Rt(j)} the rest model rotations of source and target joints, {@code A(j)} the alignment of mapped target joint
 * j, the rotation that turns the target's rest bone directions at j onto the source's; {@code Ra(j) = A(j)·Rt(j)}
 * the target's "aligned rest", the target posed like the source's rest pose. See {@code docs/retargeting.md}.
 *
 * <p>Node kinds: {@link #MAPPED} (follows a source joint), {@link #CHAIN} (between two mapped joints, interpolated),
 * {@link #REST} (keeps its rest local transform).
 */
final class RetargetPlan {

    static final byte REST = 0;
    static final byte MAPPED = 1;
    static final byte CHAIN = 2;

    final Rig target;
    final Rig source;
    final JointMap map;
    final byte[] kind;
    /** Rest model rotations, 4 per node, double. */
    final double[] restModelTarget;
    /** The source's, turned 180° about Y when {@link #turnSource}. */
    final double[] restModelSource;
    /**
     * Whether the source is turned 180° about the model Y axis before anything is compared (its rest and every
     * sample, rotations and positions): the two models face opposite ways (a VRM 0.x avatar faces −Z, every other
     * model glTF's +Z), so a clip plays towards the target's own front.
     */
    final boolean turnSource;
    /** Rest model positions, 3 per node. */
    final double[] restPositionTarget;
    final double[] restPositionSource;
    /** Aligned rest model rotation Ra, 4 per target node. */
    final double[] alignedRest;
    /** Per mapped target node: {@code C(j) = Rs(s(j))⁻¹·Ra(j)}, so {@code Qt(j) = Qs(s(j))·C(j)}. */
    final double[] transfer;
    /**
     * Per mapped target node whose bone to its primary mapped child passes unmapped source joints: the source node of
     * that child ({@code −1} otherwise), and the rest chord in the frame of the source joint.
     */
    final int[] correctionChild;
    final double[] correctionChord;
    /** Per chain node: the mapped ancestor, the mapped descendant it interpolates towards, and the fraction. */
    final int[] chainStart;
    final int[] chainEnd;
    final double[] chainFraction;
    /** The target joint that carries root motion, its source joint, and the scale of its translation. */
    final int root;
    final int sourceRoot;
    final double rootScale;
    /** Inverse rest model matrix of the root's parent (16 floats), or null when the root has none. */
    final float[] rootParentInverse;
    /** Per target node, its nearest mapped descendants in node order (empty for unmapped nodes). */
    private final List<List<Integer>> mappedChildren;

    RetargetPlan(Rig target, Rig source, JointMap map, String rootJoint, RetargetRequest.RootMotion rootMotion,
            boolean turnSource) {
        this.target = target;
        this.source = source;
        this.map = map;
        this.turnSource = turnSource;
        int n = target.nodeCount();
        int[] sourceOf = map.sourceOf();
        restModelTarget = restModelRotations(target);
        restModelSource = restModelRotations(source);
        float[] restMatricesTarget = Pose.evaluate(target, null, 0).modelMatrices();
        restPositionTarget = positions(restMatricesTarget, n);
        restPositionSource = positions(Pose.evaluate(source, null, 0).modelMatrices(), source.nodeCount());
        if (turnSource) {
            for (int i = 0; i < source.nodeCount(); i++) {
                turnQuaternion(restModelSource, 4 * i);
                turnVector(restPositionSource, 3 * i);
            }
        }

        kind = new byte[n];
        chainStart = new int[n];
        chainEnd = new int[n];
        chainFraction = new double[n];
        for (int t = 0; t < n; t++) {
            kind[t] = sourceOf[t] >= 0 ? MAPPED : REST;
            chainStart[t] = -1;
            chainEnd[t] = -1;
        }
        findChains(sourceOf);

        // alignment: A(j) turns the target's rest chords from j to its mapped children onto the source's
        double[] align = new double[4 * n];
        alignedRest = new double[4 * n];
        transfer = new double[4 * n];
        correctionChild = new int[n];
        correctionChord = new double[3 * n];
        java.util.Arrays.fill(correctionChild, -1);
        // each mapped node's nearest mapped descendants, in node order (one pass: parents come first)
        int[] mappedAbove = new int[n];
        List<List<Integer>> below = new ArrayList<>(n);
        for (int t = 0; t < n; t++) {
            int p = target.parent(t);
            mappedAbove[t] = p < 0 ? -1 : sourceOf[p] >= 0 ? p : mappedAbove[p];
            below.add(sourceOf[t] >= 0 ? new ArrayList<>(2) : List.of());
            if (sourceOf[t] >= 0 && mappedAbove[t] >= 0) {
                below.get(mappedAbove[t]).add(t);
            }
        }
        mappedChildren = below;
        double[] tmp = new double[4];
        for (int t = 0; t < n; t++) {
            if (kind[t] == MAPPED) {
                align(t, sourceOf, align);
                Rotations.multiply(align, 4 * t, restModelTarget, 4 * t, alignedRest, 4 * t);
                Rotations.normalize(alignedRest, 4 * t);
                Rotations.multiplyConjugateLeft(restModelSource, 4 * sourceOf[t], alignedRest, 4 * t, transfer, 4 * t);
                Rotations.normalize(transfer, 4 * t);
            } else {
                int p = target.parent(t);
                if (p >= 0) {
                    Rotations.multiply(alignedRest, 4 * p, asDouble(target.restRotations(), t, tmp), 0, alignedRest,
                            4 * t);
                    Rotations.normalize(alignedRest, 4 * t);
                } else {
                    Rotations.copy(asDouble(target.restRotations(), t, tmp), 0, alignedRest, 4 * t);
                }
            }
        }

        root = rootJoint == null ? defaultRoot(sourceOf) : rootByName(rootJoint);
        sourceRoot = sourceOf[root];
        rootScale = switch (rootMotion.mode()) {
            case AUTO -> autoScale(sourceOf);
            case NONE -> 0;
            case FACTOR -> rootMotion.factor();
        };
        int rp = target.parent(root);
        if (rp >= 0) {
            rootParentInverse = new float[16];
            if (!Matrices.invert(restMatricesTarget, 16 * rp, rootParentInverse, 0)) {
                throw new RetargetException(RetargetException.Kind.BAD_REQUEST, "the parent of the root joint '"
                        + target.name(root) + "' has a singular rest transform", List.of(target.name(root)));
            }
        } else {
            rootParentInverse = null;
        }
    }

    /** Marks every unmapped node with a mapped ancestor and a mapped descendant as a chain node. */
    private void findChains(int[] sourceOf) {
        int n = target.nodeCount();
        // the first mapped descendant of each node, found children before parents
        int[] firstMappedBelow = new int[n];
        java.util.Arrays.fill(firstMappedBelow, -1);
        for (int t = n - 1; t >= 0; t--) {
            int p = target.parent(t);
            if (p < 0) {
                continue;
            }
            int candidate = sourceOf[t] >= 0 ? t : firstMappedBelow[t];
            if (candidate >= 0 && (firstMappedBelow[p] < 0 || candidate < firstMappedBelow[p])) {
                firstMappedBelow[p] = candidate;
            }
        }
        for (int t = 0; t < n; t++) {
            if (sourceOf[t] >= 0 || firstMappedBelow[t] < 0) {
                continue;
            }
            int start = map.mappedAncestor(target, t);
            if (start < 0) {
                continue;
            }
            int end = firstMappedBelow[t];
            double before = pathLength(start, t);
            double total = before + pathLength(t, end);
            kind[t] = CHAIN;
            chainStart[t] = start;
            chainEnd[t] = end;
            chainFraction[t] = total > Rotations.EPSILON ? before / total : 0.5;
        }
    }

    /** The length of the rest bones from {@code ancestor} down to {@code node}, model space. */
    private double pathLength(int ancestor, int node) {
        double length = 0;
        for (int c = node; c != ancestor && c >= 0; c = target.parent(c)) {
            int p = target.parent(c);
            if (p < 0) {
                break;
            }
            length += distance(restPositionTarget, c, restPositionTarget, p);
        }
        return length;
    }

    /**
     * Writes {@code A(t)} at {@code align[4t]}: with one usable mapped child, the shortest arc from the target's rest
     * chord to the source's; with two or more (hips, chest), the TRIAD of the first two (the first chord exact, the
     * second fixing the twist about it); with none, the alignment of the nearest mapped ancestor (a hand turns with
     * its forearm). A child is usable when its source joint descends from t's and both chords are longer than
     * {@link Rotations#EPSILON}.
     */
    private void align(int t, int[] sourceOf, double[] align) {
        int s = sourceOf[t];
        List<Integer> children = new ArrayList<>(2);
        for (int c : mappedChildren.get(t)) {
            if (children.size() < 2 && JointMap.isAncestor(source, s, sourceOf[c])
                    && distance(restPositionTarget, c, restPositionTarget, t) > Rotations.EPSILON
                    && distance(restPositionSource, sourceOf[c], restPositionSource, s) > Rotations.EPSILON) {
                children.add(c);
            }
        }
        if (children.isEmpty()) {
            int a = map.mappedAncestor(target, t);
            if (a >= 0) {
                Rotations.copy(align, 4 * a, align, 4 * t);
            } else {
                Rotations.identity(align, 4 * t);
            }
            return;
        }
        int c = children.getFirst();
        double[] ut = chord(restPositionTarget, t, c);
        double[] us = chord(restPositionSource, s, sourceOf[c]);
        boolean done = false;
        if (children.size() > 1) {
            int d = children.get(1);
            done = Rotations.triad(ut, chord(restPositionTarget, t, d), us, chord(restPositionSource, s, sourceOf[d]),
                    align, 4 * t);
        }
        if (!done) {
            Rotations.arc(ut, 0, us, 0, align, 4 * t);
        }
        if (source.parent(sourceOf[c]) != s) {
            // unmapped source joints between s and the child's source joint bend that bone: correct it per key
            correctionChild[t] = sourceOf[c];
            Rotations.rotateInverse(restModelSource, 4 * s, us, 0, correctionChord, 3 * t);
        }
    }

    private int defaultRoot(int[] sourceOf) {
        for (int t = 0; t < sourceOf.length; t++) {
            if (sourceOf[t] >= 0 && map.mappedAncestor(target, t) < 0) {
                return t;
            }
        }
        throw new IllegalStateException("a joint map with a mapped joint has a topmost one");
    }

    private int rootByName(String name) {
        int found = target.indexOf(name);
        if (found < 0 || map.sourceOf()[found] < 0) {
            throw new RetargetException(RetargetException.Kind.BAD_REQUEST, "the root joint '" + name + "' is "
                    + (found < 0 ? "not a node of the target" : "not mapped to a source joint"), List.of(name));
        }
        int above = map.mappedAncestor(target, found);
        if (above >= 0) {
            throw new RetargetException(RetargetException.Kind.BAD_REQUEST, "the root joint '" + name
                    + "' has a mapped ancestor '" + target.name(above) + "': the root must be the topmost mapped joint",
                    List.of(name, target.name(above)));
        }
        return found;
    }

    /**
     * The ratio of hip heights: the root's rest height (model y) above the lowest joint below it, target over source.
     * Falls back to the ratio of the summed rest chords of the mapped bones (the same bones on both sides) when either
     * height is zero (a skeleton lying down or not y-up), and to 1 when those are zero too.
     */
    private double autoScale(int[] sourceOf) {
        double ht = heightAboveLowest(target, restPositionTarget, root);
        double hs = heightAboveLowest(source, restPositionSource, sourceRoot);
        if (ht > Rotations.EPSILON && hs > Rotations.EPSILON) {
            return ht / hs;
        }
        double lt = 0;
        double ls = 0;
        for (int t = 0; t < sourceOf.length; t++) {
            int a = sourceOf[t] >= 0 ? map.mappedAncestor(target, t) : -1;
            if (a >= 0) {
                lt += distance(restPositionTarget, t, restPositionTarget, a);
                ls += distance(restPositionSource, sourceOf[t], restPositionSource, sourceOf[a]);
            }
        }
        return lt > Rotations.EPSILON && ls > Rotations.EPSILON ? lt / ls : 1;
    }

    private static double heightAboveLowest(Rig rig, double[] positions, int top) {
        double lowest = positions[3 * top + 1];
        for (int i = top + 1; i < rig.nodeCount(); i++) {
            if (JointMap.isAncestor(rig, top, i)) {
                lowest = Math.min(lowest, positions[3 * i + 1]);
            }
        }
        return positions[3 * top + 1] - lowest;
    }

    /**
     * Turns the model rotation at {@code q[o..o+3]} (x, y, z, w) by 180° about Y: {@code q ← (0, 1, 0, 0) · q}.
     */
    static void turnQuaternion(double[] q, int o) {
        double x = q[o];
        double y = q[o + 1];
        double z = q[o + 2];
        double w = q[o + 3];
        q[o] = z;
        q[o + 1] = w;
        q[o + 2] = -x;
        q[o + 3] = -y;
    }

    /** Turns the model vector at {@code v[o..o+2]} by 180° about Y: {@code (x, y, z) ← (−x, y, −z)}. */
    static void turnVector(double[] v, int o) {
        v[o] = -v[o];
        v[o + 2] = -v[o + 2];
    }

    /** Rest model rotations: the rest local rotations composed parent-first, in double. */
    private static double[] restModelRotations(Rig rig) {
        int n = rig.nodeCount();
        double[] out = new double[4 * n];
        double[] local = new double[4];
        for (int i = 0; i < n; i++) {
            asDouble(rig.restRotations(), i, local);
            int p = rig.parent(i);
            if (p >= 0) {
                Rotations.multiply(out, 4 * p, local, 0, out, 4 * i);
            } else {
                Rotations.copy(local, 0, out, 4 * i);
            }
            Rotations.normalize(out, 4 * i);
        }
        return out;
    }

    static double[] asDouble(float[] quaternions, int i, double[] out) {
        out[0] = quaternions[4 * i];
        out[1] = quaternions[4 * i + 1];
        out[2] = quaternions[4 * i + 2];
        out[3] = quaternions[4 * i + 3];
        return out;
    }

    /** The translations (column 3) of column-major model matrices, in double. */
    static double[] positions(float[] matrices, int n) {
        double[] out = new double[3 * n];
        for (int i = 0; i < n; i++) {
            out[3 * i] = matrices[16 * i + 12];
            out[3 * i + 1] = matrices[16 * i + 13];
            out[3 * i + 2] = matrices[16 * i + 14];
        }
        return out;
    }

    private static double[] chord(double[] positions, int from, int to) {
        return new double[] {positions[3 * to] - positions[3 * from], positions[3 * to + 1] - positions[3 * from + 1],
            positions[3 * to + 2] - positions[3 * from + 2]};
    }

    private static double distance(double[] a, int i, double[] b, int j) {
        double dx = a[3 * i] - b[3 * j];
        double dy = a[3 * i + 1] - b[3 * j + 1];
        double dz = a[3 * i + 2] - b[3 * j + 2];
        return Math.sqrt(dx * dx + dy * dy + dz * dz);
    }
}
