package io.posekit.sampling;

import io.posekit.rig.Rig;

/**
 * Caller-owned working storage for one pose of a rig: the local (parent-relative) transform of every node
 * as flat arrays, in rig node order.
 *
 * <ul>
 *   <li>{@link #translations()}: 3 floats per node, scene units.</li>
 *   <li>{@link #rotations()}: 4 floats per node, unit quaternions {@code [x, y, z, w]}.</li>
 *   <li>{@link #scales()}: 3 floats per node.</li>
 * </ul>
 *
 * <p>The accessors return the live arrays (not copies) so jobs can read and write them without copying.
 * Mutable and not thread-safe: give each thread its own instance and reuse it across requests.
 */
public final class LocalPose {

    private final int nodeCount;
    private final float[] translations;
    private final float[] rotations;
    private final float[] scales;

    /**
     * A pose for {@code nodeCount} nodes, initialised to the identity transform (zero translation, identity
     * rotation, unit scale).
     *
     * @throws IllegalArgumentException if {@code nodeCount < 0}
     */
    public LocalPose(int nodeCount) {
        if (nodeCount < 0) {
            throw new IllegalArgumentException("negative node count " + nodeCount);
        }
        this.nodeCount = nodeCount;
        this.translations = new float[3 * nodeCount];
        this.rotations = new float[4 * nodeCount];
        this.scales = new float[3 * nodeCount];
        for (int i = 0; i < nodeCount; i++) {
            rotations[4 * i + 3] = 1f;
            scales[3 * i] = 1f;
            scales[3 * i + 1] = 1f;
            scales[3 * i + 2] = 1f;
        }
    }

    /** Number of nodes. */
    public int nodeCount() {
        return nodeCount;
    }

    /** Local translations, 3 per node (the live array). */
    public float[] translations() {
        return translations;
    }

    /** Local rotations, quaternions {@code [x, y, z, w]}, 4 per node (the live array). */
    public float[] rotations() {
        return rotations;
    }

    /** Local scales, 3 per node (the live array). */
    public float[] scales() {
        return scales;
    }

    /**
     * Copies the rig's rest pose (its local TRS) into this pose. Allocation-free.
     *
     * @throws IllegalArgumentException if the rig's node count differs from {@link #nodeCount()}
     */
    public void setToRest(Rig rig) {
        if (rig.nodeCount() != nodeCount) {
            throw new IllegalArgumentException(
                    "rig has " + rig.nodeCount() + " nodes but the pose holds " + nodeCount);
        }
        System.arraycopy(rig.restTranslations(), 0, translations, 0, translations.length);
        System.arraycopy(rig.restRotations(), 0, rotations, 0, rotations.length);
        System.arraycopy(rig.restScales(), 0, scales, 0, scales.length);
    }
}
