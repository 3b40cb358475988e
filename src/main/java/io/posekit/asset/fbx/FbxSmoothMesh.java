package io.posekit.asset.fbx;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import java.util.HashMap;
import java.util.Map;

/**
 * What an FBX {@code Geometry} says about its smooth display, read as ufbx reads it: {@code Smoothness} 2 (hull and
 * smooth) or 3 (smooth) with {@code PreviewDivisionLevels} ≥ 1 means the authoring tool (Maya's smooth mesh preview,
 * Blender's subdivision surface exported as such) shows the mesh Catmull-Clark subdivided that many times;
 * {@code BoundaryRule} 1 keeps corners sharp ({@link CatmullClark.Boundary#SHARP_CORNERS}, Maya "crease all"), any other
 * value smooths them ({@link CatmullClark.Boundary#SHARP_NONE}, Maya "crease edges" and legacy). Edge creases come
 * from {@code LayerElementEdgeCrease} ({@code ByEdge}, with the {@code Edges} list naming each edge by a polygon
 * vertex), vertex creases from {@code LayerElementVertexCrease} ({@code ByVertice}).
 */
final class FbxSmoothMesh {

    /** The most subdivision levels applied (each multiplies the polygon count by about 4). */
    static final int MAX_LEVELS = 4;

    private FbxSmoothMesh() {
    }

    /** The levels the file asks to display, 0 when it shows the cage; capped (warned) at {@link #MAX_LEVELS}. */
    static int levels(FbxScene.FbxObject geometry, ImportWarnings warnings) {
        long smoothness = integer(geometry, "Smoothness", 0);
        long levels = integer(geometry, "PreviewDivisionLevels", 0);
        if (smoothness < 2 || levels <= 0) {
            return 0;
        }
        if (levels > MAX_LEVELS) {
            warnings.add(geometry.label() + ": PreviewDivisionLevels " + levels + " is subdivided " + MAX_LEVELS
                    + " times (the most posekit applies)");
            return MAX_LEVELS;
        }
        return (int) levels;
    }

    /** The boundary rule of the positions ({@code BoundaryRule}). */
    static CatmullClark.Boundary boundary(FbxScene.FbxObject geometry) {
        return integer(geometry, "BoundaryRule", 0) == 1 ? CatmullClark.Boundary.SHARP_CORNERS
                : CatmullClark.Boundary.SHARP_NONE;
    }

    /**
     * Per corner of {@code cornerPoint} (polygon p's corners {@code polygonStart[p] ..}), the crease of the edge from it to
     * the next corner of its polygon, or {@code null} when the geometry has no edge creases.
     *
     * @throws ImportException invalid (422) when {@code Edges} or {@code EdgeCrease} index out of range
     */
    static double[] edgeCreases(FbxScene.FbxObject geometry, int[] cornerPoint, int[] polygonStart, int polygonCount,
            ImportWarnings warnings) {
        FbxNode layer = geometry.child("LayerElementEdgeCrease");
        FbxNode data = layer == null ? null : layer.child("EdgeCrease");
        if (data == null || data.properties().isEmpty()) {
            return null;
        }
        String where = geometry.label();
        double[] crease = data.doubles(0);
        int corners = cornerPoint.length;
        int[] polygonOf = new int[corners];
        for (int p = 0; p < polygonCount; p++) {
            for (int c = polygonStart[p]; c < polygonStart[p + 1]; c++) {
                polygonOf[c] = p;
            }
        }
        long points = 0;
        for (int cp : cornerPoint) {
            points = Math.max(points, cp + 1L);
        }
        Map<Long, Double> byEdge = new HashMap<>();
        FbxNode edges = geometry.child("Edges");
        int[] edgeCorners;
        if (edges != null && !edges.properties().isEmpty()) {
            edgeCorners = edges.ints(0);
        } else {
            // no Edges list: edges in order of first appearance (the FBX SDK's own order)
            Map<Long, Integer> seen = new HashMap<>();
            int[] list = new int[corners];
            int n = 0;
            for (int c = 0; c < corners; c++) {
                long key = key(cornerPoint, polygonStart, polygonOf, c, points);
                if (seen.putIfAbsent(key, c) == null) {
                    list[n++] = c;
                }
            }
            edgeCorners = java.util.Arrays.copyOf(list, n);
        }
        if (edgeCorners.length != crease.length) {
            warnings.add(where + ": LayerElementEdgeCrease has " + crease.length + " values for " + edgeCorners.length
                    + " edges; the edges without one are smooth");
        }
        for (int e = 0; e < Math.min(edgeCorners.length, crease.length); e++) {
            int c = edgeCorners[e];
            if (c < 0 || c >= corners) {
                throw ImportException.invalid(where + ": Edges[" + e + "] = " + c + " is out of range for " + corners
                        + " polygon vertices");
            }
            double v = crease[e];
            if (Double.isFinite(v) && v > 0) {
                byEdge.put(key(cornerPoint, polygonStart, polygonOf, c, points), Math.min(1, v));
            }
        }
        double[] out = new double[corners];
        for (int c = 0; c < corners; c++) {
            out[c] = byEdge.getOrDefault(key(cornerPoint, polygonStart, polygonOf, c, points), 0.0);
        }
        return out;
    }

    /** Per control point, its crease, or {@code null} when there is no {@code ByVertice} vertex crease layer. */
    static double[] vertexCreases(FbxScene.FbxObject geometry, int controlPoints, ImportWarnings warnings) {
        FbxNode layer = geometry.child("LayerElementVertexCrease");
        FbxNode data = layer == null ? null : layer.child("VertexCrease");
        if (data == null || data.properties().isEmpty()) {
            return null;
        }
        double[] crease = data.doubles(0);
        if (crease.length != controlPoints) {
            warnings.add(geometry.label() + ": LayerElementVertexCrease has " + crease.length + " values for "
                    + controlPoints + " control points; vertex creases are ignored");
            return null;
        }
        double[] out = new double[controlPoints];
        for (int i = 0; i < controlPoints; i++) {
            out[i] = Double.isFinite(crease[i]) ? Math.clamp(crease[i], 0, 1) : 0;
        }
        return out;
    }

    private static long key(int[] cornerPoint, int[] polygonStart, int[] polygonOf, int c, long points) {
        int p = polygonOf[c];
        int next = c + 1 < polygonStart[p + 1] ? c + 1 : polygonStart[p];
        long a = cornerPoint[c];
        long b = cornerPoint[next];
        return Math.min(a, b) * points + Math.max(a, b);
    }

    private static long integer(FbxScene.FbxObject geometry, String name, long otherwise) {
        FbxNode n = geometry.child(name);
        if (n == null || n.properties().isEmpty()) {
            return otherwise;
        }
        try {
            return n.integer(0);
        } catch (ImportException e) {
            return otherwise;
        }
    }
}
