package io.posekit.ik;

import io.posekit.rig.Rig;

/**
 * One IK step applied after sampling: a two-bone chain or an aim, on joints of a rig given by node index. Vectors are
 * 3 doubles; targets and poles in model space (the scene root's), axes and offsets in the joint's own space.
 */
public sealed interface IkChain permits IkChain.TwoBone, IkChain.Aim {

    /** The largest number of chains one request may apply. */
    int MAX_CHAINS = 32;

    /**
     * Checks the chain against {@code rig}.
     *
     * @throws IllegalArgumentException naming what is wrong (an index out of range, joints not in one line of
     *     descent, a zero or non-finite vector, a weight or soften out of range)
     */
    void validate(Rig rig);

    /**
     * Two-bone IK ({@link TwoBoneIkJob}).
     *
     * @param start the start joint (a hip, a shoulder)
     * @param mid the mid joint (a knee, an elbow), below {@code start}
     * @param end the end joint (an ankle, a wrist), below {@code mid}
     * @param target where the end joint should be, model space
     * @param pole the direction the chain bends toward, model space, or {@code null} for the present bend's side (the
     *     mid joint's offset from the start→end line; model +z for a straight chain)
     * @param midAxis the mid joint's bend axis in its own space, or {@code null} for the present bend's (the normal of
     *     the start, mid and end joints' plane; for a straight chain, the one perpendicular to it and the pole)
     * @param soften 0 to 1 (1 = none)
     * @param weight 0 to 1
     * @param twist radians about the start→target axis
     */
    record TwoBone(int start, int mid, int end, double[] target, double[] pole, double[] midAxis, double soften,
            double weight, double twist) implements IkChain {

        @Override
        public void validate(Rig rig) {
            node(rig, start, "start");
            node(rig, mid, "mid");
            node(rig, end, "end");
            if (!below(rig, mid, start) || !below(rig, end, mid)) {
                throw new IllegalArgumentException("the end joint must be below the mid joint and the mid joint below"
                        + " the start joint");
            }
            vector(target, "target", false);
            if (pole != null) {
                vector(pole, "pole", true);
            }
            if (midAxis != null) {
                vector(midAxis, "midAxis", true);
            }
            unit(soften, "soften");
            unit(weight, "weight");
            finite(twist, "twist");
        }
    }

    /**
     * Aim IK ({@link AimIkJob}).
     *
     * @param joint the aiming joint
     * @param forward its aiming axis, own space (normalised here)
     * @param up its up axis, own space
     * @param offset the aiming point relative to the joint, own space
     * @param target what to aim at, model space
     * @param pole the up axis stays in the plane of this and the target direction, model space
     * @param weight 0 to 1
     * @param twist radians about the joint→target axis
     */
    record Aim(int joint, double[] forward, double[] up, double[] offset, double[] target, double[] pole, double weight,
            double twist) implements IkChain {

        @Override
        public void validate(Rig rig) {
            node(rig, joint, "joint");
            vector(forward, "forward", true);
            vector(up, "up", true);
            vector(offset, "offset", false);
            vector(target, "target", false);
            vector(pole, "pole", true);
            unit(weight, "weight");
            finite(twist, "twist");
        }
    }

    private static void node(Rig rig, int node, String what) {
        if (node < 0 || node >= rig.nodeCount()) {
            throw new IllegalArgumentException(what + " joint " + node + " is not a node of the rig");
        }
    }

    /** Whether {@code node} is a strict descendant of {@code ancestor}. */
    private static boolean below(Rig rig, int node, int ancestor) {
        for (int p = rig.parent(node); p >= 0; p = rig.parent(p)) {
            if (p == ancestor) {
                return true;
            }
        }
        return false;
    }

    private static void vector(double[] v, String what, boolean nonZero) {
        if (v == null || v.length != 3) {
            throw new IllegalArgumentException(what + " must be 3 numbers");
        }
        for (double d : v) {
            finite(d, what);
        }
        if (nonZero && v[0] == 0 && v[1] == 0 && v[2] == 0) {
            throw new IllegalArgumentException(what + " must not be zero");
        }
    }

    private static void unit(double d, String what) {
        if (!(d >= 0 && d <= 1)) {
            throw new IllegalArgumentException(what + " must be between 0 and 1, not " + d);
        }
    }

    private static void finite(double d, String what) {
        if (!Double.isFinite(d)) {
            throw new IllegalArgumentException(what + " must be finite");
        }
    }
}
