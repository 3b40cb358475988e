package io.posekit.skinning;

import io.posekit.math.DualQuaternions;

/**
 * The scalar {@link DualQuaternionBlendKernel}: vertex by vertex, in double, with {@link DualQuaternions#blend} and
 * its transforms. Also the vector kernel's path for the vertices it does not take (a degenerate blend, weights
 * without a usable sum, the tail). Not thread-safe (the scratch and the inputs of the current run); one per job.
 */
final class ScalarDualQuaternionBlend implements DualQuaternionBlendKernel {

    // the vertex's blended dual quaternion, and a transformed point or direction
    private final double[] blended = new double[DualQuaternions.STRIDE];
    private final double[] out3 = new double[3];

    // the current run's inputs (begin)
    private int k;
    private int jointCount;
    private int[] joints;
    private float[] weights;
    private float[] dqs;
    private float[] sc;
    private float[] pos;
    private float[] nrm;
    private float[] tan;
    private float[] outP;
    private float[] outN;
    private float[] outT;

    @Override
    public void skin(Primitive prim, float[] dualQuaternions, float[] scales, float[] pos, float[] nrm, float[] tan,
            float[] outP, float[] outN, float[] outT) {
        begin(prim, dualQuaternions, scales, pos, nrm, tan, outP, outN, outT);
        for (int v = 0, n = prim.vertexCount(); v < n; v++) {
            vertex(v);
        }
    }

    /** Takes the inputs of a run, for {@link #vertex}. */
    void begin(Primitive prim, float[] dualQuaternions, float[] scales, float[] pos, float[] nrm, float[] tan,
            float[] outP, float[] outN, float[] outT) {
        this.k = prim.influencesPerVertex();
        this.jointCount = Math.min(dualQuaternions.length / DualQuaternions.STRIDE, scales.length);
        this.joints = prim.joints();
        this.weights = prim.weights();
        this.dqs = dualQuaternions;
        this.sc = scales;
        this.pos = pos;
        this.nrm = nrm;
        this.tan = tan;
        this.outP = outP;
        this.outN = outN;
        this.outT = outT;
    }

    /** Skins vertex {@code v} of the run {@link #begin} took. */
    void vertex(int v) {
        final double[] d = blended;
        final double[] r = out3;
        final int base = v * k;
        double sum = 0;
        double scaleSum = 0;
        for (int i = 0; i < k; i++) {
            final float w = weights[base + i];
            if (w == 0) {
                continue;
            }
            final int j = checkedJoint(joints, base, i, v, jointCount, sc);
            sum += w;
            scaleSum += w * sc[j];
        }
        final double scale;
        if (sum != 0 && Double.isFinite(sum) && DualQuaternions.blend(dqs, joints, weights, base, k, d, 0)) {
            scale = scaleSum / sum;
        } else {
            // as three.js normalizeSkinWeights (and SkinningJob): a vertex without usable weights follows its slot-0
            // joint; so does a degenerate blend, which only negative weights can produce
            final int j = checkedJoint(joints, base, 0, v, jointCount, sc);
            final int o = DualQuaternions.STRIDE * j;
            for (int c = 0; c < DualQuaternions.STRIDE; c++) {
                d[c] = dqs[o + c];
            }
            scale = sc[j];
        }
        final int p3 = 3 * v;
        final int p4 = 4 * v;
        if (outP != null) {
            // phase 1: the blended uniform scale in mesh space; phase 2: the blended rigid motion
            DualQuaternions.transformPoint(d, 0, scale * pos[p3], scale * pos[p3 + 1], scale * pos[p3 + 2], r, 0);
            outP[p3] = (float) r[0];
            outP[p3 + 1] = (float) r[1];
            outP[p3 + 2] = (float) r[2];
        }
        // the normal matrix of R·(s·I) is R/s: the rotation, flipped for a negative s, collapsed for s = 0
        final double sign = Math.signum(scale);
        if (outN != null) {
            DualQuaternions.transformVector(d, 0, nrm[p3], nrm[p3 + 1], nrm[p3 + 2], r, 0);
            SkinningJob.store3Normalized(sign * r[0], sign * r[1], sign * r[2], outN, p3);
        }
        if (outT != null) {
            DualQuaternions.transformVector(d, 0, tan[p4], tan[p4 + 1], tan[p4 + 2], r, 0);
            SkinningJob.store3Normalized(sign * r[0], sign * r[1], sign * r[2], outT, p4);
            outT[p4 + 3] = tan[p4 + 3];
        }
    }

    /** The joint of slot {@code slot} of vertex {@code vertex}, checked to have a usable dual quaternion. */
    static int checkedJoint(int[] joints, int base, int slot, int vertex, int jointCount, float[] scales) {
        final int j = joints[base + slot];
        if (j >= jointCount) {
            throw new IllegalStateException("vertex " + vertex + " slot " + slot + " refers to joint " + j
                    + " but there are only " + jointCount + " dual quaternions and scales");
        }
        if (Float.isNaN(scales[j])) {
            throw new IllegalStateException("vertex " + vertex + " slot " + slot + " refers to joint " + j
                    + ", which dual-quaternion skinning cannot represent (scale NaN: it was converted as unused)");
        }
        return j;
    }
}
