package io.posekit.asset.fbx;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportWarnings;
import java.util.List;

/**
 * Tessellates an FBX {@code NurbsSurface} geometry (Maya's NURBS, FBX 6.x and 7.x alike) into a polygon mesh, the way
 * ufbx's {@code ufbx_tessellate_nurbs_surface} does with the file's own span subdivision — which is how ufbx's tests
 * compare such a surface with Maya's OBJ export of it.
 *
 * <p>The record: {@code NurbsSurfaceOrder: orderU, orderV} (degree + 1), {@code Dimensions: countU, countV} (control
 * points per direction), {@code Step: stepU, stepV} (samples per knot span; 0 or missing: 4), {@code Form: "Open" |
 * "Closed" | "Periodic"} per direction, {@code Points} (x, y, z, w per control point, U varying fastest; w is the
 * rational weight, the coordinates are not premultiplied), {@code KnotVectorU}/{@code KnotVectorV} and
 * {@code FlipNormals}. A point of the surface is {@code Σ N_i(u)·N_j(v)·w_ij·P_ij / Σ N_i(u)·N_j(v)·w_ij} with the
 * B-spline basis {@code N} of the knot vectors (Cox–de Boor) over the domain {@code [knot[degree],
 * knot[knots − order]]}; a knot vector longer than {@code count + order} wraps the first control points around
 * (periodic surfaces), as ufbx indexes them modulo the count.
 *
 * <p>Tessellation: the distinct knot values inside the domain are the span boundaries; each span is cut into
 * {@code step} equal parameter intervals, giving a grid of {@code (spans·step + 1)} samples per direction (a closed or
 * periodic direction samples its last boundary at the first, so the seam closes exactly). Each grid cell is a quad,
 * split into two triangles along its shorter diagonal. Normals are the area-weighted average of the cells around a
 * sample (across a closed seam too); {@code FlipNormals} reverses winding and normals. UVs are the surface parameters
 * {@code (u, 1 − v)} (glTF's v down), as ufbx gives {@code (u, v)}. The Model's geometric transform is applied to the
 * control points (a NURBS surface is invariant under affine maps).
 *
 * <p>A record whose counts disagree (points, knots, orders) or whose knots decrease is not a surface ufbx can
 * evaluate either: it is skipped with a warning, as ufbx leaves it untessellated. Orders above {@link #MAX_ORDER},
 * and grids past {@code posekit.limits.vertices} or the decode budget, are refused (413) before anything is
 * allocated.
 */
final class FbxNurbs {

    /** The highest order (degree + 1) read; Maya's NURBS stop at degree 7. Evaluation costs order² per sample. */
    static final int MAX_ORDER = 32;
    /** ufbx's span subdivision when the file gives none. */
    static final int DEFAULT_STEP = 4;

    private FbxNurbs() {
    }

    /**
     * One direction of the surface.
     *
     * @param order degree + 1
     * @param count control points in this direction
     * @param knots the knot vector
     * @param closed whether the direction is closed or periodic (its last sample is its first)
     * @param spans the distinct knot values of the domain, increasing
     * @param step samples per span
     */
    record Basis(int order, int count, double[] knots, boolean closed, double[] spans, int step) {

        /** Samples along this direction. */
        long samples() {
            return (long) (spans.length - 1) * step + 1;
        }

        /** The parameter of sample {@code i} (ufbx's interpolation between span boundaries). */
        double parameter(int i) {
            int span = i / step;
            int split = i % step;
            if (span >= spans.length - 1) {
                return spans[spans.length - 1];
            }
            double t = (double) split / step;
            return split == 0 ? spans[span] : spans[span] * (1 - t) + t * spans[span + 1];
        }

        /** The parameter at which sample {@code i} is evaluated: a closed direction's last sample is its first. */
        double evaluatedParameter(int i) {
            return closed && i == samples() - 1 ? spans[0] : parameter(i);
        }

        /**
         * The B-spline basis functions non-zero at {@code u} (clamped to the domain), written into {@code out[0 ..
         * order−1]}.
         *
         * @return the index of the basis function {@code out[0]} is (control point index before wrapping)
         */
        int evaluate(double u, double[] out, double[] left, double[] right) {
            int degree = order - 1;
            int functions = knots.length - order;
            double lo = knots[degree];
            double hi = knots[functions];
            u = Math.clamp(u, lo, hi);
            // the knot interval [knots[k], knots[k+1]) holding u (binary search); at the domain's end the last
            // non-empty one
            int lowK = degree;
            int highK = functions - 1;
            while (lowK < highK) {
                int mid = (lowK + highK + 1) >>> 1;
                if (knots[mid] <= u) {
                    lowK = mid;
                } else {
                    highK = mid - 1;
                }
            }
            int k = lowK;
            while (k > degree && !(knots[k] < knots[k + 1])) {
                k--;
            }
            out[0] = 1;
            for (int j = 1; j <= degree; j++) {
                left[j] = u - knots[k + 1 - j];
                right[j] = knots[k + j] - u;
                double saved = 0;
                for (int r = 0; r < j; r++) {
                    // the interval [k, k+1] is non-empty and inside [k+r+1−j, k+r+1]: never a zero division
                    double temp = out[r] / (right[r + 1] + left[j - r]);
                    out[r] = saved + right[r + 1] * temp;
                    saved = left[j - r] * temp;
                }
                out[j] = saved;
            }
            return k - degree;
        }
    }

    /**
     * Tessellates a {@code NurbsSurface} geometry.
     *
     * @param geometry the Geometry object
     * @param geometric the Model's geometric transform (column-major 4×4), or {@code null}
     * @return the mesh, or {@code null} when the record is not a surface ufbx could evaluate (warned)
     * @throws ImportException too large (413) for an order above {@link #MAX_ORDER} or a grid past the vertex limit or
     *     the budget; invalid (422) for non-finite control points
     */
    static FbxGeometry.Mesh tessellate(FbxScene.FbxObject geometry, double[] geometric, DecodeBudget budget,
            ImportWarnings warnings) {
        String where = geometry.label();
        long[] order = integers(geometry, "NurbsSurfaceOrder", 2, where, warnings);
        long[] dimensions = integers(geometry, "Dimensions", 2, where, warnings);
        double[] points = numbers(geometry.child("Points"), budget, where + " Points");
        double[] knotsU = numbers(geometry.child("KnotVectorU"), budget, where + " KnotVectorU");
        double[] knotsV = numbers(geometry.child("KnotVectorV"), budget, where + " KnotVectorV");
        if (order == null || dimensions == null || points == null || knotsU == null || knotsV == null) {
            warnings.add(where + ": a NURBS surface needs NurbsSurfaceOrder, Dimensions, Points, KnotVectorU and"
                    + " KnotVectorV; it is not placed");
            return null;
        }
        for (int d = 0; d < 2; d++) {
            if (order[d] > MAX_ORDER) {
                throw ImportException.tooLarge(where + ": its NURBS order " + order[d] + " is above the " + MAX_ORDER
                        + " posekit evaluates");
            }
        }
        long[] step = integers(geometry, "Step", 2, where, warnings);
        boolean[] closed = forms(geometry, where, warnings);
        Basis u = basis(order[0], dimensions[0], knotsU, closed[0], step == null ? 0 : step[0], "U", where, warnings);
        Basis v = basis(order[1], dimensions[1], knotsV, closed[1], step == null ? 0 : step[1], "V", where, warnings);
        if (u == null || v == null) {
            return null;
        }
        long controlPoints = (long) u.count() * v.count();
        if (points.length != 4 * controlPoints) {
            warnings.add(where + ": Points holds " + points.length + " numbers, not 4 for each of its " + u.count()
                    + " × " + v.count() + " control points; it is not placed");
            return null;
        }
        for (double p : points) {
            if (!Double.isFinite(p)) {
                throw ImportException.invalid(where + ": a NURBS control point is not finite");
            }
        }
        long columns = u.samples();
        long rows = v.samples();
        long vertices = columns * rows;
        long limit = budget.limits().maxVertices();
        if (vertices > limit) {
            throw ImportLimits.exceeded(where + " (a NURBS surface tessellated " + u.step() + " × " + v.step()
                    + " per span)", vertices, "vertices", limit, ImportLimits.VERTICES);
        }
        long cells = (columns - 1) * (rows - 1);
        // per vertex: positions and normal sums as doubles while evaluating, then floats, UV and control point
        budget.charge(vertices, 8 * 6 + 4 * (3 + 3 + 2 + 1), where + " tessellated vertices");
        budget.charge(cells, 4 * 6, where + " tessellated triangles");
        double[] cps = weightedControlPoints(points, geometric);
        boolean flip = flag(geometry, "FlipNormals");
        return grid(u, v, cps, (int) columns, (int) rows, flip, budget);
    }

    /** The control points as (x·w, y·w, z·w, w), the geometric transform applied to (x, y, z) first. */
    private static double[] weightedControlPoints(double[] points, double[] m) {
        double[] out = new double[points.length];
        for (int i = 0; i < points.length; i += 4) {
            double x = points[i];
            double y = points[i + 1];
            double z = points[i + 2];
            double w = points[i + 3];
            if (m != null) {
                double gx = m[0] * x + m[4] * y + m[8] * z + m[12];
                double gy = m[1] * x + m[5] * y + m[9] * z + m[13];
                double gz = m[2] * x + m[6] * y + m[10] * z + m[14];
                x = gx;
                y = gy;
                z = gz;
            }
            out[i] = x * w;
            out[i + 1] = y * w;
            out[i + 2] = z * w;
            out[i + 3] = w;
        }
        return out;
    }

    private static FbxGeometry.Mesh grid(Basis u, Basis v, double[] cps, int columns, int rows, boolean flip,
            DecodeBudget budget) {
        int n = columns * rows;
        double[] position = new double[3 * n];
        float[] uvs = new float[2 * n];
        double[] nu = new double[u.order()];
        double[] nv = new double[v.order()];
        double[] left = new double[Math.max(u.order(), v.order()) + 1];
        double[] right = new double[left.length];
        for (int row = 0; row < rows; row++) {
            int baseV = v.evaluate(v.evaluatedParameter(row), nv, left, right);
            for (int col = 0; col < columns; col++) {
                // per sample: a sample costs up to order² (32² = 1024) products
                budget.checkTime();
                int baseU = u.evaluate(u.evaluatedParameter(col), nu, left, right);
                double x = 0;
                double y = 0;
                double z = 0;
                double w = 0;
                for (int j = 0; j < v.order(); j++) {
                    int cv = (baseV + j) % v.count();
                    for (int i = 0; i < u.order(); i++) {
                        double b = nu[i] * nv[j];
                        int at = 4 * (cv * u.count() + (baseU + i) % u.count());
                        x += b * cps[at];
                        y += b * cps[at + 1];
                        z += b * cps[at + 2];
                        w += b * cps[at + 3];
                    }
                }
                int vertex = row * columns + col;
                // a zero total weight has no point: the origin stands in (the file's weights are its own)
                double inv = w != 0 ? 1 / w : 0;
                position[3 * vertex] = x * inv;
                position[3 * vertex + 1] = y * inv;
                position[3 * vertex + 2] = z * inv;
                uvs[2 * vertex] = (float) u.parameter(col);
                uvs[2 * vertex + 1] = (float) (1 - v.parameter(row));
            }
        }
        int[] indices = new int[6 * (columns - 1) * (rows - 1)];
        double[] normal = new double[3 * n];
        int at = 0;
        for (int row = 0; row + 1 < rows; row++) {
            for (int col = 0; col + 1 < columns; col++) {
                int a = row * columns + col;
                int b = a + 1;
                int c = a + columns + 1;
                int d = a + columns;
                // the cell's normal, twice its area: (c − a) × (d − b), along ∂u × ∂v
                double ex = position[3 * c] - position[3 * a];
                double ey = position[3 * c + 1] - position[3 * a + 1];
                double ez = position[3 * c + 2] - position[3 * a + 2];
                double fx = position[3 * d] - position[3 * b];
                double fy = position[3 * d + 1] - position[3 * b + 1];
                double fz = position[3 * d + 2] - position[3 * b + 2];
                double cx = ey * fz - ez * fy;
                double cy = ez * fx - ex * fz;
                double cz = ex * fy - ey * fx;
                add(normal, a, cx, cy, cz);
                add(normal, b, cx, cy, cz);
                add(normal, c, cx, cy, cz);
                add(normal, d, cx, cy, cz);
                // split along the shorter diagonal, a–c or b–d
                boolean splitAc = ex * ex + ey * ey + ez * ez <= fx * fx + fy * fy + fz * fz;
                at = triangle(indices, at, a, b, splitAc ? c : d, flip);
                at = splitAc ? triangle(indices, at, a, c, d, flip) : triangle(indices, at, b, c, d, flip);
            }
        }
        closeSeams(normal, u.closed(), v.closed(), columns, rows);
        float[] positions = new float[3 * n];
        float[] normals = new float[3 * n];
        int[] controlPoints = new int[n];
        for (int i = 0; i < n; i++) {
            double nx = normal[3 * i];
            double ny = normal[3 * i + 1];
            double nz = normal[3 * i + 2];
            double length = Math.sqrt(nx * nx + ny * ny + nz * nz);
            double scale = length > 0 ? (flip ? -1 : 1) / length : 0;
            for (int k = 0; k < 3; k++) {
                positions[3 * i + k] = (float) position[3 * i + k];
                // + 0 turns a flipped −0 into 0
                normals[3 * i + k] = (float) (normal[3 * i + k] * scale) + 0f;
            }
            controlPoints[i] = i;
        }
        return new FbxGeometry.Mesh(positions, normals, controlPoints, indices,
                List.of("POSITION", "NORMAL", "TEXCOORD_0"), n, List.of(uvs), null, List.of(""), null);
    }

    /** Sums the normals of a closed direction's first and last samples (the same points) into both. */
    private static void closeSeams(double[] normal, boolean closedU, boolean closedV, int columns, int rows) {
        if (closedU && columns > 1) {
            for (int row = 0; row < rows; row++) {
                merge(normal, row * columns, row * columns + columns - 1);
            }
        }
        if (closedV && rows > 1) {
            for (int col = 0; col < columns; col++) {
                merge(normal, col, (rows - 1) * columns + col);
            }
        }
    }

    private static void merge(double[] normal, int a, int b) {
        for (int k = 0; k < 3; k++) {
            double sum = normal[3 * a + k] + normal[3 * b + k];
            normal[3 * a + k] = sum;
            normal[3 * b + k] = sum;
        }
    }

    private static void add(double[] normal, int vertex, double x, double y, double z) {
        normal[3 * vertex] += x;
        normal[3 * vertex + 1] += y;
        normal[3 * vertex + 2] += z;
    }

    /** Writes triangle (p, q, r), or (p, r, q) when flipped, at {@code at}; returns the next index. */
    private static int triangle(int[] indices, int at, int p, int q, int r, boolean flip) {
        indices[at] = p;
        indices[at + 1] = flip ? r : q;
        indices[at + 2] = flip ? q : r;
        return at + 3;
    }

    /**
     * One direction's basis, or {@code null} (warned) when ufbx could not evaluate it: an order below 2, fewer than
     * order control points, a knot vector shorter than count + order or wrapping more than degree points, decreasing
     * knots, or an empty domain.
     */
    static Basis basis(long order, long count, double[] knots, boolean closed, long step, String direction,
            String where, ImportWarnings warnings) {
        String what = where + " (NURBS " + direction + ")";
        if (order < 2 || count < order) {
            warnings.add(what + ": order " + order + " needs at least that many control points (it has " + count
                    + "); it is not placed");
            return null;
        }
        long functions = knots.length - order;
        if (functions < count || functions > count + order - 1) {
            warnings.add(what + ": " + knots.length + " knots do not fit " + count + " control points of order " + order
                    + " (" + (count + order) + " expected, periodic ones up to " + (count + 2 * order - 1)
                    + "); it is not placed");
            return null;
        }
        for (int i = 0; i < knots.length; i++) {
            if (!Double.isFinite(knots[i]) || (i > 0 && knots[i] < knots[i - 1])) {
                warnings.add(what + ": knot " + i + " (" + knots[i] + ") is not finite or decreases; it is not placed");
                return null;
            }
        }
        double lo = knots[(int) order - 1];
        double hi = knots[(int) functions];
        int distinct = 0;
        double[] spans = new double[knots.length];
        for (double k : knots) {
            if (k >= lo && k <= hi && (distinct == 0 || k > spans[distinct - 1])) {
                spans[distinct++] = k;
            }
        }
        if (distinct < 2) {
            warnings.add(what + ": its domain [" + lo + ", " + hi + "] is empty; it is not placed");
            return null;
        }
        if (step > Integer.MAX_VALUE / 2) {
            throw ImportException.tooLarge(what + ": Step " + step + " is too large");
        }
        int steps = step <= 0 ? DEFAULT_STEP : (int) step;
        if ((long) (distinct - 1) * steps + 1 > Integer.MAX_VALUE / 8) {
            throw ImportException.tooLarge(what + ": " + (distinct - 1) + " spans of " + steps + " steps are too many"
                    + " samples");
        }
        return new Basis((int) order, (int) count, knots, closed, java.util.Arrays.copyOf(spans, distinct), steps);
    }

    /** Whether each direction's {@code Form} is closed or periodic ({@code "Open"} or missing: open). */
    private static boolean[] forms(FbxScene.FbxObject geometry, String where, ImportWarnings warnings) {
        boolean[] closed = new boolean[2];
        FbxNode form = geometry.child("Form");
        for (int d = 0; form != null && d < Math.min(2, form.properties().size()); d++) {
            if (form.property(d) instanceof String s) {
                switch (s) {
                    case "Open" -> closed[d] = false;
                    case "Closed", "Periodic" -> closed[d] = true;
                    default -> warnings.add(where + ": NURBS Form '" + FbxScene.display(s) + "' is read as Open");
                }
            }
        }
        return closed;
    }

    private static boolean flag(FbxScene.FbxObject geometry, String name) {
        FbxNode node = geometry.child(name);
        return node != null && !node.properties().isEmpty() && node.properties().getFirst() instanceof Number number
                && number.doubleValue() != 0;
    }

    /** The first {@code n} integers of a record (a list of numbers or one array), or {@code null} when missing. */
    private static long[] integers(FbxScene.FbxObject geometry, String name, int n, String where,
            ImportWarnings warnings) {
        FbxNode node = geometry.child(name);
        if (node == null) {
            return null;
        }
        double[] values = numbers(node, null, where + " " + name);
        if (values == null || values.length < n) {
            warnings.add(where + ": " + name + " has fewer than " + n + " numbers");
            return null;
        }
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            if (values[i] != Math.rint(values[i]) || Math.abs(values[i]) > Integer.MAX_VALUE) {
                throw ImportException.invalid(where + ": " + name + "[" + i + "] = " + values[i] + " is not an integer");
            }
            out[i] = (long) values[i];
        }
        return out;
    }

    /** A record's numbers: its one array property, or its list of number properties (FBX 6.x ASCII); null if none. */
    private static double[] numbers(FbxNode node, DecodeBudget budget, String where) {
        if (node == null || node.properties().isEmpty()) {
            return null;
        }
        List<Object> props = node.properties();
        if (props.size() == 1 && props.getFirst().getClass().isArray()) {
            return node.doubles(0);
        }
        if (budget != null) {
            budget.charge(props.size(), 8, where);
        }
        double[] out = new double[props.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = node.number(i);
        }
        return out;
    }
}
