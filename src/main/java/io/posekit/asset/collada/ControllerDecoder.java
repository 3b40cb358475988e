package io.posekit.asset.collada;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.skinning.MorphTargets;
import io.posekit.skinning.Primitive;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes {@code <controller>}s (each once per import) and builds their skinned primitives.
 *
 * <p>{@code <morph source method>} names the base geometry; its {@code <targets>} give the target geometries
 * ({@code MORPH_TARGET}, an IDREF_array or Name_array of geometry ids) and their default weights
 * ({@code MORPH_WEIGHT}, one float per target). Every target geometry must have the base's primitive elements
 * with the same vertex counts (vertices are numbered the same way when the index lists match, as exporters write
 * them). The targets become position (and, where both have normals, normal) displacements of the base:
 * {@code target − base} for {@code NORMALIZED} (the default: {@code (1 − Σw)·base + Σ w·target}), the target
 * itself for {@code RELATIVE} ({@code base + Σ w·target}).
 *
 * <p>{@code <skin source>} names a geometry, or a {@code <morph>} controller whose base geometry is skinned with
 * the morph targets applied first. {@code <bind_shape_matrix>} (default identity) and every
 * {@code INV_BIND_MATRIX} are written row-major and transposed; the bind shape is folded into the inverse binds
 * ({@code IBM_k · BSM}), so positions stay in mesh space. {@code <vertex_weights>} may give any number of
 * influences per control vertex, up to {@link ImportLimits#maxInfluencesPerVertex()} (more is too large); all are
 * kept in file order,
 * padded with weight 0 to a multiple of 4 slots, weights exactly as stored (one warning per skin when some
 * vertices' weights do not sum to 1). Joint index −1 (the bind shape itself) is skipped with a warning.
 */
final class ControllerDecoder {

    /** How far a vertex's weight sum may be from 1 before the skin is reported. */
    static final double WEIGHT_SUM_TOLERANCE = 1e-4;

    private final ColladaDocument doc;
    private final Sources sources;
    private final GeometryDecoder geometries;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final Map<XmlElement, SkinData> skins = new IdentityHashMap<>();
    private final Map<XmlElement, List<Primitive>> primitives = new IdentityHashMap<>();
    private final Map<XmlElement, MorphData> morphs = new IdentityHashMap<>();
    private final Map<XmlElement, List<Primitive>> morphPrimitives = new IdentityHashMap<>();

    /**
     * A decoded {@code <morph>}: its base geometry, per primitive element of the base its morph targets, and the
     * default weights.
     */
    record MorphData(XmlElement geometry, List<MorphTargets> targets, float[] weights) {
    }

    ControllerDecoder(ColladaDocument doc, Sources sources, GeometryDecoder geometries, DecodeBudget budget,
            ImportWarnings warnings) {
        this.doc = doc;
        this.sources = sources;
        this.geometries = geometries;
        this.budget = budget;
        this.warnings = warnings;
    }

    /**
     * The decoded {@code <morph>} of {@code controller}.
     *
     * @throws ImportException (invalid) when the source or a target is not a geometry, the targets and weights
     *     disagree, or a target's primitives do not match the base's
     */
    MorphData morph(XmlElement controller) {
        MorphData m = morphs.get(controller);
        if (m == null) {
            m = decodeMorph(controller);
            morphs.put(controller, m);
        }
        return m;
    }

    /** The base geometry's rigid primitives with the morph targets of {@code controller} attached (shared). */
    List<Primitive> morphPrimitives(XmlElement controller) {
        List<Primitive> out = morphPrimitives.get(controller);
        if (out == null) {
            MorphData m = morph(controller);
            out = withTargets(geometries.rigid(m.geometry()), m, "morph " + controller.label());
            morphPrimitives.put(controller, out);
        }
        return out;
    }

    private static List<Primitive> withTargets(List<Primitive> primitives, MorphData m, String where) {
        List<Primitive> out = new ArrayList<>(primitives.size());
        for (int i = 0; i < primitives.size(); i++) {
            try {
                out.add(primitives.get(i).withMorphTargets(m.targets().get(i)));
            } catch (IllegalArgumentException e) {
                throw ImportException.invalid(where + ": " + e.getMessage());
            }
        }
        return List.copyOf(out);
    }

    private MorphData decodeMorph(XmlElement controller) {
        XmlElement morph = controller.child("morph");
        String where = "morph " + controller.label();
        XmlElement geometry = doc.resolve(morph.attr("source"));
        if (geometry == null || !geometry.name().equals("geometry")) {
            throw ImportException.invalid(where + ": source " + Text.quote(morph.attr("source"))
                    + " is not a <geometry> in this file");
        }
        String method = morph.attr("method") == null ? "NORMALIZED" : morph.attr("method");
        if (!method.equals("NORMALIZED") && !method.equals("RELATIVE")) {
            throw ImportException.invalid(where + ": method " + Text.quote(method) + " is not NORMALIZED or RELATIVE");
        }
        boolean relative = method.equals("RELATIVE");
        XmlElement targetsElement = morph.child("targets");
        if (targetsElement == null) {
            throw ImportException.invalid(where + " has no <targets>");
        }
        Source targetSource = null;
        Source weightSource = null;
        for (XmlElement in : targetsElement.children("input")) {
            String semantic = in.attr("semantic");
            if ("MORPH_TARGET".equals(semantic)) {
                targetSource = sources.resolve(in.attr("source"), where + " <targets> input MORPH_TARGET");
            } else if ("MORPH_WEIGHT".equals(semantic)) {
                weightSource = sources.resolve(in.attr("source"), where + " <targets> input MORPH_WEIGHT");
            }
        }
        if (targetSource == null || weightSource == null) {
            throw ImportException.invalid(where + ": <targets> needs a MORPH_TARGET and a MORPH_WEIGHT input");
        }
        if (targetSource.kind() != Source.Kind.NAME) {
            throw ImportException.invalid(where + ": the MORPH_TARGET " + targetSource.describe()
                    + " is not an IDREF_array or Name_array");
        }
        if (weightSource.kind() != Source.Kind.FLOAT || weightSource.components() < 1) {
            throw ImportException.invalid(where + ": the MORPH_WEIGHT " + weightSource.describe() + " is not a float source");
        }
        int count = targetSource.count();
        if (count == 0) {
            throw ImportException.invalid(where + ": the MORPH_TARGET " + targetSource.describe() + " has no targets");
        }
        if (weightSource.count() != count) {
            throw ImportException.invalid(where + ": " + count + " targets but the MORPH_WEIGHT "
                    + weightSource.describe() + " has " + weightSource.count() + " weights");
        }
        float[] weights = new float[count];
        for (int t = 0; t < count; t++) {
            weights[t] = weightSource.f(t, 0);
            if (!Float.isFinite(weights[t])) {
                throw ImportException.invalid(where + ": weight " + t + " is not finite");
            }
        }
        List<MeshPart> base = geometries.parts(geometry);
        float[][][] positions = new float[base.size()][count][];
        float[][][] normals = new float[base.size()][][];
        for (int i = 0; i < base.size(); i++) {
            normals[i] = base.get(i).normals() == null ? null : new float[count][];
        }
        budget.charge(2L * count * base.size(), 8, where + " targets");
        for (int t = 0; t < count; t++) {
            budget.checkTime();
            String id = targetSource.name(t, 0);
            XmlElement target = doc.resolve("#" + id);
            String tw = where + " target " + t;
            if (target == null || !target.name().equals("geometry")) {
                throw ImportException.invalid(tw + ": " + Text.quote(id) + " is not a <geometry> in this file");
            }
            List<MeshPart> parts = geometries.parts(target);
            if (parts.size() != base.size()) {
                throw ImportException.invalid(tw + ": geometry " + target.label() + " has " + parts.size()
                        + " primitive elements but the base geometry " + geometry.label() + " has " + base.size());
            }
            for (int i = 0; i < base.size(); i++) {
                MeshPart b = base.get(i);
                MeshPart p = parts.get(i);
                if (p.vertexCount() != b.vertexCount()) {
                    throw ImportException.invalid(tw + ": " + p.where() + " has " + p.vertexCount()
                            + " vertices but " + b.where() + " of the base has " + b.vertexCount());
                }
                positions[i][t] = relative ? p.positions() : difference(p.positions(), b.positions(), tw);
                if (normals[i] != null && p.normals() != null) {
                    normals[i][t] = relative ? p.normals() : difference(p.normals(), b.normals(), tw);
                }
            }
        }
        List<MorphTargets> targets = new ArrayList<>(base.size());
        for (int i = 0; i < base.size(); i++) {
            targets.add(new MorphTargets(base.get(i).vertexCount(), positions[i], normals[i]));
        }
        return new MorphData(geometry, List.copyOf(targets), weights);
    }

    /** {@code target − base}, element-wise, as a new array charged to the budget. */
    private float[] difference(float[] target, float[] base, String where) {
        budget.charge(target.length, 4, where + " displacements");
        float[] out = new float[target.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) ((double) target[i] - base[i]);
        }
        return out;
    }

    /** The decoded skin of a controller with a {@code <skin>}. */
    SkinData skin(XmlElement controller) {
        SkinData s = skins.get(controller);
        if (s == null) {
            s = decode(controller);
            skins.put(controller, s);
        }
        return s;
    }

    /** The skinned primitives of a skin controller (shared by all its instances). */
    List<Primitive> primitives(XmlElement controller) {
        List<Primitive> out = primitives.get(controller);
        if (out == null) {
            out = build(skin(controller));
            primitives.put(controller, out);
        }
        return out;
    }

    private SkinData decode(XmlElement controller) {
        XmlElement skin = controller.child("skin");
        String where = "skin " + controller.label();
        String name = controller.attr("name") != null ? controller.attr("name") : controller.attr("id");
        XmlElement geometry = doc.resolve(skin.attr("source"));
        XmlElement morph = null;
        if (geometry != null && geometry.name().equals("controller") && geometry.child("morph") != null) {
            morph = geometry;
            geometry = morph(morph).geometry();
        }
        if (geometry == null || !geometry.name().equals("geometry")) {
            throw ImportException.invalid(where + ": source " + Text.quote(skin.attr("source"))
                    + " is not a <geometry> or <morph> controller in this file");
        }
        double[] bindShape = identity();
        XmlElement bsm = skin.child("bind_shape_matrix");
        if (bsm != null) {
            bindShape = transpose(Tokens.doubles(bsm.text(), 16, where + ": <bind_shape_matrix>"));
        }
        XmlElement jointsElement = skin.child("joints");
        if (jointsElement == null) {
            throw ImportException.invalid(where + " has no <joints>");
        }
        Source jointSource = null;
        Source ibmSource = null;
        for (XmlElement in : jointsElement.children("input")) {
            String semantic = in.attr("semantic");
            if ("JOINT".equals(semantic)) {
                jointSource = sources.resolve(in.attr("source"), where + " <joints> input JOINT");
            } else if ("INV_BIND_MATRIX".equals(semantic)) {
                ibmSource = sources.resolve(in.attr("source"), where + " <joints> input INV_BIND_MATRIX");
            }
        }
        if (jointSource == null) {
            throw ImportException.invalid(where + ": <joints> has no JOINT input");
        }
        String[] names = jointNames(jointSource, where);
        int maxJoints = budget.limits().maxJointsPerSkin();
        if (names.length > maxJoints) {
            throw ImportLimits.exceeded(where, names.length, "joints", maxJoints, ImportLimits.JOINTS_PER_SKIN);
        }
        boolean idrefs = jointSource.arrayTag().equals("IDREF_array");
        float[] ibms = inverseBinds(ibmSource, names.length, bindShape, where);
        return weights(skin, where, name, geometry, morph, names, idrefs, ibms, jointSource);
    }

    private static String[] jointNames(Source s, String where) {
        if (s.kind() != Source.Kind.NAME) {
            throw ImportException.invalid(where + ": the JOINT " + s.describe() + " is not a Name_array or IDREF_array");
        }
        if (s.count() == 0) {
            throw ImportException.invalid(where + ": the JOINT " + s.describe() + " has no joints");
        }
        String[] names = new String[s.count()];
        for (int i = 0; i < names.length; i++) {
            names[i] = s.name(i, 0);
        }
        return names;
    }

    private float[] inverseBinds(Source s, int joints, double[] bindShape, String where) {
        budget.charge(16L * joints, 4, where + " inverse bind matrices");
        float[] out = new float[16 * joints];
        if (s == null) {
            warnings.add(where + ": <joints> has no INV_BIND_MATRIX input; identities are used");
        } else {
            if (s.kind() != Source.Kind.FLOAT || s.components() < 16) {
                throw ImportException.invalid(where + ": INV_BIND_MATRIX " + s.describe()
                        + " does not hold 4×4 float matrices (" + s.components() + " values per element)");
            }
            if (s.count() < joints) {
                throw ImportException.invalid(where + ": INV_BIND_MATRIX " + s.describe() + " has " + s.count()
                        + " matrices but there are " + joints + " joints");
            }
            if (s.count() > joints) {
                warnings.add(where + ": INV_BIND_MATRIX " + s.describe() + " has " + s.count() + " matrices for "
                        + joints + " joints; the extra ones are ignored");
            }
        }
        double[] ibm = new double[16];
        double[] product = new double[16];
        for (int k = 0; k < joints; k++) {
            budget.checkTime();
            if (s == null) {
                TransformMath.identity(ibm);
            } else {
                for (int r = 0; r < 4; r++) {
                    for (int c = 0; c < 4; c++) {
                        ibm[4 * c + r] = s.f(k, 4 * r + c);
                    }
                }
            }
            io.posekit.math.Matrices.multiply(ibm, 0, bindShape, 0, product, 0);
            for (int i = 0; i < 16; i++) {
                out[16 * k + i] = (float) product[i];
            }
        }
        return out;
    }

    private SkinData weights(XmlElement skin, String where, String name, XmlElement geometry, XmlElement morph,
            String[] names, boolean idrefs, float[] ibms, Source jointSource) {
        XmlElement vw = skin.child("vertex_weights");
        if (vw == null) {
            throw ImportException.invalid(where + " has no <vertex_weights>");
        }
        String vwhere = where + " <vertex_weights>";
        int count = Attributes.nonNegativeInt(vw, "count", -1, vwhere);
        int jointOffset = -1;
        int weightOffset = -1;
        int stride = 0;
        Source vwJoints = null;
        Source weightSource = null;
        for (XmlElement in : vw.children("input")) {
            String semantic = in.attr("semantic");
            int offset = Attributes.nonNegativeInt(in, "offset", 0, vwhere + " input " + semantic);
            if (offset > 1024) {
                throw ImportException.invalid(vwhere + ": input " + semantic + " offset " + offset + " is too large");
            }
            stride = Math.max(stride, offset + 1);
            if ("JOINT".equals(semantic)) {
                jointOffset = offset;
                vwJoints = sources.resolve(in.attr("source"), vwhere + " input JOINT");
            } else if ("WEIGHT".equals(semantic)) {
                weightOffset = offset;
                weightSource = sources.resolve(in.attr("source"), vwhere + " input WEIGHT");
            }
        }
        if (vwJoints == null || weightSource == null) {
            throw ImportException.invalid(vwhere + " needs a JOINT and a WEIGHT input");
        }
        if (weightSource.kind() != Source.Kind.FLOAT || weightSource.components() < 1) {
            throw ImportException.invalid(vwhere + ": WEIGHT " + weightSource.describe() + " is not a float source");
        }
        int[] jointMap = jointMap(vwJoints, jointSource, names, vwhere);
        XmlElement vcountElement = vw.child("vcount");
        XmlElement vElement = vw.child("v");
        int[] vcount = vcountElement == null ? new int[0] : Tokens.ints(vcountElement.text(), vwhere + " <vcount>", budget);
        if (count < 0) {
            count = vcount.length;
        }
        if (vcount.length != count) {
            throw ImportException.invalid(vwhere + ": count is " + count + " but <vcount> has " + vcount.length
                    + " entries");
        }
        int[] v = vElement == null ? new int[0] : Tokens.ints(vElement.text(), vwhere + " <v>", budget);
        long total = 0;
        int maxInfluences = budget.limits().maxInfluencesPerVertex();
        for (int i = 0; i < count; i++) {
            if (vcount[i] < 0) {
                throw ImportException.invalid(vwhere + ": <vcount> value " + i + " is negative");
            }
            if (vcount[i] > maxInfluences) {
                throw ImportLimits.exceeded(where + ": control vertex " + i, vcount[i], "joint influences",
                        maxInfluences, ImportLimits.INFLUENCES_PER_VERTEX);
            }
            total += vcount[i];
        }
        if (total * stride != v.length) {
            throw ImportException.invalid(vwhere + ": <vcount> adds up to " + total + " influences (" + total * stride
                    + " indices) but <v> has " + v.length + " indices");
        }
        budget.charge(count + 1L + 2 * total, 4, where + " influences");
        int[] start = new int[count + 1];
        int[] joints = new int[(int) total];
        float[] weights = new float[(int) total];
        int at = 0;
        int read = 0;
        int bindShape = 0;
        int max = 0;
        int off = 0;
        double minSum = Double.POSITIVE_INFINITY;
        double maxSum = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < count; i++) {
            budget.checkTime();
            start[i] = at;
            double sum = 0;
            for (int k = 0; k < vcount[i]; k++, read++) {
                int joint = v[read * stride + jointOffset];
                int weightIndex = v[read * stride + weightOffset];
                if (weightIndex < 0 || weightIndex >= weightSource.count()) {
                    throw ImportException.invalid(vwhere + ": weight index " + weightIndex + " is out of range for "
                            + weightSource.describe() + " with " + weightSource.count() + " elements");
                }
                if (joint == -1) {
                    bindShape++;
                    continue;
                }
                if (joint < 0 || joint >= jointMap.length) {
                    throw ImportException.invalid(vwhere + ": joint index " + joint + " is out of range for "
                            + vwJoints.describe() + " with " + jointMap.length + " joints");
                }
                joints[at] = jointMap[joint];
                weights[at] = weightSource.f(weightIndex, 0);
                sum += weights[at];
                at++;
            }
            max = Math.max(max, at - start[i]);
            if (Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) {
                off++;
            }
            minSum = Math.min(minSum, sum);
            maxSum = Math.max(maxSum, sum);
        }
        start[count] = at;
        if (bindShape > 0) {
            warnings.add(where + ": " + bindShape + (bindShape == 1 ? " influence binds" : " influences bind")
                    + " to the bind shape (joint index -1); " + (bindShape == 1 ? "it is" : "they are") + " ignored");
        }
        if (off > 0) {
            warnings.add(where + ": " + off + " of " + count + " vertices have weights that do not sum to 1 ("
                    + Text.weightSum(minSum, WEIGHT_SUM_TOLERANCE) + "–" + Text.weightSum(maxSum, WEIGHT_SUM_TOLERANCE)
                    + "); they are normalised when skinning");
        }
        if (at < joints.length) {
            joints = java.util.Arrays.copyOf(joints, at);
            weights = java.util.Arrays.copyOf(weights, at);
        }
        return new SkinData(where, name, geometry, morph, names, idrefs, ibms, start, joints, weights, max);
    }

    /** Maps the vertex_weights JOINT source's indices to skin joint indices (identity when it is the same source). */
    private static int[] jointMap(Source vwJoints, Source jointSource, String[] names, String where) {
        if (vwJoints == jointSource) {
            int[] identity = new int[names.length];
            for (int i = 0; i < identity.length; i++) {
                identity[i] = i;
            }
            return identity;
        }
        String[] other = jointNames(vwJoints, where);
        Map<String, Integer> byName = new HashMap<>();
        for (int i = names.length - 1; i >= 0; i--) {
            byName.put(names[i], i);
        }
        int[] map = new int[other.length];
        for (int i = 0; i < other.length; i++) {
            Integer k = byName.get(other[i]);
            if (k == null) {
                throw ImportException.invalid(where + ": joint " + Text.quote(other[i]) + " of " + vwJoints.describe()
                        + " is not in the <joints> JOINT " + jointSource.describe());
            }
            map[i] = k;
        }
        return map;
    }

    /** Per vertex of every part of the skin's geometry, its control vertex's influences, padded to the slots. */
    private List<Primitive> build(SkinData skin) {
        List<Primitive> out = new ArrayList<>();
        int k = skin.slots();
        List<String> extra = new ArrayList<>();
        for (int s = 0; s < k / 4; s++) {
            extra.add("JOINTS_" + s);
            extra.add("WEIGHTS_" + s);
        }
        for (MeshPart part : geometries.parts(skin.geometry())) {
            int n = part.vertexCount();
            budget.charge((long) n * k, 8, part.where() + " influences");
            if ((long) n * k > Integer.MAX_VALUE - 16) {
                throw ImportException.tooLarge(part.where() + ": " + n + " vertices × " + k
                        + " influence slots do not fit in one array");
            }
            int[] joints = new int[n * k];
            float[] weights = new float[n * k];
            for (int v = 0; v < n; v++) {
                budget.checkTime();
                int cv = part.controlVertices()[v];
                if (cv >= skin.controlVertexCount()) {
                    throw ImportException.invalid(skin.where() + ": " + part.where() + " uses position " + cv
                            + " but <vertex_weights> has " + skin.controlVertexCount() + " entries");
                }
                int from = skin.start()[cv];
                int to = skin.start()[cv + 1];
                System.arraycopy(skin.joints(), from, joints, v * k, to - from);
                System.arraycopy(skin.weights(), from, weights, v * k, to - from);
            }
            List<String> attributes = new ArrayList<>(part.attributes());
            attributes.addAll(extra);
            out.add(GeometryDecoder.primitive(part, attributes, k, joints, weights));
        }
        if (skin.morph() != null) {
            return withTargets(out, morph(skin.morph()), skin.where());
        }
        return List.copyOf(out);
    }

    private static double[] identity() {
        double[] m = new double[16];
        TransformMath.identity(m);
        return m;
    }

    private static double[] transpose(double[] rowMajor) {
        double[] m = new double[16];
        for (int r = 0; r < 4; r++) {
            for (int c = 0; c < 4; c++) {
                m[4 * c + r] = rowMajor[4 * r + c];
            }
        }
        return m;
    }
}
