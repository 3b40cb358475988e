package io.posekit.sampling;

import io.posekit.clip.Clip;
import io.posekit.math.Quaternions;
import io.posekit.rig.Rig;

/**
 * Makes the delta poses that {@link BlendMode#ADDITIVE} layers add: what turns a reference pose into a pose.
 *
 * <p>Per node, in local space, with {@code ·} the Hamilton product of quaternions {@code [x, y, z, w]}:
 * <ul>
 *   <li>translation {@code t_d = t − t_ref}</li>
 *   <li>rotation {@code q_d = q · q_ref⁻¹} (normalised): the delta is <em>pre</em>-multiplied, so it is a
 *       rotation expressed in the node's parent frame, applied after the reference's own rotation. This is
 *       the convention of ozz-animation ({@code AdditiveAnimationBuilder}: {@code value * Conjugate(ref)})
 *       and Unreal ({@code Target * Base.Inverse()}).</li>
 *   <li>scale {@code s_d = s / s_ref} per axis; where {@code |s_ref|} is zero or subnormal the reference has
 *       collapsed that axis, no factor can restore it, and {@code s_d = 1} (the axis is left unchanged)</li>
 * </ul>
 *
 * <p>{@link BlendingJob} applies a delta at weight {@code w} as the exact inverse of this construction:
 * {@code t += w·t_d}, {@code q = q_d^w · q}, {@code s *= 1 − w + w·s_d}. So the delta applied at weight 1 to
 * its reference gives back the pose (up to float rounding), and the delta of the reference itself is the
 * identity (zero translation, identity rotation, unit scale).
 *
 * <p>The reference is usually the first frame of the additive clip (as ozz's builder does), see
 * {@link #sampleFirstFrame}, or any named pose the caller supplies.
 */
public final class AdditiveDelta {

    private AdditiveDelta() {
    }

    /**
     * Writes {@code delta(reference → pose)} into {@code output}. Allocation-free; {@code output} may be the
     * same object as {@code reference} or {@code pose} (each node's inputs are read before it is written).
     *
     * @throws IllegalArgumentException if the three poses do not have the same node count
     */
    public static void compute(LocalPose reference, LocalPose pose, LocalPose output) {
        int n = pose.nodeCount();
        if (reference.nodeCount() != n || output.nodeCount() != n) {
            throw new IllegalArgumentException("node counts differ: reference " + reference.nodeCount() + ", pose "
                    + n + ", output " + output.nodeCount());
        }
        float[] rt = reference.translations();
        float[] rr = reference.rotations();
        float[] rs = reference.scales();
        float[] pt = pose.translations();
        float[] pr = pose.rotations();
        float[] ps = pose.scales();
        float[] ot = output.translations();
        float[] or = output.rotations();
        float[] os = output.scales();
        for (int i = 0; i < n; i++) {
            for (int c = 3 * i; c < 3 * i + 3; c++) {
                ot[c] = (float) ((double) pt[c] - rt[c]);
                os[c] = scaleDelta(ps[c], rs[c]);
            }
            int q = 4 * i;
            // q · conj(q_ref); the conjugate is the inverse of a unit quaternion and the normalisation below
            // absorbs a reference that is a few ulps off unit length
            double ax = pr[q], ay = pr[q + 1], az = pr[q + 2], aw = pr[q + 3];
            double bx = -rr[q], by = -rr[q + 1], bz = -rr[q + 2], bw = rr[q + 3];
            Quaternions.normalizeTo(
                    aw * bx + ax * bw + ay * bz - az * by,
                    aw * by - ax * bz + ay * bw + az * bx,
                    aw * bz + ax * by - ay * bx + az * bw,
                    aw * bw - ax * bx - ay * by - az * bz,
                    or, q);
        }
    }

    private static float scaleDelta(float s, float sRef) {
        if (Math.abs(sRef) < Float.MIN_NORMAL) {
            return 1f;
        }
        return (float) ((double) s / sRef);
    }

    /**
     * Samples the additive reference "first frame" of {@code clip}: the clip at clip-local time 0, which is
     * every track's first key (tracks starting after 0 hold their first key before it). Sets
     * {@code sampler}'s fields and runs it.
     *
     * @param sampler a sampling job to use (its fields are overwritten)
     * @throws IllegalStateException if the sampling job's inputs are invalid (see {@link SamplingJob#validate()})
     */
    public static void sampleFirstFrame(SamplingJob sampler, Rig rig, Clip clip, LocalPose output) {
        sampler.rig = rig;
        sampler.clip = clip;
        sampler.time = 0;
        sampler.output = output;
        sampler.run();
    }
}
