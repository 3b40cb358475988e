package io.posekit.retarget;

import java.util.List;

/**
 * A retargeting request that cannot be carried out: its message names the joints (or clips) at fault.
 */
public final class RetargetException extends RuntimeException {

    /** What is wrong. */
    public enum Kind {
        /** The request is malformed: a joint map naming unknown or ambiguous joints, or one that inverts the hierarchy
         * (a cycle), an unknown clip or root joint. */
        BAD_REQUEST,
        /** The request is well formed but the two skeletons have no joint in common (or the source no clip). */
        NOTHING_TO_RETARGET
    }

    private final Kind kind;
    private final List<String> joints;

    RetargetException(Kind kind, String message, List<String> joints) {
        super(message);
        this.kind = kind;
        this.joints = List.copyOf(joints);
    }

    /** What is wrong. */
    public Kind kind() {
        return kind;
    }

    /** The joint (or clip) names at fault, as the message names them. */
    public List<String> joints() {
        return joints;
    }
}
