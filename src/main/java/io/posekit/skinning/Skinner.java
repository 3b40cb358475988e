package io.posekit.skinning;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Skins primitives by either {@link SkinningMethod}, reusing its jobs and scratch buffers: for dual quaternions it
 * converts the skinning matrices first ({@link SkinningDualQuaternionsJob}), checking only the joints the primitive
 * actually uses (so an unused helper bone with non-uniform scale does not fail the mesh). The used joints of each
 * primitive are found once and remembered. Not thread-safe: one per request or bake.
 */
public final class Skinner {

    private final SkinningJob linear = new SkinningJob();
    private final SkinningDualQuaternionsJob toDualQuaternions = new SkinningDualQuaternionsJob();
    private final DualQuaternionSkinningJob dualQuaternion = new DualQuaternionSkinningJob();
    private final Map<Primitive, boolean[]> usedJoints = new IdentityHashMap<>();
    private float[] dualQuaternions = new float[0];
    private float[] scales = new float[0];

    /**
     * Skins {@code primitive} with {@code skinningMatrices} (16 floats per joint) into the wanted outputs (see
     * {@link SkinningJob} for the outputs' contracts).
     *
     * @throws NonRigidJointException (dual quaternions) when a joint the primitive uses is not rigid × uniform scale
     * @throws IllegalStateException when the inputs are inconsistent (see the jobs)
     */
    public void skin(Primitive primitive, float[] skinningMatrices, SkinningMethod method, float[] outPositions,
            float[] outNormals, float[] outTangents) {
        skin(primitive, null, null, skinningMatrices, method, outPositions, outNormals, outTangents);
    }

    /**
     * Skins {@code primitive} as {@link #skin(Primitive, float[], SkinningMethod, float[], float[], float[])} does, from
     * the given mesh-space positions and normals (e.g. morphed; {@code null} = the primitive's own).
     */
    public void skin(Primitive primitive, float[] inPositions, float[] inNormals, float[] skinningMatrices,
            SkinningMethod method, float[] outPositions, float[] outNormals, float[] outTangents) {
        if (method == SkinningMethod.LINEAR) {
            linear.primitive = primitive;
            linear.inPositions = inPositions;
            linear.inNormals = inNormals;
            linear.skinningMatrices = skinningMatrices;
            linear.outPositions = outPositions;
            linear.outNormals = outNormals;
            linear.outTangents = outTangents;
            linear.run();
            return;
        }
        int joints = skinningMatrices.length / 16;
        if (dualQuaternions.length < 8 * joints) {
            dualQuaternions = new float[8 * joints];
            scales = new float[joints];
        }
        boolean[] used = usedJoints.get(primitive);
        if (used == null || used.length != joints) {
            used = new boolean[joints];
            SkinningDualQuaternionsJob.markUsedJoints(primitive, used);
            usedJoints.put(primitive, used);
        }
        toDualQuaternions.skinningMatrices = skinningMatrices;
        toDualQuaternions.usedJoints = used;
        toDualQuaternions.outDualQuaternions = dualQuaternions;
        toDualQuaternions.outScales = scales;
        toDualQuaternions.run();
        dualQuaternion.primitive = primitive;
        dualQuaternion.inPositions = inPositions;
        dualQuaternion.inNormals = inNormals;
        dualQuaternion.dualQuaternions = dualQuaternions;
        dualQuaternion.scales = scales;
        dualQuaternion.outPositions = outPositions;
        dualQuaternion.outNormals = outNormals;
        dualQuaternion.outTangents = outTangents;
        dualQuaternion.run();
    }
}
