package io.posekit.api.body;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** Response bodies of the mesh endpoints. */
public final class MeshResponses {

    private MeshResponses() {
    }

    /** Bind-shape geometry in mesh space, as stored in the file. */
    public record Geometry(int mesh, String name, Integer skin, List<GeometryPrimitive> primitives) {
    }

    /**
     * One primitive's bind-shape data. {@code joints}/{@code weights}: one array of 4 per vertex per influence
     * set ({@code JOINTS_0}/{@code WEIGHTS_0} first), weights as decoded from the file.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record GeometryPrimitive(String mode, int vertexCount, float[] positions, float[] normals, float[] tangents,
            List<int[]> joints, List<float[]> weights, int[] indices) {
    }

    /** Skinned vertices in model space, same vertex order as the geometry. */
    public record Skinned(int mesh, String clip, double time, String loop, Double localTime, List<SkinnedPrimitive> primitives,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<LayerEcho> layers) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SkinnedPrimitive(int vertexCount, float[] positions, float[] normals, float[] tangents) {
    }
}
