package io.posekit.motion;

import io.posekit.rig.Rig;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.LocalToModelJob;
import java.util.EnumSet;
import java.util.Set;
import io.posekit.math.Quaternions;
import org.joml.Matrix4d;
import org.joml.Quaterniond;
import org.joml.Vector3d;

/**
 * Root-motion extraction: splits a pose into the pose in place and the motion of its root joint since a reference
 * (the clip's start), in the components asked for.
 *
 * <p>With {@code p(t)}, {@code q(t)} the root joint's model-space position and rotation and {@code p₀}, {@code q₀} the
 * reference's: the translation {@code m = mask(p − p₀)} keeps x and z ({@link RootMotionComponent#HORIZONTAL}) and y
 * ({@link RootMotionComponent#VERTICAL}) as asked; the rotation {@code R} is {@code Δ = q·q₀⁻¹}
 * ({@link RootMotionComponent#ROTATION}), its twist about y, {@code normalize(0, Δy, 0, Δw)}
 * ({@link RootMotionComponent#YAW}), or the identity. The motion is {@code D = Tr(p₀ + m) · R · Tr(−p₀)}: the identity
 * at the reference, and about the root's starting point. The pose in place has the root's model transform
 * {@code D⁻¹ · M}: its root stays at {@code p₀} in the extracted components and turned back by {@code R}; every other
 * node is unchanged locally. Re-applying {@code D} ({@link #reapply}) gives the original pose back.
 *
 * <p>The root's local transform is rewritten as {@code L' = P⁻¹ · D⁻¹ · P · L} (P the parent's model matrix), whose
 * rotation and translation are exact when the root's ancestors scale uniformly (the usual case; a non-uniform scale
 * above the root would shear it, and its rotation part is kept). Its scale is left as it is.
 *
 * <p>Not thread-safe; one instance per thread or request.
 */
public final class RootMotionExtractor {

    private final Rig rig;
    private final int joint;
    private final Set<RootMotionComponent> components;
    private final Vector3d p0 = new Vector3d();
    private final Quaterniond q0Inverse = new Quaterniond();
    private final LocalToModelJob toModel = new LocalToModelJob();
    private final Matrix4d m = new Matrix4d();
    private final Matrix4d parent = new Matrix4d();
    private final Matrix4d parentInverse = new Matrix4d();
    private final Matrix4d motion = new Matrix4d();
    private final Vector3d v = new Vector3d();
    private final Quaterniond q = new Quaterniond();
    private final RigidMotion scratch = new RigidMotion();
    private final double[] quaternion = new double[4];

    /**
     * @param rig the rig
     * @param joint the root joint (its motion is extracted)
     * @param components what is extracted (empty: nothing)
     * @param referenceModelMatrices model matrices of the reference pose (the clip's start), 16 per node
     * @throws IllegalArgumentException for a joint out of range
     */
    public RootMotionExtractor(Rig rig, int joint, Set<RootMotionComponent> components,
            float[] referenceModelMatrices) {
        if (joint < 0 || joint >= rig.nodeCount()) {
            throw new IllegalArgumentException("root joint " + joint + " is not a node of the rig");
        }
        this.rig = rig;
        this.joint = joint;
        this.components = components.isEmpty() ? EnumSet.noneOf(RootMotionComponent.class) : EnumSet.copyOf(components);
        m.set(referenceModelMatrices, 16 * joint);
        m.getTranslation(p0);
        rotation(m, q0Inverse).conjugate();
        toModel.rig = rig;
    }

    /** The root joint. */
    public int joint() {
        return joint;
    }

    /** The extracted components. */
    public Set<RootMotionComponent> components() {
        return java.util.Collections.unmodifiableSet(components);
    }

    /** The motion {@code D} of the pose whose model matrices are {@code modelMatrices}, into {@code out}. */
    public void motion(float[] modelMatrices, RigidMotion out) {
        m.set(modelMatrices, 16 * joint);
        m.getTranslation(v).sub(p0);
        if (!components.contains(RootMotionComponent.HORIZONTAL)) {
            v.x = 0;
            v.z = 0;
        }
        if (!components.contains(RootMotionComponent.VERTICAL)) {
            v.y = 0;
        }
        Quaterniond r = out.rotation;
        if (components.contains(RootMotionComponent.ROTATION)) {
            rotation(m, r).mul(q0Inverse).normalize();
        } else if (components.contains(RootMotionComponent.YAW)) {
            rotation(m, q).mul(q0Inverse);
            double len = Math.hypot(q.y, q.w);
            if (len < 1e-12) {
                r.identity(); // a half turn about a horizontal axis: no yaw to speak of
            } else {
                r.set(0, q.y / len, 0, q.w / len);
            }
        } else {
            r.identity();
        }
        if (r.w < 0) {
            r.set(-r.x, -r.y, -r.z, -r.w);
        }
        // D = Tr(p0 + m) · R · Tr(−p0): translation p0 + m − R·p0
        r.transform(p0, out.translation).negate().add(p0).add(v);
    }

    /**
     * Puts the pose in place: computes its motion {@code D} into {@code out}, rewrites the root's local transform to
     * {@code P⁻¹ · D⁻¹ · P · L} and accumulates the model matrices again.
     */
    public void extract(LocalPose local, float[] modelMatrices, RigidMotion out) {
        motion(modelMatrices, out);
        scratch.set(out).invert();
        transformRoot(local, modelMatrices, scratch);
    }

    /** The inverse of {@link #extract}: applies {@code d} to the root again ({@code L = P⁻¹ · D · P · L'}). */
    public void reapply(LocalPose local, float[] modelMatrices, RigidMotion d) {
        transformRoot(local, modelMatrices, d);
    }

    private void transformRoot(LocalPose local, float[] modelMatrices, RigidMotion d) {
        int p = rig.parent(joint);
        motion.translationRotate(d.translation.x, d.translation.y, d.translation.z, d.rotation);
        if (p >= 0) {
            parent.set(modelMatrices, 16 * p);
            parent.invert(parentInverse);
            // X = P⁻¹ · D · P
            parentInverse.mul(motion, m).mul(parent);
            motion.set(m);
        }
        float[] t = local.translations();
        float[] r = local.rotations();
        int o = 3 * joint;
        motion.transformPosition(v.set(t[o], t[o + 1], t[o + 2]));
        t[o] = (float) v.x;
        t[o + 1] = (float) v.y;
        t[o + 2] = (float) v.z;
        int k = 4 * joint;
        rotation(motion, q).mul(r[k], r[k + 1], r[k + 2], r[k + 3]).normalize();
        r[k] = (float) q.x;
        r[k + 1] = (float) q.y;
        r[k + 2] = (float) q.z;
        r[k + 3] = (float) q.w;
        toModel.input = local;
        toModel.output = modelMatrices;
        toModel.run();
    }

    /**
     * The rotation of an affine matrix with positive scale: its columns normalised, then Shepperd's method
     * ({@link Quaternions#fromRotationMatrix}); JOML's {@code getNormalizedRotation} gives a wrong answer for scaled
     * matrices in 1.10.
     */
    private Quaterniond rotation(Matrix4d a, Quaterniond out) {
        double sx = Math.sqrt(a.m00() * a.m00() + a.m01() * a.m01() + a.m02() * a.m02());
        double sy = Math.sqrt(a.m10() * a.m10() + a.m11() * a.m11() + a.m12() * a.m12());
        double sz = Math.sqrt(a.m20() * a.m20() + a.m21() * a.m21() + a.m22() * a.m22());
        // JOML's mCR is column C, row R
        Quaternions.fromRotationMatrix(a.m00() / sx, a.m10() / sy, a.m20() / sz, a.m01() / sx, a.m11() / sy,
                a.m21() / sz, a.m02() / sx, a.m12() / sy, a.m22() / sz, quaternion);
        return out.set(quaternion[0], quaternion[1], quaternion[2], quaternion[3]);
    }

}
