package io.posekit.clip;

import java.util.List;
import java.util.Objects;

/**
 * A named animation: tracks resolved to rig node indices.
 *
 * <p>The duration is the largest key time of any track or curve, in seconds; clips whose first key is after 0
 * are not shifted. A clip may be empty of tracks (duration 0). Clip time 0 is {@link #sceneStart()} in the file's
 * own scene time (an FBX take's start, a COLLADA clip's {@code start}; 0 where the format has no such offset), so
 * clip time {@code t} is scene time {@code sceneStart + t}.
 *
 * <p>Immutable, with value semantics over its five components (as the record it used to be). It is a class rather
 * than a record only so that it can keep its {@link #layout()}, the tracks compiled for whole-pose sampling, built
 * on first use and then shared by every thread that samples the clip.
 */
public final class Clip {

    private final String name;
    private final double duration;
    private final double sceneStart;
    private final List<Track> tracks;
    private final List<NodeTransformTrack> nodeTransforms;
    // built on first use; a benign race (as String.hash): ClipLayout is immutable with final fields, so a thread
    // that sees the reference sees the whole layout, and two threads that both build it build equal ones
    private ClipLayout layout;

    /**
     * @param name the clip's name (importers name unnamed clips, e.g. {@code animation_3})
     * @param duration seconds, ≥ 0
     * @param tracks keyframe tracks of translation, rotation, scale (or morph weights), at most one per (node,
     *     property)
     * @param nodeTransforms curve-driven transform stacks, at most one per node; such a node has no keyframe
     *     translation, rotation or scale track in the same clip
     * @throws IllegalArgumentException if the duration is negative, infinite or NaN
     */
    public Clip(String name, double duration, List<Track> tracks, List<NodeTransformTrack> nodeTransforms) {
        this(name, duration, tracks, nodeTransforms, 0);
    }

    /**
     * A clip that starts at {@code sceneStart} seconds of the file's scene time (see the other constructor for the
     * rest).
     *
     * @param sceneStart seconds of scene time at clip time 0, finite (may be negative)
     * @throws IllegalArgumentException also if {@code sceneStart} is infinite or NaN
     */
    public Clip(String name, double duration, List<Track> tracks, List<NodeTransformTrack> nodeTransforms,
            double sceneStart) {
        this.tracks = List.copyOf(tracks);
        this.nodeTransforms = List.copyOf(nodeTransforms);
        if (!(duration >= 0) || Double.isInfinite(duration)) {
            throw new IllegalArgumentException("clip duration " + duration + " is not a finite non-negative number");
        }
        if (!Double.isFinite(sceneStart)) {
            throw new IllegalArgumentException("clip scene start " + sceneStart + " is not finite");
        }
        this.name = name;
        this.duration = duration;
        this.sceneStart = sceneStart;
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

    /** The clip's name (importers name unnamed clips, e.g. {@code animation_3}). */
    public String name() {
        return name;
    }

    /** Seconds, ≥ 0. */
    public double duration() {
        return duration;
    }

    /** Seconds of the file's scene time at clip time 0 (0 where the format has no scene time of its own). */
    public double sceneStart() {
        return sceneStart;
    }

    /** Seconds of the file's scene time at the clip's end: {@code sceneStart() + duration()}. */
    public double sceneEnd() {
        return sceneStart + duration;
    }

    /** This clip with {@code sceneStart} as its start in scene time. */
    public Clip withSceneStart(double sceneStart) {
        return new Clip(name, duration, tracks, nodeTransforms, sceneStart);
    }

    /** Keyframe tracks of translation, rotation, scale (or morph weights), at most one per (node, property). */
    public List<Track> tracks() {
        return tracks;
    }

    /** Curve-driven transform stacks, at most one per node. */
    public List<NodeTransformTrack> nodeTransforms() {
        return nodeTransforms;
    }

    /**
     * The tracks compiled for whole-pose sampling (see {@link ClipLayout}), built on the first call (O(values)) and
     * the same object afterwards. Thread-safe.
     */
    public ClipLayout layout() {
        ClipLayout l = layout;
        if (l == null) {
            l = ClipLayout.of(tracks, nodeTransforms);
            layout = l;
        }
        return l;
    }

    /** Number of channels: keyframe tracks plus curve-driven nodes. */
    public int channelCount() {
        return tracks.size() + nodeTransforms.size();
    }

    /**
     * Approximate heap footprint in bytes, for cache weighing. Includes the {@link #layout()} whether or not it has
     * been built yet (an upper bound, {@link ClipLayout#maxFootprintBytes}, until it is), so a cached clip's weight
     * does not grow once it is sampled.
     */
    public long footprintBytes() {
        long bytes = 64 + (name == null ? 0 : 40 + name.length());
        for (Track t : tracks) {
            bytes += t.footprintBytes();
        }
        for (NodeTransformTrack n : nodeTransforms) {
            bytes += n.footprintBytes();
        }
        ClipLayout l = layout;
        return bytes + (l != null ? l.footprintBytes() : ClipLayout.maxFootprintBytes(tracks));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Clip c && Objects.equals(name, c.name) && Double.compare(duration, c.duration) == 0
                && Double.compare(sceneStart, c.sceneStart) == 0 && tracks.equals(c.tracks) && nodeTransforms.equals(c.nodeTransforms);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, duration, sceneStart, tracks, nodeTransforms);
    }

    @Override
    public String toString() {
        return "Clip[name=" + name + ", duration=" + duration + (sceneStart == 0 ? "" : ", sceneStart=" + sceneStart)
                + ", tracks=" + tracks + ", nodeTransforms="
                + nodeTransforms + "]";
    }
}
