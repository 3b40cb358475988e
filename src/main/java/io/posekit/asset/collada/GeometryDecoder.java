package io.posekit.asset.collada;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.VertexColors;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Decodes {@code <geometry><mesh>} elements into de-indexed triangle {@link MeshPart}s, each geometry once per
 * import (every instance shares the result), and builds rigid and skinned {@link Primitive}s from them.
 *
 * <p>Per primitive element: {@code <triangles>}, {@code <polylist>} ({@code <vcount>}), {@code <polygons>}
 * (one {@code <p>} per polygon; a {@code <ph>} contributes its outer ring and a warning), {@code <trifans>} and
 * {@code <tristrips>} (one {@code <p>} per fan/strip). Polygons and fans are triangulated as fans from their first
 * corner, strips with alternating winding; polygons with fewer than 3 corners are dropped with a warning.
 * {@code <lines>} and {@code <linestrips>} are skipped with a warning. Inputs: {@code VERTEX} (expanded to its
 * {@code <vertices>} inputs, usually POSITION and sometimes NORMAL), {@code NORMAL}, {@code TEXCOORD},
 * {@code TEXTANGENT}, {@code TEXBINORMAL} (only for the tangents' handedness), {@code COLOR} and anything else, each
 * at its {@code offset}. A vertex is a distinct tuple of all inputs' indices; vertices are numbered in order of
 * first appearance in the triangulated corners, so the output is stable. Every index is checked against its
 * source. The {@code TEXCOORD} sets are carried by ascending {@code set} as {@code TEXCOORD_0}, {@code TEXCOORD_1}, …
 * (v = 1 − t; a set whose source is not float with 2 or more components is left out with a warning) and the element's
 * {@code material} symbol as a {@link ColladaMaterials material}; the lowest {@code COLOR} set (3 or 4 float
 * components, RGB or RGBA) as {@code COLOR_0} under {@link VertexColors}' rule. A colour index takes part in the
 * vertex's tuple like every input, so corners that differ only in colour become distinct vertices.
 */
final class GeometryDecoder {

    private final ColladaDocument doc;
    private final Sources sources;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final Map<XmlElement, List<MeshPart>> parts = new IdentityHashMap<>();
    private final Map<XmlElement, List<Primitive>> rigid = new IdentityHashMap<>();
    private final ColladaMaterials materials;

    GeometryDecoder(ColladaDocument doc, Sources sources, ColladaMaterials materials, DecodeBudget budget,
            ImportWarnings warnings) {
        this.doc = doc;
        this.sources = sources;
        this.budget = budget;
        this.warnings = warnings;
        this.materials = materials;
    }

    /** The rigid primitives of {@code geometry} (no influences), decoded on first request. */
    List<Primitive> rigid(XmlElement geometry) {
        List<Primitive> out = rigid.get(geometry);
        if (out == null) {
            List<Primitive> list = new ArrayList<>();
            for (MeshPart part : parts(geometry)) {
                list.add(primitive(part, part.attributes(), 0, new int[0], new float[0]));
            }
            out = List.copyOf(list);
            rigid.put(geometry, out);
        }
        return out;
    }

    /** Builds a triangle primitive of {@code part} with the given influences. */
    static Primitive primitive(MeshPart part, List<String> attributes, int k, int[] joints, float[] weights) {
        try {
            return new Primitive(PrimitiveMode.TRIANGLES, attributes, part.positions(), part.normals(),
                    part.tangents(), part.indices(), k, joints, weights,
                    part.texcoordSets().isEmpty() ? null : part.texcoordSets().getFirst(), part.material())
                    .withFurtherTexcoords(part.texcoordSets().size() < 2 ? List.of()
                            : part.texcoordSets().subList(1, part.texcoordSets().size()))
                    .withColors(part.colors());
        } catch (IllegalArgumentException e) {
            throw ImportException.invalid(part.where() + ": " + e.getMessage());
        }
    }

    /** The de-indexed primitive elements of {@code geometry}, decoded on first request. */
    List<MeshPart> parts(XmlElement geometry) {
        List<MeshPart> out = parts.get(geometry);
        if (out == null) {
            out = decode(geometry);
            parts.put(geometry, out);
        }
        return out;
    }

    private List<MeshPart> decode(XmlElement geometry) {
        String where = "geometry " + geometry.label();
        XmlElement mesh = geometry.child("mesh");
        if (mesh == null) {
            warnings.add(where + " has no <mesh> (convex_mesh, spline and brep are not supported); it is skipped");
            return List.of();
        }
        List<MeshPart> out = new ArrayList<>();
        int index = 0;
        for (XmlElement e : mesh.children()) {
            String type = e.name();
            switch (type) {
                case "triangles", "polylist", "polygons", "trifans", "tristrips" -> {
                    MeshPart part = decodePrimitive(e, where + " " + type + " " + index);
                    if (part != null) {
                        out.add(part);
                    }
                    index++;
                }
                case "lines", "linestrips" -> {
                    warnings.add(where + " " + type + " " + index + ": line primitives are not supported; skipped");
                    index++;
                }
                default -> {
                    // sources, vertices, extra
                }
            }
        }
        return List.copyOf(out);
    }

    /** One input of a primitive element, after {@code VERTEX} expansion. */
    private record Input(String semantic, Source source, int offset, int set, String label) {
    }

    private MeshPart decodePrimitive(XmlElement prim, String where) {
        List<Input> inputs = inputs(prim, where);
        // the index tuple is as wide as the largest offset of the element's own inputs (VERTEX counts once)
        int stride = 0;
        for (XmlElement in : prim.children("input")) {
            stride = Math.max(stride, Attributes.nonNegativeInt(in, "offset", 0, where) + 1);
        }
        if (stride == 0) {
            throw ImportException.invalid(where + " has no inputs");
        }
        Indices indices = indices(prim, where);
        int[] p = indices.values();
        if (p.length % stride != 0) {
            throw ImportException.invalid(where + ": <p> has " + p.length + " indices, not a multiple of the " + stride
                    + " per corner its inputs' offsets need");
        }
        checkIndices(inputs, p, stride, where);
        int[] triangles = triangulate(prim, indices, stride, where);
        if (triangles.length == 0) {
            warnings.add(where + " has no triangles; skipped");
            return null;
        }
        Input position = first(inputs, "POSITION");
        if (position == null) {
            throw ImportException.invalid(where + " has no POSITION input (through VERTEX)");
        }
        return deindex(inputs, position, p, stride, triangles, where, prim.attr("material"));
    }

    private List<Input> inputs(XmlElement prim, String where) {
        List<Input> out = new ArrayList<>();
        for (XmlElement in : prim.children("input")) {
            String semantic = in.attr("semantic");
            if (semantic == null) {
                throw ImportException.invalid(where + ": an <input> has no semantic");
            }
            int offset = Attributes.nonNegativeInt(in, "offset", 0, where + " input " + semantic);
            int set = Attributes.nonNegativeInt(in, "set", 0, where + " input " + semantic);
            if (offset > 1024) {
                throw ImportException.invalid(where + ": input " + semantic + " offset " + offset + " is too large");
            }
            if (semantic.equals("VERTEX")) {
                XmlElement vertices = doc.resolve(in.attr("source"));
                if (vertices == null || !vertices.name().equals("vertices")) {
                    throw ImportException.invalid(where + ": VERTEX source " + Text.quote(in.attr("source"))
                            + " is not a <vertices> in this file");
                }
                for (XmlElement vin : vertices.children("input")) {
                    String vs = vin.attr("semantic");
                    if (vs == null) {
                        throw ImportException.invalid(where + ": an <input> of <vertices> " + vertices.label()
                                + " has no semantic");
                    }
                    Source s = sources.resolve(vin.attr("source"), where + " <vertices> input " + vs);
                    out.add(new Input(vs, s, offset, Attributes.nonNegativeInt(vin, "set", set, where), "VERTEX"));
                }
            } else {
                Source s = sources.resolve(in.attr("source"), where + " input " + semantic);
                out.add(new Input(semantic, s, offset, set, semantic));
            }
        }
        return out;
    }

    /** The indices of all {@code <p>} of an element, concatenated, and how many each {@code <p>} held. */
    private record Indices(int[] values, int[] counts) {
    }

    /** All {@code <p>} of the element (and the outer rings of {@code <ph>}), concatenated. */
    private Indices indices(XmlElement prim, String where) {
        List<String> texts = new ArrayList<>();
        int holes = 0;
        for (XmlElement c : prim.children()) {
            if (c.name().equals("p")) {
                texts.add(c.text());
            } else if (c.name().equals("ph")) {
                XmlElement outer = c.child("p");
                if (outer != null) {
                    texts.add(outer.text());
                }
                holes++;
            }
        }
        if (holes > 0) {
            warnings.add(where + ": " + holes + (holes == 1 ? " polygon has" : " polygons have")
                    + " holes (<ph>); only the outer rings are used");
        }
        long total = 0;
        int[] counts = new int[texts.size()];
        for (int i = 0; i < texts.size(); i++) {
            counts[i] = Tokens.count(texts.get(i));
            total += counts[i];
        }
        budget.charge(total, 4, where + " <p>");
        if (total > Integer.MAX_VALUE - 16) {
            throw ImportException.tooLarge(where + ": " + total + " indices do not fit in one array");
        }
        int[] p = new int[(int) total];
        int at = 0;
        for (int i = 0; i < texts.size(); i++) {
            Tokens.Cursor cursor = new Tokens.Cursor(texts.get(i));
            for (int k = 0; k < counts[i]; k++, at++) {
                budget.checkTime();
                p[at] = Tokens.parseInt(cursor.next(), where + " <p>", at);
            }
        }
        return new Indices(p, counts);
    }

    private static void checkIndices(List<Input> inputs, int[] p, int stride, String where) {
        int corners = p.length / stride;
        for (Input in : inputs) {
            int count = in.source().count();
            for (int c = 0; c < corners; c++) {
                int v = p[c * stride + in.offset()];
                if (v < 0 || v >= count) {
                    throw ImportException.invalid(where + ": " + in.label() + " index " + v + " is out of range for "
                            + in.source().describe() + " with " + count + " elements");
                }
            }
        }
    }

    /** The corners (indices into the corner list) of the triangles, 3 per triangle. */
    private int[] triangulate(XmlElement prim, Indices indices, int stride, String where) {
        String type = prim.name();
        int corners = indices.values().length / stride;
        int[] sizes; // corners per polygon, fan or strip
        if (type.equals("triangles")) {
            if (corners % 3 != 0) {
                throw ImportException.invalid(where + ": <p> has " + corners + " corners, not a multiple of 3");
            }
            budget.charge(corners, 4, where + " triangles");
            int[] out = new int[corners];
            for (int i = 0; i < corners; i++) {
                out[i] = i;
            }
            return out;
        }
        if (type.equals("polylist")) {
            XmlElement vcount = prim.child("vcount");
            sizes = vcount == null ? new int[0] : Tokens.ints(vcount.text(), where + " <vcount>", budget);
            long sum = 0;
            for (int i = 0; i < sizes.length; i++) {
                if (sizes[i] < 0) {
                    throw ImportException.invalid(where + ": <vcount> value " + i + " is negative");
                }
                sum += sizes[i];
            }
            if (sum != corners) {
                throw ImportException.invalid(where + ": <vcount> adds up to " + sum + " corners but <p> has " + corners);
            }
        } else {
            int[] counts = indices.counts();
            sizes = new int[counts.length];
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] % stride != 0) {
                    throw ImportException.invalid(where + ": <p> " + i + " has " + counts[i]
                            + " indices, not a multiple of the " + stride + " per corner its inputs' offsets need");
                }
                sizes[i] = counts[i] / stride;
            }
        }
        boolean strips = type.equals("tristrips");
        long triangles = 0;
        int degenerate = 0;
        for (int size : sizes) {
            if (size < 3) {
                degenerate++;
            } else {
                triangles += size - 2;
            }
        }
        if (degenerate > 0) {
            String unit = strips ? "strip" : type.equals("trifans") ? "fan" : "polygon";
            warnings.add(where + ": " + degenerate + " " + unit + (degenerate == 1 ? "" : "s")
                    + " with fewer than 3 corners " + (degenerate == 1 ? "is" : "are") + " skipped");
        }
        budget.charge(3 * triangles, 4, where + " triangles");
        int[] out = new int[Math.toIntExact(3 * triangles)];
        int at = 0;
        int start = 0;
        for (int size : sizes) {
            budget.checkTime();
            for (int i = 0; i + 2 < size; i++) {
                if (strips) {
                    // glTF's strip order: (i, i+1, i+2) for even i, (i, i+2, i+1) for odd i; both keep the winding
                    out[at++] = start + i;
                    out[at++] = start + i + 1 + (i & 1);
                    out[at++] = start + i + 2 - (i & 1);
                } else {
                    out[at++] = start;
                    out[at++] = start + i + 1;
                    out[at++] = start + i + 2;
                }
            }
            start += size;
        }
        return out;
    }

    private static Input first(List<Input> inputs, String semantic) {
        for (Input in : inputs) {
            if (in.semantic().equals(semantic)) {
                return in;
            }
        }
        return null;
    }

    /** The input of {@code semantic} with the lowest set, or {@code null}. */
    private static Input lowestSet(List<Input> inputs, String semantic) {
        Input best = null;
        for (Input in : inputs) {
            if (in.semantic().equals(semantic) && (best == null || in.set() < best.set())) {
                best = in;
            }
        }
        return best;
    }

    private MeshPart deindex(List<Input> inputs, Input position, int[] p, int stride, int[] triangles, String where,
            String materialSymbol) {
        TreeSet<Integer> usedOffsets = new TreeSet<>();
        for (Input in : inputs) {
            usedOffsets.add(in.offset());
        }
        int[] offsets = usedOffsets.stream().mapToInt(Integer::intValue).toArray();
        int n = triangles.length;
        long wanted = Long.highestOneBit(Math.max(16L, 2L * n - 1)) << 1;
        budget.charge(wanted + 2L * n, 4, where + " vertex table");
        if (wanted > 1 << 30) {
            throw ImportException.tooLarge(where + ": " + n + " triangle corners are too many for one primitive");
        }
        int capacity = (int) wanted;
        int[] table = new int[capacity];
        java.util.Arrays.fill(table, -1);
        int[] representative = new int[n];
        int[] indices = new int[n];
        int mask = capacity - 1;
        int unique = 0;
        for (int i = 0; i < n; i++) {
            budget.checkTime();
            int corner = triangles[i];
            int base = corner * stride;
            int h = 1;
            for (int o : offsets) {
                h = 31 * h + p[base + o];
            }
            h ^= h >>> 16;
            h *= 0x45d9f3b;
            h ^= h >>> 16;
            int slot = h & mask;
            while (true) {
                int v = table[slot];
                if (v < 0) {
                    table[slot] = unique;
                    representative[unique] = corner;
                    indices[i] = unique++;
                    break;
                }
                if (sameTuple(p, representative[v] * stride, base, offsets)) {
                    indices[i] = v;
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
        Input normal = first(inputs, "NORMAL");
        Input tangent = lowestSet(inputs, "TEXTANGENT");
        Input binormal = null;
        if (tangent != null) {
            for (Input in : inputs) {
                if (in.semantic().equals("TEXBINORMAL") && in.set() == tangent.set()) {
                    binormal = in;
                    break;
                }
            }
        }
        requireVector(position, where);
        if (normal != null) {
            requireVector(normal, where);
        }
        if (tangent != null) {
            requireVector(tangent, where);
        }
        if (binormal != null) {
            requireVector(binormal, where);
        }
        List<Input> texcoordInputs = new ArrayList<>();
        for (Input in : inputs) {
            if (!in.semantic().equals("TEXCOORD")) {
                continue;
            }
            if (in.source().kind() != Source.Kind.FLOAT || in.source().components() < 2) {
                warnings.add(where + ": TEXCOORD " + in.source().describe() + " is not a float_array source with 2"
                        + " or more components; the texture coordinates are not carried");
            } else if (texcoordInputs.stream().noneMatch(t -> t.set() == in.set())) {
                texcoordInputs.add(in);
            }
        }
        // by ascending set (stable: of two inputs of one set, the first); dense glTF numbering from 0
        texcoordInputs.sort(java.util.Comparator.comparingInt(Input::set));
        io.posekit.skinning.Material material = materials.forSymbol(materialSymbol,
                texcoordInputs.stream().map(Input::set).toList(), where);
        Input color = lowestSet(inputs, "COLOR");
        if (color != null && (color.source().kind() != Source.Kind.FLOAT || color.source().components() < 3)) {
            warnings.add(where + ": COLOR " + color.source().describe() + " is not a float_array source with 3 (RGB)"
                    + " or 4 (RGBA) components; the colours are not carried");
            color = null;
        }
        budget.charge(unique, 4 * (4 + (normal == null ? 0 : 3) + (tangent == null ? 0 : 4)
                + 2 * texcoordInputs.size() + (color == null ? 0 : 4)), where + " vertices");
        List<float[]> uvs = new ArrayList<>();
        for (int t = 0; t < texcoordInputs.size(); t++) {
            uvs.add(new float[2 * unique]);
        }
        float[] rgba = color == null ? null : new float[4 * unique];
        float[] positions = new float[3 * unique];
        float[] normals = normal == null ? null : new float[3 * unique];
        float[] tangents = tangent == null ? null : new float[4 * unique];
        int[] control = new int[unique];
        for (int v = 0; v < unique; v++) {
            budget.checkTime();
            int base = representative[v] * stride;
            int pi = p[base + position.offset()];
            control[v] = pi;
            for (int c = 0; c < 3; c++) {
                positions[3 * v + c] = position.source().f(pi, c);
            }
            if (normal != null) {
                int ni = p[base + normal.offset()];
                for (int c = 0; c < 3; c++) {
                    normals[3 * v + c] = normal.source().f(ni, c);
                }
            }
            for (int t = 0; t < uvs.size(); t++) {
                // COLLADA's t runs up from the image's bottom edge, glTF's v down from its top
                Input texcoord = texcoordInputs.get(t);
                float[] uv = uvs.get(t);
                int ui = p[base + texcoord.offset()];
                uv[2 * v] = texcoord.source().f(ui, 0);
                uv[2 * v + 1] = 1 - texcoord.source().f(ui, 1);
            }
            if (rgba != null) {
                int ci = p[base + color.offset()];
                for (int c = 0; c < 3; c++) {
                    rgba[4 * v + c] = color.source().f(ci, c);
                }
                rgba[4 * v + 3] = color.source().components() > 3 ? color.source().f(ci, 3) : 1;
            }
            if (tangent != null) {
                int ti = p[base + tangent.offset()];
                for (int c = 0; c < 3; c++) {
                    tangents[4 * v + c] = tangent.source().f(ti, c);
                }
                tangents[4 * v + 3] = 1;
                if (binormal != null && normals != null) {
                    int bi = p[base + binormal.offset()];
                    double nx = normals[3 * v];
                    double ny = normals[3 * v + 1];
                    double nz = normals[3 * v + 2];
                    double tx = tangents[4 * v];
                    double ty = tangents[4 * v + 1];
                    double tz = tangents[4 * v + 2];
                    // glTF: bitangent = cross(normal, tangent) · w
                    double cx = ny * tz - nz * ty;
                    double cy = nz * tx - nx * tz;
                    double cz = nx * ty - ny * tx;
                    double dot = cx * binormal.source().f(bi, 0) + cy * binormal.source().f(bi, 1)
                            + cz * binormal.source().f(bi, 2);
                    if (dot < 0) {
                        tangents[4 * v + 3] = -1;
                    }
                }
            }
        }
        return new MeshPart(where, attributeNames(inputs, normal != null, tangent != null), positions, normals,
                tangents, indices, control, uvs, material, VertexColors.finiteOrWarn(rgba, where, warnings));
    }

    private static boolean sameTuple(int[] p, int a, int b, int[] offsets) {
        for (int o : offsets) {
            if (p[a + o] != p[b + o]) {
                return false;
            }
        }
        return true;
    }

    private static void requireVector(Input in, String where) {
        if (in.source().kind() != Source.Kind.FLOAT) {
            throw ImportException.invalid(where + ": " + in.semantic() + " " + in.source().describe()
                    + " is not a float_array source");
        }
        if (in.source().components() < 3) {
            throw ImportException.invalid(where + ": " + in.semantic() + " " + in.source().describe() + " has "
                    + in.source().components() + " components; 3 are needed");
        }
    }

    /** POSITION, NORMAL, TANGENT, then TEXCOORD_n and COLOR_n numbered densely by ascending set. */
    private static List<String> attributeNames(List<Input> inputs, boolean normal, boolean tangent) {
        List<String> names = new ArrayList<>();
        names.add("POSITION");
        if (normal) {
            names.add("NORMAL");
        }
        if (tangent) {
            names.add("TANGENT");
        }
        for (String semantic : List.of("TEXCOORD", "COLOR")) {
            TreeSet<Integer> sets = new TreeSet<>();
            for (Input in : inputs) {
                if (in.semantic().equals(semantic)) {
                    sets.add(in.set());
                }
            }
            for (int i = 0; i < sets.size(); i++) {
                names.add(semantic + "_" + i);
            }
        }
        return names;
    }
}
