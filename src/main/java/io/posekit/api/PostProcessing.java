package io.posekit.api;

import io.posekit.api.body.IkSpec;
import io.posekit.api.http.ApiException;
import io.posekit.asset.Model;
import io.posekit.ik.IkChain;
import io.posekit.ik.IkSolver;
import io.posekit.motion.RootMotionComponent;
import io.posekit.retarget.HumanoidJoints;
import io.posekit.rig.Rig;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What a request asks to be done to a pose after sampling, validated against an asset: root-motion extraction
 * ({@code rootMotion=extract}, the root joint, the components, the previous sample's time) and IK chains, applied in
 * that order (IK targets are in the model space of the pose as answered: in place when the motion is extracted).
 *
 * @param rootMotion the extraction, or {@code null}
 * @param ik the IK chains, in order (empty: none)
 */
record PostProcessing(RootMotion rootMotion, List<IkChain> ik) {

    static final PostProcessing NONE = new PostProcessing(null, List.of());

    /** The default components: what a game takes from a walk (the ground track and the heading). */
    static final Set<RootMotionComponent> DEFAULT_COMPONENTS = EnumSet.of(RootMotionComponent.HORIZONTAL,
            RootMotionComponent.YAW);

    /**
     * A root-motion extraction.
     *
     * @param joint the root joint
     * @param components what is extracted
     * @param previousTime the previous sample's playback time (seconds), or {@code null}
     */
    record RootMotion(int joint, Set<RootMotionComponent> components, Double previousTime) {
    }

    /** Whether anything is to be done. */
    boolean any() {
        return rootMotion != null || !ik.isEmpty();
    }

    /** A solver for the chains (one per request and thread), or {@code null} without any. */
    IkSolver solver(Model model) {
        return ik.isEmpty() ? null : new IkSolver(model.rig(), ik);
    }

    /**
     * From query parameters: {@code rootMotion}, {@code rootJoint}, {@code rootComponents} (comma-separated) and
     * {@code previousTime}.
     *
     * @throws ApiException 400 naming what is wrong
     */
    static PostProcessing parse(Model model, String mode, String joint, String components, String previousTime) {
        Double previous = null;
        if (previousTime != null && !previousTime.isEmpty()) {
            if (!Sampling.isDecimal(previousTime) || !Double.isFinite(Double.parseDouble(previousTime))) {
                throw bad("Invalid previousTime", "previousTime '" + previousTime + "' is not a finite decimal number "
                        + "of seconds");
            }
            previous = Double.parseDouble(previousTime);
        }
        List<String> list = components == null || components.isEmpty() ? null : List.of(components.split(",", -1));
        return parse(model, emptyToNull(mode), emptyToNull(joint), list, previous, null);
    }

    /**
     * From a JSON body's fields (the POST sampling forms, the bake spec).
     *
     * @throws ApiException 400 naming what is wrong
     */
    static PostProcessing parse(Model model, String mode, String joint, List<String> components, Double previousTime,
            List<IkSpec> ik) {
        RootMotion motion = null;
        if (mode != null && !mode.equals("none")) {
            if (!mode.equals("extract")) {
                throw bad("Invalid rootMotion", "rootMotion '" + mode + "' is not one of extract, none");
            }
            motion = new RootMotion(rootJoint(model, joint), components(components), previousTime);
        } else if (joint != null || components != null || previousTime != null) {
            throw bad("Invalid rootMotion", "rootJoint, rootComponents and previousTime need rootMotion=extract");
        }
        return new PostProcessing(motion, ik == null ? List.of() : chains(model, ik));
    }

    private static int rootJoint(Model model, String name) {
        if (name == null) {
            int root = HumanoidJoints.root(model);
            if (root < 0) {
                throw bad("Invalid rootMotion", "the asset has no joint to extract root motion from; name one with "
                        + "rootJoint");
            }
            return root;
        }
        return node(model.rig(), name, "rootJoint");
    }

    private static Set<RootMotionComponent> components(List<String> names) {
        if (names == null) {
            return DEFAULT_COMPONENTS;
        }
        Set<RootMotionComponent> out = EnumSet.noneOf(RootMotionComponent.class);
        for (String n : names) {
            RootMotionComponent c = RootMotionComponent.byWireName(n == null ? "" : n.strip()).orElseThrow(() -> bad(
                    "Invalid rootComponents", "rootComponents '" + n + "' is not one of horizontal, vertical, yaw,"
                            + " rotation"));
            out.add(c);
        }
        if (out.isEmpty()) {
            throw bad("Invalid rootComponents", "rootComponents names none of horizontal, vertical, yaw, rotation");
        }
        return out;
    }

    /**
     * IK chains from their JSON form, joints by name.
     *
     * @throws ApiException 400 naming the chain and what is wrong
     */
    static List<IkChain> chains(Model model, List<IkSpec> specs) {
        if (specs.size() > IkChain.MAX_CHAINS) {
            throw bad("Invalid ik", "at most " + IkChain.MAX_CHAINS + " IK chains, not " + specs.size());
        }
        Rig rig = model.rig();
        List<IkChain> out = new ArrayList<>(specs.size());
        for (int i = 0; i < specs.size(); i++) {
            IkSpec s = specs.get(i);
            String where = "ik[" + i + "]: ";
            if (s == null || s.type() == null) {
                throw bad("Invalid ik", where + "type is required: twoBone or aim");
            }
            double weight = number(s.weight(), 1, where + "weight");
            double twist = number(s.twist(), 0, where + "twist");
            out.add(switch (s.type()) {
                case "twoBone" -> new IkChain.TwoBone(node(rig, s.start(), where + "start"), node(rig, s.mid(),
                        where + "mid"), node(rig, s.end(), where + "end"), required(s.target(), where + "target"),
                        s.pole(), s.midAxis(), number(s.soften(), 1, where + "soften"), weight, twist);
                case "aim" -> new IkChain.Aim(node(rig, s.joint(), where + "joint"), or(s.forward(), 0, 0, 1),
                        or(s.up(), 0, 1, 0), or(s.offset(), 0, 0, 0), required(s.target(), where + "target"),
                        or(s.pole(), 0, 1, 0), weight, twist);
                default -> throw bad("Invalid ik", where + "type '" + s.type() + "' is not one of twoBone, aim");
            });
        }
        try {
            new IkSolver(rig, out); // checks every chain against the rig
        } catch (IllegalArgumentException e) {
            throw bad("Invalid ik", e.getMessage());
        }
        return List.copyOf(out);
    }

    private static int node(Rig rig, String name, String what) {
        if (name == null) {
            throw bad("Invalid " + (what.startsWith("ik") ? "ik" : what), what + " is required (a joint name)");
        }
        int index = rig.indexOf(name);
        if (index < 0) {
            throw bad("Invalid " + (what.startsWith("ik") ? "ik" : what), what + " '" + name
                    + "' is not a node of the asset");
        }
        return index;
    }

    private static double[] required(double[] v, String what) {
        if (v == null) {
            throw bad("Invalid ik", what + " is required (3 numbers, model space)");
        }
        return v;
    }

    private static double[] or(double[] v, double x, double y, double z) {
        return v != null ? v : new double[] {x, y, z};
    }

    private static double number(Double v, double otherwise, String what) {
        if (v == null) {
            return otherwise;
        }
        if (!Double.isFinite(v)) {
            throw bad("Invalid ik", what + " must be a finite number");
        }
        return v;
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static ApiException bad(String title, String detail) {
        return ApiException.badRequest(title, detail);
    }
}
