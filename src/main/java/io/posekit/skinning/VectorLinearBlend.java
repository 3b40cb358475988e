package io.posekit.skinning;

import io.posekit.math.Matrices;
import io.posekit.math.VectorLanes;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API linear blend skinning kernel of {@link SkinningJob} (its contract, in float; within 1e-5 relative
 * of {@link ScalarLinearBlend}). Loaded by name only when {@code jdk.incubator.vector} is present
 * ({@link io.posekit.math.Kernels}).
 *
 * <p>Two phases per group of {@code L} vertices ({@code L} = lanes of {@link VectorLanes#FLOAT}):
 * <ol>
 *   <li>Per vertex (weights, joint checks and the zero-sum fallback in scalar code, with the scalar kernel's rules):
 *       the weighted sum of the joints' matrices, each a contiguous 16-float row of the joint table (S's upper 3×4,
 *       then N's 3×3 in a second row when some joint is not rigid), i.e. {@code k} vector multiply-adds of 16 lanes
 *       instead of {@code 12k} scalar ones; the blended row goes to a scratch block.</li>
 *   <li>Per group: the blended matrices are read back transposed (one gather per element, lane n = vertex n) and
 *       position, normal and tangent are transformed and normalised for all {@code L} vertices at once.</li>
 * </ol>
 * Inputs are copied into, and outputs out of, structure-of-arrays scratch by scalar loops (the arrays are xyz
 * interleaved); a short last group computes garbage in its unused lanes and stores only the used ones.
 *
 * <p>Not thread-safe (the scratch); one per job.
 */
final class VectorLinearBlend implements LinearBlendKernel {

    private static final VectorSpecies<Float> S = VectorLanes.FLOAT;
    private static final int L = S.length();
    // floats per joint in the table: row 0 = S's upper 3×3 column-major (0–8) and translation (9–11), row 1 = N (16–24)
    private static final int ROW = 16;
    private static final int JOINT = 2 * ROW;
    // the gather map: lane n reads vertex n's blended row in the scratch block
    private static final int[] LANES = new int[L];

    static {
        for (int n = 0; n < L; n++) {
            LANES[n] = JOINT * n;
        }
    }

    private float[] table = new float[0];
    private final float[] normalMatrix = new float[9];
    // per vertex of the group: the blended rows (JOINT floats)
    private final float[] blended = new float[JOINT * L];
    // structure of arrays, L lanes each: position xyz, normal xyz, tangent xyz (inputs, then outputs in place)
    private final float[] soa = new float[9 * L];
    // per slot of the current vertex: joint table offset and normalised weight
    private int[] slotOffsets = new int[8];
    private float[] slotWeights = new float[8];

    @Override
    public void skin(Primitive prim, float[] s, float[] pos, float[] nrm, float[] tan, float[] outP, float[] outN,
            float[] outT, int from, int end) {
        final int jointCount = s.length / 16;
        final int k = prim.influencesPerVertex();
        final boolean doN = outN != null;
        final boolean rigid = prepareJoints(s, jointCount, doN);
        // the N row is blended only when it differs from S's 3×3
        final int rows = rigid ? ROW : JOINT;
        if (slotOffsets.length < k) {
            slotOffsets = new int[k];
            slotWeights = new float[k];
        }
        for (int g = from; g < end; g += L) {
            final int count = Math.min(L, end - g);
            for (int n = 0; n < count; n++) {
                blendVertex(prim, jointCount, k, g + n, rows, JOINT * n);
            }
            transformGroup(g, count, rigid, pos, nrm, tan, outP, outN, outT);
        }
    }

    /**
     * Writes vertex {@code v}'s blended rows at {@code blended[at..]}: {@code Σ (w_i/Σw) · row(j_i)}, or its slot-0
     * joint's rows when its weights sum to 0 or a non-finite value.
     */
    private void blendVertex(Primitive prim, int jointCount, int k, int v, int rows, int at) {
        final int[] joints = prim.joints();
        final float[] weights = prim.weights();
        final int[] offsets = slotOffsets;
        final float[] ws = slotWeights;
        final int base = v * k;
        // the scalar kernel's checks, in its order: every slot of non-zero weight must name a joint with a matrix
        double sum = 0;
        for (int i = 0; i < k; i++) {
            final int j = joints[base + i];
            final float w = weights[base + i];
            final boolean outside = j >= jointCount;
            if (outside & w != 0) {
                throw ScalarLinearBlend.jointOutOfRange(v, i, j, jointCount);
            }
            sum += w;
            offsets[i] = JOINT * (outside ? 0 : j);
        }
        int slots = k;
        if (sum == 0 || !Double.isFinite(sum)) {
            // as three.js normalizeSkinWeights: a vertex without usable weights follows its slot-0 joint
            final int j = joints[base];
            if (j >= jointCount) {
                throw ScalarLinearBlend.jointOutOfRange(v, 0, j, jointCount);
            }
            offsets[0] = JOINT * j;
            ws[0] = 1;
            slots = 1;
        } else {
            // normalised weights: no division per output later, and a negative Σw flips normals as dividing would
            final double inv = 1 / sum;
            for (int i = 0; i < k; i++) {
                ws[i] = (float) (weights[base + i] * inv);
            }
        }
        final float[] m = table;
        for (int c = 0; c < rows; c += L) {
            FloatVector acc = FloatVector.fromArray(S, m, offsets[0] + c).mul(ws[0]);
            for (int i = 1; i < slots; i++) {
                acc = FloatVector.fromArray(S, m, offsets[i] + c).fma(FloatVector.broadcast(S, ws[i]), acc);
            }
            acc.intoArray(blended, at + c);
        }
    }

    /** Transforms the group's {@code count} vertices from {@code g} by their blended matrices into the outputs. */
    private void transformGroup(int g, int count, boolean rigid, float[] pos, float[] nrm, float[] tan, float[] outP,
            float[] outN, float[] outT) {
        final float[] b = blended;
        final float[] x = soa;
        // the blended 3×4 of lane n's vertex, transposed by gathers: element e of all lanes
        final FloatVector m0 = gather(b, 0), m1 = gather(b, 1), m2 = gather(b, 2);
        final FloatVector m3 = gather(b, 3), m4 = gather(b, 4), m5 = gather(b, 5);
        final FloatVector m6 = gather(b, 6), m7 = gather(b, 7), m8 = gather(b, 8);
        if (outP != null) {
            deinterleave(pos, 3 * g, 3, count, 0);
            final FloatVector px = FloatVector.fromArray(S, x, 0), py = FloatVector.fromArray(S, x, L);
            final FloatVector pz = FloatVector.fromArray(S, x, 2 * L);
            pz.fma(m6, py.fma(m3, px.fma(m0, gather(b, 9)))).intoArray(x, 0);
            pz.fma(m7, py.fma(m4, px.fma(m1, gather(b, 10)))).intoArray(x, L);
            pz.fma(m8, py.fma(m5, px.fma(m2, gather(b, 11)))).intoArray(x, 2 * L);
            interleave(outP, 3 * g, 3, count, 0);
        }
        if (outN != null) {
            deinterleave(nrm, 3 * g, 3, count, 3 * L);
            if (rigid) {
                transformNormalized(m0, m1, m2, m3, m4, m5, m6, m7, m8, 3 * L);
            } else {
                transformNormalized(gather(b, ROW), gather(b, ROW + 1), gather(b, ROW + 2), gather(b, ROW + 3),
                        gather(b, ROW + 4), gather(b, ROW + 5), gather(b, ROW + 6), gather(b, ROW + 7),
                        gather(b, ROW + 8), 3 * L);
            }
            interleave(outN, 3 * g, 3, count, 3 * L);
        }
        if (outT != null) {
            deinterleave(tan, 4 * g, 4, count, 6 * L);
            transformNormalized(m0, m1, m2, m3, m4, m5, m6, m7, m8, 6 * L);
            interleave(outT, 4 * g, 4, count, 6 * L);
            for (int n = 0; n < count; n++) {
                outT[4 * (g + n) + 3] = tan[4 * (g + n) + 3];
            }
        }
    }

    /** Element {@code e} of the blended rows of all lanes. */
    private static FloatVector gather(float[] blended, int e) {
        return FloatVector.fromArray(S, blended, e, LANES, 0);
    }

    /**
     * {@code normalize(M · d)} for the direction {@code d} of each lane at {@code soa[at..at+3L]}, in place; a zero
     * result stays zero.
     */
    private void transformNormalized(FloatVector m0, FloatVector m1, FloatVector m2, FloatVector m3, FloatVector m4,
            FloatVector m5, FloatVector m6, FloatVector m7, FloatVector m8, int at) {
        final float[] x = soa;
        final FloatVector dx = FloatVector.fromArray(S, x, at), dy = FloatVector.fromArray(S, x, at + L);
        final FloatVector dz = FloatVector.fromArray(S, x, at + 2 * L);
        final FloatVector rx = dz.fma(m6, dy.fma(m3, dx.mul(m0)));
        final FloatVector ry = dz.fma(m7, dy.fma(m4, dx.mul(m1)));
        final FloatVector rz = dz.fma(m8, dy.fma(m5, dx.mul(m2)));
        final FloatVector len2 = rz.fma(rz, ry.fma(ry, rx.mul(rx)));
        // a zero vector has no direction: keep it zero instead of producing NaN
        final FloatVector inv = FloatVector.zero(S)
                .blend(FloatVector.broadcast(S, 1f).div(len2.sqrt()), len2.compare(VectorOperators.GT, 0f));
        rx.mul(inv).intoArray(x, at);
        ry.mul(inv).intoArray(x, at + L);
        rz.mul(inv).intoArray(x, at + 2 * L);
    }

    /** Copies xyz of {@code count} elements of {@code stride} floats from {@code in[o..]} into three lane rows. */
    private void deinterleave(float[] in, int o, int stride, int count, int at) {
        final float[] x = soa;
        for (int n = 0; n < count; n++, o += stride) {
            x[at + n] = in[o];
            x[at + L + n] = in[o + 1];
            x[at + 2 * L + n] = in[o + 2];
        }
    }

    /** Copies three lane rows back into xyz of {@code count} elements of {@code stride} floats at {@code out[o..]}. */
    private void interleave(float[] out, int o, int stride, int count, int at) {
        final float[] x = soa;
        for (int n = 0; n < count; n++, o += stride) {
            out[o] = x[at + n];
            out[o + 1] = x[at + L + n];
            out[o + 2] = x[at + 2 * L + n];
        }
    }

    /**
     * Fills the joint table (rows of {@link #JOINT} floats) from the skinning matrices, the N rows only when normals
     * are wanted.
     *
     * @return whether every joint is rigid by the scalar kernel's test (or normals are not wanted)
     */
    private boolean prepareJoints(float[] s, int jointCount, boolean withNormals) {
        if (table.length < JOINT * jointCount) {
            // zero-initialised: the padding lanes of each row stay 0 (finite) for good
            table = new float[JOINT * jointCount];
        }
        final float[] m = table;
        final float[] nm = normalMatrix;
        boolean rigid = true;
        for (int j = 0; j < jointCount; j++) {
            final int o = JOINT * j;
            final int so = 16 * j;
            System.arraycopy(s, so, m, o, 3);
            System.arraycopy(s, so + 4, m, o + 3, 3);
            System.arraycopy(s, so + 8, m, o + 6, 3);
            System.arraycopy(s, so + 12, m, o + 9, 3);
            if (withNormals) {
                Matrices.normalMatrix(s, so, nm, 0);
                for (int e = 0; e < 9; e++) {
                    m[o + ROW + e] = nm[e];
                    // NaN compares false: a non-finite matrix is never rigid
                    rigid &= Math.abs(nm[e] - m[o + e]) <= ScalarLinearBlend.RIGID_TOLERANCE;
                }
            }
        }
        return rigid;
    }
}
