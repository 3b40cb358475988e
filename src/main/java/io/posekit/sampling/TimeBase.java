package io.posekit.sampling;

import io.posekit.clip.Clip;
import java.util.Optional;

/**
 * What a request's time counts: the clip's own time (0 at the clip's first instant, as glTF and three.js count), or
 * the file's scene time (an FBX take's, a COLLADA document's timeline: what an artist's frame numbers and ufbx count).
 * A clip starts at {@link Clip#sceneStart()} seconds of scene time, so scene time {@code s} is clip time
 * {@code s − sceneStart}.
 */
public enum TimeBase {

    /** Seconds since the clip's start (the default). */
    CLIP,

    /** Seconds of the file's scene time; clip time = scene time − {@link Clip#sceneStart()}. */
    SCENE;

    /** The wire name: {@code clip} or {@code scene}. */
    public String wireName() {
        return this == CLIP ? "clip" : "scene";
    }

    /** The base whose {@link #wireName()} is exactly {@code s}, or empty for {@code null} or any other string. */
    public static Optional<TimeBase> byWireName(String s) {
        for (TimeBase b : values()) {
            if (b.wireName().equals(s)) {
                return Optional.of(b);
            }
        }
        return Optional.empty();
    }

    /**
     * Clip time, seconds, of {@code time} seconds counted in this base for {@code clip}.
     *
     * @return {@code time} for {@link #CLIP}; {@code time − clip.sceneStart()} for {@link #SCENE} (not finite only
     *     when the difference overflows)
     */
    public double clipTime(double time, Clip clip) {
        return this == CLIP ? time : time - clip.sceneStart();
    }
}
