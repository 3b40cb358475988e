package io.posekit.skinning;

/** Output-buffer checks shared by {@link SkinningJob} and {@link RigidTransformJob}. */
final class SkinningOutputs {

    private SkinningOutputs() {
    }

    /**
     * Whether the wanted outputs are large enough and distinct: positions need {@code 3n} floats, normals
     * {@code 3n} and tangents {@code 4n} (normals/tangents only when the primitive has them; otherwise the
     * buffer is ignored). No used output may be one of the primitive's arrays (shared, immutable storage) or
     * another used output (they would overwrite each other).
     */
    static boolean valid(Primitive p, float[] outPositions, float[] outNormals, float[] outTangents) {
        long n = p.vertexCount();
        float[] outN = p.normals() == null ? null : outNormals;
        float[] outT = p.tangents() == null ? null : outTangents;
        if (outPositions != null && outPositions.length < 3 * n) {
            return false;
        }
        if (outN != null && outN.length < 3 * n) {
            return false;
        }
        if (outT != null && outT.length < 4 * n) {
            return false;
        }
        return notInput(p, outPositions) && notInput(p, outN) && notInput(p, outT)
                && distinct(outPositions, outN) && distinct(outPositions, outT) && distinct(outN, outT);
    }

    /**
     * {@link #valid(Primitive, float[], float[], float[])} with source overrides: {@code inPositions} and
     * {@code inNormals} (used only when the primitive has normals), when not {@code null}, need {@code 3n} floats
     * and must not be any used output.
     */
    static boolean valid(Primitive p, float[] inPositions, float[] inNormals, float[] outPositions, float[] outNormals,
            float[] outTangents) {
        long n = p.vertexCount();
        float[] inN = p.normals() == null ? null : inNormals;
        float[] outN = p.normals() == null ? null : outNormals;
        float[] outT = p.tangents() == null ? null : outTangents;
        return validInput(inPositions, n, outPositions, outN, outT) && validInput(inN, n, outPositions, outN, outT)
                && valid(p, outPositions, outNormals, outTangents);
    }

    private static boolean validInput(float[] in, long n, float[] outP, float[] outN, float[] outT) {
        return in == null || (in.length >= 3 * n && in != outP && in != outN && in != outT);
    }

    private static boolean notInput(Primitive p, float[] out) {
        return out == null || (out != p.positions() && out != p.normals() && out != p.tangents()
                && out != p.weights());
    }

    private static boolean distinct(float[] a, float[] b) {
        return a == null || a != b;
    }
}
