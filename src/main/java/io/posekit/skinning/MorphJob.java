package io.posekit.skinning;

/**
 * Applies a primitive's morph targets in mesh space (ozz-animation style job: set the public fields, then
 * {@link #run()}), before skinning or the rigid transform: feed the outputs to {@link SkinningJob#inPositions} /
 * {@link SkinningJob#inNormals} (or the same fields of {@link RigidTransformJob}).
 *
 * <p>Per vertex {@code v}, over the targets {@code i} whose weight is not 0:
 * <ul>
 *   <li>Position: {@code p = p0 + Σ w_i · Δp_i}.</li>
 *   <li>Normal (when the primitive has normals): {@code n = n0 + Σ w_i · Δn_i}, not renormalised (skinning and
 *       the rigid transform normalise their result, so the length does not matter; three.js does the same).</li>
 * </ul>
 * Targets without deltas for an attribute contribute nothing to it. Sums are done in double and stored as float.
 * Weights are used as given (not clamped, not normalised).
 *
 * <p>Not thread-safe (a scratch list of the active targets); reuse one instance per thread. Allocation-free
 * except when a primitive with more targets than any before is seen.
 */
public final class MorphJob {

    /** The primitive; it must have morph targets. Required. */
    public Primitive primitive;
    /** One weight per morph target (at least {@code targetCount} floats; extra ones are ignored). Required. */
    public float[] weights;
    /** Destination positions, 3 per vertex (mesh space), or {@code null} when not wanted. */
    public float[] outPositions;
    /** Destination normals, 3 per vertex (mesh space), or {@code null}; ignored when the primitive has no normals. */
    public float[] outNormals;

    private int[] active = new int[0];

    /**
     * Whether the inputs are present and consistent: primitive with morph targets, enough weights, every wanted
     * output large enough, no output one of the primitive's or the targets' arrays, the weights or the other output.
     */
    public boolean validate() {
        Primitive p = primitive;
        if (p == null || p.morphTargets() == null || weights == null || weights.length < p.morphTargetCount()) {
            return false;
        }
        float[] outN = p.normals() == null ? null : outNormals;
        if (outPositions == weights || outN == weights) {
            return false;
        }
        if (!SkinningOutputs.valid(p, outPositions, outN, null)) {
            return false;
        }
        MorphTargets m = p.morphTargets();
        for (int t = 0; t < m.targetCount(); t++) {
            float[] dp = m.positionDeltas(t);
            float[] dn = m.normalDeltas(t);
            if ((outPositions != null && (outPositions == dp || outPositions == dn))
                    || (outN != null && (outN == dp || outN == dn))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes the morphed geometry into the wanted outputs.
     *
     * @throws IllegalStateException if {@link #validate()} is false
     */
    public void run() {
        if (!validate()) {
            throw new IllegalStateException("MorphJob inputs are missing or inconsistent");
        }
        final Primitive prim = primitive;
        final MorphTargets targets = prim.morphTargets();
        final int targetCount = targets.targetCount();
        if (active.length < targetCount) {
            active = new int[targetCount];
        }
        final int[] act = active;
        final float[] w = weights;
        int count = 0;
        for (int t = 0; t < targetCount; t++) {
            if (w[t] != 0) {
                act[count++] = t;
            }
        }
        final int n = prim.vertexCount();
        if (outPositions != null) {
            blend(prim.positions(), targets, true, act, count, w, outPositions, n);
        }
        if (outNormals != null && prim.normals() != null) {
            blend(prim.normals(), targets, false, act, count, w, outNormals, n);
        }
    }

    private static void blend(float[] base, MorphTargets targets, boolean positions, int[] act, int count, float[] w,
            float[] out, int n) {
        for (int v = 0; v < n; v++) {
            final int o = 3 * v;
            double x = base[o];
            double y = base[o + 1];
            double z = base[o + 2];
            for (int k = 0; k < count; k++) {
                final int t = act[k];
                final float[] d = positions ? targets.positionDeltas(t) : targets.normalDeltas(t);
                if (d != null) {
                    final double wt = w[t];
                    x += wt * d[o];
                    y += wt * d[o + 1];
                    z += wt * d[o + 2];
                }
            }
            out[o] = (float) x;
            out[o + 1] = (float) y;
            out[o + 2] = (float) z;
        }
    }
}
