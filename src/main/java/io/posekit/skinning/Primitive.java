package io.posekit.skinning;

import java.util.List;

/**
 * Geometry of one mesh primitive in mesh space (the bind shape), as flat arrays.
 *
 * <ul>
 *   <li>{@code positions}: 3 floats per vertex.</li>
 *   <li>{@code normals}: 3 floats per vertex, or {@code null}.</li>
 *   <li>{@code tangents}: 4 floats per vertex (xyz direction, w = ±1 handedness), or {@code null}.</li>
 *   <li>{@code indices}: vertex indices, or {@code null} for non-indexed geometry.</li>
 *   <li>Influences: {@code influencesPerVertex} (k, a multiple of 4; 0 when the primitive carries no skin
 *       weights) slots per vertex. Slot {@code j} of vertex {@code v} is at {@code v*k + j}; slots
 *       {@code 4s..4s+3} come from influence set {@code s} (glTF {@code JOINTS_s}/{@code WEIGHTS_s}).
 *       {@code joints} are indices into the skin's joint list, {@code weights} the decoded weights exactly
 *       as stored (not renormalised; skinning normalises per vertex). Unused slots have weight 0.</li>
 *   <li>{@code morphTargets}: position/normal displacements applied before skinning ({@link MorphTargets}), or
 *       {@code null}; attached with {@link #withMorphTargets}.</li>
 *   <li>{@code texcoords}: {@code TEXCOORD_0}, 2 floats per vertex in glTF's convention, or {@code null}; further
 *       sets {@code TEXCOORD_1}, {@code TEXCOORD_2}, … attached with {@link #withFurtherTexcoords} (all of them are
 *       {@link #texcoordSets()}); and the {@link Material} the source assigns, or {@code null}. None takes part in
 *       posing.</li>
 *   <li>{@code colors}: {@code COLOR_0}, 4 floats per vertex (linear RGBA, 0–1; an RGB source has alpha 1), or
 *       {@code null}; attached with {@link #withColors}. It takes no part in posing either.</li>
 * </ul>
 *
 * <p>Immutable; the arrays returned are shared storage that callers must not modify.
 */
public final class Primitive {

    private final PrimitiveMode mode;
    private final List<String> attributes;
    private final int vertexCount;
    private final float[] positions;
    private final float[] normals;
    private final float[] tangents;
    private final int[] indices;
    private final int influencesPerVertex;
    private final int[] joints;
    private final float[] weights;
    private final MorphTargets morphTargets;
    private final float[] texcoords;
    private final Material material;
    private final float[] colors;
    /** {@code TEXCOORD_1}, {@code TEXCOORD_2}, …: empty when the primitive has at most one set. */
    private final List<float[]> furtherTexcoords;
    /** Per vertex, the share of dual-quaternion skinning in [0, 1] ({@link SkinningMethod#AUTHORED}), or null. */
    private final float[] dualQuaternionWeights;
    /** Whether every {@link #dualQuaternionWeights} entry is 1 (plain dual-quaternion skinning). */
    private final boolean dualQuaternionOnly;

    /**
     * @param mode topology
     * @param attributes names of the attributes the source primitive had (e.g. {@code POSITION},
     *     {@code TEXCOORD_0}), for reporting
     * @param positions 3 per vertex
     * @param normals 3 per vertex, or {@code null}
     * @param tangents 4 per vertex, or {@code null}
     * @param indices vertex indices, or {@code null}
     * @param influencesPerVertex k, a multiple of 4 (0 = no influences)
     * @param joints k per vertex (empty when k = 0)
     * @param weights k per vertex (empty when k = 0)
     * @throws IllegalArgumentException when lengths disagree or an index is out of range
     */
    public Primitive(PrimitiveMode mode, List<String> attributes, float[] positions, float[] normals,
            float[] tangents, int[] indices, int influencesPerVertex, int[] joints, float[] weights) {
        this(mode, attributes, positions, normals, tangents, indices, influencesPerVertex, joints, weights, null, null);
    }

    /**
     * A primitive with texture coordinates and a material as well.
     *
     * @param texcoords {@code TEXCOORD_0}, 2 floats per vertex in glTF's convention (u to the right, v down from
     *     the image's top-left corner), or {@code null}
     * @param material the surface, or {@code null} when the source assigns none
     * @see #Primitive(PrimitiveMode, List, float[], float[], float[], int[], int, int[], float[])
     */
    public Primitive(PrimitiveMode mode, List<String> attributes, float[] positions, float[] normals,
            float[] tangents, int[] indices, int influencesPerVertex, int[] joints, float[] weights,
            float[] texcoords, Material material) {
        if (positions.length % 3 != 0) {
            throw new IllegalArgumentException("positions length " + positions.length + " is not a multiple of 3");
        }
        int n = positions.length / 3;
        if (normals != null && normals.length != 3 * n) {
            throw new IllegalArgumentException("normals length " + normals.length + " != 3 × " + n);
        }
        if (tangents != null && tangents.length != 4 * n) {
            throw new IllegalArgumentException("tangents length " + tangents.length + " != 4 × " + n);
        }
        if (influencesPerVertex < 0 || influencesPerVertex % 4 != 0) {
            throw new IllegalArgumentException("influences per vertex " + influencesPerVertex + " is not a multiple of 4");
        }
        if (joints.length != (long) n * influencesPerVertex || weights.length != joints.length) {
            throw new IllegalArgumentException("influence arrays do not hold " + influencesPerVertex + " per vertex");
        }
        if (indices != null) {
            for (int i = 0; i < indices.length; i++) {
                if (indices[i] < 0 || indices[i] >= n) {
                    throw new IllegalArgumentException("index " + i + " = " + Integer.toUnsignedString(indices[i])
                            + " is out of range for " + n + " vertices");
                }
            }
        }
        for (int j : joints) {
            if (j < 0) {
                throw new IllegalArgumentException("negative joint index " + j);
            }
        }
        this.mode = mode;
        this.attributes = List.copyOf(attributes);
        this.vertexCount = n;
        this.positions = positions;
        this.normals = normals;
        this.tangents = tangents;
        this.indices = indices;
        this.influencesPerVertex = influencesPerVertex;
        this.joints = joints;
        this.weights = weights;
        if (texcoords != null && texcoords.length != 2 * n) {
            throw new IllegalArgumentException("texcoords length " + texcoords.length + " != 2 × " + n);
        }
        this.texcoords = texcoords;
        this.material = material;
        this.morphTargets = null;
        this.colors = null;
        this.furtherTexcoords = List.of();
        this.dualQuaternionWeights = null;
        this.dualQuaternionOnly = false;
    }

    /**
     * A copy of {@code base} with {@code morphTargets}, {@code colors} and {@code furtherTexcoords} (shares every
     * array of {@code base}).
     */
    private Primitive(Primitive base, MorphTargets morphTargets, float[] colors, List<float[]> furtherTexcoords) {
        this(base, morphTargets, colors, furtherTexcoords, base.dualQuaternionWeights);
    }

    /** As {@link #Primitive(Primitive, MorphTargets, float[], List)}, with {@code dualQuaternionWeights} (checked). */
    private Primitive(Primitive base, MorphTargets morphTargets, float[] colors, List<float[]> furtherTexcoords,
            float[] dualQuaternionWeights) {
        this.mode = base.mode;
        this.attributes = base.attributes;
        this.vertexCount = base.vertexCount;
        this.positions = base.positions;
        this.normals = base.normals;
        this.tangents = base.tangents;
        this.indices = base.indices;
        this.influencesPerVertex = base.influencesPerVertex;
        this.joints = base.joints;
        this.weights = base.weights;
        this.texcoords = base.texcoords;
        this.material = base.material;
        this.morphTargets = morphTargets;
        this.colors = colors;
        this.furtherTexcoords = furtherTexcoords;
        this.dualQuaternionWeights = dualQuaternionWeights;
        boolean only = dualQuaternionWeights != null;
        for (int v = 0; only && v < dualQuaternionWeights.length; v++) {
            only = dualQuaternionWeights[v] == 1;
        }
        this.dualQuaternionOnly = only;
    }

    /**
     * This primitive with {@code weights} as the share of dual-quaternion skinning of each vertex, as its source file
     * asks ({@code null}: none, i.e. linear blend skinning), sharing all geometry. Read by
     * {@link SkinningMethod#AUTHORED}: a vertex of weight {@code w} is skinned to {@code (1 − w)·linear + w·dq}.
     *
     * @param weights 1 float per vertex, each in [0, 1] (all 1: dual-quaternion skinning)
     * @throws IllegalArgumentException when the array does not hold 1 float per vertex, a weight is outside [0, 1] or
     *     NaN, or the primitive has no influences
     */
    public Primitive withDualQuaternionWeights(float[] weights) {
        if (weights != null) {
            if (influencesPerVertex == 0) {
                throw new IllegalArgumentException("dual-quaternion weights on a primitive without influences");
            }
            if (weights.length != vertexCount) {
                throw new IllegalArgumentException("dual-quaternion weights length " + weights.length + " != "
                        + vertexCount);
            }
            for (int v = 0; v < weights.length; v++) {
                if (!(weights[v] >= 0 && weights[v] <= 1)) {
                    throw new IllegalArgumentException("dual-quaternion weight of vertex " + v + " is " + weights[v]
                            + ", not in [0, 1]");
                }
            }
        }
        return new Primitive(this, morphTargets, colors, furtherTexcoords, weights);
    }

    /**
     * Per vertex, the share of dual-quaternion skinning its source file asks for, in [0, 1] (shared storage), or
     * {@code null} for linear blend skinning; see {@link #withDualQuaternionWeights}.
     */
    public float[] dualQuaternionWeights() {
        return dualQuaternionWeights;
    }

    /** Whether {@link #dualQuaternionWeights()} is present and every weight is 1 (plain dual-quaternion skinning). */
    public boolean dualQuaternionOnly() {
        return dualQuaternionOnly;
    }

    /**
     * This primitive with {@code colors} as its vertex colours ({@code null}: none), sharing all geometry.
     *
     * @param colors 4 floats per vertex, linear RGBA, each finite
     * @throws IllegalArgumentException when the array does not hold 4 floats per vertex or a value is not finite
     */
    public Primitive withColors(float[] colors) {
        if (colors != null) {
            if (colors.length != 4L * vertexCount) {
                throw new IllegalArgumentException("colors length " + colors.length + " != 4 × " + vertexCount);
            }
            for (int i = 0; i < colors.length; i++) {
                if (!Float.isFinite(colors[i])) {
                    throw new IllegalArgumentException("colour of vertex " + i / 4 + " is not finite");
                }
            }
        }
        return new Primitive(this, morphTargets, colors, furtherTexcoords);
    }

    /**
     * This primitive with {@code sets} as {@code TEXCOORD_1}, {@code TEXCOORD_2}, … ({@code TEXCOORD_0} stays
     * {@link #texcoords()}; an empty list: no further sets), sharing all geometry.
     *
     * @param sets each 2 floats per vertex in glTF's convention (u right, v down from the image's top-left corner)
     * @throws IllegalArgumentException when a set does not hold 2 floats per vertex, or there is no
     *     {@code TEXCOORD_0} for them to follow (sets are numbered densely)
     */
    public Primitive withFurtherTexcoords(List<float[]> sets) {
        if (!sets.isEmpty() && texcoords == null) {
            throw new IllegalArgumentException("TEXCOORD_1 without TEXCOORD_0");
        }
        for (int i = 0; i < sets.size(); i++) {
            if (sets.get(i).length != 2L * vertexCount) {
                throw new IllegalArgumentException("TEXCOORD_" + (i + 1) + " length " + sets.get(i).length + " != 2 × "
                        + vertexCount);
            }
        }
        return new Primitive(this, morphTargets, colors, List.copyOf(sets));
    }

    /**
     * Every texture coordinate set, {@code TEXCOORD_0} first, 2 floats per vertex each (shared storage); empty when
     * the primitive has none.
     */
    public List<float[]> texcoordSets() {
        if (texcoords == null) {
            return List.of();
        }
        List<float[]> all = new java.util.ArrayList<>(1 + furtherTexcoords.size());
        all.add(texcoords);
        all.addAll(furtherTexcoords);
        return java.util.Collections.unmodifiableList(all);
    }

    /** {@code COLOR_0}: 4 floats per vertex (linear RGBA), or {@code null} (shared storage). */
    public float[] colors() {
        return colors;
    }

    /**
     * This primitive with {@code targets} as its morph targets ({@code null}: none), sharing all geometry.
     *
     * @throws IllegalArgumentException when the targets are for another vertex count
     */
    public Primitive withMorphTargets(MorphTargets targets) {
        if (targets != null && targets.vertexCount() != vertexCount) {
            throw new IllegalArgumentException("morph targets for " + targets.vertexCount() + " vertices, but the "
                    + "primitive has " + vertexCount);
        }
        return new Primitive(this, targets, colors, furtherTexcoords);
    }

    public PrimitiveMode mode() {
        return mode;
    }

    /** Source attribute names, e.g. {@code [POSITION, NORMAL, JOINTS_0, WEIGHTS_0]}. */
    public List<String> attributes() {
        return attributes;
    }

    public int vertexCount() {
        return vertexCount;
    }

    /** Number of indices, 0 when non-indexed. */
    public int indexCount() {
        return indices == null ? 0 : indices.length;
    }

    /** Mesh-space positions, 3 per vertex (shared storage). */
    public float[] positions() {
        return positions;
    }

    /** Mesh-space normals, 3 per vertex, or {@code null} (shared storage). */
    public float[] normals() {
        return normals;
    }

    /** Mesh-space tangents, 4 per vertex, or {@code null} (shared storage). */
    public float[] tangents() {
        return tangents;
    }

    /** Vertex indices or {@code null} (shared storage). */
    public int[] indices() {
        return indices;
    }

    /** Influence slots per vertex (a multiple of 4; 0 = none). */
    public int influencesPerVertex() {
        return influencesPerVertex;
    }

    /** Number of 4-wide influence sets ({@code influencesPerVertex / 4}). */
    public int influenceSets() {
        return influencesPerVertex / 4;
    }

    /** Skin joint index per influence slot (shared storage). */
    public int[] joints() {
        return joints;
    }

    /** Weight per influence slot as stored (shared storage). */
    public float[] weights() {
        return weights;
    }

    /** The morph targets, or {@code null} when the primitive has none. */
    public MorphTargets morphTargets() {
        return morphTargets;
    }

    /** Number of morph targets (0 = none). */
    public int morphTargetCount() {
        return morphTargets == null ? 0 : morphTargets.targetCount();
    }

    /**
     * The largest joint index skinning reads, or -1: joints of slots with non-zero weight, and the slot-0
     * joint of a vertex whose weights sum to 0 (or are not finite), which skinning binds to that joint alone.
     */
    public int maxUsedJoint() {
        int max = -1;
        int k = influencesPerVertex;
        for (int v = 0; v < vertexCount && k > 0; v++) {
            double sum = 0;
            for (int i = v * k; i < v * k + k; i++) {
                if (weights[i] != 0) {
                    sum += weights[i];
                    max = Math.max(max, joints[i]);
                }
            }
            if (sum == 0 || !Double.isFinite(sum)) {
                max = Math.max(max, joints[v * k]);
            }
        }
        return max;
    }

    /**
     * {@code TEXCOORD_0}: 2 floats per vertex in glTF's convention (origin at the image's top-left corner, v
     * down), or {@code null} (shared storage).
     */
    public float[] texcoords() {
        return texcoords;
    }

    /** The surface the source assigns, or {@code null} for none (a viewer's default). */
    public Material material() {
        return material;
    }

    /** Approximate heap footprint in bytes, for cache weighing (without the {@link #material()}, often shared). */
    public long footprintBytes() {
        return 96 + 4L * (positions.length + (normals == null ? 0 : normals.length)
                + (tangents == null ? 0 : tangents.length) + (indices == null ? 0 : indices.length)
                + joints.length + weights.length) + 48L * attributes.size()
                + (morphTargets == null ? 0 : morphTargets.footprintBytes())
                + (texcoords == null ? 0 : 4L * texcoords.length) + (colors == null ? 0 : 4L * colors.length)
                + furtherTexcoords.stream().mapToLong(set -> 16 + 4L * set.length).sum()
                + (dualQuaternionWeights == null ? 0 : 4L * dualQuaternionWeights.length);
    }
}
