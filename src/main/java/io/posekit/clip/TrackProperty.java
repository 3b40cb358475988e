package io.posekit.clip;

/**
 * What a track animates on its node. Translation and scale have 3 components, rotation 4 (a unit
 * quaternion {@code [x,y,z,w]}); morph target weights have one component per morph target of the mesh on the
 * track's node (sampled by {@code MorphWeightsJob}).
 */
public enum TrackProperty {
    TRANSLATION, ROTATION, SCALE, WEIGHTS;

    /** The wire name: lower case, e.g. {@code rotation}. */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
