package io.posekit.skinning;

/**
 * The morph targets (blend shapes) of one primitive, as displacements of its bind shape in mesh space: glTF's
 * {@code targets} (which are relative already, like three.js {@code morphTargetsRelative}), or a COLLADA
 * {@code <morph>} converted to displacements at import.
 *
 * <p>Morphed geometry for weights {@code w}: position {@code p = p0 + Σ w_i · Δp_i}; normal
 * {@code n = n0 + Σ w_i · Δn_i} (not renormalised here: posing normalises after skinning or the rigid transform,
 * as three.js does in its shader). Tangents are not morphed (three.js does not either).
 *
 * <p>Each target's deltas are one flat array, 3 floats per vertex, or {@code null} when the target does not
 * displace that attribute (all zeros). Arrays may be shared with other primitives (an accessor used twice);
 * immutable: callers must not modify them.
 */
public final class MorphTargets {

    private final int vertexCount;
    private final float[][] positionDeltas;
    private final float[][] normalDeltas;

    /**
     * @param vertexCount the primitive's vertex count
     * @param positionDeltas per target, 3 floats per vertex or {@code null}; its length is the target count (≥ 1)
     * @param normalDeltas per target, 3 floats per vertex or {@code null}; {@code null} altogether when no target
     *     displaces normals, else as long as {@code positionDeltas}
     * @throws IllegalArgumentException when there is no target, the arrays disagree in length or a delta array
     *     does not hold 3 floats per vertex
     */
    public MorphTargets(int vertexCount, float[][] positionDeltas, float[][] normalDeltas) {
        if (vertexCount < 0) {
            throw new IllegalArgumentException("negative vertex count " + vertexCount);
        }
        if (positionDeltas.length == 0) {
            throw new IllegalArgumentException("a primitive's morph targets need at least one target");
        }
        if (normalDeltas != null && normalDeltas.length != positionDeltas.length) {
            throw new IllegalArgumentException(positionDeltas.length + " position targets but " + normalDeltas.length
                    + " normal targets");
        }
        for (int t = 0; t < positionDeltas.length; t++) {
            check(positionDeltas[t], vertexCount, "position", t);
            if (normalDeltas != null) {
                check(normalDeltas[t], vertexCount, "normal", t);
            }
        }
        this.vertexCount = vertexCount;
        this.positionDeltas = positionDeltas.clone();
        this.normalDeltas = normalDeltas == null ? null : normalDeltas.clone();
    }

    private static void check(float[] deltas, int vertexCount, String what, int target) {
        if (deltas != null && deltas.length != 3L * vertexCount) {
            throw new IllegalArgumentException("morph target " + target + " " + what + " deltas hold "
                    + deltas.length + " floats, not 3 × " + vertexCount);
        }
    }

    /** Number of targets (≥ 1). */
    public int targetCount() {
        return positionDeltas.length;
    }

    /** Vertex count of the primitive the targets displace. */
    public int vertexCount() {
        return vertexCount;
    }

    /** Position deltas of {@code target}, 3 per vertex, or {@code null} for none (shared storage). */
    public float[] positionDeltas(int target) {
        return positionDeltas[target];
    }

    /** Normal deltas of {@code target}, 3 per vertex, or {@code null} for none (shared storage). */
    public float[] normalDeltas(int target) {
        return normalDeltas == null ? null : normalDeltas[target];
    }

    /** Whether some target displaces normals. */
    public boolean hasNormalDeltas() {
        if (normalDeltas != null) {
            for (float[] d : normalDeltas) {
                if (d != null) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether morphing with {@code weights} changes anything: some of the first {@link #targetCount()} weights is
     * not 0 (a NaN counts as not 0). Posing skips morphing otherwise.
     */
    public static boolean anyNonZero(float[] weights) {
        if (weights == null) {
            return false;
        }
        for (float w : weights) {
            if (w != 0) {
                return true;
            }
        }
        return false;
    }

    /** Approximate heap footprint in bytes (delta arrays counted fully, even when shared), for cache weighing. */
    public long footprintBytes() {
        long bytes = 48 + 16L * positionDeltas.length;
        for (int t = 0; t < positionDeltas.length; t++) {
            bytes += positionDeltas[t] == null ? 0 : 16 + 4L * positionDeltas[t].length;
            float[] n = normalDeltas(t);
            bytes += n == null ? 0 : 16 + 4L * n.length;
        }
        return bytes;
    }
}
