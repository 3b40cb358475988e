package io.posekit.clip;

import java.util.List;

/**
 * A named animation: tracks resolved to rig node indices.
 *
 * <p>The duration is the largest key time of any track, in seconds; clips whose first key is after 0 are
 * not shifted. A clip may be empty of tracks (duration 0).
 *
 * @param name the clip's name (importers name unnamed clips, e.g. {@code animation_3})
 * @param duration seconds, ≥ 0
 * @param tracks the tracks, at most one per (node, property)
 */
public record Clip(String name, double duration, List<Track> tracks) {

    public Clip {
        tracks = List.copyOf(tracks);
        if (!(duration >= 0) || Double.isInfinite(duration)) {
            throw new IllegalArgumentException("clip duration " + duration + " is not a finite non-negative number");
        }
    }

    /** A clip named {@code name} whose duration is the largest key time of its tracks (0 without tracks). */
    public static Clip of(String name, List<Track> tracks) {
        double end = 0;
        for (Track t : tracks) {
            end = Math.max(end, t.endTime());
        }
        return new Clip(name, end, tracks);
    }

    /** Approximate heap footprint in bytes, for cache weighing. */
    public long footprintBytes() {
        long bytes = 64 + (name == null ? 0 : 40 + name.length());
        for (Track t : tracks) {
            bytes += t.footprintBytes();
        }
        return bytes;
    }
}
