package io.posekit.asset.gltf;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.VertexColors;
import io.posekit.math.ArrayChecks;
import io.posekit.skinning.MorphTargets;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * Decodes glTF meshes into {@link Primitive}s in mesh space, each mesh once per import (instances of the same
 * mesh share the list). Per primitive: {@code POSITION} (VEC3) is required; {@code NORMAL} (VEC3) and
 * {@code TANGENT} (VEC4) are optional; every attribute must have as many elements as {@code POSITION};
 * {@code indices} must be below the vertex count; {@code JOINTS_n}/{@code WEIGHTS_n} must come in pairs
 * numbered contiguously from 0 and are packed into 4 influence slots per set (weights exactly as stored).
 *
 * <p>{@code TEXCOORD_0}, {@code TEXCOORD_1}, … (VEC2; every set numbered densely from 0, up to the first that is
 * missing or not finite) and {@code COLOR_0} (as RGBA) are carried, and the primitive's material when a {@link MaterialDecoder} is given.
 *
 * <p>A primitive compressed with {@code KHR_draco_mesh_compression} is decoded first ({@link DracoPrimitive}), into
 * the accessors its attributes and indices name; everything above then holds for the decoded data.
 *
 * <p>Morph targets ({@code targets}) become the primitive's {@link MorphTargets}: per target its {@code POSITION}
 * and {@code NORMAL} displacements (VEC3, float or quantized, sparse allowed), each with exactly as many elements
 * as {@code POSITION}; position deltas must be finite. Normal deltas are kept only when the primitive has normals.
 * Other target attributes ({@code TANGENT}, …) are not applied: one warning per mesh. The mesh's default weights
 * ({@code weights}, one per target) are read by {@link #weights}.
 */
final class MeshDecoder {

    private final GltfDocument doc;
    private final AccessorReader accessors;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final List<List<Primitive>> decoded = new ArrayList<>();
    private final MaterialDecoder materials;
    private final boolean draco;

    MeshDecoder(GltfDocument doc, AccessorReader accessors, DecodeBudget budget, ImportWarnings warnings) {
        this(doc, accessors, budget, warnings, null);
    }

    /** A decoder that also reads the {@code TEXCOORD_n} sets and, through {@code materials} (or not when {@code null}), materials. */
    MeshDecoder(GltfDocument doc, AccessorReader accessors, DecodeBudget budget, ImportWarnings warnings,
            MaterialDecoder materials) {
        this(doc, accessors, budget, warnings, materials, true);
    }

    /** @param draco whether Draco-compressed primitives are decoded (else they are a 415) */
    MeshDecoder(GltfDocument doc, AccessorReader accessors, DecodeBudget budget, ImportWarnings warnings,
            MaterialDecoder materials, boolean draco) {
        this.draco = draco;
        this.materials = materials;
        this.doc = doc;
        this.accessors = accessors;
        this.budget = budget;
        this.warnings = warnings;
        for (int i = doc.count("meshes"); i > 0; i--) {
            decoded.add(null);
        }
    }

    /** Number of meshes in the file. */
    int meshCount() {
        return decoded.size();
    }

    /** The glTF {@code name} of mesh {@code index}, or {@code null}. */
    String name(int index) {
        return Json.optString(doc.element("meshes", index, "mesh"), "name", "mesh " + index);
    }

    /**
     * The default morph weights of mesh {@code index} ({@code mesh.weights}), or {@code null} when it gives none.
     *
     * @throws ImportException (invalid) unless they are as many finite numbers as the mesh has morph targets
     */
    float[] weights(int index) {
        String where = "mesh " + index;
        return Json.optFloats(doc.element("meshes", index, "mesh"), "weights", primitives(index).getFirst()
                .morphTargetCount(), where);
    }

    /**
     * The primitives of mesh {@code index}, decoded on first request.
     *
     * @throws ImportException (invalid) naming the mesh, primitive and attribute at fault
     */
    List<Primitive> primitives(int index) {
        List<Primitive> out = decoded.get(index);
        if (out == null) {
            out = decode(index);
            decoded.set(index, out);
        }
        return out;
    }

    private List<Primitive> decode(int meshIndex) {
        String where = "mesh " + meshIndex;
        JsonNode mesh = doc.element("meshes", meshIndex, "mesh");
        JsonNode primitives = Json.reqArray(mesh, "primitives", where);
        if (primitives.isEmpty()) {
            throw ImportException.invalid(where + ": primitives must not be empty");
        }
        List<Primitive> out = new ArrayList<>(primitives.size());
        Set<String> ignored = new TreeSet<>();
        for (int p = 0; p < primitives.size(); p++) {
            String pw = where + " primitive " + p;
            JsonNode prim = primitives.get(p);
            if (!prim.isObject()) {
                throw ImportException.invalid(pw + " must be a JSON object, not " + Json.quote(prim));
            }
            Primitive primitive = decodePrimitive(prim, pw);
            JsonNode targets = Json.optArray(prim, "targets", pw);
            int count = targets == null ? 0 : targets.size();
            if (p > 0 && count != out.getFirst().morphTargetCount()) {
                throw ImportException.invalid(pw + " has " + count + " morph targets but primitive 0 has "
                        + out.getFirst().morphTargetCount() + " (all primitives of a mesh must have the same number)");
            }
            if (count > 0) {
                primitive = primitive.withMorphTargets(morphTargets(targets, primitive, pw, ignored));
            }
            out.add(primitive);
        }
        if (!ignored.isEmpty()) {
            warnings.add(where + ": morph target attributes " + String.join(", ", ignored) + " are not applied");
        }
        return List.copyOf(out);
    }

    /** Decodes the {@code targets} of a primitive; collects the names of target attributes that are not applied. */
    private MorphTargets morphTargets(JsonNode targets, Primitive primitive, String where, Set<String> ignored) {
        int n = primitive.vertexCount();
        int count = targets.size();
        float[][] positions = new float[count][];
        float[][] normals = primitive.normals() == null ? null : new float[count][];
        budget.charge(2L * count, 8, where + " morph targets");
        for (int t = 0; t < count; t++) {
            budget.checkTime();
            String tw = where + " morph target " + t;
            JsonNode target = targets.get(t);
            if (!target.isObject()) {
                throw ImportException.invalid(tw + " must be a JSON object, not " + Json.quote(target));
            }
            for (String name : target.propertyNames()) {
                if (!name.equals("POSITION") && !name.equals("NORMAL")) {
                    ignored.add(Json.shorten(name, 40));
                    continue;
                }
                Accessor a = attribute(target, name, tw);
                if (a.count() != n) {
                    throw ImportException.invalid(tw + ": " + name + " " + a.describe() + " has " + a.count()
                            + " elements but the primitive has " + n + " vertices");
                }
                if (name.equals("NORMAL") && normals == null) {
                    ignored.add("NORMAL (the primitive has no normals)");
                    continue;
                }
                float[] deltas = accessors.floats(a);
                for (int i = 0; i < deltas.length; i++) {
                    if (!Float.isFinite(deltas[i])) {
                        throw ImportException.invalid(tw + ": " + name + " " + a.describe() + " vertex " + i / 3
                                + " is not finite");
                    }
                }
                if (name.equals("POSITION")) {
                    positions[t] = deltas;
                } else {
                    normals[t] = deltas;
                }
            }
        }
        try {
            return new MorphTargets(n, positions, normals);
        } catch (IllegalArgumentException e) {
            throw ImportException.invalid(where + ": " + e.getMessage());
        }
    }

    private Primitive decodePrimitive(JsonNode prim, String where) {
        JsonNode attributes = Json.reqObject(prim, "attributes", where);
        JsonNode compressed = DracoPrimitive.extension(prim, where);
        if (compressed != null) {
            if (!draco) {
                throw ImportException.unsupported(where + ": " + DracoPrimitive.EXTENSION + " is not decoded here:"
                        + " Draco decoding is turned off (posekit.limits.draco=false)");
            }
            // fills the accessors the compressed attributes and indices name; read below like any others
            DracoPrimitive.decode(doc, prim, compressed, accessors, budget, where);
        }
        List<String> names = new ArrayList<>(attributes.propertyNames());
        if (!names.contains("POSITION")) {
            throw ImportException.invalid(where + ": the POSITION attribute is required");
        }
        Accessor position = attribute(attributes, "POSITION", where);
        int vertexCount = position.count();
        Map<Integer, Accessor> joints = new TreeMap<>();
        Map<Integer, Accessor> weights = new TreeMap<>();
        for (String name : names) {
            Accessor a = attribute(attributes, name, where);
            if (a.count() != vertexCount) {
                throw ImportException.invalid(where + ": attribute " + name + " has " + a.count()
                        + " elements but POSITION has " + vertexCount);
            }
            int set = setNumber(name, "JOINTS_");
            if (set >= 0) {
                joints.put(set, a);
            }
            set = setNumber(name, "WEIGHTS_");
            if (set >= 0) {
                weights.put(set, a);
            }
        }
        float[] positions = accessors.floats(position);
        int bad = ArrayChecks.firstNonFinite(positions);
        if (bad >= 0) {
            throw ImportException.invalid(where + ": POSITION " + position.describe() + " vertex " + bad / 3
                    + " is not finite");
        }
        float[] normals = names.contains("NORMAL") ? accessors.floats(attribute(attributes, "NORMAL", where)) : null;
        float[] tangents = names.contains("TANGENT") ? accessors.floats(attribute(attributes, "TANGENT", where)) : null;
        int modeNumber = Json.optInt(prim, "mode", 4, where);
        PrimitiveMode mode = PrimitiveMode.ofGltf(modeNumber);
        if (mode == null) {
            throw ImportException.invalid(where + ": mode " + modeNumber + " is not a glTF primitive mode (0 to 6)");
        }
        int[] indices = null;
        if (Json.has(prim, "indices")) {
            Accessor ia = accessors.require(Json.reqInt(prim, "indices", where), AccessorUsage.INDICES, "indices", where);
            indices = accessors.ints(ia);
            int i = ArrayChecks.firstUnsignedAtLeast(indices, vertexCount);
            if (i >= 0) {
                throw ImportException.invalid(where + ": index " + i + " = " + Integer.toUnsignedLong(indices[i])
                        + " is out of range for " + vertexCount + " vertices");
            }
        }
        int sets = influenceSets(joints, weights, where);
        int k = 4 * sets;
        int maxInfluences = budget.limits().maxInfluencesPerVertex();
        if (k > 4 * ((maxInfluences + 3) / 4)) {
            throw ImportLimits.exceeded(where, sets, "influence sets (" + k + " joint influences per vertex)",
                    maxInfluences, ImportLimits.INFLUENCES_PER_VERTEX);
        }
        int[] packedJoints;
        float[] packedWeights;
        if (sets == 0) {
            packedJoints = new int[0];
            packedWeights = new float[0];
        } else if (sets == 1) {
            packedJoints = accessors.ints(joints.get(0));
            packedWeights = accessors.floats(weights.get(0));
        } else {
            long slots = (long) vertexCount * k;
            budget.charge(slots, 8, where + " influences");
            if (slots > Integer.MAX_VALUE - 16) {
                throw ImportException.tooLarge(where + ": " + slots + " influence slots do not fit in one array");
            }
            packedJoints = new int[(int) slots];
            packedWeights = new float[(int) slots];
            for (int s = 0; s < sets; s++) {
                int[] j = accessors.ints(joints.get(s));
                float[] w = accessors.floats(weights.get(s));
                for (int v = 0; v < vertexCount; v++) {
                    System.arraycopy(j, 4 * v, packedJoints, v * k + 4 * s, 4);
                    System.arraycopy(w, 4 * v, packedWeights, v * k + 4 * s, 4);
                }
            }
        }
        try {
            List<float[]> uvs = texcoordSets(attributes, names, where);
            return new Primitive(mode, names, positions, normals, tangents, indices, k, packedJoints, packedWeights,
                    uvs.isEmpty() ? null : uvs.getFirst(), materials == null ? null : materials.forPrimitive(prim, where))
                    .withFurtherTexcoords(uvs.size() < 2 ? List.of() : uvs.subList(1, uvs.size()))
                    .withColors(colors(attributes, names, where));
        } catch (IllegalArgumentException e) {
            throw ImportException.invalid(where + ": " + e.getMessage());
        }
    }

    /**
     * {@code TEXCOORD_0}, {@code TEXCOORD_1}, … as floats (2 per vertex each), in order while present; a set with a
     * value that is not finite ends the list (with a warning), because the sets after it cannot take its number.
     */
    private List<float[]> texcoordSets(JsonNode attributes, List<String> names, String where) {
        List<float[]> sets = new ArrayList<>();
        for (int set = 0; names.contains("TEXCOORD_" + set); set++) {
            String name = "TEXCOORD_" + set;
            float[] uv = accessors.floats(attribute(attributes, name, where));
            for (int i = 0; i < uv.length; i++) {
                if (!Float.isFinite(uv[i])) {
                    warnings.add(where + ": " + name + " of vertex " + i / 2 + " is not finite; the texture coordinates"
                            + (set == 0 ? "" : " of it and later sets") + " are not carried");
                    return sets;
                }
            }
            sets.add(uv);
        }
        return sets;
    }

    /**
     * {@code COLOR_0} as linear RGBA floats (4 per vertex; an RGB accessor gets alpha 1, normalized integers are
     * decoded to 0–1), or {@code null} when absent or not finite (with a warning).
     */
    private float[] colors(JsonNode attributes, List<String> names, String where) {
        if (!names.contains("COLOR_0")) {
            return null;
        }
        Accessor accessor = attribute(attributes, "COLOR_0", where);
        float[] stored = accessors.floats(accessor);
        float[] rgba = stored;
        if (accessor.type() == AccessorType.VEC3) {
            int n = stored.length / 3;
            budget.charge(n, 16, where + " COLOR_0");
            rgba = new float[4 * n];
            for (int v = 0; v < n; v++) {
                rgba[4 * v] = stored[3 * v];
                rgba[4 * v + 1] = stored[3 * v + 1];
                rgba[4 * v + 2] = stored[3 * v + 2];
                rgba[4 * v + 3] = 1;
            }
        }
        return VertexColors.finiteOrWarn(rgba, where, warnings);
    }

    /** The accessor of attribute {@code name}, checked for the attribute's semantic (custom ones unchecked). */
    private Accessor attribute(JsonNode attributes, String name, String where) {
        int index = Json.toInt(attributes.get(name), where + ": attribute " + name);
        AccessorUsage usage = AccessorUsage.forAttribute(name);
        return usage == null ? accessors.accessor(index, name + " accessor", where)
                : accessors.require(index, usage, name, where);
    }

    /** Checks that influence sets pair up and are numbered 0, 1, …; returns their number. */
    private static int influenceSets(Map<Integer, Accessor> joints, Map<Integer, Accessor> weights, String where) {
        for (int s : joints.keySet()) {
            if (!weights.containsKey(s)) {
                throw ImportException.invalid(where + ": JOINTS_" + s + " has no matching WEIGHTS_" + s);
            }
        }
        for (int s : weights.keySet()) {
            if (!joints.containsKey(s)) {
                throw ImportException.invalid(where + ": WEIGHTS_" + s + " has no matching JOINTS_" + s);
            }
        }
        int expected = 0;
        for (int s : joints.keySet()) {
            if (s != expected) {
                throw ImportException.invalid(where + ": influence sets must be numbered from 0 without gaps, but "
                        + "JOINTS_" + s + " comes without JOINTS_" + expected);
            }
            expected++;
        }
        return joints.size();
    }

    /** The set number {@code n} of an attribute named {@code prefix + n} (decimal, no leading zeros), else -1. */
    private static int setNumber(String name, String prefix) {
        if (!name.startsWith(prefix) || name.length() == prefix.length() || name.length() > prefix.length() + 4) {
            return -1;
        }
        String digits = name.substring(prefix.length());
        if ((digits.length() > 1 && digits.charAt(0) == '0') || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        return Integer.parseInt(digits);
    }
}
