package io.posekit.asset.fbx;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.VertexColors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Decodes a {@code Geometry} of subclass {@code Mesh} into triangles over unique vertices.
 *
 * <ul>
 *   <li>{@code Vertices} are the control points (3 numbers each); {@code PolygonVertexIndex} lists each polygon's
 *       control points, the last one of a polygon written as {@code ~index} (negative). Polygons are fan-triangulated
 *       ({@code 0, i, i+1}); polygons of fewer than three corners are skipped (warning), as is an unterminated last
 *       polygon's lack of a terminator (it is closed, with a warning).</li>
 *   <li>{@code LayerElementNormal} (the first), every {@code LayerElementUV} (in file order) and
 *       {@code LayerElementColor} (the first) are read with
 *       {@code MappingInformationType} {@code ByPolygonVertex}, {@code ByControlPoint} ({@code ByVertice},
 *       {@code ByVertex}), {@code ByPolygon} or {@code AllSame} and {@code ReferenceInformationType} {@code Direct} or
 *       {@code IndexToDirect} ({@code Index}), data in {@code Normals}/{@code UV}/{@code Colors}, indices
 *       in {@code NormalsIndex}/{@code UVIndex}/{@code ColorIndex}. Other mappings ({@code ByEdge}) are ignored with a
 *       warning. The UV layers are carried as {@code TEXCOORD_0}, {@code TEXCOORD_1}, … with V flipped to glTF's
 *       convention (v = 1 − V); the colours (RGBA, 4 numbers each) as {@code COLOR_0} under
 *       {@link VertexColors}' rule.</li>
 *   <li>The first {@code LayerElementMaterial} gives each triangle its polygon's material index (by polygon, by the
 *       polygon's first corner or control point, or all alike; {@code NoMappingInformation}: 0; a negative index: 0,
 *       with a warning); the UV layers' {@code Name}s are kept for the textures' {@code UVSet}.</li>
 *   <li>Every polygon corner becomes the vertex of its (control point, normal, every UV, colour) tuple — equal values
 *       are one vertex — in order of first appearance; a vertex remembers its control point, so skin influences reach
 *       every vertex split from it.</li>
 *   <li>A geometry the file displays smooth ({@link FbxSmoothMesh}: {@code Smoothness} 2 or 3,
 *       {@code PreviewDivisionLevels}) is first Catmull-Clark subdivided ({@link CatmullClark}); its vertices are then
 *       the subdivided surface's, with generated smooth normals, and each new quad keeps its cage polygon's
 *       material.</li>
 *   <li>The Model's geometric transform, when it is not the identity, is applied to the positions (and by its inverse
 *       transpose to the normals, renormalised) — so every consumer, skinned or not, sees the geometry where FBX puts
 *       it, and skins need no extra factor.</li>
 * </ul>
 *
 * <p>Every index is checked against what it indexes; a bad one is invalid (422), e.g. {@code Geometry 'Body':
 * PolygonVertexIndex[17] = 913 is out of range for 800 control points}. Allocations are charged to the budget first.
 */
final class FbxGeometry {

    /** The most polygon corners one geometry may have (the de-indexing tables are int-indexed arrays). */
    static final int MAX_CORNERS = 1 << 28;
    private static final int BY_POLYGON_VERTEX = 0;
    private static final int BY_CONTROL_POINT = 1;
    private static final int BY_POLYGON = 2;
    private static final int ALL_SAME = 3;

    /**
     * A decoded mesh.
     *
     * @param positions 3 floats per vertex, geometry space with the geometric transform applied
     * @param normals 3 floats per vertex, or {@code null}
     * @param controlPoints the control point of each vertex
     * @param indices 3 per triangle
     * @param attributes the attributes read ({@code POSITION}, {@code NORMAL}, {@code TEXCOORD_n}, {@code COLOR_0})
     * @param controlPointCount the number of control points
     * @param texcoordSets the UV layers in file order (set 0 first), 2 floats per vertex in glTF's convention
     *     (v = 1 − V); empty when there are none
     * @param colors the first colour layer, linear RGBA, 4 floats per vertex, or {@code null}
     * @param uvSetNames the {@code Name} of each UV layer ({@code ""} when it has none), as {@code texcoordSets}
     * @param triangleMaterials per triangle, the index of its material among the Model's materials (from the first
     *     {@code LayerElementMaterial}), or {@code null} when the geometry has no material layer
     */
    record Mesh(float[] positions, float[] normals, int[] controlPoints, int[] indices, List<String> attributes,
            int controlPointCount, List<float[]> texcoordSets, float[] colors, List<String> uvSetNames,
            int[] triangleMaterials) {

        Mesh {
            texcoordSets = List.copyOf(texcoordSets);
            uvSetNames = List.copyOf(uvSetNames);
        }

        /** The UV set called {@code name} ({@code TEXCOORD_n}'s n), or −1. */
        int uvSet(String name) {
            return uvSetNames.subList(0, texcoordSets.size()).indexOf(name);
        }

        int vertexCount() {
            return controlPoints.length;
        }

        /** {@code TEXCOORD_0}, or {@code null}. */
        float[] texcoords() {
            return texcoordSets.isEmpty() ? null : texcoordSets.getFirst();
        }

        /** {@code TEXCOORD_1}, {@code TEXCOORD_2}, … (empty when there are fewer than two sets). */
        List<float[]> furtherTexcoords() {
            return texcoordSets.size() < 2 ? List.of() : texcoordSets.subList(1, texcoordSets.size());
        }
    }

    /** One layer element: where each polygon corner's value is. */
    /**
     * A layer element as read. {@code missingIndex} names the index array an {@code IndexToDirect} layer lacks
     * ({@code null} when it has it or is {@code Direct}); {@link #withoutIndex} settles such a layer once the counts
     * are known.
     */
    private record Layer(String what, String arrayName, int mapping, double[] data, int components, int[] index,
            String missingIndex) {

        Layer(String what, String arrayName, int mapping, double[] data, int components, int[] index) {
            this(what, arrayName, mapping, data, components, index, null);
        }

        /**
         * This layer, or for an {@code IndexToDirect} layer without its index array the same layer read as
         * {@code Direct} when its data holds exactly one element per mapped element ({@code expected}: corners,
         * control points, polygons, or 1 for AllSame) — 3ds Max writes colour layers so, and assimp and ufbx read
         * them as direct — with a warning. Any other count is ambiguous and refused.
         *
         * @throws ImportException invalid (422) when the index is missing and the counts do not make it direct
         */
        Layer withoutIndex(int expected, String geometry, ImportWarnings warnings) {
            if (missingIndex == null) {
                return this;
            }
            int elements = data.length / components;
            if (elements != expected) {
                throw ImportException.invalid(geometry + ": " + what + " is IndexToDirect but has no '" + missingIndex
                        + "' array, and its " + elements + " elements of '" + arrayName + "' are not one per "
                        + unit() + " (" + expected + ")");
            }
            warnings.add(geometry + ": " + what + " is IndexToDirect but has no '" + missingIndex + "' array; its "
                    + elements + " elements, one per " + unit()
                    + ", are read as Direct");
            return new Layer(what, arrayName, mapping, data, components, null, null);
        }

        /** The data element of a polygon corner. */
        int element(int corner, int controlPoint, int polygon, String geometry) {
            int e = switch (mapping) {
                case BY_POLYGON_VERTEX -> corner;
                case BY_CONTROL_POINT -> controlPoint;
                case BY_POLYGON -> polygon;
                default -> 0;
            };
            if (index != null) {
                if (e >= index.length) {
                    throw ImportException.invalid(geometry + ": " + what + " has " + index.length + " indices, but "
                            + describe(corner, controlPoint, polygon) + " needs index " + e);
                }
                int i = index[e];
                if (i < 0 || i >= data.length / components) {
                    throw ImportException.invalid(geometry + ": " + what + " index " + e + " = " + i + " is out of range"
                            + " for " + data.length / components + " elements of '" + arrayName + "'");
                }
                return i;
            }
            if (e >= data.length / components) {
                throw ImportException.invalid(geometry + ": " + what + " '" + arrayName + "' holds " + data.length / components
                        + " elements, but " + describe(corner, controlPoint, polygon) + " needs element " + e);
            }
            return e;
        }

        /** What one element of this layer's mapping is, for messages. */
        private String unit() {
            return switch (mapping) {
                case BY_POLYGON_VERTEX -> "polygon vertex";
                case BY_CONTROL_POINT -> "control point";
                case BY_POLYGON -> "polygon";
                default -> "mesh (AllSame)";
            };
        }

        private String describe(int corner, int controlPoint, int polygon) {
            return switch (mapping) {
                case BY_POLYGON_VERTEX -> "polygon vertex " + corner;
                case BY_CONTROL_POINT -> "control point " + controlPoint;
                case BY_POLYGON -> "polygon " + polygon;
                default -> "AllSame";
            };
        }
    }

    private FbxGeometry() {
    }

    /**
     * Decodes a mesh geometry.
     *
     * @param geometry the {@code Geometry} object
     * @param geometric the geometric transform to apply, or {@code null}
     * @return the mesh, or {@code null} (warned) when it has no polygons
     * @throws ImportException invalid (422) for malformed arrays or indices out of range; too large (413) past the budget
     */
    static Mesh read(FbxScene.FbxObject geometry, double[] geometric, DecodeBudget budget, ImportWarnings warnings) {
        return read(geometry, geometric, true, false, budget, warnings);
    }

    /**
     * Decodes a mesh geometry; one the file displays smooth ({@link FbxSmoothMesh}) is Catmull-Clark subdivided
     * ({@link CatmullClark}) unless {@code deformed} (a skin or blend shapes reach it: those are kept on the cage, with
     * a warning) or the result would pass the vertex limit (the cage is kept, with a warning).
     *
     * @param smoothMeshes whether a mesh displayed smooth is subdivided at all ({@code false}: every cage is kept)
     * @param deformed whether deformers (skin, blend shapes) are connected to the geometry
     */
    static Mesh read(FbxScene.FbxObject geometry, double[] geometric, boolean smoothMeshes, boolean deformed,
            DecodeBudget budget,
            ImportWarnings warnings) {
        String where = geometry.label();
        FbxNode verticesNode = geometry.child("Vertices");
        FbxNode indexNode = geometry.child("PolygonVertexIndex");
        if (verticesNode == null || indexNode == null) {
            warnings.add(where + " has no " + (verticesNode == null ? "Vertices" : "PolygonVertexIndex")
                    + "; it is not placed");
            return null;
        }
        double[] vertices = verticesNode.doubles(0);
        if (vertices.length % 3 != 0) {
            throw ImportException.invalid(where + ": Vertices holds " + vertices.length + " numbers, not a multiple of 3");
        }
        int controlPoints = vertices.length / 3;
        int[] pvi = indexNode.ints(0);
        int corners = pvi.length;
        Layer normals = layer(geometry, geometry.child("LayerElementNormal"), "Normals", 3, warnings);
        List<Layer> uvs = new ArrayList<>();
        List<String> uvSetNames = new ArrayList<>();
        for (FbxNode element : geometry.node().children("LayerElementUV")) {
            Layer uv = layer(geometry, element, "UV", 2, warnings);
            if (uv != null) {
                uvs.add(uv);
                FbxNode name = element.child("Name");
                uvSetNames.add(name != null && !name.properties().isEmpty() && name.property(0) instanceof String n
                        ? n : "");
            }
        }
        Layer colors = layer(geometry, geometry.child("LayerElementColor"), "Colors", 4, warnings);
        // the vertex key: control point, normal (3), each UV set (2), colour (4) — as float bits
        int width = 4 + 2 * uvs.size() + (colors == null ? 0 : 4);
        int colorAt = 4 + 2 * uvs.size();

        // per corner: its control point and polygon; polygons closed by a negative index
        budget.charge(corners, 4 * 11, where + " polygon vertices");
        if (corners > MAX_CORNERS) {
            throw ImportException.tooLarge(where + " has " + corners + " polygon vertices; at most " + MAX_CORNERS
                    + " are supported");
        }
        int[] cornerPoint = new int[corners];
        // polygon p is corners polygonStart[p] .. polygonStart[p + 1] − 1
        int[] polygonStart = new int[corners + 1];
        int polygonCount = 0;
        int start = 0;
        int degenerate = 0;
        int triangles = 0;
        for (int c = 0; c < corners; c++) {
            budget.checkTime();
            int raw = pvi[c];
            int cp = raw < 0 ? ~raw : raw;
            if (cp >= controlPoints) {
                throw ImportException.invalid(where + ": PolygonVertexIndex[" + c + "] = " + raw + " refers to control"
                        + " point " + cp + ", out of range for " + controlPoints + " control points");
            }
            cornerPoint[c] = cp;
            boolean last = raw < 0;
            if (!last && c == corners - 1) {
                warnings.add(where + ": PolygonVertexIndex does not end its last polygon (no negative index); it is"
                        + " closed");
                last = true;
            }
            if (last) {
                int size = c - start + 1;
                if (size < 3) {
                    degenerate++;
                } else {
                    triangles += size - 2;
                }
                polygonStart[polygonCount++] = start;
                start = c + 1;
            }
        }
        if (degenerate > 0) {
            warnings.add(where + ": " + degenerate + " polygon(s) with fewer than 3 corners (points, lines) are ignored");
        }
        if (triangles == 0) {
            warnings.add(where + " has no polygons with 3 or more corners; it is not placed");
            return null;
        }
        normals = settle(normals, corners, controlPoints, polygonCount, where, warnings);
        for (int u = 0; u < uvs.size(); u++) {
            uvs.set(u, settle(uvs.get(u), corners, controlPoints, polygonCount, where, warnings));
        }
        colors = settle(colors, corners, controlPoints, polygonCount, where, warnings);

        // a mesh the file displays smooth: subdivided as the authoring tool shows it
        int[] faceOrigin = null;
        int[] cagePolygonStart = polygonStart;
        int[] cageCornerPoint = cornerPoint;
        polygonStart[polygonCount] = corners;
        CatmullClark.Cage smooth = !smoothMeshes ? null : smooth(geometry, deformed, vertices, cornerPoint, polygonStart, polygonCount,
                uvs, colors, budget, warnings);
        if (smooth != null) {
            vertices = smooth.positions();
            controlPoints = smooth.vertexCount();
            cornerPoint = smooth.cornerVertex();
            corners = cornerPoint.length;
            polygonStart = smooth.faceStart();
            polygonCount = smooth.faceCount();
            triangles = 2 * polygonCount;
            faceOrigin = smooth.faceOrigin();
            normals = new Layer("normals", "Normals", BY_CONTROL_POINT, CatmullClark.normals(smooth), 3, null);
            int a = 0;
            for (int u = 0; u < uvs.size(); u++) {
                CatmullClark.Attribute uv = smooth.attributes().get(a++);
                uvs.set(u, new Layer(uvs.get(u).what(), "UV", BY_POLYGON_VERTEX, uv.values(), 2, uv.cornerIndex()));
            }
            if (colors != null) {
                CatmullClark.Attribute rgba = smooth.attributes().get(a);
                colors = new Layer(colors.what(), "Colors", BY_POLYGON_VERTEX, rgba.values(), 4, rgba.cornerIndex());
            }
            budget.charge(corners, 4 * 11, where + " subdivided polygon vertices");
        }

        // unique (control point, normal, uvs, colour) per corner, in order of first appearance
        // (the per-corner charge above covers a key of 6 ints; more UV layers or a colour widen it)
        budget.charge((long) Math.max(0, width - 6) * corners, 4, where + " vertex keys");
        int[] keys = new int[Math.toIntExact((long) width * corners)];
        int[] vertexOfCorner = new int[corners];
        int tableSize = Integer.highestOneBit(Math.max(4, corners * 2 - 1)) << 1;
        budget.charge(tableSize, 4, where + " vertex table");
        int[] table = new int[tableSize];
        Arrays.fill(table, -1);
        int[] firstCorner = new int[corners];
        int unique = 0;
        for (int p = 0; p < polygonCount; p++) {
            budget.checkTime();
            int first = polygonStart[p];
            int end = polygonStart[p + 1];
            if (end - first < 3) {
                continue;
            }
            for (int c = first; c < end; c++) {
                int cp = cornerPoint[c];
                int o = width * unique;
                keys[o] = cp;
                if (normals != null) {
                    int e = 3 * normals.element(c, cp, p, where);
                    for (int k = 0; k < 3; k++) {
                        keys[o + 1 + k] = Float.floatToIntBits((float) normals.data()[e + k]);
                    }
                }
                for (int u = 0; u < uvs.size(); u++) {
                    Layer uv = uvs.get(u);
                    int e = 2 * uv.element(c, cp, p, where);
                    keys[o + 4 + 2 * u] = Float.floatToIntBits((float) uv.data()[e]);
                    keys[o + 5 + 2 * u] = Float.floatToIntBits((float) uv.data()[e + 1]);
                }
                if (colors != null) {
                    int e = 4 * colors.element(c, cp, p, where);
                    for (int k = 0; k < 4; k++) {
                        keys[o + colorAt + k] = Float.floatToIntBits((float) colors.data()[e + k]);
                    }
                }
                int slot = hash(keys, o, width) & (tableSize - 1);
                int found = -1;
                while (table[slot] >= 0) {
                    if (Arrays.equals(keys, width * table[slot], width * table[slot] + width, keys, o, o + width)) {
                        found = table[slot];
                        break;
                    }
                    slot = (slot + 1) & (tableSize - 1);
                }
                if (found < 0) {
                    found = unique++;
                    table[slot] = found;
                    firstCorner[found] = c;
                }
                vertexOfCorner[c] = found;
            }
        }

        budget.charge(unique, 4 * ((normals == null ? 4 : 7) + 2 * uvs.size() + (colors == null ? 0 : 4)),
                where + " vertices");
        budget.charge(3L * triangles, 4, where + " triangle indices");
        float[] positions = new float[3 * unique];
        float[] outNormals = normals == null ? null : new float[3 * unique];
        int[] vertexPoint = new int[unique];
        double[] normalMatrix = geometric == null ? null : normalMatrix(geometric, where);
        for (int v = 0; v < unique; v++) {
            int cp = keys[width * v];
            vertexPoint[v] = cp;
            double x = vertices[3 * cp];
            double y = vertices[3 * cp + 1];
            double z = vertices[3 * cp + 2];
            if (geometric != null) {
                double gx = geometric[0] * x + geometric[4] * y + geometric[8] * z + geometric[12];
                double gy = geometric[1] * x + geometric[5] * y + geometric[9] * z + geometric[13];
                double gz = geometric[2] * x + geometric[6] * y + geometric[10] * z + geometric[14];
                x = gx;
                y = gy;
                z = gz;
            }
            positions[3 * v] = finite((float) x, where, cp);
            positions[3 * v + 1] = finite((float) y, where, cp);
            positions[3 * v + 2] = finite((float) z, where, cp);
            if (outNormals != null) {
                int c = firstCorner[v];
                int p = polygonOf(polygonStart, polygonCount, c);
                int e = 3 * normals.element(c, cp, p, where);
                double nx = normals.data()[e];
                double ny = normals.data()[e + 1];
                double nz = normals.data()[e + 2];
                if (normalMatrix != null) {
                    double tx = normalMatrix[0] * nx + normalMatrix[3] * ny + normalMatrix[6] * nz;
                    double ty = normalMatrix[1] * nx + normalMatrix[4] * ny + normalMatrix[7] * nz;
                    double tz = normalMatrix[2] * nx + normalMatrix[5] * ny + normalMatrix[8] * nz;
                    double len = Math.sqrt(tx * tx + ty * ty + tz * tz);
                    double k = len > 0 ? 1 / len : 0;
                    nx = tx * k;
                    ny = ty * k;
                    nz = tz * k;
                }
                outNormals[3 * v] = (float) nx;
                outNormals[3 * v + 1] = (float) ny;
                outNormals[3 * v + 2] = (float) nz;
            }
        }
        List<float[]> texcoordSets = new ArrayList<>();
        sets:
        for (int set = 0; set < uvs.size(); set++) {
            float[] texcoords = new float[2 * unique];
            for (int v = 0; v < unique; v++) {
                // the vertex key holds the corner's UV as float bits; FBX's V runs up, glTF's v down
                float u = Float.intBitsToFloat(keys[width * v + 4 + 2 * set]);
                float w = 1 - Float.intBitsToFloat(keys[width * v + 5 + 2 * set]);
                if (!Float.isFinite(u) || !Float.isFinite(w)) {
                    // the sets are numbered densely: a later set cannot move up into this one's place
                    warnings.add(where + ": UV of vertex " + v + " in " + uvs.get(set).what() + " is not finite; the"
                            + " texture coordinates of it and later UV layers are not carried");
                    break sets;
                }
                texcoords[2 * v] = u;
                texcoords[2 * v + 1] = w;
            }
            texcoordSets.add(texcoords);
        }
        float[] rgba = colors == null ? null : new float[4 * unique];
        for (int v = 0; rgba != null && v < unique; v++) {
            for (int k = 0; k < 4; k++) {
                rgba[4 * v + k] = Float.intBitsToFloat(keys[width * v + colorAt + k]);
            }
        }
        rgba = VertexColors.finiteOrWarn(rgba, where, warnings);
        int[] indices = new int[3 * triangles];
        Layer materials = materialLayer(geometry, warnings);
        int[] triangleMaterials = materials == null ? null : new int[triangles];
        int negative = 0;
        int t = 0;
        for (int p = 0; p < polygonCount; p++) {
            int first = polygonStart[p];
            int material = 0;
            if (materials != null && polygonStart[p + 1] - first >= 3) {
                // a subdivided polygon takes its cage polygon's material
                int source = faceOrigin == null ? p : faceOrigin[p];
                int sourceFirst = cagePolygonStart[source];
                material = (int) materials.data()[materials.element(sourceFirst, cageCornerPoint[sourceFirst], source,
                        where)];
                if (material < 0) {
                    negative++;
                    material = 0; // as three.js: the first material
                }
            }
            for (int c = first + 1; c + 1 < polygonStart[p + 1]; c++) {
                if (triangleMaterials != null) {
                    triangleMaterials[t / 3] = material;
                }
                indices[t++] = vertexOfCorner[first];
                indices[t++] = vertexOfCorner[c];
                indices[t++] = vertexOfCorner[c + 1];
            }
        }
        if (negative > 0) {
            warnings.add(where + ": " + negative + " polygon(s) have a negative material index; they use the first"
                    + " material");
        }

        List<String> attributes = new ArrayList<>(List.of("POSITION"));
        if (normals != null) {
            attributes.add("NORMAL");
        }
        for (int set = 0; set < uvs.size(); set++) {
            attributes.add("TEXCOORD_" + set);
        }
        if (colors != null) {
            attributes.add("COLOR_0");
        }
        return new Mesh(positions, outNormals, vertexPoint, indices, attributes, controlPoints, texcoordSets, rgba,
                uvSetNames, triangleMaterials);
    }

    /**
     * The subdivided mesh of a geometry the file displays smooth, or {@code null} to keep the cage: when it is not
     * displayed smooth, is deformed (warned), or the levels would pass the vertex limit or the corner cap (warned).
     * Polygons of fewer than 3 corners are left out; the face-varying attributes are the UV layers in order, then the
     * colours. UVs and colours use ufbx's boundary rule for them ({@link CatmullClark.Boundary#SHARP_BOUNDARY}).
     */
    private static CatmullClark.Cage smooth(FbxScene.FbxObject geometry, boolean deformed, double[] vertices,
            int[] cornerPoint, int[] polygonStart, int polygonCount, List<Layer> uvs, Layer colors,
            DecodeBudget budget, ImportWarnings warnings) {
        int levels = FbxSmoothMesh.levels(geometry, warnings);
        if (levels == 0) {
            return null;
        }
        String where = geometry.label();
        if (deformed) {
            warnings.add(where + " is displayed smooth (" + levels + " subdivision level(s)), but a skin or blend shape"
                    + " deforms it; its cage is kept");
            return null;
        }
        int faces = 0;
        int kept = 0;
        for (int p = 0; p < polygonCount; p++) {
            int size = polygonStart[p + 1] - polygonStart[p];
            if (size >= 3) {
                faces++;
                kept += size;
            }
        }
        // bound every level before allocating: V' ≤ F + 2C, C' = 4C, F' = C
        long maxVertices = budget.limits() == null ? Long.MAX_VALUE : budget.limits().maxVertices();
        long f = faces;
        long c = kept;
        for (int l = 0; l < levels; l++) {
            long v = f + 2 * c;
            f = c;
            c = 4 * c;
            if (v > maxVertices || c > MAX_CORNERS) {
                warnings.add(where + " is displayed smooth (" + levels + " subdivision level(s)), but level " + (l + 1)
                        + " would make up to " + v + " vertices and " + c + " polygon vertices (limits "
                        + maxVertices + " and " + MAX_CORNERS + "); its cage is kept");
                return null;
            }
        }
        int[] faceStart = new int[faces + 1];
        int[] cv = new int[kept];
        int[] origin = new int[faces];
        int[] keptCorner = new int[kept];
        int q = 0;
        int k = 0;
        for (int p = 0; p < polygonCount; p++) {
            int first = polygonStart[p];
            int end = polygonStart[p + 1];
            if (end - first < 3) {
                continue;
            }
            faceStart[q] = k;
            origin[q++] = p;
            for (int i = first; i < end; i++) {
                keptCorner[k] = i;
                cv[k++] = cornerPoint[i];
            }
        }
        faceStart[faces] = kept;
        double[] creases = FbxSmoothMesh.edgeCreases(geometry, cornerPoint, polygonStart, polygonCount, warnings);
        double[] cornerCrease = null;
        if (creases != null) {
            cornerCrease = new double[kept];
            for (int i = 0; i < kept; i++) {
                cornerCrease[i] = creases[keptCorner[i]];
            }
        }
        List<CatmullClark.Attribute> attributes = new ArrayList<>();
        List<Layer> faceVarying = new ArrayList<>(uvs);
        if (colors != null) {
            faceVarying.add(colors);
        }
        for (Layer layer : faceVarying) {
            int[] index = new int[kept];
            for (int p = 0, i = 0; p < polygonCount; p++) {
                if (polygonStart[p + 1] - polygonStart[p] < 3) {
                    continue;
                }
                for (int corner = polygonStart[p]; corner < polygonStart[p + 1]; corner++) {
                    index[i++] = layer.element(corner, cornerPoint[corner], p, where);
                }
            }
            attributes.add(new CatmullClark.Attribute(layer.data(), layer.components(), index));
        }
        CatmullClark.Cage cage = new CatmullClark.Cage(faceStart, cv, vertices, cornerCrease,
                FbxSmoothMesh.vertexCreases(geometry, vertices.length / 3, warnings), attributes, origin);
        CatmullClark.Boundary boundary = FbxSmoothMesh.boundary(geometry);
        for (int l = 0; l < levels; l++) {
            budget.checkTimeNow();
            long corners = 4L * cage.cornerVertex().length;
            long values = CatmullClark.verticesAfter(cage);
            // per level: positions and attribute values (doubles), 4 indices per new corner per layer, topology
            budget.charge(values, 8 * (3 + 6 * faceVarying.size()) + 4, where + " subdivision level " + (l + 1));
            budget.charge(corners, 4 * (8 + faceVarying.size()), where + " subdivision level " + (l + 1) + " corners");
            cage = CatmullClark.subdivide(cage, boundary, CatmullClark.Boundary.SHARP_BOUNDARY);
        }
        warnings.add(where + " is displayed smooth: subdivided " + levels + " time(s) (Catmull-Clark, as the authoring"
                + " tool shows it), " + cage.vertexCount() + " vertices");
        return cage;
    }

    /**
     * The first {@code LayerElementMaterial}: the material index of each polygon ({@code Materials}, indices into the
     * Model's materials), by polygon, polygon corner (the polygon's first corner), control point (its first corner's)
     * or all alike; {@code NoMappingInformation} is material 0 everywhere. {@code null} when absent or unusable
     * (warned).
     */
    private static Layer materialLayer(FbxScene.FbxObject geometry, ImportWarnings warnings) {
        FbxNode e = geometry.child("LayerElementMaterial");
        if (e == null) {
            return null;
        }
        FbxNode mapping = e.child("MappingInformationType");
        if (mapping != null && "NoMappingInformation".equals(mapping.property(0))) {
            return new Layer("LayerElementMaterial", "Materials", ALL_SAME, new double[] {0}, 1, null);
        }
        // the Materials array is the per-element material index itself, whatever ReferenceInformationType says
        Layer layer = layer(geometry, withoutReference(e), "Materials", 1, warnings);
        if (layer != null && layer.data().length == 0) {
            warnings.add(geometry.label() + ": LayerElementMaterial has an empty 'Materials' array; ignored");
            return null;
        }
        return layer;
    }

    /** {@code layer} with a missing index array settled ({@link Layer#withoutIndex}); {@code null} stays null. */
    private static Layer settle(Layer layer, int corners, int controlPoints, int polygons, String where,
            ImportWarnings warnings) {
        if (layer == null) {
            return null;
        }
        int expected = switch (layer.mapping()) {
            case BY_POLYGON_VERTEX -> corners;
            case BY_CONTROL_POINT -> controlPoints;
            case BY_POLYGON -> polygons;
            default -> 1;
        };
        return layer.withoutIndex(expected, where, warnings);
    }

    /** {@code e} without its {@code ReferenceInformationType} (read as {@code Direct}). */
    private static FbxNode withoutReference(FbxNode e) {
        List<FbxNode> children = new ArrayList<>();
        for (FbxNode c : e.children()) {
            if (!c.name().equals("ReferenceInformationType")) {
                children.add(c);
            }
        }
        return new FbxNode(e.name(), e.properties(), children);
    }

    /** The polygon holding {@code corner}: the last one starting at or before it. */
    private static int polygonOf(int[] polygonStart, int polygonCount, int corner) {
        int lo = 0;
        int hi = polygonCount - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (polygonStart[mid] <= corner) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    private static int hash(int[] keys, int o, int width) {
        int h = 0x9E3779B9;
        for (int i = o; i < o + width; i++) {
            h = (h ^ keys[i]) * 0x01000193;
            h ^= h >>> 15;
        }
        return h;
    }

    private static float finite(float v, String where, int cp) {
        if (!Float.isFinite(v)) {
            throw ImportException.invalid(where + ": control point " + cp + " is not finite");
        }
        return v;
    }

    /** The inverse transpose of the upper-left 3×3 of {@code m}, column-major 3×3. */
    static double[] normalMatrix(double[] m, String where) {
        double[] inverse = FbxTransform.invertAffine(m);
        if (inverse == null) {
            throw ImportException.invalid(where + ": the geometric transform of its Model is singular (a zero scale)");
        }
        double[] out = new double[9];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                // (M⁻¹)ᵀ(r, c) = M⁻¹(c, r)
                out[3 * c + r] = inverse[4 * r + c];
            }
        }
        return out;
    }

    /** The layer element {@code e} (or {@code null}), or {@code null} when absent or not usable (warned). */
    private static Layer layer(FbxScene.FbxObject geometry, FbxNode e, String arrayName, int components,
            ImportWarnings warnings) {
        if (e == null) {
            return null;
        }
        String what = e.name() + " " + (e.properties().isEmpty() ? "0" : e.property(0));
        String where = geometry.label();
        FbxNode mappingNode = e.child("MappingInformationType");
        FbxNode referenceNode = e.child("ReferenceInformationType");
        String mapping = mappingNode == null ? "ByPolygonVertex" : mappingNode.string(0);
        String reference = referenceNode == null ? "Direct" : referenceNode.string(0);
        int map = switch (mapping) {
            case "ByPolygonVertex" -> BY_POLYGON_VERTEX;
            case "ByControlPoint", "ByControllPoint", "ByVertice", "ByVertex" -> BY_CONTROL_POINT;
            case "ByPolygon" -> BY_POLYGON;
            case "AllSame" -> ALL_SAME;
            default -> -1;
        };
        if (map < 0) {
            warnings.add(where + ": " + what + " has MappingInformationType '" + FbxScene.display(mapping)
                    + "', which is not supported; ignored");
            return null;
        }
        FbxNode dataNode = e.child(arrayName);
        if (dataNode == null) {
            warnings.add(where + ": " + what + " has no '" + arrayName + "' array; ignored");
            return null;
        }
        double[] data = dataNode.doubles(0);
        if (data.length % components != 0) {
            throw ImportException.invalid(where + ": " + what + " '" + arrayName + "' holds " + data.length
                    + " numbers, not a multiple of " + components);
        }
        int[] index = null;
        switch (reference) {
            case "Direct" -> {
            }
            case "IndexToDirect", "Index" -> {
                // the SDK writes NormalsIndex, UVIndex and ColorIndex (some exporters NormalIndex)
                String indexName = arrayName.equals("Colors") ? "ColorIndex" : arrayName + "Index";
                FbxNode indexNode = e.child(indexName);
                if (indexNode == null && arrayName.equals("Normals")) {
                    indexNode = e.child("NormalIndex");
                }
                if (indexNode == null) {
                    // settled by Layer.withoutIndex once the polygons are counted
                    return new Layer(what, arrayName, map, data, components, null, indexName);
                }
                index = indexNode.ints(0);
            }
            default -> {
                warnings.add(where + ": " + what + " has ReferenceInformationType '" + FbxScene.display(reference)
                        + "', which is not supported; ignored");
                return null;
            }
        }
        return new Layer(what, arrayName, map, data, components, index);
    }
}
