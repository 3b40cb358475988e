package io.posekit.api.body;

import java.util.List;

/**
 * The body of {@code POST /api/v1/assets/{id}/bake}: what to bake, at which times, into which outputs. Read from JSON
 * by {@link BakePlan#parse}, which names any field that is wrong.
 *
 * @param clip the clip (name or index); absent = the rest pose (or a blend)
 * @param layers a blend instead of one clip; layers without their own time follow each frame's time
 * @param threshold the blend threshold (default 0.1)
 * @param timeUnit seconds (default) or normalized: the times are phases of the clip, or of each layer's own clip
 * @param times the playback times: a list of seconds, or a frame range {@code {start, end, fps}} (seconds, frames
 *     per second) whose frames include both ends
 * @param loop how times map into the clip: clamp (default), repeat, pingpong
 * @param speed playback speed, multiplies every time before the loop mode (default 1; negative plays backwards)
 * @param outputs what each frame holds, in this order: localPose, modelPose, skinningMatrices, skinnedPositions,
 *     skinnedNormals, bounds
 * @param skinning linear (default) or dq: how skinnedPositions and skinnedNormals are computed
 * @param matrixLayout mat4 (16 floats, column-major; default) or mat3x4 (12 floats: the top three rows, row by row)
 *     for modelPose and skinningMatrices
 * @param skins the skins whose skinning matrices are output (default all)
 * @param meshes the mesh instances posed for skinnedPositions, skinnedNormals and bounds (default all)
 */
public record BakeSpec(
        String clip,
        List<LayerSpec> layers,
        Double threshold,
        Object times,
        String timeUnit,
        String loop,
        Double speed,
        List<String> outputs,
        String matrixLayout,
        String skinning,
        List<Integer> skins,
        List<Integer> meshes) {

    /**
     * Frames from {@code start} to {@code end} (seconds) at {@code fps}: {@code start + i / fps} while not past
     * {@code end}, and {@code end} itself when the last such frame falls short of it.
     */
    record FrameRange(double start, double end, double fps) {
    }
}
