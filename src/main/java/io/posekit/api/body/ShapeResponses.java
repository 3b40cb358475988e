package io.posekit.api.body;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.posekit.skinning.Bounds;
import java.util.List;

/** Response bodies of the skeleton and bounds endpoints. Positions in model space, scene units. */
public final class ShapeResponses {

    private ShapeResponses() {
    }

    /**
     * Skeleton lines: model-space joint positions, and segments from each joint to its nearest shown ancestor
     * ({@code segments} as pairs of positions in {@code joints}, {@code lines} as 6 floats per segment: parent xyz,
     * child xyz).
     */
    public record Skeleton(String clip, double time, String loop, Double localTime, String nodes, List<Joint> joints,
            List<int[]> segments, float[] lines, @JsonInclude(JsonInclude.Include.NON_NULL) List<LayerEcho> layers) {
    }

    /** One shown node: its name, rig node index (summary order), shown parent (position in joints, -1) and position. */
    public record Joint(String name, int node, int parent, float[] position) {
    }

    /**
     * Bounds of the posed asset: of every mesh instance, of all of them together ({@code asset}) and of the skeleton's
     * joint positions ({@code skeleton}); {@code null} where there is nothing to bound. With {@code over = clip} the
     * union over {@code samples} times of the clip ({@code time}, {@code loop} and {@code localTime} are then null).
     */
    public record AssetBounds(String clip, Double time, String loop, Double localTime, String over, int samples,
            Bounds asset, List<MeshBounds> meshes, Bounds skeleton, @JsonInclude(JsonInclude.Include.NON_NULL) List<LayerEcho> layers) {
    }

    public record MeshBounds(int mesh, String name, Bounds bounds) {
    }
}
