package io.posekit.clip;

import java.util.List;

/**
 * A named animation: tracks resolved to rig node indices.
 *
 * <p>The duration is the largest key time of any track or curve, in seconds; clips whose first key is after 0
 * are not shifted. A clip may be empty of tracks (duration 0).
 *
 * @param name the clip's name (importers name unnamed clips, e.g. {@code animation_3})
 * @param duration seconds, ≥ 0
 * @param tracks keyframe tracks of translation, rotation, scale (or morph weights), at most one per (node,
 *     property)
 * @param nodeTransforms curve-driven transform stacks, at most one per node; such a node has no keyframe
 *     translation, rotation or scale track in the same clip
 */
public record Clip(String name, double duration, List<Track> tracks, List<NodeTransformTrack> nodeTransforms) {

    public Clip {
        tracks = List.copyOf(tracks);
        nodeTransforms = List.copyOf(nodeTransforms);
        if (!(duration >= 0) || Double.isInfinite(duration)) {
            throw new IllegalArgumentException("clip duration " + duration + " is not a finite non-negative number");
        }
    }

    /** A clip of keyframe tracks only, whose duration is the largest key time (0 without tracks). */
    public static Clip of(String name, List<Track> tracks) {
        return of(name, tracks, List.of());
    }

    /** A clip whose duration is the largest key time of its tracks and curves (0 without any). */
    public static Clip of(String name, List<Track> tracks, List<NodeTransformTrack> nodeTransforms) {
        double end = 0;
        for (Track t : tracks) {
            end = Math.max(end, t.endTime());
        }
        for (NodeTransformTrack n : nodeTransforms) {
            end = Math.max(end, n.endTime());
        }
        return new Clip(name, end, tracks, nodeTransforms);
    }

    /** Number of channels: keyframe tracks plus curve-driven nodes. */
    public int channelCount() {
        return tracks.size() + nodeTransforms.size();
    }

    /** Approximate heap footprint in bytes, for cache weighing. */
    public long footprintBytes() {
        long bytes = 64 + (name == null ? 0 : 40 + name.length());
        for (Track t : tracks) {
            bytes += t.footprintBytes();
        }
        for (NodeTransformTrack n : nodeTransforms) {
            bytes += n.footprintBytes();
        }
        return bytes;
    }
}
