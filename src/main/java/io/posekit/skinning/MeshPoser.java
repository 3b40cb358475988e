package io.posekit.skinning;

import io.posekit.rig.Skin;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Poses mesh instances into model space: a skinned instance by the skinning its file asks for
 * ({@link SkinningMethod#AUTHORED}: linear blend skinning, but dual-quaternion or blended where an FBX skin says so)
 * with its skin's skinning matrices ({@code model(joint) · inverseBind}; the carrying node's own transform is ignored, as
 * glTF specifies), a rigid instance — or a primitive without joint weights — by its node's model matrix.
 * Primitives with morph targets are morphed first, in mesh space ({@link MorphJob}), when some weight is not 0.
 * Outputs are newly allocated per call and owned by the caller.
 */
public final class MeshPoser {

    private MeshPoser() {
    }

    /** Skinning matrices of {@code skin} (16 floats per joint, column-major) for the given model matrices. */
    public static float[] skinningMatrices(Skin skin, float[] modelMatrices) {
        float[] out = new float[16 * skin.jointCount()];
        SkinningMatricesJob job = new SkinningMatricesJob();
        job.skin = skin;
        job.modelMatrices = modelMatrices;
        job.output = out;
        job.run();
        return out;
    }

    /**
     * Poses every primitive of {@code instance} with its default morph weights
     * ({@link MeshInstance#morphWeights()}), i.e. as if no clip animated them.
     *
     * @see #pose(MeshInstance, float[], float[], float[], Set)
     */
    public static List<PosedPrimitive> pose(MeshInstance instance, float[] skinningMatrices, float[] modelMatrices,
            Set<VertexAttribute> wanted) {
        return pose(instance, instance.morphWeights(), skinningMatrices, modelMatrices, wanted);
    }

    /**
     * Poses every primitive of {@code instance}, skinned as its file asks ({@link SkinningMethod#AUTHORED}).
     *
     * @param instance the mesh instance
     * @param morphWeights its morph weights at the instant (one per target, e.g. from
     *     {@code MorphWeightsJob}), or {@code null} for none; ignored for primitives without morph targets
     * @param skinningMatrices its skin's skinning matrices, or {@code null} for a rigid instance
     * @param modelMatrices model matrices of all rig nodes (16 per node)
     * @param wanted which attributes to produce (normals/tangents only where the primitive has them)
     */
    public static List<PosedPrimitive> pose(MeshInstance instance, float[] morphWeights, float[] skinningMatrices,
            float[] modelMatrices, Set<VertexAttribute> wanted) {
        return pose(instance, morphWeights, skinningMatrices, modelMatrices, wanted, SkinningMethod.AUTHORED);
    }

    /**
     * Poses every primitive of {@code instance}, morphing it by {@code morphWeights} and skinning by {@code method}.
     *
     * @throws NonRigidJointException (dual quaternions) when a used joint is not rigid × uniform scale
     * @see #pose(MeshInstance, float[], float[], float[], Set)
     */
    public static List<PosedPrimitive> pose(MeshInstance instance, float[] morphWeights, float[] skinningMatrices,
            float[] modelMatrices, Set<VertexAttribute> wanted, SkinningMethod method) {
        List<PosedPrimitive> out = new ArrayList<>(instance.primitives().size());
        Skinner skinner = new Skinner();
        RigidTransformJob rigid = new RigidTransformJob();
        MorphJob morph = new MorphJob();
        for (Primitive p : instance.primitives()) {
            int n = p.vertexCount();
            float[] positions = wanted.contains(VertexAttribute.POSITION) ? new float[3 * n] : null;
            float[] normals = wanted.contains(VertexAttribute.NORMAL) && p.normals() != null ? new float[3 * n] : null;
            float[] tangents = wanted.contains(VertexAttribute.TANGENT) && p.tangents() != null ? new float[4 * n] : null;
            float[] morphedPositions = null;
            float[] morphedNormals = null;
            if (p.morphTargets() != null && MorphTargets.anyNonZero(morphWeights)
                    && (positions != null || normals != null)) {
                morphedPositions = positions == null ? null : new float[3 * n];
                morphedNormals = normals == null ? null : new float[3 * n];
                morph.primitive = p;
                morph.weights = morphWeights;
                morph.outPositions = morphedPositions;
                morph.outNormals = morphedNormals;
                morph.run();
            }
            if (skinningMatrices != null && p.influencesPerVertex() > 0) {
                skinner.skin(p, morphedPositions, morphedNormals, skinningMatrices, method, positions, normals, tangents);
            } else {
                rigid.primitive = p;
                rigid.inPositions = morphedPositions;
                rigid.inNormals = morphedNormals;
                rigid.matrix = modelMatrices;
                rigid.matrixOffset = 16 * instance.node();
                rigid.outPositions = positions;
                rigid.outNormals = normals;
                rigid.outTangents = tangents;
                rigid.run();
            }
            out.add(new PosedPrimitive(n, positions, normals, tangents));
        }
        return out;
    }
}
