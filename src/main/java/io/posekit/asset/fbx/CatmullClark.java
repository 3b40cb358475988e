package io.posekit.asset.fbx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One level of Catmull-Clark subdivision of a polygon mesh, with the rule set ufbx's {@code ufbx_subdivide_mesh}
 * uses (so that a mesh the authoring tool displays smooth comes out as the tool and ufbx's ground truth show it).
 *
 * <ul>
 *   <li>Every polygon of n corners becomes n quads: (vertex point, edge point, face point, previous edge point).</li>
 *   <li>Face point: the mean of the polygon's corners. Edge point of an interior edge of crease c (the file's crease
 *       × 10, clamped to [0, 1]): (1 + c)/4 of each end and (1 − c)/4 of each adjacent face point; a boundary edge, a
 *       non-manifold edge (more than two polygons, or two running the same way) and, for a face-varying attribute, a
 *       seam (the values differ across the edge) are sharp: the midpoint.</li>
 *   <li>Vertex point of valence n with no creased edge: (n − 2)/n of the vertex, 1/n² of each neighbouring vertex and
 *       of each adjacent face point. With two creased (or boundary, or seam) edges, of mean crease c: the smooth rule
 *       × (1 − c) plus c × (3/4 vertex + 1/8 each creased neighbour). With more than two, at a non-manifold vertex,
 *       and by the {@link Boundary} rule at corners/boundaries: the vertex itself. A vertex crease v (× 10, clamped)
 *       blends the result towards the vertex by v.</li>
 *   <li>Creases of the halves of an edge (and of a vertex) are the parent's less 0.1 (unless ≥ 0.999, infinitely
 *       sharp), at least 0; the new interior edges are smooth.</li>
 *   <li>Attributes (UVs, colours) are face-varying: each is subdivided by the same stencils over its own indices,
 *       seams being sharp, with the attribute {@link Boundary} rule.</li>
 * </ul>
 *
 * <p>Pure computation over flat arrays; the caller bounds the sizes ({@link #verticesAfter}) before calling.
 */
final class CatmullClark {

    /** Which boundary vertices are kept in place (ufbx's {@code ufbx_subdivision_boundary}). */
    enum Boundary {
        /** Boundary edges are sharp creases, their vertices follow the crease rule (Maya "crease edge", legacy). */
        SHARP_NONE,
        /** As {@link #SHARP_NONE}, and a boundary vertex with only two edges (a corner) stays in place. */
        SHARP_CORNERS,
        /** Every vertex on a boundary or seam stays in place (ufbx's choice for UVs). */
        SHARP_BOUNDARY,
        /** Nothing is smoothed: every edge and vertex is sharp. */
        SHARP_INTERIOR
    }

    /**
     * A face-varying attribute.
     *
     * @param values {@code components} numbers per value
     * @param components numbers per value (1 to 4)
     * @param cornerIndex per polygon corner, the value it uses
     */
    record Attribute(double[] values, int components, int[] cornerIndex) {
    }

    /**
     * A polygon mesh.
     *
     * @param faceStart polygon f is corners {@code faceStart[f] .. faceStart[f + 1] − 1} (length polygons + 1)
     * @param cornerVertex the vertex of each corner
     * @param positions 3 numbers per vertex
     * @param cornerCrease per corner, the crease (0 … 1, FBX's scale) of the edge from it to the next corner, or
     *     {@code null} for none
     * @param vertexCrease per vertex, its crease (0 … 1), or {@code null}
     * @param attributes face-varying attributes
     * @param faceOrigin per polygon, the polygon of the original cage it lies in
     */
    record Cage(int[] faceStart, int[] cornerVertex, double[] positions, double[] cornerCrease, double[] vertexCrease,
            List<Attribute> attributes, int[] faceOrigin) {

        int faceCount() {
            return faceStart.length - 1;
        }

        int vertexCount() {
            return positions.length / 3;
        }
    }

    private CatmullClark() {
    }

    /**
     * An upper bound of the vertices one level makes of {@code cage}: a face point per polygon, an edge point per
     * polygon corner and a vertex point per corner (the exact count is smaller on a closed manifold mesh).
     */
    static long verticesAfter(Cage cage) {
        return (long) cage.faceCount() + 2L * cage.cornerVertex().length;
    }

    /** Subdivides once: positions with {@code boundary}, attributes with {@code attributeBoundary}. */
    static Cage subdivide(Cage cage, Boundary boundary, Boundary attributeBoundary) {
        Topology topo = new Topology(cage);
        Level positions = layer(cage, topo, cage.positions(), 3, cage.cornerVertex(), false, boundary);
        List<Attribute> attributes = new ArrayList<>();
        for (Attribute a : cage.attributes()) {
            Level l = layer(cage, topo, a.values(), a.components(), a.cornerIndex(), true, attributeBoundary);
            attributes.add(new Attribute(l.values, a.components(), l.indices));
        }
        int corners = cage.cornerVertex().length;
        int[] faceStart = new int[corners + 1];
        for (int q = 0; q <= corners; q++) {
            faceStart[q] = 4 * q;
        }
        int[] faceOrigin = new int[corners];
        double[] cornerCrease = cage.cornerCrease() == null ? null : new double[4 * corners];
        for (int c = 0; c < corners; c++) {
            faceOrigin[c] = cage.faceOrigin()[topo.face[c]];
            if (cornerCrease != null) {
                cornerCrease[4 * c] = decay(cage.cornerCrease()[c]);
                cornerCrease[4 * c + 3] = decay(cage.cornerCrease()[topo.prev[c]]);
            }
        }
        double[] vertexCrease = null;
        if (cage.vertexCrease() != null) {
            vertexCrease = new double[positions.values.length / 3];
            for (int c = 0; c < corners; c++) {
                vertexCrease[positions.indices[4 * c]] = decay(cage.vertexCrease()[cage.cornerVertex()[c]]);
            }
        }
        return new Cage(faceStart, positions.indices, positions.values, cornerCrease, vertexCrease, attributes,
                faceOrigin);
    }

    /**
     * Smooth vertex normals of a quad mesh: per vertex, the normalised sum of its quads' area-weighted normals
     * (the diagonals' cross product), as ufbx generates them after subdividing.
     */
    static double[] normals(Cage mesh) {
        double[] p = mesh.positions();
        double[] n = new double[p.length];
        int[] cv = mesh.cornerVertex();
        for (int f = 0; f < mesh.faceCount(); f++) {
            int s = mesh.faceStart()[f];
            int count = mesh.faceStart()[f + 1] - s;
            // Newell's method: exact area-weighted normal of any planar or near-planar polygon
            double nx = 0;
            double ny = 0;
            double nz = 0;
            for (int k = 0; k < count; k++) {
                int a = 3 * cv[s + k];
                int b = 3 * cv[s + (k + 1) % count];
                nx += (p[a + 1] - p[b + 1]) * (p[a + 2] + p[b + 2]);
                ny += (p[a + 2] - p[b + 2]) * (p[a] + p[b]);
                nz += (p[a] - p[b]) * (p[a + 1] + p[b + 1]);
            }
            for (int k = 0; k < count; k++) {
                int v = 3 * cv[s + k];
                n[v] += nx;
                n[v + 1] += ny;
                n[v + 2] += nz;
            }
        }
        for (int v = 0; v < n.length; v += 3) {
            double len = Math.sqrt(n[v] * n[v] + n[v + 1] * n[v + 1] + n[v + 2] * n[v + 2]);
            if (len > 0) {
                n[v] /= len;
                n[v + 1] /= len;
                n[v + 2] /= len;
            }
        }
        return n;
    }

    private static double decay(double crease) {
        double c = crease < 0.999 ? crease - 0.1 : crease;
        return Math.max(0, c);
    }

    /** Half-edge topology: per corner its polygon, next and previous corner, twin (−1 if none), non-manifold flag. */
    private static final class Topology {
        final int[] face;
        final int[] next;
        final int[] prev;
        final int[] twin;
        final boolean[] nonManifold;
        final int[] firstCorner;

        Topology(Cage cage) {
            int corners = cage.cornerVertex().length;
            int[] cv = cage.cornerVertex();
            face = new int[corners];
            next = new int[corners];
            prev = new int[corners];
            twin = new int[corners];
            nonManifold = new boolean[corners];
            firstCorner = new int[cage.vertexCount()];
            java.util.Arrays.fill(firstCorner, -1);
            for (int f = 0; f < cage.faceCount(); f++) {
                int s = cage.faceStart()[f];
                int e = cage.faceStart()[f + 1];
                for (int c = s; c < e; c++) {
                    face[c] = f;
                    next[c] = c + 1 < e ? c + 1 : s;
                    prev[c] = c > s ? c - 1 : e - 1;
                }
            }
            long vertices = cage.vertexCount();
            Map<Long, int[]> edges = new HashMap<>(corners * 2);
            for (int c = 0; c < corners; c++) {
                if (firstCorner[cv[c]] < 0) {
                    firstCorner[cv[c]] = c;
                }
                int a = cv[c];
                int b = cv[next[c]];
                long key = Math.min(a, b) * vertices + Math.max(a, b);
                int[] uses = edges.get(key);
                if (uses == null) {
                    edges.put(key, new int[] {c, -1, 1});
                } else {
                    if (uses[2] == 1) {
                        uses[1] = c;
                    }
                    uses[2]++;
                }
            }
            java.util.Arrays.fill(twin, -1);
            for (int[] uses : edges.values()) {
                if (uses[2] == 2 && cv[uses[0]] == cv[next[uses[1]]] && cv[uses[1]] == cv[next[uses[0]]]
                        && cv[uses[0]] != cv[uses[1]]) {
                    twin[uses[0]] = uses[1];
                    twin[uses[1]] = uses[0];
                }
            }
            for (int c = 0; c < corners; c++) {
                int a = cv[c];
                int b = cv[next[c]];
                int[] uses = edges.get(Math.min(a, b) * vertices + Math.max(a, b));
                if (uses[2] > 1 && twin[c] < 0) {
                    nonManifold[c] = true;
                }
            }
        }

        /** The next outgoing corner around the same vertex (across this corner's edge), or −1 at a boundary. */
        int nextAround(int c) {
            return twin[c] >= 0 ? next[twin[c]] : -1;
        }

        /** The previous outgoing corner around the same vertex (across the incoming edge), or −1 at a boundary. */
        int prevAround(int c) {
            return twin[prev[c]];
        }
    }

    /** A subdivided layer: its values (faces, then edges, then vertices) and 4 indices per old corner. */
    private record Level(double[] values, int[] indices) {
    }

    /** The inputs of one vertex point: references into the layer (see {@link #layer}) and their weights. */
    private static final class Sum {
        int[] bigRefs = new int[64];
        double[] bigWeights = new double[64];
        int n;

        void clear() {
            n = 0;
        }

        int add(int ref, double w) {
            if (n == bigRefs.length) {
                bigRefs = java.util.Arrays.copyOf(bigRefs, 2 * n);
                bigWeights = java.util.Arrays.copyOf(bigWeights, 2 * n);
            }
            bigRefs[n] = ref;
            bigWeights[n] = w;
            return n++;
        }
    }

    private static boolean split(Topology t, int[] idx, double[] values, int k, boolean checkData, int c) {
        int tw = t.twin[c];
        if (tw < 0) {
            return false;
        }
        int a0 = idx[c];
        int a1 = idx[t.next[c]];
        int b0 = idx[t.next[tw]];
        int b1 = idx[tw];
        if (a0 == b0 && a1 == b1) {
            return false;
        }
        if (!checkData) {
            return true;
        }
        return !(same(values, k, a0, b0) && same(values, k, a1, b1));
    }

    private static boolean same(double[] values, int k, int a, int b) {
        for (int i = 0; i < k; i++) {
            if (Double.doubleToLongBits(values[k * a + i]) != Double.doubleToLongBits(values[k * b + i])) {
                return false;
            }
        }
        return true;
    }

    private static double edgeCrease(Cage cage, Topology t, boolean split, int c) {
        if (t.twin[c] < 0 || split) {
            return 1;
        }
        return cage.cornerCrease() == null ? 0 : cage.cornerCrease()[c] * 10;
    }

    /**
     * Subdivides one layer. Values are laid out faces, edges, vertices; a reference in a {@link Sum} is ≥ 0 for an old
     * value and −1 − i for face point i.
     */
    private static Level layer(Cage cage, Topology t, double[] values, int k, int[] idx, boolean checkData,
            Boundary boundary) {
        int corners = idx.length;
        int faces = cage.faceCount();
        boolean sharpCorners = boundary == Boundary.SHARP_CORNERS || boundary == Boundary.SHARP_BOUNDARY;
        boolean sharpSplits = boundary == Boundary.SHARP_BOUNDARY;
        boolean sharpAll = boundary == Boundary.SHARP_INTERIOR;

        int[] edgeIndex = new int[corners];
        boolean[] splitAt = new boolean[corners];
        int edgeValues = 0;
        for (int c = 0; c < corners; c++) {
            splitAt[c] = split(t, idx, values, k, checkData, c);
            int tw = t.twin[c];
            if (tw >= 0 && tw < c && !splitAt[c]) {
                edgeIndex[c] = edgeIndex[tw];
            } else {
                edgeIndex[c] = edgeValues++;
            }
        }
        double[] facePoints = new double[k * faces];
        for (int f = 0; f < faces; f++) {
            int s = cage.faceStart()[f];
            int e = cage.faceStart()[f + 1];
            double w = 1.0 / (e - s);
            for (int c = s; c < e; c++) {
                for (int i = 0; i < k; i++) {
                    facePoints[k * f + i] += w * values[k * idx[c] + i];
                }
            }
        }
        double[] edgePoints = new double[k * edgeValues];
        boolean[] done = new boolean[edgeValues];
        for (int c = 0; c < corners; c++) {
            int ev = edgeIndex[c];
            if (done[ev]) {
                continue;
            }
            done[ev] = true;
            int tw = t.twin[c];
            double crease = 0;
            if (splitAt[c] || tw < 0) {
                crease = 1;
            } else if (cage.cornerCrease() != null) {
                crease = cage.cornerCrease()[c] * 10;
            }
            if (sharpAll) {
                crease = 1;
            }
            int v0 = k * idx[c];
            int v1 = k * idx[t.next[c]];
            if (crease >= 1) {
                for (int i = 0; i < k; i++) {
                    edgePoints[k * ev + i] = 0.5 * values[v0 + i] + 0.5 * values[v1 + i];
                }
            } else {
                double c0 = Math.max(0, crease);
                double w0 = 0.25 + 0.25 * c0;
                double w1 = 0.25 - 0.25 * c0;
                int f0 = k * t.face[c];
                int f1 = k * t.face[tw];
                for (int i = 0; i < k; i++) {
                    edgePoints[k * ev + i] = w0 * values[v0 + i] + w0 * values[v1 + i] + w1 * facePoints[f0 + i]
                            + w1 * facePoints[f1 + i];
                }
            }
        }

        int[] vertexIndex = new int[corners];
        java.util.Arrays.fill(vertexIndex, -1);
        double[] vertexPoints = new double[k * corners];
        int vertexValues = 0;
        Sum sum = new Sum();
        for (int v = 0; v < t.firstCorner.length; v++) {
            int originalStart = t.firstCorner[v];
            if (originalStart < 0) {
                continue;
            }
            // find a topological boundary, or failing that a split edge, to start from
            int start = originalStart;
            for (int cur = start;;) {
                int prev = t.prevAround(cur);
                if (prev < 0) {
                    start = cur;
                    break;
                }
                if (splitAt[prev]) {
                    start = cur;
                }
                if (prev == originalStart) {
                    break;
                }
                cur = prev;
            }
            originalStart = start;
            int guard = 0;
            while (start >= 0) {
                if (++guard > corners + 1) {
                    break; // malformed fan: the remaining corners are copied below
                }
                int value = vertexValues++;
                double totalCrease = 0;
                int creases = 0;
                int splits = 0;
                boolean onBoundary = false;
                boolean nonManifold = false;
                int[] creaseInput = new int[2];
                int startPrev = t.prev[start];
                int endEdge = t.twin[startPrev];
                int valence = 2;
                nonManifold |= t.nonManifold[start] || t.nonManifold[startPrev];
                sum.clear();
                int v0 = idx[start];
                sum.add(v0, 0);
                sum.add(idx[t.next[start]], 0);
                sum.add(idx[startPrev], 0);
                sum.add(-1 - t.face[start], 0);
                boolean startSplit = splitAt[start];
                boolean prevSplit = endEdge >= 0 && splitAt[endEdge];
                double startCrease = edgeCrease(cage, t, startSplit, start);
                if (startCrease > 0) {
                    totalCrease += startCrease;
                    creaseInput[creases++] = 1;
                }
                double prevCrease = edgeCrease(cage, t, prevSplit, startPrev);
                if (prevCrease > 0) {
                    totalCrease += prevCrease;
                    creaseInput[creases++] = 2;
                }
                if (endEdge >= 0) {
                    if (prevSplit) {
                        splits++;
                    }
                } else {
                    onBoundary = true;
                }
                vertexIndex[start] = value;
                if (startSplit) {
                    start = t.nextAround(start);
                    splits++;
                } else {
                    int cur = start;
                    for (;;) {
                        cur = t.nextAround(cur);
                        if (cur < 0) {
                            onBoundary = true;
                            start = -1;
                            break;
                        }
                        nonManifold |= t.nonManifold[cur];
                        if (vertexIndex[cur] >= 0) {
                            start = -1; // already visited: a malformed fan
                            break;
                        }
                        vertexIndex[cur] = value;
                        boolean s = splitAt[cur];
                        if (cur == endEdge && !s) {
                            sum.add(-1 - t.face[cur], 0);
                            start = -1;
                            break;
                        }
                        double curCrease = edgeCrease(cage, t, s, cur);
                        if (curCrease > 0) {
                            totalCrease += curCrease;
                            if (creases < 2) {
                                creaseInput[creases] = sum.n;
                            }
                            creases++;
                        }
                        sum.add(idx[t.next[cur]], 0);
                        sum.add(-1 - t.face[cur], 0);
                        valence++;
                        if (s) {
                            start = t.nextAround(cur);
                            splits++;
                            break;
                        }
                    }
                }
                if (start == originalStart) {
                    start = -1;
                }
                double feWeight = 1.0 / ((double) valence * valence);
                double vWeight = (valence - 2) / (double) valence;
                double[] w = sum.bigWeights;
                if (creases > 2 || (sharpCorners && valence == 2 && (splits > 0 || onBoundary))
                        || (sharpSplits && (splits > 0 || onBoundary)) || sharpAll || nonManifold) {
                    sum.n = 1;
                    w[0] = 1;
                } else if (creases == 2) {
                    double c = Math.min(1, Math.max(0, totalCrease * 0.5));
                    w[0] = vWeight * (1 - c) + 0.75 * c;
                    for (int i = 1; i < sum.n; i++) {
                        w[i] = feWeight * (1 - c);
                    }
                    w[creaseInput[0]] += 0.125 * c;
                    w[creaseInput[1]] += 0.125 * c;
                } else {
                    w[0] = vWeight;
                    for (int i = 1; i < sum.n; i++) {
                        w[i] = feWeight;
                    }
                }
                if (cage.vertexCrease() != null) {
                    double vc = cage.vertexCrease()[cage.cornerVertex()[originalStart]] * 10;
                    if (vc > 0) {
                        vc = Math.min(1, vc);
                        w[0] = vc + w[0] * (1 - vc);
                        for (int i = 1; i < sum.n; i++) {
                            w[i] *= 1 - vc;
                        }
                    }
                }
                for (int j = 0; j < sum.n; j++) {
                    int ref = sum.bigRefs[j];
                    double[] src = ref >= 0 ? values : facePoints;
                    int o = k * (ref >= 0 ? ref : -1 - ref);
                    for (int i = 0; i < k; i++) {
                        vertexPoints[k * value + i] += w[j] * src[o + i];
                    }
                }
            }
        }
        // corners no fan reached (non-manifold vertices): their value as it is
        for (int c = 0; c < corners; c++) {
            if (vertexIndex[c] < 0) {
                int value = vertexValues++;
                vertexIndex[c] = value;
                System.arraycopy(values, k * idx[c], vertexPoints, k * value, k);
            }
        }
        double[] out = new double[k * (faces + edgeValues + vertexValues)];
        System.arraycopy(facePoints, 0, out, 0, k * faces);
        System.arraycopy(edgePoints, 0, out, k * faces, k * edgeValues);
        System.arraycopy(vertexPoints, 0, out, k * (faces + edgeValues), k * vertexValues);
        int edgeStart = faces;
        int vertStart = faces + edgeValues;
        int[] indices = new int[4 * corners];
        for (int c = 0; c < corners; c++) {
            indices[4 * c] = vertStart + vertexIndex[c];
            indices[4 * c + 1] = edgeStart + edgeIndex[c];
            indices[4 * c + 2] = t.face[c];
            indices[4 * c + 3] = edgeStart + edgeIndex[t.prev[c]];
        }
        return new Level(out, indices);
    }
}
