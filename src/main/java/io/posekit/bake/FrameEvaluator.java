package io.posekit.bake;

import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.rig.Rig;
import io.posekit.sampling.BlendEvaluator;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.LocalToModelJob;
import io.posekit.sampling.MorphWeights;
import io.posekit.sampling.MorphWeightsJob;
import io.posekit.sampling.SamplingJob;
import io.posekit.skinning.Bounds;
import io.posekit.skinning.BoundsAccumulator;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.MorphJob;
import io.posekit.skinning.MorphTargets;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.RigidTransformJob;
import io.posekit.skinning.Skinner;
import io.posekit.skinning.SkinningMatricesJob;
import io.posekit.skinning.SkinningMethod;

/**
 * Poses one model frame after frame into buffers it owns and reuses, for baking many frames with flat memory: after
 * construction, {@link #evaluate} allocates nothing (the jobs keep their key caches, so playing forwards finds keys
 * in O(1)). Buffers hold the last evaluated frame and are overwritten by the next; read them in between.
 *
 * <p>What is computed is chosen up front: the local pose and model matrices always; skinning matrices of the skins
 * in {@code skins}; posed positions (and normals where present) of the mesh instances in {@code meshes}; and the
 * bounds of all selected meshes' positions. Spaces and layouts as everywhere: local TRS, model-space matrices
 * 16 floats column-major, skinning matrices {@code model(joint) · inverseBind}, posed vertices in model space.
 * Primitives with morph targets are morphed in mesh space first (weights sampled from the clip's weights tracks,
 * else the instance's defaults), when some weight is not 0.
 *
 * <p>Not thread-safe: one instance per bake.
 */
public final class FrameEvaluator {

    private final Model model;
    private final Clip clip;
    private final int[] skins;
    private final int[] meshes;
    private final boolean normals;

    private final LocalPose local;
    private final float[] modelMatrices;
    private final float[][] skinningMatrices;
    private final float[][][] positions;
    private final float[][][] normalBuffers;
    private final SamplingJob sampling = new SamplingJob();
    private final LocalToModelJob toModel = new LocalToModelJob();
    private final SkinningMatricesJob skinningJob = new SkinningMatricesJob();
    private final Skinner skinner = new Skinner();
    private final SkinningMethod method;
    private final BlendEvaluator blend;
    private final RigidTransformJob rigid = new RigidTransformJob();
    private final MorphWeightsJob weightsJob = new MorphWeightsJob();
    private final MorphJob morph = new MorphJob();
    private final MorphWeights morphWeights;
    /** Morphed mesh-space positions/normals per selected mesh and primitive, {@code null} without targets. */
    private final float[][][] morphedPositions;
    private final float[][][] morphedNormals;
    private final BoundsAccumulator bounds = new BoundsAccumulator();
    private final boolean wantBounds;
    /** Skinning matrices of every skin a selected mesh needs (posing needs them even when not output). */
    private final float[][] skinScratch;
    private PoseEdit edit;

    /**
     * A change made to every frame's pose after sampling and before skinning (IK, root-motion extraction): it rewrites
     * the local pose and keeps the model matrices (16 per node) in step.
     */
    @FunctionalInterface
    public interface PoseEdit {
        /** Edits {@code local} and its model matrices {@code modelMatrices} in place. */
        void apply(LocalPose local, float[] modelMatrices);
    }

    /** The edit applied to every frame after sampling, or {@code null}. */
    public PoseEdit edit() {
        return edit;
    }

    /** Sets the edit applied to every frame after sampling, or {@code null} for none. */
    public void setEdit(PoseEdit edit) {
        this.edit = edit;
    }

    /**
     * @param model the model
     * @param clip the clip to sample, or {@code null} for the rest pose
     * @param skins indices of the skins whose skinning matrices are wanted
     * @param meshes indices of the mesh instances to pose ({@code positions} wanted)
     * @param normals whether to pose normals of those meshes too
     * @param wantBounds whether to compute the bounds of the posed meshes
     * @throws IndexOutOfBoundsException for a skin or mesh index the model does not have
     */
    public FrameEvaluator(Model model, Clip clip, int[] skins, int[] meshes, boolean normals, boolean wantBounds) {
        this(model, clip, null, skins, meshes, normals, wantBounds, SkinningMethod.LINEAR);
    }

    /**
     * A frame evaluator for one clip or a blend, skinning by {@code method}.
     *
     * @param blend the blend to evaluate instead of a clip ({@link #evaluateBlend}), or {@code null}
     * @see #FrameEvaluator(Model, Clip, int[], int[], boolean, boolean)
     */
    public FrameEvaluator(Model model, Clip clip, BlendEvaluator blend, int[] skins, int[] meshes, boolean normals,
            boolean wantBounds, SkinningMethod method) {
        this.model = model;
        this.blend = blend;
        this.method = method;
        this.clip = clip;
        this.skins = skins.clone();
        this.meshes = meshes.clone();
        this.normals = normals;
        this.wantBounds = wantBounds;
        Rig rig = model.rig();
        this.local = new LocalPose(rig.nodeCount());
        this.modelMatrices = new float[16 * rig.nodeCount()];
        this.skinScratch = new float[model.skins().size()][];
        this.skinningMatrices = new float[skins.length][];
        for (int k = 0; k < skins.length; k++) {
            skinningMatrices[k] = skinBuffer(skins[k]);
        }
        this.positions = new float[meshes.length][][];
        this.normalBuffers = new float[meshes.length][][];
        this.morphedPositions = new float[meshes.length][][];
        this.morphedNormals = new float[meshes.length][][];
        for (int m = 0; m < meshes.length; m++) {
            MeshInstance mesh = model.meshes().get(meshes[m]);
            if (mesh.skinned()) {
                skinBuffer(mesh.skin());
            }
            int prims = mesh.primitives().size();
            positions[m] = new float[prims][];
            normalBuffers[m] = new float[prims][];
            morphedPositions[m] = new float[prims][];
            morphedNormals[m] = new float[prims][];
            for (int p = 0; p < prims; p++) {
                Primitive prim = mesh.primitives().get(p);
                positions[m][p] = new float[3 * prim.vertexCount()];
                normalBuffers[m][p] = normals && prim.normals() != null ? new float[3 * prim.vertexCount()] : null;
                if (prim.morphTargets() != null) {
                    morphedPositions[m][p] = new float[3 * prim.vertexCount()];
                    morphedNormals[m][p] = normalBuffers[m][p] == null ? null : new float[3 * prim.vertexCount()];
                }
            }
        }
        this.morphWeights = new MorphWeights(model.meshes());
        weightsJob.meshes = model.meshes();
        weightsJob.clip = blend != null ? blend.layers().getFirst().clip() : clip;
        weightsJob.output = morphWeights;
        sampling.rig = rig;
        sampling.clip = clip;
        sampling.output = local;
        toModel.rig = rig;
        toModel.input = local;
        toModel.output = modelMatrices;
    }

    private float[] skinBuffer(int skin) {
        if (skinScratch[skin] == null) {
            skinScratch[skin] = new float[16 * model.skins().get(skin).jointCount()];
        }
        return skinScratch[skin];
    }

    /** Poses the model at clip-local time {@code localTime} (seconds) into the buffers. */
    public void evaluate(double localTime) {
        if (blend != null) {
            throw new IllegalStateException("this evaluator blends: use evaluateBlend");
        }
        sampling.time = localTime;
        sampling.run();
        toModel.run();
        if (edit != null) {
            edit.apply(local, modelMatrices);
        }
        posePrimitives(localTime);
    }

    /**
     * Blends the layers at their clip-local times (seconds, one per layer, already loop-mapped) and poses the meshes.
     *
     * @throws NonRigidJointException (dual quaternions) when a used joint is not rigid × uniform scale
     */
    public void evaluateBlend(double[] localTimes) {
        if (blend == null) {
            throw new IllegalStateException("this evaluator samples one clip: use evaluate");
        }
        blend.evaluate(localTimes);
        System.arraycopy(blend.local().translations(), 0, local.translations(), 0, local.translations().length);
        System.arraycopy(blend.local().rotations(), 0, local.rotations(), 0, local.rotations().length);
        System.arraycopy(blend.local().scales(), 0, local.scales(), 0, local.scales().length);
        System.arraycopy(blend.modelMatrices(), 0, modelMatrices, 0, modelMatrices.length);
        if (edit != null) {
            edit.apply(local, modelMatrices);
        }
        // morph weights are not blended: they follow the first layer's clip at its time
        posePrimitives(localTimes[0]);
    }

    /** Skinning matrices, morph weights at {@code morphTime} (clip-local seconds) and the posed meshes. */
    private void posePrimitives(double morphTime) {
        for (int s = 0; s < skinScratch.length; s++) {
            if (skinScratch[s] != null) {
                skinningJob.skin = model.skins().get(s);
                skinningJob.modelMatrices = modelMatrices;
                skinningJob.output = skinScratch[s];
                skinningJob.run();
            }
        }
        weightsJob.time = morphTime;
        weightsJob.run();
        for (int m = 0; m < meshes.length; m++) {
            MeshInstance mesh = model.meshes().get(meshes[m]);
            float[] weights = morphWeights.weights(meshes[m]);
            boolean morphing = MorphTargets.anyNonZero(weights);
            for (int p = 0; p < mesh.primitives().size(); p++) {
                Primitive prim = mesh.primitives().get(p);
                float[] inPositions = null;
                float[] inNormals = null;
                if (morphing && prim.morphTargets() != null) {
                    inPositions = morphedPositions[m][p];
                    inNormals = morphedNormals[m][p];
                    morph.primitive = prim;
                    morph.weights = weights;
                    morph.outPositions = inPositions;
                    morph.outNormals = inNormals;
                    morph.run();
                }
                if (mesh.skinned() && prim.influencesPerVertex() > 0) {
                    skinner.skin(prim, inPositions, inNormals, skinScratch[mesh.skin()], method, positions[m][p],
                            normalBuffers[m][p], null);
                } else {
                    rigid.primitive = prim;
                    rigid.inPositions = inPositions;
                    rigid.inNormals = inNormals;
                    rigid.matrix = modelMatrices;
                    rigid.matrixOffset = 16 * mesh.node();
                    rigid.outPositions = positions[m][p];
                    rigid.outNormals = normalBuffers[m][p];
                    rigid.outTangents = null;
                    rigid.run();
                }
            }
        }
    }

    /**
     * The bounds of every posed vertex of the selected meshes in the last frame, or {@code null} without any
     * (allocates the result).
     */
    public Bounds bounds() {
        if (!wantBounds) {
            throw new IllegalStateException("bounds were not asked for");
        }
        bounds.reset();
        for (float[][] mesh : positions) {
            for (float[] p : mesh) {
                bounds.addToBox(p, 0, p.length / 3);
            }
        }
        for (float[][] mesh : positions) {
            for (float[] p : mesh) {
                bounds.addToSphere(p, 0, p.length / 3);
            }
        }
        return bounds.bounds();
    }

    /** The clip sampled, or {@code null} for the rest pose. */
    public Clip clip() {
        return clip;
    }

    /** The local pose of the last frame (live buffers). */
    public LocalPose local() {
        return local;
    }

    /** Morph weights of every mesh instance of the model in the last frame (live buffers). */
    public MorphWeights morphWeights() {
        return morphWeights;
    }

    /** Model matrices of the last frame, 16 per node (live buffer). */
    public float[] modelMatrices() {
        return modelMatrices;
    }

    /** Skinning matrices of the {@code k}-th selected skin in the last frame (live buffer). */
    public float[] skinningMatrices(int k) {
        return skinningMatrices[k];
    }

    /** Posed positions of primitive {@code p} of the {@code m}-th selected mesh in the last frame (live buffer). */
    public float[] positions(int m, int p) {
        return positions[m][p];
    }

    /** Posed normals of primitive {@code p} of the {@code m}-th selected mesh, or {@code null} when not posed. */
    public float[] normals(int m, int p) {
        return normalBuffers[m][p];
    }

    /** Whether normals are posed. */
    public boolean posesNormals() {
        return normals;
    }
}
