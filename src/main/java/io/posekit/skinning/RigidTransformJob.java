package io.posekit.skinning;

import io.posekit.math.Matrices;

/**
 * Transforms a primitive by one matrix (ozz-animation style job: set the public fields, then
 * {@link #run()}): rigid (non-skinned) mesh instances, and primitives of a skinned node that carry no
 * weights, are placed by the model matrix of their node.
 *
 * <ul>
 *   <li>Position: {@code p' = M · p}.</li>
 *   <li>Normal: {@code n' = normalize(N · n)} with {@code N} the inverse transpose of the upper 3×3 of
 *       {@code M} ({@link Matrices#normalMatrix}); a zero-length result (e.g. a matrix scaled to zero)
 *       stays zero.</li>
 *   <li>Tangent: {@code xyz' = normalize(upper3×3(M) · xyz)}, {@code w} copied.</li>
 * </ul>
 * Products are computed in double and stored as float. Influences of the primitive, if any, are ignored.
 * Not thread-safe (a small scratch buffer); reuse one instance per thread. Allocation-free.
 */
public final class RigidTransformJob {

    /** The primitive to transform (mesh space). Required. */
    public Primitive primitive;
    /** The matrix, 16 floats column-major (usually the carrying node's model matrix). Required. */
    public float[] matrix;
    /** Offset of the matrix in {@link #matrix} (e.g. {@code 16 · node} in a model-matrix buffer). */
    public int matrixOffset;
    /**
     * Mesh-space positions to transform instead of the primitive's own (e.g. a {@link MorphJob} output), 3 per vertex,
     * or {@code null} for the primitive's.
     */
    public float[] inPositions;
    /**
     * Mesh-space normals to transform instead of the primitive's own (e.g. a {@link MorphJob} output), 3 per vertex, or
     * {@code null} for the primitive's; ignored when the primitive has no normals.
     */
    public float[] inNormals;
    /** Destination positions, 3 per vertex, or {@code null} when not wanted. */
    public float[] outPositions;
    /** Destination normals, 3 per vertex, or {@code null}; ignored when the primitive has no normals. */
    public float[] outNormals;
    /** Destination tangents, 4 per vertex, or {@code null}; ignored when the primitive has no tangents. */
    public float[] outTangents;

    private final float[] normalMatrix = new float[9];

    /**
     * Whether primitive and matrix are set, the matrix offset leaves room for 16 floats, every wanted output
     * is large enough and no output is one of the primitive's arrays, another output or the matrix array.
     */
    public boolean validate() {
        Primitive p = primitive;
        if (p == null || matrix == null || matrixOffset < 0 || (long) matrixOffset + 16 > matrix.length) {
            return false;
        }
        float[] outN = p.normals() == null ? null : outNormals;
        float[] outT = p.tangents() == null ? null : outTangents;
        if (outPositions == matrix || outN == matrix || outT == matrix) {
            return false;
        }
        return SkinningOutputs.valid(p, inPositions, inNormals, outPositions, outNormals, outTangents);
    }

    /**
     * Transforms the primitive into the wanted outputs.
     *
     * @throws IllegalStateException if {@link #validate()} is false
     */
    public void run() {
        if (!validate()) {
            throw new IllegalStateException("RigidTransformJob inputs are missing or inconsistent");
        }
        final Primitive prim = primitive;
        final float[] pos = inPositions != null ? inPositions : prim.positions();
        final float[] nrm = prim.normals() == null ? null : inNormals != null ? inNormals : prim.normals();
        final float[] tan = prim.tangents();
        final float[] outP = outPositions;
        final float[] outN = nrm == null ? null : outNormals;
        final float[] outT = tan == null ? null : outTangents;
        final int n = prim.vertexCount();
        final float[] m = matrix;
        final int mo = matrixOffset;
        final double m0 = m[mo], m1 = m[mo + 1], m2 = m[mo + 2];
        final double m4 = m[mo + 4], m5 = m[mo + 5], m6 = m[mo + 6];
        final double m8 = m[mo + 8], m9 = m[mo + 9], m10 = m[mo + 10];
        final double m12 = m[mo + 12], m13 = m[mo + 13], m14 = m[mo + 14];
        if (outP != null) {
            for (int v = 0; v < n; v++) {
                final int p3 = 3 * v;
                final double x = pos[p3], y = pos[p3 + 1], z = pos[p3 + 2];
                outP[p3] = (float) (m0 * x + m4 * y + m8 * z + m12);
                outP[p3 + 1] = (float) (m1 * x + m5 * y + m9 * z + m13);
                outP[p3 + 2] = (float) (m2 * x + m6 * y + m10 * z + m14);
            }
        }
        if (outN != null) {
            final float[] nm = normalMatrix;
            Matrices.normalMatrix(m, mo, nm, 0);
            final double n0 = nm[0], n1 = nm[1], n2 = nm[2], n3 = nm[3], n4 = nm[4], n5 = nm[5], n6 = nm[6],
                    n7 = nm[7], n8 = nm[8];
            for (int v = 0; v < n; v++) {
                final int p3 = 3 * v;
                final double x = nrm[p3], y = nrm[p3 + 1], z = nrm[p3 + 2];
                SkinningJob.store3Normalized(n0 * x + n3 * y + n6 * z, n1 * x + n4 * y + n7 * z,
                        n2 * x + n5 * y + n8 * z, outN, p3);
            }
        }
        if (outT != null) {
            for (int v = 0; v < n; v++) {
                final int p4 = 4 * v;
                final double x = tan[p4], y = tan[p4 + 1], z = tan[p4 + 2];
                SkinningJob.store3Normalized(m0 * x + m4 * y + m8 * z, m1 * x + m5 * y + m9 * z,
                        m2 * x + m6 * y + m10 * z, outT, p4);
                outT[p4 + 3] = tan[p4 + 3];
            }
        }
    }
}
