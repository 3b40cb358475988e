package io.posekit.ik;

import io.posekit.rig.Rig;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.LocalToModelJob;
import java.util.List;
import org.joml.Matrix4d;
import org.joml.Quaterniond;
import org.joml.Vector3d;

/**
 * Applies IK chains to a sampled pose, in the order given: each chain reads the model matrices as the previous ones
 * left them, post-multiplies its corrections onto the local rotations of its joints ({@code local = local · c},
 * renormalised) and the model matrices are accumulated again ({@link LocalToModelJob}) before the next chain.
 *
 * <p>Not thread-safe; one instance per thread (or request). Allocation-free per {@link #apply} call.
 */
public final class IkSolver {

    private final Rig rig;
    private final List<IkChain> chains;
    private final TwoBoneIkJob twoBone = new TwoBoneIkJob();
    private final AimIkJob aim = new AimIkJob();
    private final LocalToModelJob toModel = new LocalToModelJob();
    private final Matrix4d parent = new Matrix4d();
    private final Vector3d v = new Vector3d();
    private final Vector3d w = new Vector3d();
    private final Quaterniond q = new Quaterniond();
    /** Per chain: whether its target was reached in the last {@link #apply}. */
    private final boolean[] reached;

    /**
     * @throws IllegalArgumentException when a chain does not fit {@code rig}, or there are more than
     *     {@link IkChain#MAX_CHAINS}
     */
    public IkSolver(Rig rig, List<IkChain> chains) {
        if (chains.size() > IkChain.MAX_CHAINS) {
            throw new IllegalArgumentException("at most " + IkChain.MAX_CHAINS + " IK chains, not " + chains.size());
        }
        for (int i = 0; i < chains.size(); i++) {
            try {
                chains.get(i).validate(rig);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("ik[" + i + "]: " + e.getMessage(), e);
            }
        }
        this.rig = rig;
        this.chains = List.copyOf(chains);
        this.reached = new boolean[chains.size()];
        toModel.rig = rig;
    }

    /** The chains, in order. */
    public List<IkChain> chains() {
        return chains;
    }

    /** Whether chain {@code i} reached its target in the last {@link #apply}. */
    public boolean reached(int i) {
        return reached[i];
    }

    /**
     * Applies every chain to {@code local} and keeps {@code modelMatrices} (16 per node, the model matrices of
     * {@code local}) up to date.
     *
     * @throws IllegalStateException when a joint's model matrix is singular (a zero scale)
     */
    public void apply(LocalPose local, float[] modelMatrices) {
        for (int i = 0; i < chains.size(); i++) {
            reached[i] = solve(chains.get(i), local, modelMatrices);
        }
    }

    /**
     * Applies one chain (checked against the rig beforehand, {@link IkChain#validate}) to {@code local} and accumulates
     * {@code modelMatrices} again.
     *
     * @return whether its target was reached
     * @throws IllegalStateException when a joint's model matrix is singular (a zero scale)
     */
    public boolean solve(IkChain chain, LocalPose local, float[] modelMatrices) {
        boolean done;
        switch (chain) {
            case IkChain.TwoBone c -> {
                twoBone.start.set(modelMatrices, 16 * c.start());
                twoBone.mid.set(modelMatrices, 16 * c.mid());
                twoBone.end.set(modelMatrices, 16 * c.end());
                twoBone.target.set(c.target());
                pole(c);
                midAxis(c);
                twoBone.soften = c.soften();
                twoBone.weight = c.weight();
                twoBone.twist = c.twist();
                twoBone.run();
                correct(local, c.start(), twoBone.startCorrection);
                correct(local, c.mid(), twoBone.midCorrection);
                done = twoBone.reached;
            }
            case IkChain.Aim c -> {
                aim.joint.set(modelMatrices, 16 * c.joint());
                aim.forward.set(c.forward()).normalize();
                aim.up.set(c.up());
                aim.offset.set(c.offset());
                aim.target.set(c.target());
                aim.pole.set(c.pole());
                aim.weight = c.weight();
                aim.twist = c.twist();
                aim.run();
                correct(local, c.joint(), aim.correction);
                done = aim.reached;
            }
        }
        toModel.input = local;
        toModel.output = modelMatrices;
        toModel.run();
        return done;
    }

    /**
     * The given pole, or the present bend's side: the mid joint's offset from the start→end line (model space), or
     * model +z when the chain is straight.
     */
    private void pole(IkChain.TwoBone c) {
        if (c.pole() != null) {
            twoBone.pole.set(c.pole());
            return;
        }
        twoBone.mid.getTranslation(v).sub(twoBone.start.m30(), twoBone.start.m31(), twoBone.start.m32());
        twoBone.end.getTranslation(w).sub(twoBone.start.m30(), twoBone.start.m31(), twoBone.start.m32());
        double len2 = w.lengthSquared();
        if (len2 > 0) {
            v.fma(-v.dot(w) / len2, w);
        }
        if (v.lengthSquared() <= 1e-12 * Math.max(len2, 1e-30)) {
            v.set(0, 0, 1);
        }
        twoBone.pole.set(v);
    }

    /** The given mid axis, or the present bend's: start→mid × mid→end in mid space (or × the pole when straight). */
    private void midAxis(IkChain.TwoBone c) {
        if (c.midAxis() != null) {
            twoBone.midAxis.set(c.midAxis());
            return;
        }
        Matrix4d m = twoBone.mid;
        m.invert(parent);
        parent.transformPosition(twoBone.start.m30(), twoBone.start.m31(), twoBone.start.m32(), v).negate();
        parent.transformPosition(twoBone.end.m30(), twoBone.end.m31(), twoBone.end.m32(), w);
        v.cross(w, twoBone.midAxis);
        if (twoBone.midAxis.lengthSquared() <= 1e-12 * v.lengthSquared() * w.lengthSquared()) {
            parent.transformDirection(twoBone.pole, w);
            v.cross(w, twoBone.midAxis); // straight: bend toward the pole
            if (twoBone.midAxis.lengthSquared() == 0) {
                twoBone.midAxis.set(0, 0, 1).cross(v); // pole along the bone: any axis perpendicular to it
                if (twoBone.midAxis.lengthSquared() == 0) {
                    twoBone.midAxis.set(1, 0, 0).cross(v);
                }
            }
        }
    }

    /** {@code local(node) = local(node) · c}, normalised. */
    private void correct(LocalPose local, int node, Quaterniond c) {
        float[] r = local.rotations();
        int o = 4 * node;
        q.set(r[o], r[o + 1], r[o + 2], r[o + 3]).mul(c).normalize();
        r[o] = (float) q.x;
        r[o + 1] = (float) q.y;
        r[o + 2] = (float) q.z;
        r[o + 3] = (float) q.w;
    }
}
