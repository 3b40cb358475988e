package io.posekit.skinning;

import io.posekit.math.DualQuaternions;
import io.posekit.math.VectorLanes;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API {@link DualQuaternionBlendKernel}: four vertices at once, one per {@link DoubleVector} lane. Each
 * influence's dual quaternion is gathered component by component from the joints' table (the four vertices' joints
 * differ), and everything after — the hemisphere test against the pivot, the weighted sums, the normalisation, the
 * rotation and translation of the point and the rotation of normal and tangent — is the scalar kernel's arithmetic,
 * the same operations in the same order (no fused multiply-adds where it has none), so every result is the same bit
 * for bit. Per-vertex bookkeeping stays scalar: the joint checks, the sums of weights and scales, the pivot (the
 * largest weight). A vertex the vectors do not take (weights without a usable sum, a degenerate blend) and the
 * vertices past the last multiple of four go through {@link ScalarDualQuaternionBlend}.
 *
 * <p>Pays where linear blend skinning's gathers did not (see {@code VectorLinearBlend}): a dual-quaternion vertex is
 * some 150 floating-point operations against 8 gathered floats per influence. Loaded by name only when
 * {@code jdk.incubator.vector} is present ({@link io.posekit.math.Kernels}). Not thread-safe (the scratch); one per
 * job.
 */
final class VectorDualQuaternionBlend implements DualQuaternionBlendKernel {

    private static final VectorSpecies<Float> F = VectorLanes.FLOAT;
    private static final VectorSpecies<Double> D = VectorLanes.DOUBLE;
    private static final VectorOperators.Conversion<Float, Double> F2D = VectorOperators.F2D;
    private static final VectorOperators.Conversion<Double, Float> D2F = VectorOperators.D2F;
    private static final int LANES = 4;

    private final ScalarDualQuaternionBlend scalar = new ScalarDualQuaternionBlend();
    // per slot s, lane j at 4s + j: the weight (0 for a skipped slot) and 8 × joint (0 for a skipped slot)
    private double[] slotWeights = new double[0];
    private int[] slotJoints = new int[0];
    // per lane: 8 × the pivot's joint, the blended scale's sign, the scaled position, normal, tangent
    private final int[] pivots = new int[LANES];
    private final double[] signs = new double[LANES];
    private final double[] in = new double[9 * LANES];
    // per lane: whether the vectors skin it (else the scalar kernel does)
    private final boolean[] vectored = new boolean[LANES];
    // the lanes' blended dual quaternions, component-major: x of the four, y, z, w, then the dual part's
    private final double[] blended = new double[8 * LANES];
    // results, component-major: position x of the four lanes, y, z, then normal, then tangent
    private final float[] results = new float[9 * LANES];

    @Override
    public void skin(Primitive prim, float[] dqs, float[] sc, float[] pos, float[] nrm, float[] tan, float[] outP,
            float[] outN, float[] outT) {
        scalar.begin(prim, dqs, sc, pos, nrm, tan, outP, outN, outT);
        final int k = prim.influencesPerVertex();
        if (slotWeights.length < LANES * k) {
            slotWeights = new double[LANES * k];
            slotJoints = new int[LANES * k];
        }
        final float[] res = results;
        final int jointCount = Math.min(dqs.length / DualQuaternions.STRIDE, sc.length);
        final int[] joints = prim.joints();
        final float[] weights = prim.weights();
        final int vertexCount = prim.vertexCount();
        final int vectorEnd = vertexCount - vertexCount % LANES;
        for (int first = 0; first < vectorEnd; first += LANES) {
            boolean any = false;
            for (int j = 0; j < LANES; j++) {
                any |= prepare(first + j, j, k, joints, weights, jointCount, sc, pos, nrm, tan);
            }
            if (!any) {
                for (int j = 0; j < LANES; j++) {
                    scalar.vertex(first + j);
                }
                continue;
            }
            final long degenerate = blend(dqs, k);
            if (outP != null) {
                transformPoints();
            }
            if (outN != null) {
                transformDirections(3 * LANES);
            }
            if (outT != null) {
                transformDirections(6 * LANES);
            }
            for (int j = 0; j < LANES; j++) {
                final int v = first + j;
                if (!vectored[j] || (degenerate & 1L << j) != 0) {
                    scalar.vertex(v);
                    continue;
                }
                final int p3 = 3 * v;
                if (outP != null) {
                    outP[p3] = res[j];
                    outP[p3 + 1] = res[LANES + j];
                    outP[p3 + 2] = res[2 * LANES + j];
                }
                if (outN != null) {
                    outN[p3] = res[3 * LANES + j];
                    outN[p3 + 1] = res[4 * LANES + j];
                    outN[p3 + 2] = res[5 * LANES + j];
                }
                if (outT != null) {
                    final int p4 = 4 * v;
                    outT[p4] = res[6 * LANES + j];
                    outT[p4 + 1] = res[7 * LANES + j];
                    outT[p4 + 2] = res[8 * LANES + j];
                    outT[p4 + 3] = tan[p4 + 3];
                }
            }
        }
        for (int v = vectorEnd; v < vertexCount; v++) {
            scalar.vertex(v);
        }
    }

    /**
     * DLB of the four lanes ({@link DualQuaternions#blend}): the pivot's real part, the sum of {@code σ_i w_i dq_i} with
     * {@code σ_i = −1} where the real parts' dot is negative, normalised, the dual part made orthogonal to the real
     * one; written to {@link #blended} component-major. Returns the lanes (bit j) whose blend the scalar code refuses.
     * Kept apart from the transforms so that each method stays small enough for C2 to compile whole (vectors do not
     * cross the calls: they would be boxed).
     */
    private long blend(float[] dqs, int k) {
        final double[] sw = slotWeights;
        final int[] sj = slotJoints;
        final int[] pv = pivots;
        final DoubleVector px = (DoubleVector) FloatVector.fromArray(F, dqs, 0, pv, 0).convertShape(F2D, D, 0);
        final DoubleVector py = (DoubleVector) FloatVector.fromArray(F, dqs, 1, pv, 0).convertShape(F2D, D, 0);
        final DoubleVector pz = (DoubleVector) FloatVector.fromArray(F, dqs, 2, pv, 0).convertShape(F2D, D, 0);
        final DoubleVector pw = (DoubleVector) FloatVector.fromArray(F, dqs, 3, pv, 0).convertShape(F2D, D, 0);
        final DoubleVector zero = DoubleVector.zero(D);
        DoubleVector x = zero, y = zero, z = zero, w = zero, dx = zero, dy = zero, dz = zero, dw = zero;
        for (int s = 0; s < k; s++) {
            final int m = LANES * s;
            final DoubleVector qx = (DoubleVector) FloatVector.fromArray(F, dqs, 0, sj, m).convertShape(F2D, D, 0);
            final DoubleVector qy = (DoubleVector) FloatVector.fromArray(F, dqs, 1, sj, m).convertShape(F2D, D, 0);
            final DoubleVector qz = (DoubleVector) FloatVector.fromArray(F, dqs, 2, sj, m).convertShape(F2D, D, 0);
            final DoubleVector qw = (DoubleVector) FloatVector.fromArray(F, dqs, 3, sj, m).convertShape(F2D, D, 0);
            DoubleVector wi = DoubleVector.fromArray(D, sw, m);
            final DoubleVector dot = qx.mul(px).add(qy.mul(py)).add(qz.mul(pz)).add(qw.mul(pw));
            wi = wi.blend(wi.neg(), dot.compare(VectorOperators.LT, 0.0));
            x = x.add(wi.mul(qx));
            y = y.add(wi.mul(qy));
            z = z.add(wi.mul(qz));
            w = w.add(wi.mul(qw));
            dx = dx.add(wi.mul((DoubleVector) FloatVector.fromArray(F, dqs, 4, sj, m).convertShape(F2D, D, 0)));
            dy = dy.add(wi.mul((DoubleVector) FloatVector.fromArray(F, dqs, 5, sj, m).convertShape(F2D, D, 0)));
            dz = dz.add(wi.mul((DoubleVector) FloatVector.fromArray(F, dqs, 6, sj, m).convertShape(F2D, D, 0)));
            dw = dw.add(wi.mul((DoubleVector) FloatVector.fromArray(F, dqs, 7, sj, m).convertShape(F2D, D, 0)));
        }
        final DoubleVector n2 = x.mul(x).add(y.mul(y)).add(z.mul(z)).add(w.mul(w));
        // DualQuaternions.blend's refusals: a zero or non-finite real part, a non-finite dual part (x − x is 0 for a
        // finite x and NaN for ±∞ and NaN; a comparison, where the IS_FINITE test has no intrinsic)
        final DoubleVector dualSum = dx.add(dy).add(dz).add(dw);
        final long degenerate = n2.compare(VectorOperators.EQ, 0.0)
                .or(n2.sub(n2).compare(VectorOperators.NE, 0.0))
                .or(dualSum.sub(dualSum).compare(VectorOperators.NE, 0.0)).toLong();
        final DoubleVector inv = DoubleVector.broadcast(D, 1.0).div(n2.sqrt());
        x = x.mul(inv);
        y = y.mul(inv);
        z = z.mul(inv);
        w = w.mul(inv);
        dx = dx.mul(inv);
        dy = dy.mul(inv);
        dz = dz.mul(inv);
        dw = dw.mul(inv);
        final DoubleVector d = x.mul(dx).add(y.mul(dy)).add(z.mul(dz)).add(w.mul(dw));
        final double[] b = blended;
        x.intoArray(b, 0);
        y.intoArray(b, LANES);
        z.intoArray(b, 2 * LANES);
        w.intoArray(b, 3 * LANES);
        dx.sub(d.mul(x)).intoArray(b, 4 * LANES);
        dy.sub(d.mul(y)).intoArray(b, 5 * LANES);
        dz.sub(d.mul(z)).intoArray(b, 6 * LANES);
        dw.sub(d.mul(w)).intoArray(b, 7 * LANES);
        return degenerate;
    }

    /**
     * {@link DualQuaternions#transformPoint} of the four lanes' scaled points by their {@link #blended} dual
     * quaternions: {@code R p + 2 (w·d − dw·r + r × d)}, into {@link #results}.
     */
    private void transformPoints() {
        final double[] b = blended;
        final double[] ip = in;
        final DoubleVector x = DoubleVector.fromArray(D, b, 0), y = DoubleVector.fromArray(D, b, LANES);
        final DoubleVector z = DoubleVector.fromArray(D, b, 2 * LANES), w = DoubleVector.fromArray(D, b, 3 * LANES);
        final DoubleVector dx = DoubleVector.fromArray(D, b, 4 * LANES), dy = DoubleVector.fromArray(D, b, 5 * LANES);
        final DoubleVector dz = DoubleVector.fromArray(D, b, 6 * LANES), dw = DoubleVector.fromArray(D, b, 7 * LANES);
        final DoubleVector vx = DoubleVector.fromArray(D, ip, 0);
        final DoubleVector vy = DoubleVector.fromArray(D, ip, LANES);
        final DoubleVector vz = DoubleVector.fromArray(D, ip, 2 * LANES);
        final DoubleVector cx = y.mul(vz).sub(z.mul(vy)).add(w.mul(vx));
        final DoubleVector cy = z.mul(vx).sub(x.mul(vz)).add(w.mul(vy));
        final DoubleVector cz = x.mul(vy).sub(y.mul(vx)).add(w.mul(vz));
        final DoubleVector rx = vx.add(y.mul(cz).sub(z.mul(cy)).mul(2.0));
        final DoubleVector ry = vy.add(z.mul(cx).sub(x.mul(cz)).mul(2.0));
        final DoubleVector rz = vz.add(x.mul(cy).sub(y.mul(cx)).mul(2.0));
        final DoubleVector tx = w.mul(dx).sub(dw.mul(x)).add(y.mul(dz)).sub(z.mul(dy)).mul(2.0);
        final DoubleVector ty = w.mul(dy).sub(dw.mul(y)).add(z.mul(dx)).sub(x.mul(dz)).mul(2.0);
        final DoubleVector tz = w.mul(dz).sub(dw.mul(z)).add(x.mul(dy)).sub(y.mul(dx)).mul(2.0);
        final float[] res = results;
        ((FloatVector) rx.add(tx).convertShape(D2F, F, 0)).intoArray(res, 0);
        ((FloatVector) ry.add(ty).convertShape(D2F, F, 0)).intoArray(res, LANES);
        ((FloatVector) rz.add(tz).convertShape(D2F, F, 0)).intoArray(res, 2 * LANES);
    }

    /**
     * The normals ({@code at = 3·LANES}) or tangents ({@code 6·LANES}) of the four lanes: {@code R v} by the
     * {@link #blended} real parts, times the blended scale's sign, normalised as {@code SkinningJob.store3Normalized}
     * (a zero or NaN length gives zero), into {@link #results} at {@code at}.
     */
    private void transformDirections(int at) {
        final double[] b = blended;
        final double[] ip = in;
        final DoubleVector x = DoubleVector.fromArray(D, b, 0), y = DoubleVector.fromArray(D, b, LANES);
        final DoubleVector z = DoubleVector.fromArray(D, b, 2 * LANES), w = DoubleVector.fromArray(D, b, 3 * LANES);
        final DoubleVector sign = DoubleVector.fromArray(D, signs, 0);
        final DoubleVector vx = DoubleVector.fromArray(D, ip, at);
        final DoubleVector vy = DoubleVector.fromArray(D, ip, at + LANES);
        final DoubleVector vz = DoubleVector.fromArray(D, ip, at + 2 * LANES);
        final DoubleVector cx = y.mul(vz).sub(z.mul(vy)).add(w.mul(vx));
        final DoubleVector cy = z.mul(vx).sub(x.mul(vz)).add(w.mul(vy));
        final DoubleVector cz = x.mul(vy).sub(y.mul(vx)).add(w.mul(vz));
        final DoubleVector ex = sign.mul(vx.add(y.mul(cz).sub(z.mul(cy)).mul(2.0)));
        final DoubleVector ey = sign.mul(vy.add(z.mul(cx).sub(x.mul(cz)).mul(2.0)));
        final DoubleVector ez = sign.mul(vz.add(x.mul(cy).sub(y.mul(cx)).mul(2.0)));
        final DoubleVector len2 = ex.mul(ex).add(ey.mul(ey)).add(ez.mul(ez));
        final DoubleVector scale = DoubleVector.broadcast(D, 1.0).div(len2.sqrt())
                .blend(DoubleVector.zero(D), len2.compare(VectorOperators.GT, 0.0).not());
        final float[] res = results;
        ((FloatVector) ex.mul(scale).convertShape(D2F, F, 0)).intoArray(res, at);
        ((FloatVector) ey.mul(scale).convertShape(D2F, F, 0)).intoArray(res, at + LANES);
        ((FloatVector) ez.mul(scale).convertShape(D2F, F, 0)).intoArray(res, at + 2 * LANES);
    }

    /**
     * Lane {@code j}'s inputs for vertex {@code v}: the checked joints and weights of its slots, its pivot, and its
     * point, normal and tangent (the point times the blended scale, as the scalar kernel). Returns whether the
     * vectors take the vertex (its weights have a usable sum); if not, its lane reads joint 0 with weight 0.
     */
    private boolean prepare(int v, int j, int k, int[] joints, float[] weights, int jointCount, float[] sc,
            float[] pos, float[] nrm, float[] tan) {
        final int base = v * k;
        double sum = 0;
        double scaleSum = 0;
        int pivot = -1;
        float best = 0;
        for (int s = 0; s < k; s++) {
            final int m = LANES * s + j;
            final float wi = weights[base + s];
            if (wi == 0) {
                slotWeights[m] = 0;
                slotJoints[m] = 0;
                continue;
            }
            final int joint = ScalarDualQuaternionBlend.checkedJoint(joints, base, s, v, jointCount, sc);
            sum += wi;
            scaleSum += wi * sc[joint];
            slotWeights[m] = wi;
            slotJoints[m] = DualQuaternions.STRIDE * joint;
            if (pivot < 0 || wi > best) {
                pivot = s;
                best = wi;
            }
        }
        if (sum == 0 || !Double.isFinite(sum)) {
            for (int s = 0; s < k; s++) {
                slotWeights[LANES * s + j] = 0;
                slotJoints[LANES * s + j] = 0;
            }
            pivots[j] = 0;
            vectored[j] = false;
            return false;
        }
        final double scale = scaleSum / sum;
        pivots[j] = slotJoints[LANES * pivot + j];
        signs[j] = Math.signum(scale);
        final int p3 = 3 * v;
        in[j] = scale * pos[p3];
        in[LANES + j] = scale * pos[p3 + 1];
        in[2 * LANES + j] = scale * pos[p3 + 2];
        if (nrm != null) {
            in[3 * LANES + j] = nrm[p3];
            in[4 * LANES + j] = nrm[p3 + 1];
            in[5 * LANES + j] = nrm[p3 + 2];
        }
        if (tan != null) {
            final int p4 = 4 * v;
            in[6 * LANES + j] = tan[p4];
            in[7 * LANES + j] = tan[p4 + 1];
            in[8 * LANES + j] = tan[p4 + 2];
        }
        vectored[j] = true;
        return true;
    }
}
