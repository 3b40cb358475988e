package io.posekit.bake;

import io.posekit.ik.FootLock;
import io.posekit.ik.IkChain;
import io.posekit.ik.IkSolver;
import io.posekit.motion.ClipRootMotion;
import io.posekit.motion.RigidMotion;
import io.posekit.rig.Rig;
import io.posekit.sampling.LocalPose;
import java.util.List;

/**
 * What a bake does to each frame after sampling, in this order: foot locking (on the pose as sampled, where planted
 * feet stand still), root-motion extraction (the pose in place; the motion accumulated over loops, and its delta since
 * the previous frame) and the IK chains (on the pose as output). Set on a {@link FrameEvaluator}; call
 * {@link #frame} before evaluating each frame, in order.
 *
 * <p>Not thread-safe: one per bake (and one per evaluator).
 */
public final class FramePostProcess implements FrameEvaluator.PoseEdit {

    private final FootLock footLock;
    private final ClipRootMotion rootMotion;
    private final IkSolver solver;
    private final RigidMotion cycle = new RigidMotion();
    private final RigidMotion total = new RigidMotion();
    private final RigidMotion previous = new RigidMotion();
    private final RigidMotion delta = new RigidMotion();
    private int frame;
    private long loops;

    /**
     * @param footLock the planned foot locking, or {@code null}
     * @param rootMotion the clip's root motion to extract, or {@code null}
     * @param chains IK chains applied last (checked against {@code rig})
     * @throws IllegalArgumentException when a chain does not fit the rig
     */
    public FramePostProcess(Rig rig, FootLock footLock, ClipRootMotion rootMotion, List<IkChain> chains) {
        this.footLock = footLock;
        this.rootMotion = rootMotion;
        this.solver = new IkSolver(rig, chains);
        previous.identity();
    }

    /** Sets the frame about to be evaluated and the whole loops played before it (for the accumulated motion). */
    public void frame(int frame, long loops) {
        this.frame = frame;
        this.loops = loops;
    }

    @Override
    public void apply(LocalPose local, float[] modelMatrices) {
        if (footLock != null) {
            footLock.apply(frame, solver, local, modelMatrices);
        }
        if (rootMotion != null) {
            rootMotion.extractor().extract(local, modelMatrices, cycle);
            rootMotion.accumulate(loops, cycle, total);
            delta.set(previous).invert().mul(delta, total);
            previous.set(total);
        }
        if (!solver.chains().isEmpty()) {
            solver.apply(local, modelMatrices);
        }
    }

    /** The root motion extracted, or {@code null}. */
    public ClipRootMotion rootMotion() {
        return rootMotion;
    }

    /** The root motion accumulated since the clip's start, at the last frame (live). */
    public RigidMotion total() {
        return total;
    }

    /** The root motion since the previous frame (the first: since the clip's start), in its frame (live). */
    public RigidMotion delta() {
        return delta;
    }
}
