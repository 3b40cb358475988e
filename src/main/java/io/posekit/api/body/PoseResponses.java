package io.posekit.api.body;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** Response bodies of the pose and skin endpoints. Matrices are column-major arrays of 16, quaternions [x,y,z,w]. */
public final class PoseResponses {

    private PoseResponses() {
    }

    /** Local pose: each node's translation, rotation and scale relative to its parent, in summary node order. */
    public record LocalPose(String clip, double time, String loop, Double localTime, String space, List<LocalNode> nodes,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<LayerEcho> layers) {
    }

    public record LocalNode(String name, float[] translation, float[] rotation, float[] scale) {
    }

    /** Model pose: each node's matrix in model space (the scene root's space), in summary node order. */
    public record ModelPose(String clip, double time, String loop, Double localTime, String space, List<ModelNode> nodes,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<LayerEcho> layers) {
    }

    public record ModelNode(String name, float[] matrix) {
    }

    /** Skinning matrices: model(joint) · inverseBind, one per joint in the skin's order. */
    public record SkinMatrices(int skin, String clip, double time, String loop, Double localTime, List<String> joints,
            List<float[]> matrices, @JsonInclude(JsonInclude.Include.NON_NULL) List<LayerEcho> layers) {
    }

    /**
     * Skinning transforms as dual quaternions: joint k's skinning matrix = T·R·(s·I), its rigid part as a unit dual
     * quaternion [real x,y,z,w, dual x,y,z,w] and its uniform scale s, applied first.
     */
    public record SkinDualQuaternions(int skin, String clip, double time, String loop, Double localTime, List<String> joints,
            List<float[]> dualQuaternions, float[] scales,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<LayerEcho> layers) {
    }
}
