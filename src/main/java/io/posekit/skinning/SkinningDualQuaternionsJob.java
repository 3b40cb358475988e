package io.posekit.skinning;

import io.posekit.math.DualQuaternions;

/**
 * Converts skinning matrices into the inputs of {@link DualQuaternionSkinningJob} — one unit dual quaternion
 * and one uniform scale per joint — and checks that dual-quaternion skinning can represent each of them
 * (ozz-animation style job: set the public fields, then {@link #run()}).
 *
 * <p><b>Decomposition.</b> Skinning matrix {@code M} ({@link SkinningMatricesJob}: {@code model(joint) ·
 * inverseBind}, mesh space → model space) is written {@code M = T · R · S}: {@code S = s·I}, a uniform scale
 * about the mesh-space origin, applied first; then the rotation {@code R}; then the translation {@code T} (the
 * matrix's last column, not scaled). This is the split of Kavan et al. 2008 ("Geometric Skinning with
 * Approximate Dual Quaternion Blending", §4; the rigid part {@code T·R} of a polar decomposition
 * {@code M = (T·R)·S}), restricted to the uniform scales it can blend exactly: {@code M p = R (s p) + t}. The
 * rigid part becomes dual quaternion {@code j} ({@link DualQuaternions} layout: 8 floats, real
 * {@code x, y, z, w} then dual {@code x, y, z, w}), the scale {@code outScales[j] = s}, the mean of the lengths
 * of {@code M}'s first three columns. The bottom row of {@code M} is ignored, as {@link SkinningJob} ignores it.
 *
 * <p><b>Representability</b> (with {@code l0, l1, l2} the column lengths and {@link #TOLERANCE} = 1e-3), in
 * this order:
 * <ol>
 *   <li>every element of the upper 3×4 is finite, else {@link NonRigidJointException.Reason#NOT_FINITE};</li>
 *   <li>all three columns zero (a joint scaled to nothing, a common way of hiding geometry): representable, as
 *       scale 0 with the identity rotation and the matrix's translation;</li>
 *   <li>{@code max(l) − min(l) ≤ TOLERANCE · max(l)} (uniform scale, relative), else
 *       {@link NonRigidJointException.Reason#NON_UNIFORM_SCALE};</li>
 *   <li>{@code |ci · cj| ≤ TOLERANCE · li · lj} for every pair of columns (perpendicular axes, ≈ 0.057°), else
 *       {@link NonRigidJointException.Reason#SHEAR};</li>
 *   <li>{@code det > 0} (no mirroring), else {@link NonRigidJointException.Reason#MIRROR}.</li>
 * </ol>
 * Within the tolerances the rotation is the one of the normalised columns ({@link
 * DualQuaternions#fromRigidMatrix}), so skinning with a single influence matches {@link SkinningJob} up to the
 * tolerated deviation (exactly, up to rounding, for an exact rotation × uniform scale).
 *
 * <p><b>Used joints.</b> A skin often lists joints that no vertex of the mesh at hand is bound to (helper or
 * control bones), and such a joint's scale is irrelevant. When {@link #usedJoints} is set, only the joints it
 * marks are required to be representable; an unmarked joint that is not gets the identity dual quaternion and
 * scale {@code NaN}, which {@link DualQuaternionSkinningJob} refuses to skin with. {@link #markUsedJoints} fills
 * the mask from the primitives to skin.
 *
 * <p>Allocation-free (except for the exception); not thread-safe (it owns a small scratch).
 */
public final class SkinningDualQuaternionsJob {

    /**
     * Relative tolerance of the representability checks: on the spread of the axis scales (relative to the
     * largest) and on the cosine of the angle between two axes.
     */
    public static final double TOLERANCE = 1e-3;

    /**
     * Skinning matrices, 16 floats per joint, column-major ({@link SkinningMatricesJob} output); joints
     * {@code 0 .. skinningMatrices.length / 16 − 1} are converted. Required.
     */
    public float[] skinningMatrices;
    /**
     * Which joints must be representable ({@code usedJoints[j]}), or {@code null} for all of them. When set,
     * at least one entry per joint.
     */
    public boolean[] usedJoints;
    /** Destination: 8 floats per joint, a unit dual quaternion (real xyzw, dual xyzw). Required. */
    public float[] outDualQuaternions;
    /**
     * Destination: 1 float per joint, the uniform scale {@code s ≥ 0} (unitless) applied in mesh space before
     * the rigid part; {@code NaN} for an unused, unrepresentable joint. Required.
     */
    public float[] outScales;

    /** Scratch for one rotation quaternion, so {@link #run()} allocates nothing. */
    private final double[] rotation = new double[4];

    /**
     * Whether the matrices and both outputs are set, the outputs hold one entry per joint, the mask (when set)
     * covers every joint, and no output is the input or the other output.
     */
    public boolean validate() {
        float[] m = skinningMatrices;
        if (m == null || outDualQuaternions == null || outScales == null) {
            return false;
        }
        long n = m.length / 16;
        return outDualQuaternions.length >= DualQuaternions.STRIDE * n && outScales.length >= n
                && (usedJoints == null || usedJoints.length >= n)
                && outDualQuaternions != m && outScales != m && outScales != outDualQuaternions;
    }

    /**
     * Writes every joint's dual quaternion and scale.
     *
     * @throws NonRigidJointException for the first joint (lowest index) that must be representable and is not;
     *     the outputs of the joints before it are written
     * @throws IllegalStateException if {@link #validate()} is false
     */
    public void run() {
        if (!validate()) {
            throw new IllegalStateException("SkinningDualQuaternionsJob inputs are missing or inconsistent");
        }
        final float[] m = skinningMatrices;
        final float[] dq = outDualQuaternions;
        final float[] scales = outScales;
        final boolean[] used = usedJoints;
        for (int j = 0, n = m.length / 16; j < n; j++) {
            final int o = 16 * j;
            final double c0x = m[o], c0y = m[o + 1], c0z = m[o + 2];
            final double c1x = m[o + 4], c1y = m[o + 5], c1z = m[o + 6];
            final double c2x = m[o + 8], c2y = m[o + 9], c2z = m[o + 10];
            final double l0 = Math.sqrt(c0x * c0x + c0y * c0y + c0z * c0z);
            final double l1 = Math.sqrt(c1x * c1x + c1y * c1y + c1z * c1z);
            final double l2 = Math.sqrt(c2x * c2x + c2y * c2y + c2z * c2z);
            final double det = c0x * (c1y * c2z - c1z * c2y) + c0y * (c1z * c2x - c1x * c2z)
                    + c0z * (c1x * c2y - c1y * c2x);
            final double lMax = Math.max(l0, Math.max(l1, l2));
            final double lMin = Math.min(l0, Math.min(l1, l2));
            NonRigidJointException.Reason reason = null;
            double shear = 0;
            if (!Double.isFinite(det + l0 + l1 + l2 + m[o + 12] + m[o + 13] + m[o + 14])) {
                reason = NonRigidJointException.Reason.NOT_FINITE;
            } else if (lMax > 0) {
                if (lMax - lMin > TOLERANCE * lMax) {
                    reason = NonRigidJointException.Reason.NON_UNIFORM_SCALE;
                } else {
                    // |cos| of each pair of axes; the lengths are all non-zero here (uniform and lMax > 0)
                    shear = Math.max(Math.abs(c0x * c1x + c0y * c1y + c0z * c1z) / (l0 * l1),
                            Math.max(Math.abs(c0x * c2x + c0y * c2y + c0z * c2z) / (l0 * l2),
                                    Math.abs(c1x * c2x + c1y * c2y + c1z * c2z) / (l1 * l2)));
                    if (shear > TOLERANCE) {
                        reason = NonRigidJointException.Reason.SHEAR;
                    } else if (det < 0) {
                        reason = NonRigidJointException.Reason.MIRROR;
                    }
                }
            }
            if (reason == null) {
                // a zero matrix (lMax == 0) also lands here: fromRigidMatrix keeps its translation with no rotation
                DualQuaternions.fromRigidMatrix(m, o, dq, DualQuaternions.STRIDE * j, rotation);
                scales[j] = (float) ((l0 + l1 + l2) / 3);
            } else if (used == null || used[j]) {
                throw new NonRigidJointException(j, reason, det < 0 ? -l0 : l0, l1, l2, shear);
            } else {
                // never skinned with (DualQuaternionSkinningJob refuses a NaN scale), but keep the buffer finite
                DualQuaternions.identity(dq, DualQuaternions.STRIDE * j);
                scales[j] = Float.NaN;
            }
        }
    }

    /**
     * Sets {@code used[j] = true} for every joint {@code j} that skinning {@code primitive} reads, by the rules
     * of {@link SkinningJob} and {@link DualQuaternionSkinningJob}: the joints of slots with non-zero weight,
     * and the slot-0 joint of a vertex whose weights sum to 0 or to a non-finite value. Entries are only ever
     * set, so one mask can collect the joints of several primitives of a skin. Joints {@code ≥ used.length}
     * are ignored (skinning reports them). A primitive without influences marks nothing.
     */
    public static void markUsedJoints(Primitive primitive, boolean[] used) {
        final int k = primitive.influencesPerVertex();
        final int[] joints = primitive.joints();
        final float[] weights = primitive.weights();
        for (int v = 0, n = primitive.vertexCount(); v < n && k > 0; v++) {
            final int base = v * k;
            double sum = 0;
            for (int i = base; i < base + k; i++) {
                if (weights[i] != 0) {
                    sum += weights[i];
                    mark(used, joints[i]);
                }
            }
            if (sum == 0 || !Double.isFinite(sum)) {
                mark(used, joints[base]);
            }
        }
    }

    private static void mark(boolean[] used, int joint) {
        if (joint < used.length) {
            used[joint] = true;
        }
    }
}
