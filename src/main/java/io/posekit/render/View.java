package io.posekit.render;

import java.util.Locale;

/**
 * The direction the camera looks from, as yaw and pitch in degrees around the model's Y axis (Y up, the model's
 * front facing +Z as glTF has it). Yaw 0, pitch 0 looks at the front from +Z; yaw 90 from +X; pitch 90 from straight
 * above (+Y), pitch −90 from below. The direction from the target to the eye is
 * {@code (cos pitch · sin yaw, sin pitch, cos pitch · cos yaw)}.
 *
 * @param yaw degrees about +Y, any finite value
 * @param pitch degrees above the horizontal, −90 to 90
 */
public record View(double yaw, double pitch) {

    /** The front, from +Z. */
    public static final View FRONT = new View(0, 0);
    /** The side, from +X. */
    public static final View SIDE = new View(90, 0);
    /** Between front and side and a little above: yaw 30°, pitch 20°. */
    public static final View THREE_QUARTER = new View(30, 20);
    /** From straight above; the model's front at the bottom of the picture. */
    public static final View TOP = new View(0, 90);

    /** @throws IllegalArgumentException when yaw is not finite or pitch is not within −90..90 */
    public View {
        if (!Double.isFinite(yaw) || !(pitch >= -90 && pitch <= 90)) {
            throw new IllegalArgumentException("yaw must be finite and pitch within -90..90 degrees");
        }
    }

    /**
     * A view as the {@code view} parameter gives it: {@code front}, {@code side}, {@code three-quarter}, {@code top},
     * or {@code <yaw>,<pitch>} in degrees (e.g. {@code 45,10}).
     *
     * @throws IllegalArgumentException for anything else, with a message that says what is accepted
     */
    public static View parse(String s) {
        switch (s.toLowerCase(Locale.ROOT)) {
            case "front":
                return FRONT;
            case "side":
                return SIDE;
            case "three-quarter":
                return THREE_QUARTER;
            case "top":
                return TOP;
            default:
                break;
        }
        int comma = s.indexOf(',');
        if (comma > 0) {
            try {
                return new View(Double.parseDouble(s.substring(0, comma).trim()),
                        Double.parseDouble(s.substring(comma + 1).trim()));
            } catch (IllegalArgumentException e) {
                // reported below
            }
        }
        throw new IllegalArgumentException("view '" + s + "' is not one of front, side, three-quarter, top or"
                + " <yaw>,<pitch> in degrees (pitch within -90..90)");
    }

    /** Unit vector from the target towards the eye. */
    double[] direction() {
        double y = Math.toRadians(yaw), p = Math.toRadians(pitch);
        return new double[] {Math.cos(p) * Math.sin(y), Math.sin(p), Math.cos(p) * Math.cos(y)};
    }

    /** The camera's up: the direction's derivative along pitch, so it stays defined straight above and below. */
    double[] up() {
        double y = Math.toRadians(yaw), p = Math.toRadians(pitch);
        return new double[] {-Math.sin(p) * Math.sin(y), Math.cos(p), -Math.sin(p) * Math.cos(y)};
    }
}
