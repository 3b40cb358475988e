package io.posekit.asset.x;

import io.posekit.math.Quaternions;

/**
 * DirectX's left-handed data to posekit's right-handed space, the way assimp's X importer converts it (its
 * {@code MakeLeftHandedProcess}, which mirrors Z, and {@code FlipWindingOrderProcess}), so posekit's model space
 * is the space of the conformance data:
 *
 * <ul>
 *   <li>positions and normals: {@code z → −z};</li>
 *   <li>matrices: {@code M → S·M·S} with {@code S = diag(1, 1, −1, 1)}. A {@code .x} matrix is written row by row for
 *       row vectors ({@code v' = v·M}), so its 16 values read in order are the column-major matrix for column
 *       vectors; mirroring then negates the elements in row 2 or column 2 but not both (indices 2, 6, 8, 9, 11, 14);</li>
 *   <li>rotation keys {@code (w, x, y, z)}: D3DX's quaternions rotate row vectors, so as a column-vector rotation
 *       the key is the conjugate {@code (−x, −y, −z, w)} (assimp: "needs quat inversion"); mirroring then gives
 *       {@code (x, y, −z, w)}, normalised (keys are written with six decimals, so they are unit only to about 1e-6,
 *       and a lever of a few units turns that into visible error in skinning matrices);</li>
 *   <li>triangle winding reversed (mirroring turns front faces into back faces).</li>
 * </ul>
 */
final class Handedness {

    /** The elements of a column-major matrix in row 2 or column 2 but not both. */
    private static final int[] MIRRORED = {2, 6, 14, 8, 9, 11};

    private Handedness() {
    }

    /** {@code −v} without turning 0 into −0 (which would show in the API's output). */
    static float negate(float v) {
        return 0f - v;
    }

    /** The right-handed column-major matrix of 16 {@code .x} values in file order, {@code S·M·S}. */
    static float[] matrix(float[] file, int at) {
        float[] m = new float[16];
        for (int i = 0; i < 16; i++) {
            m[i] = file[at + i];
        }
        for (int i : MIRRORED) {
            m[i] = negate(m[i]);
        }
        return m;
    }

    /**
     * A rotation key {@code (w, x, y, z)} at {@code in[at]} as a normalised right-handed quaternion {@code [x, y, z, w]}
     * (the identity for a zero key).
     *
     * @return false when the key has length 0 (or is not finite) and the identity was written
     */
    static boolean rotation(float[] in, int at, float[] out, int o) {
        double w = in[at];
        double x = in[at + 1];
        double y = in[at + 2];
        double z = 0.0 - in[at + 3];
        double length = Math.sqrt(x * x + y * y + z * z + w * w);
        Quaternions.normalizeTo(x, y, z, w, out, o);
        return length > 0 && Double.isFinite(length);
    }

    /** A point or direction {@code (x, y, z)} at {@code in[at]}, mirrored into {@code out[o]}. */
    static void vector(float[] in, int at, float[] out, int o) {
        out[o] = in[at];
        out[o + 1] = in[at + 1];
        out[o + 2] = negate(in[at + 2]);
    }
}
