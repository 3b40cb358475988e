package io.posekit.clip;

/**
 * One animated property of one node: key times and values as flat arrays.
 *
 * <p>{@code times} are seconds, non-decreasing. {@code values} hold {@code components} floats per key for
 * {@link Interpolation#STEP} and {@link Interpolation#LINEAR}, and {@code 3 × components} per key for
 * {@link Interpolation#CUBICSPLINE} (in-tangent, value, out-tangent, as glTF stores them). Rotation values
 * are quaternions {@code [x,y,z,w]}.
 *
 * <p>The arrays are shared storage that callers must not modify.
 *
 * @param node the rig node index the track drives
 * @param property what it drives
 * @param interpolation how values are interpolated
 * @param components floats per value (3 translation/scale, 4 rotation, n for morph weights)
 * @param times key times in seconds
 * @param values key values
 */
public record Track(int node, TrackProperty property, Interpolation interpolation, int components, float[] times,
        float[] values) {

    public Track {
        if (times.length == 0) {
            throw new IllegalArgumentException("a track needs at least one key");
        }
        int perKey = components * (interpolation == Interpolation.CUBICSPLINE ? 3 : 1);
        if (components <= 0 || values.length != (long) perKey * times.length) {
            throw new IllegalArgumentException("track has " + times.length + " keys but " + values.length
                    + " values (" + perKey + " per key expected)");
        }
        for (int i = 1; i < times.length; i++) {
            if (!(times[i] >= times[i - 1])) {
                throw new IllegalArgumentException("key times decrease at key " + i);
            }
        }
    }

    /** Number of keys. */
    public int keyCount() {
        return times.length;
    }

    /** Time of the first key, seconds. */
    public float startTime() {
        return times[0];
    }

    /** Time of the last key, seconds. */
    public float endTime() {
        return times[times.length - 1];
    }

    /** A copy driving another node (used when an importer's node indices are remapped to rig order). */
    public Track withNode(int newNode) {
        return new Track(newNode, property, interpolation, components, times, values);
    }

    /** Approximate heap footprint in bytes, for cache weighing. */
    public long footprintBytes() {
        return 64 + 4L * (times.length + values.length);
    }
}
