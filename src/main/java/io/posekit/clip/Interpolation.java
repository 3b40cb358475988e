package io.posekit.clip;

/**
 * How a track's value varies between two keys.
 *
 * <ul>
 *   <li>{@link #STEP}: the value of the last key at or before the time.</li>
 *   <li>{@link #LINEAR}: linear interpolation; rotations by exact shortest-path spherical interpolation
 *       (slerp, glTF 2.0 Appendix C), never nlerp.</li>
 *   <li>{@link #CUBICSPLINE}: cubic Hermite spline; each key stores in-tangent, value, out-tangent
 *       ({@code 3 × components} floats per key); tangents are scaled by the key interval; rotations are
 *       normalised after interpolation.</li>
 * </ul>
 */
public enum Interpolation {
    STEP, LINEAR, CUBICSPLINE
}
