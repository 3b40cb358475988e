package io.posekit.api.body;

/**
 * One IK chain applied after sampling, in a JSON body (POST sampling forms and the bake spec). Joints by name; vectors
 * as 3 numbers; targets and poles in model space, axes and offsets in the joint's own space.
 *
 * @param type {@code twoBone} or {@code aim}
 * @param start two-bone: the start joint (a hip, a shoulder)
 * @param mid two-bone: the mid joint (a knee, an elbow)
 * @param end two-bone: the end joint (an ankle, a wrist)
 * @param joint aim: the aiming joint
 * @param target where the end joint should be (two-bone) or what to aim at (aim), model space
 * @param pole two-bone: the direction the chain bends toward (default: the present bend's side); aim: the up axis stays
 *     in the plane of this and the target direction (default {@code [0, 1, 0]})
 * @param midAxis two-bone: the mid joint's bend axis in its own space (default: the present bend's)
 * @param forward aim: the aiming axis in the joint's space (default {@code [0, 0, 1]})
 * @param up aim: the joint's up axis in its space (default {@code [0, 1, 0]})
 * @param offset aim: the aiming point relative to the joint, its space (default 0)
 * @param soften two-bone: 0 to 1, the fraction of the chain's length beyond which the target is softened (default 1:
 *     none)
 * @param weight 0 to 1 (default 1)
 * @param twist radians about the start→target (joint→target) axis (default 0)
 */
public record IkSpec(String type, String start, String mid, String end, String joint, double[] target, double[] pole,
        double[] midAxis, double[] forward, double[] up, double[] offset, Double soften, Double weight, Double twist) {
}
